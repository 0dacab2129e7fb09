"""What every exporter shares: path checks, atomic writes, the streaming protocol.

An exporter is used as ``start()``, ``export(extraction)`` once per page,
``finish()`` (or ``abort()``); as a context manager it finishes on success and
aborts on an exception. Nothing is visible at the output path until
``finish()`` succeeds: files are written to a temporary file in the same
folder and renamed into place, and SQLite appends run in one transaction.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from visx.atomic import replacing
from visx.errors import ExportError
from visx.export.contract import ExtractionLike


@dataclass(slots=True)
class ExportResult:
    """What an export wrote."""

    path: Path
    format: str
    pages: int = 0
    rows: int = 0
    tables: int = 0
    warnings: list[str] = field(default_factory=list)


def check_path(path: Path) -> None:
    """Raise :class:`ExportError` now if ``path`` cannot be written, before any work is done."""
    if path.is_dir():
        raise ExportError(f"{path} is a folder; give a file name inside it, e.g. {path / 'out.csv'}",
                          source=str(path))
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise ExportError(f"{path}: folder {parent} does not exist; create it or choose another output path",
                          source=str(path))
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ExportError(f"{path}: folder {parent} is not writable; choose another output path",
                          source=str(path))
    if path.exists() and not os.access(path, os.W_OK):
        raise ExportError(f"{path}: file is read-only; choose another output path or make it writable",
                          source=str(path))


@contextlib.contextmanager
def output_file(path: Path) -> Iterator[Path]:
    """:func:`visx.atomic.replacing`, with write failures as :class:`ExportError`."""
    try:
        with replacing(path) as tmp:
            yield tmp
    except OSError as e:
        raise ExportError(f"{path}: cannot write ({e.strerror}); choose a writable output path",
                          source=str(path)) from e


class Exporter:
    """Base of the streaming exporters: collect pages, write everything in ``finish``."""

    format = ""

    def __init__(self, path: Path, *, all_regions: bool = False) -> None:
        self.path = Path(path)
        self.all_regions = all_regions
        self.result = ExportResult(self.path, self.format)
        self._started = False
        self._reset()

    def _reset(self) -> None:
        """Set up the collected state (subclasses)."""

    def start(self) -> None:
        check_path(self.path)
        self._started = True

    def export(self, extraction: ExtractionLike) -> None:
        if not self._started:
            self.start()
        self.export_unchecked(extraction)

    def export_unchecked(self, extraction: ExtractionLike) -> None:
        """Collect a page without checking the output path (for in-memory rendering)."""
        self.result.pages += 1
        self._add(extraction)

    def finish(self) -> ExportResult:
        if not self._started:
            self.start()
        self._write()
        return self.result

    def abort(self) -> None:
        """Drop what was collected; the output path is left as it was."""

    def _add(self, extraction: ExtractionLike) -> None:
        raise NotImplementedError

    def _write(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Exporter:
        self.start()
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:
        if et is None:
            self.finish()
        else:
            self.abort()
