"""Write every corpus module's ``PAGES`` into a folder (the corpus server serves it)."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from types import ModuleType

from badinput.case import Case

Route = Callable[[BaseHTTPRequestHandler], None]


def modules() -> list[ModuleType]:
    """The ``cases_*`` modules of this package, by name."""
    import badinput

    names = sorted(m.name for m in pkgutil.iter_modules(badinput.__path__) if m.name.startswith("cases_"))
    return [importlib.import_module(f"badinput.{n}") for n in names]


def all_pages() -> dict[str, bytes | str]:
    return _merged("PAGES")


def all_routes() -> dict[str, Route]:
    return _merged("ROUTES")


def all_cases() -> list[Case]:
    cases = [c for m in modules() for c in m.CASES]
    seen: set[str] = set()
    for c in cases:
        if c.name in seen:
            raise ValueError(f"two corpus cases are named {c.name!r}")
        seen.add(c.name)
    return cases


def _merged(attr: str) -> dict:  # type: ignore[type-arg]
    out: dict = {}  # type: ignore[type-arg]
    for m in modules():
        for key, value in getattr(m, attr, {}).items():
            if key in out:
                raise ValueError(f"{m.__name__}.{attr}: {key!r} is defined twice")
            out[key] = value
    return out


def write_pages(folder: Path) -> list[Path]:
    """Write every page into ``folder``; the paths written."""
    written = []
    for rel, content in all_pages().items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        written.append(path)
    return written
