"""The job list of a batch: one row per source in a SQLite table ``jobs``.

``status`` is ``pending`` (not run yet, or in flight when the run was killed), ``done``
or ``failed``; a failure keeps its ``error`` message, its ``error_type`` (the visx
exception) and its ``error_kind``: ``permanent`` (404, not HTML, missing file ...) or
``transient`` (timeout, reset, 5xx after the retries). ``attempts`` counts the renders
over every run; ``started`` and ``finished`` are ISO-8601 UTC times.

For a SQLite output the table lives in the output database itself, so a page and its
``done`` mark are one transaction. A file output keeps it beside the output, in
``<out>.jobs.sqlite``, with the committed length of ``<out>.part`` (:mod:`visx.batch.sinks`).
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from visx.export.sqlite import JOBS_SCHEMA

META_SCHEMA = "CREATE TABLE IF NOT EXISTS batch_meta (key TEXT PRIMARY KEY, value TEXT);"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class JobStore:
    """The ``jobs`` table of an open connection (autocommit; transactions are the caller's
    where a page is written, each call its own otherwise)."""

    def __init__(self, con: sqlite3.Connection, *, meta: bool = False) -> None:
        """``meta``: also a ``batch_meta`` key-value table (the job list of a file output)."""
        self.con = con
        con.executescript(JOBS_SCHEMA + (META_SCHEMA if meta else ""))

    def states(self) -> dict[str, tuple[str, str | None]]:
        """source -> (status, error_kind)."""
        return {r[0]: (r[1], r[2]) for r in self.con.execute("SELECT source, status, error_kind FROM jobs")}

    def skip(self, source: str, states: dict[str, tuple[str, str | None]]) -> bool:
        """Whether ``--resume`` skips ``source``: done, or failed for good."""
        status, kind = states.get(source, ("pending", None))
        return status == "done" or (status == "failed" and kind == "permanent")

    def start(self, source: str) -> None:
        """``source`` is about to run: pending, started now."""
        self.con.execute(
            "INSERT INTO jobs (source, status, started) VALUES (?, 'pending', ?) "
            "ON CONFLICT(source) DO UPDATE SET status = 'pending', started = excluded.started, "
            "finished = NULL, error = NULL, error_kind = NULL, error_type = NULL", (source, now()))

    def done(self, source: str, attempts: int) -> None:
        """Mark ``source`` done (inside the caller's transaction, with the page's rows)."""
        self.con.execute("UPDATE jobs SET status = 'done', attempts = attempts + ?, finished = ?, error = NULL, "
                         "error_kind = NULL, error_type = NULL WHERE source = ?", (attempts, now(), source))

    def failed(self, source: str, error: str, kind: str | None, error_type: str, attempts: int) -> None:
        self.con.execute("UPDATE jobs SET status = 'failed', attempts = attempts + ?, finished = ?, error = ?, "
                         "error_kind = ?, error_type = ? WHERE source = ?",
                         (attempts, now(), error, kind, error_type, source))

    def get(self, key: str) -> str | None:
        row = self.con.execute("SELECT value FROM batch_meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def put(self, key: str, value: str) -> None:
        self.con.execute("INSERT OR REPLACE INTO batch_meta (key, value) VALUES (?, ?)", (key, value))

    def count(self, status: str) -> int:
        return int(self.con.execute("SELECT count(*) FROM jobs WHERE status = ?", (status,)).fetchone()[0])
