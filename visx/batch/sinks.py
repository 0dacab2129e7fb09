"""Where a batch's pages go as they finish, with the job list beside them.

:class:`SqliteSink`: each page, and its ``done`` mark in ``jobs``, is one transaction of
the output database: a kill loses at most the pages in flight, and ``--resume`` reads
the job list from the database.

:class:`SpoolSink` (CSV, JSON, JSON Lines, Parquet): each page's lines are appended to
``<out>.part`` and flushed to disk (fsync), then its ``done`` mark and the new committed
length of the spool go into ``<out>.jobs.sqlite`` in one transaction. ``--resume`` cuts
the spool back to the committed length (the page in flight at a kill is dropped and runs
again) and goes on appending. When the batch ends the spool becomes the output (renamed
for JSON Lines; one pass for the others), and both files are removed: the output name
only ever holds a whole output. A run that fails or is killed leaves them for ``--resume``.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from pathlib import Path
from typing import IO, Protocol

from visx.batch.defaults import JOBS_SUFFIX, SPOOL_SUFFIX
from visx.batch.jobs import JobStore, now
from visx.batch.work import Outcome
from visx.errors import ExportError
from visx.export.sqlite import connect, insert_page, transaction

log = logging.getLogger("visx.batch")


class Sink(Protocol):
    store: JobStore

    def write(self, outcome: Outcome) -> int:
        """Write a done page and mark it done; returns its row count."""

    def fail(self, outcome: Outcome) -> None: ...
    def finish(self) -> int | None:
        """Make the output whole; its row count, or None when no page was written."""

    def abort(self) -> None: ...


class SqliteSink:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.con = connect(path)
        self.store = JobStore(self.con)
        self.rows = 0

    def write(self, outcome: Outcome) -> int:
        with transaction(self.con, self.path):
            rows, _ = insert_page(self.con, outcome.payload, now())
            self.store.done(outcome.task.label, outcome.attempts)
        self.rows += rows
        return rows

    def fail(self, outcome: Outcome) -> None:
        with transaction(self.con, self.path):
            self.store.failed(outcome.task.label, outcome.error, outcome.error_kind, outcome.error_type,
                              outcome.attempts)

    def finish(self) -> int | None:
        try:
            self.con.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # one file again for whoever copies it
        finally:
            self.con.close()
        return self.rows

    def abort(self) -> None:
        self.con.close()


class SpoolSink:
    def __init__(self, path: Path, fmt: str, all_regions: bool, resume: bool) -> None:
        self.path, self.fmt = path, fmt
        self.part = Path(str(path) + SPOOL_SUFFIX)
        self.jobs = Path(str(path) + JOBS_SUFFIX)
        self.rows = 0
        kept = self.jobs.exists()
        if kept and not resume:
            log.info("%s: an earlier run was interrupted; starting over (--resume continues it)", path)
        elif resume and not kept:
            log.info("%s: no interrupted run to resume; starting a new one", path)
        if not (kept and resume):
            for p in (self.part, self.jobs, Path(str(self.jobs) + "-wal"), Path(str(self.jobs) + "-shm")):
                p.unlink(missing_ok=True)
        try:
            self.con = sqlite3.connect(self.jobs, isolation_level=None, timeout=30.0)
            self.con.execute("PRAGMA journal_mode=WAL")
            self.store = JobStore(self.con, meta=True)
        except sqlite3.Error as e:
            raise ExportError(f"{self.jobs}: cannot open the job list of {path} ({e}); remove it and run "
                              "again without --resume", source=str(self.jobs)) from e
        settings = json.dumps({"format": fmt, "all_regions": all_regions})
        if kept and resume:
            if self.store.get("settings") != settings:
                raise ExportError(f"{path}: the interrupted run wrote {self.store.get('settings')}; resume it "
                                  f"with the same format and --all-regions, or run again without --resume",
                                  source=str(path))
            self._cut_back()
        else:
            self.store.put("settings", settings)
            self.store.put("spool_bytes", "0")
        self.fh: IO[bytes] = self.part.open("ab")

    def _cut_back(self) -> None:
        """Drop what a killed run appended after its last committed page."""
        committed = int(self.store.get("spool_bytes") or 0)
        size = self.part.stat().st_size if self.part.exists() else 0
        if size < committed:
            raise ExportError(f"{self.part} is shorter than its job list says ({size} < {committed} bytes); "
                              f"run again without --resume", source=str(self.part))
        with self.part.open("r+b") as fh:
            fh.truncate(committed)

    def write(self, outcome: Outcome) -> int:
        lines: list[str] = outcome.payload
        try:
            self.fh.write("".join(line + "\n" for line in lines).encode("utf-8"))
            self.fh.flush()
            os.fsync(self.fh.fileno())  # on disk before the job list says so
        except OSError as e:
            raise ExportError(f"{self.part}: cannot write ({e.strerror}); free some disk space and run "
                              "again with --resume", source=str(self.part)) from e
        with transaction(self.con, self.jobs):
            self.store.done(outcome.task.label, outcome.attempts)
            self.store.put("spool_bytes", str(self.fh.tell()))
        self.rows += len(lines)
        return len(lines)

    def fail(self, outcome: Outcome) -> None:
        with transaction(self.con, self.jobs):
            self.store.failed(outcome.task.label, outcome.error, outcome.error_kind, outcome.error_type,
                              outcome.attempts)

    def finish(self) -> int | None:
        from visx.export.formats import finish_spool

        self.fh.close()
        pages = self.store.count("done")
        # The output's shape (a JSON array, a CSV 'source' column) follows the sources given,
        # not how many succeeded: a batch where one page failed keeps its columns.
        sources = sum(self.store.count(s) for s in ("done", "failed", "pending"))
        rows = finish_spool(self.fmt, self.part, self.path, sources) if pages else None
        self.con.close()
        for p in (self.part, self.jobs, Path(str(self.jobs) + "-wal"), Path(str(self.jobs) + "-shm")):
            p.unlink(missing_ok=True)
        return rows

    def abort(self) -> None:
        self.fh.close()
        self.con.close()


def open_sink(path: Path, fmt: str, all_regions: bool, resume: bool) -> Sink:
    if fmt == "sqlite":
        return SqliteSink(path)
    return SpoolSink(path, fmt, all_regions, resume)
