"""How a batch shows its progress on standard error.

On a terminal: a rich progress bar (pages done of the total, pages/s, ETA, ok and failed
counts), with each failure printed above it. Elsewhere (a log file, CI): one plain line
per page, ``[3/40] https://...: 2 region(s), 10 record(s) ...``, as before there was a bar.
``quiet`` (``-q``): failures only. The final summary is the caller's (a status line).
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO


class BatchDisplay:
    def __init__(self, *, quiet: bool, stream: TextIO | None = None, bar: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.bar = (not quiet and self.stream.isatty()) if bar is None else bar
        self._progress: Any = None
        self._task: Any = None
        self._t0 = time.perf_counter()
        self.ok = self.failed = 0

    def start(self, total: int, skipped: int) -> None:
        self._t0 = time.perf_counter()
        if not self.bar:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        console = Console(file=self.stream)
        self._progress = Progress(
            TextColumn("[bold]extract"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"), TextColumn("ETA"), TimeRemainingColumn(),
            TextColumn("[green]ok {task.fields[ok]}[/] [red]failed {task.fields[failed]}[/]{task.fields[skip]}"),
            console=console, redirect_stderr=True, redirect_stdout=False)
        self._progress.start()
        self._task = self._progress.add_task("extract", total=total, rate="0.00 pages/s", ok=0, failed=0,
                                             skip=f" skipped {skipped}" if skipped else "")

    def page(self, ok: bool, line: str) -> None:
        """One finished page: ``line`` says what became of it (an error line when not ``ok``)."""
        self.ok += ok
        self.failed += not ok
        if not ok or (not self.bar and not self.quiet):
            self._print(line)
        if self._progress is not None:
            rate = (self.ok + self.failed) / max(time.perf_counter() - self._t0, 1e-9)
            self._progress.update(self._task, advance=1, ok=self.ok, failed=self.failed, rate=f"{rate:.2f} pages/s")

    def _print(self, line: str) -> None:
        if self._progress is not None:
            self._progress.console.print(line, markup=False, highlight=False, soft_wrap=True)
        else:
            print(line, file=self.stream, flush=True)

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
