"""Rendered snapshots of dataset pages, cached so a re-run only re-analyses.

Layout of a cache folder::

    CACHE/snapshots/<site>__<query>.json.gz   one snapshot per page id
    CACHE/failures.json                        {id: {"error", "message", "seconds"}}

A page folder may also hold its own ``snapshot.json.gz`` (the regression
fixtures do); that one wins and the browser is never started for it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from visx.config import Config
from visx.errors import RenderError, SnapshotError
from visx.evaluate.dataset import Page
from visx.model import PageSnapshot

SNAPSHOT_DIR = "snapshots"
FAILURES = "failures.json"
FOLDER_SNAPSHOT = "snapshot.json.gz"
"""A snapshot stored beside records.csv (fixture pages carry no HTML)."""


def testbed_config() -> Config:
    """How testbed pages are rendered: JS off (the README says so; file loads keep the
    network off). A slow page keeps what rendered rather than being lost to the batch."""
    return Config.model_validate({"render": {"javascript": False, "partial_on_timeout": True}})


def snapshot_path(cache_dir: Path, page: Page) -> Path:
    return cache_dir / SNAPSHOT_DIR / f"{page.key}.json.gz"


def stored_snapshot(page: Page, cache_dir: Path | None) -> Path | None:
    """The snapshot file already on disk for ``page``, if any."""
    own = page.folder / FOLDER_SNAPSHOT
    if own.is_file():
        return own
    if cache_dir is not None:
        p = snapshot_path(cache_dir, page)
        if p.is_file():
            return p
    return None


def load_failures(cache_dir: Path) -> dict[str, dict[str, Any]]:
    p = cache_dir / FAILURES
    if not p.is_file():
        return {}
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # a damaged log only means failed pages are retried
    return data if isinstance(data, dict) else {}


def _save_failures(cache_dir: Path, failures: dict[str, dict[str, Any]]) -> None:
    from visx.atomic import write_bytes

    data = json.dumps(failures, indent=1, sort_keys=True, ensure_ascii=False).encode()
    write_bytes(cache_dir / FAILURES, data)


def prior_failure(page: Page, failures: dict[str, dict[str, Any]]) -> str:
    """The logged failure of ``page``, without the file path that starts most messages."""
    entry = failures.get(page.id, {})
    msg = str(entry.get("message", ""))
    head = f"{page.page_file}: "
    if msg.startswith(head):
        msg = msg[len(head):]
    return f"{entry.get('error', 'Error')}: {msg}"


def render_page(page: Page, config: Config) -> tuple[PageSnapshot, float]:
    """Render the page's saved HTML; (snapshot, wall seconds)."""
    from visx.render import render

    if not page.page_file.name:
        raise SnapshotError(f"{page.folder}: page {page.id!r} has neither an HTML file nor a "
                            f"{FOLDER_SNAPSHOT}; add one of them")
    t0 = time.perf_counter()
    snap = render(page.page_file, config)
    wall = time.perf_counter() - t0
    snap.extra["render_wall_s"] = round(wall, 4)
    return snap, wall


def get_snapshot(
    page: Page, cache_dir: Path | None, config: Config | None = None, *, retry_failed: bool = True
) -> PageSnapshot:
    """The page's snapshot: from its folder or the cache, else rendered (and cached).

    With ``retry_failed=False`` a page whose render failed before (see
    ``failures.json``) fails again at once instead of starting the browser.
    """
    from visx.render.snapshot_io import load_snapshot

    found = stored_snapshot(page, cache_dir)
    if found is not None:
        return load_snapshot(found)
    failures = load_failures(cache_dir) if cache_dir is not None else {}
    if not retry_failed and page.id in failures:
        raise RenderError(f"{page.id}: rendering failed before, not retried ({prior_failure(page, failures)}); "
                          "fix the cause and pass --retry-failed", source=page.id)
    t0 = time.perf_counter()
    try:
        snap, _ = render_page(page, config or testbed_config())
        if cache_dir is not None:
            snap.save(snapshot_path(cache_dir, page))
    except Exception as e:  # logged for the next run whatever it is, then passed on
        if cache_dir is not None:
            failures[page.id] = _failure(e, time.perf_counter() - t0)
            _save_failures(cache_dir, failures)
        raise
    if cache_dir is not None and failures.pop(page.id, None) is not None:
        _save_failures(cache_dir, failures)
    return snap


@dataclass(slots=True)
class CacheReport:
    cached: int = 0
    """Pages already in the cache (skipped)."""
    rendered: dict[str, float] = field(default_factory=dict)
    """Page id -> wall seconds of its render."""
    failed: dict[str, str] = field(default_factory=dict)


def cache_pages(
    pages: Iterable[Page],
    cache_dir: Path,
    config: Config | None = None,
    *,
    retry_failed: bool = True,
    progress: Callable[[str, str], None] | None = None,
) -> CacheReport:
    """Render every page not yet cached, one at a time in the shared browser.

    A page that fails is logged in ``failures.json`` and the batch goes on;
    a later success removes its entry.
    """
    cfg = config or testbed_config()
    report = CacheReport()
    say = progress or (lambda _id, _msg: None)
    for page in pages:
        if stored_snapshot(page, cache_dir) is not None:
            report.cached += 1
            continue
        t0 = time.perf_counter()
        try:
            snap = get_snapshot(page, cache_dir, cfg, retry_failed=retry_failed)
        except Exception as e:  # one page's failure (logged) must not end a 300-page batch
            report.failed[page.id] = _message(e)
            say(page.id, "FAILED: " + report.failed[page.id])
            continue
        wall = float(snap.extra.get("render_wall_s", time.perf_counter() - t0))
        report.rendered[page.id] = wall
        say(page.id, f"{wall:.2f} s, {len(snap.nodes)} elements" + (" (partial)" if snap.partial else ""))
    return report


def _message(e: BaseException) -> str:
    return str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__


def _failure(e: BaseException, secs: float) -> dict[str, Any]:
    return {"error": type(e).__name__, "message": _message(e), "seconds": round(secs, 3)}
