"""SQLite export: one database a person can query, that many pages append to.

Tables::

    jobs(source PRIMARY KEY, status, error, error_kind, error_type, attempts, started, finished)
    extractions(id, source UNIQUE, url, title, created, exported, timings, partial, partial_reason)
    regions(id, extraction_id, rank, data, role, score, xpath, bbox, n_records, table_name, columns)
    record_tables(table_name PRIMARY KEY, signature UNIQUE, columns)
    <table_name>(extraction_id, region_id, _record, _xpaths, <one column per field>)

There is one data table per record schema: regions whose tables have the same
column names (in any order) share it, so the product lists of 300 pages of one
site are one table. Its name is read from its first columns plus a short hash
of the whole set (``records_title_price_rating_3fa2c1``); ``record_tables``
lists each with its columns. ``extractions.partial`` is 1 for a page captured or analysed
only in part (a cap, a timeout with ``--partial``, a stopped script), with
``partial_reason``: such a page never looks complete. The main region of a page is ``regions.rank = 1``
(or the region the user chose, which comes first and keeps its rank).
``_record`` numbers a region's records from 0 in page order; ``_xpaths`` lists
the XPaths of the record's parts (JSON). Without ``all_regions`` only the main
region of each page is stored; with it, every data list.

``jobs`` is the batch's job list (:mod:`visx.batch.jobs`): one row per source
given to ``visx extract ... -o out.sqlite``, ``done`` or ``failed`` with its
reason and whether the failure is ``permanent`` or ``transient``.

Each page is written in one transaction (the database is in WAL mode), so a
failed or killed export keeps every page written before it and none of the
page in flight. A source written again replaces its earlier rows (``source``
is unique). A database written by an older visx (one ``region_<id>`` table per
region) is refused with the way out: write to a new file.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from visx.errors import ExportError
from visx.export.base import Exporter
from visx.export.contract import ExtractionLike, partial_of, picked_regions, table_of
from visx.schema.table import Table

JOBS_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    source TEXT PRIMARY KEY,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed')),
    error TEXT, error_kind TEXT CHECK (error_kind IN ('permanent', 'transient')), error_type TEXT,
    attempts INTEGER NOT NULL DEFAULT 0, started TEXT, finished TEXT);
"""

_SCHEMA = JOBS_SCHEMA + """
CREATE TABLE IF NOT EXISTS extractions (
    id INTEGER PRIMARY KEY, source TEXT NOT NULL UNIQUE, url TEXT, title TEXT,
    created TEXT, exported TEXT, timings TEXT, partial INTEGER NOT NULL DEFAULT 0, partial_reason TEXT);
CREATE TABLE IF NOT EXISTS regions (
    id INTEGER PRIMARY KEY, extraction_id INTEGER NOT NULL REFERENCES extractions(id),
    rank INTEGER, data INTEGER, role TEXT, score REAL, xpath TEXT, bbox TEXT, n_records INTEGER,
    table_name TEXT, columns TEXT);
CREATE INDEX IF NOT EXISTS regions_extraction ON regions(extraction_id);
CREATE TABLE IF NOT EXISTS record_tables (
    table_name TEXT PRIMARY KEY, signature TEXT NOT NULL UNIQUE, columns TEXT NOT NULL);
"""

_SQL_TYPES = {"price": "REAL", "number": "REAL", "percent": "REAL", "rating": "REAL",
              "integer": "INTEGER", "duration": "INTEGER"}
"""Column affinity per visx type; everything else is TEXT."""

_FIXED = ("extraction_id", "region_id", "_record", "_xpaths")
"""The columns every data table starts with; a field of the same name gets a ``field_`` prefix."""

NAME_COLUMNS = 3
"""Columns a data table's name is read from: enough to recognise it, short enough to type."""

BUSY_TIMEOUT_S = 30.0
"""How long a write waits for another connection's transaction (a reader, a second run)."""


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


_INT64 = (-(2**63), 2**63 - 1)


def _sql_value(v: Any) -> Any:
    if isinstance(v, int) and not isinstance(v, bool) and not _INT64[0] <= v <= _INT64[1]:
        return str(v)  # SQLite integers are 64-bit; the column's affinity decides what a longer one becomes
    if v is None or isinstance(v, (int, float, str)):
        return v
    return json.dumps(v, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class RegionRows:
    rank: int
    data: bool
    role: str
    score: float
    xpath: str
    bbox: str
    n_records: int
    columns: str
    keys: tuple[str, ...]
    types: tuple[str, ...]
    """SQL type per key."""
    rows: tuple[tuple[Any, ...], ...]
    """Per record: its number, its parts' XPaths (JSON), then one value per key."""


@dataclass(frozen=True, slots=True)
class PageRows:
    """What the database gets from one page: plain values, picklable, taken as soon as the
    page is analysed so its extraction (and snapshot) can be freed while a batch goes on."""

    source: str
    url: str
    title: str
    created: str
    timings: str
    """JSON."""
    regions: tuple[RegionRows, ...]
    warnings: tuple[str, ...] = ()
    partial: bool = False
    partial_reason: str = ""


def page_rows(e: ExtractionLike, all_regions: bool) -> PageRows:
    """The rows of ``e`` for the database: its main region, or every data list with ``all_regions``."""
    nodes = e.snapshot.nodes
    picked = picked_regions(e, all_regions)
    warnings: tuple[str, ...] = ()
    if not picked or all(not e.regions[k].records for k in picked):
        warnings = (f"{e.source}: no records to export (no region or empty table)",)
    regions = []
    for k in picked:
        region = e.regions[k]
        table = table_of(e, k)
        keys = table.field_names() if table is not None else []
        recs = table.to_records() if table is not None else [{} for _ in region.records]
        types = _key_types(table) if table is not None else {}
        xpaths = [[nodes[p].xpath for p in rec.parts] for rec in region.records]
        regions.append(RegionRows(
            region.rank, bool(region.data), str(region.role or ""), float(region.score),
            nodes[region.parent].xpath if 0 <= region.parent < len(nodes) else "",
            json.dumps(list(region.bbox)), len(region.records),
            json.dumps([c.to_dict() for c in table.columns] if table is not None else []),
            tuple(f"field_{k}" if k in _FIXED else k for k in keys),
            tuple(types.get(k, "TEXT") for k in keys),
            tuple((r, json.dumps(xpaths[r]) if r < len(xpaths) else "[]",
                   *(_sql_value(rec.get(k)) for k in keys)) for r, rec in enumerate(recs))))
    partial, reason = partial_of(e)
    return PageRows(e.source, e.url, e.title, e.created, json.dumps(dict(e.timings)), tuple(regions), warnings,
                    partial, reason)


def connect(path: Path) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit), WAL journal, the schema in place.

    Raises :class:`ExportError` for a file that is not a SQLite database or holds the old layout."""
    if path.exists():
        _check_sqlite(path)
    try:
        con = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_S)
        try:
            con.execute("PRAGMA journal_mode=WAL")
            con.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a commit survives a killed process
            _check_layout(con, path)
            con.executescript(_SCHEMA)
        except BaseException:
            con.close()
            raise
    except sqlite3.Error as err:
        raise ExportError(f"{path}: cannot open the SQLite database ({err}); check the file and the "
                          "free disk space, or write to a new .sqlite file", source=str(path)) from err
    return con


def _check_layout(con: sqlite3.Connection, path: Path) -> None:
    cols = {r[1] for r in con.execute("PRAGMA table_info(extractions)")}
    regions = {r[1] for r in con.execute("PRAGMA table_info(regions)")}
    if cols and ("data" not in regions or not _source_unique(con)):
        raise ExportError(f"{path} was written by an older visx (one region_<id> table per region); "
                          "write to a new .sqlite file", source=str(path))
    if cols and "partial" not in cols:  # written before pages were flagged partial: add the columns
        con.execute("ALTER TABLE extractions ADD COLUMN partial INTEGER NOT NULL DEFAULT 0")
        con.execute("ALTER TABLE extractions ADD COLUMN partial_reason TEXT")


def _source_unique(con: sqlite3.Connection) -> bool:
    for idx in con.execute("PRAGMA index_list(extractions)").fetchall():
        if idx[2] and [r[2] for r in con.execute(f"PRAGMA index_info({_quote(idx[1])})")] == ["source"]:
            return True
    return False


@contextlib.contextmanager
def transaction(con: sqlite3.Connection, path: Path) -> Iterator[None]:
    """One write transaction; a database error becomes an :class:`ExportError` and nothing of it stays."""
    try:
        con.execute("BEGIN IMMEDIATE")
        yield
        con.execute("COMMIT")
    except sqlite3.Error as err:
        _rollback(con)
        raise ExportError(f"{path}: SQLite export failed ({err}); that page was not written. "
                          "Check the file and the free disk space, or write to a new .sqlite file",
                          source=str(path)) from err
    except UnicodeEncodeError as err:
        _rollback(con)
        raise ExportError(f"{path}: SQLite export failed: a value is not valid text ({err}); "
                          "that page was not written, the database is otherwise unchanged",
                          source=str(path)) from err
    except BaseException:
        _rollback(con)
        raise


def _rollback(con: sqlite3.Connection) -> None:
    if con.in_transaction:
        con.execute("ROLLBACK")


def drop_page(con: sqlite3.Connection, source: str) -> None:
    """Remove the rows of ``source`` (inside the caller's transaction): a source written again
    replaces its earlier extraction."""
    row = con.execute("SELECT id FROM extractions WHERE source = ?", (source,)).fetchone()
    if row is None:
        return
    ext_id = row[0]
    names = [r[0] for r in con.execute(
        "SELECT DISTINCT table_name FROM regions WHERE extraction_id = ? AND table_name IS NOT NULL", (ext_id,))]
    for name in names:
        con.execute(f"DELETE FROM {_quote(name)} WHERE extraction_id = ?", (ext_id,))
    con.execute("DELETE FROM regions WHERE extraction_id = ?", (ext_id,))
    con.execute("DELETE FROM extractions WHERE id = ?", (ext_id,))


def insert_page(con: sqlite3.Connection, page: PageRows, exported: str) -> tuple[int, int]:
    """Write ``page`` (inside the caller's transaction), replacing an earlier extraction of its
    source; returns (rows, regions) written."""
    drop_page(con, page.source)
    cur = con.execute(
        "INSERT INTO extractions (source, url, title, created, exported, timings, partial, partial_reason)"
        " VALUES (?,?,?,?,?,?,?,?)",
        (page.source, page.url, page.title, page.created, exported, page.timings, int(page.partial),
         page.partial_reason or None))
    ext_id = cur.lastrowid
    rows = 0
    for rg in page.regions:
        name = _table_for(con, rg) if rg.keys else None
        cur = con.execute(
            "INSERT INTO regions (extraction_id, rank, data, role, score, xpath, bbox, n_records, table_name, columns)"
            " VALUES (?,?,?,?,?,?,?,?,?,?)",
            (ext_id, rg.rank, int(rg.data), rg.role, rg.score, rg.xpath, rg.bbox, rg.n_records, name, rg.columns))
        if name is None:
            continue
        region_id = cur.lastrowid
        cols = ", ".join(_quote(c) for c in (*_FIXED, *rg.keys))
        marks = ",".join("?" * (len(rg.keys) + len(_FIXED)))
        con.executemany(f"INSERT INTO {_quote(name)} ({cols}) VALUES ({marks})",
                        [(ext_id, region_id, *r) for r in rg.rows])
        rows += len(rg.rows)
    return rows, len(page.regions)


def _table_for(con: sqlite3.Connection, rg: RegionRows) -> str:
    """The data table of ``rg``'s column set, created on first use."""
    signature = json.dumps(sorted(rg.keys))
    row = con.execute("SELECT table_name FROM record_tables WHERE signature = ?", (signature,)).fetchone()
    if row is not None:
        return str(row[0])
    name = table_name(rg.keys)
    defs = ", ".join(["extraction_id INTEGER NOT NULL", "region_id INTEGER NOT NULL", "_record INTEGER",
                      "_xpaths TEXT"] + [f"{_quote(k)} {t}" for k, t in zip(rg.keys, rg.types, strict=True)])
    con.execute(f"CREATE TABLE {_quote(name)} ({defs})")
    con.execute(f"CREATE INDEX {_quote(name + '_extraction')} ON {_quote(name)}(extraction_id)")
    con.execute("INSERT INTO record_tables (table_name, signature, columns) VALUES (?,?,?)",
                (name, signature, json.dumps(list(rg.keys), ensure_ascii=False)))
    return name


def table_name(keys: tuple[str, ...]) -> str:
    """``records_<first columns>_<6 hex digits of the column set>``: readable and stable (the
    same columns, in any order, give the same name)."""
    words = [w for w in (re.sub(r"[^a-z0-9]+", "_", k.lower()).strip("_") for k in keys[:NAME_COLUMNS]) if w]
    digest = hashlib.sha1(json.dumps(sorted(keys)).encode("utf-8")).hexdigest()[:6]
    return "_".join(["records", *(w[:20] for w in words), digest])


class SqliteExporter(Exporter):
    """Each ``export`` writes its page in one transaction; ``finish`` closes the database."""

    format = "sqlite"

    def _reset(self) -> None:
        self._con: sqlite3.Connection | None = None
        self._created = False
        self._written = 0

    def _db(self) -> sqlite3.Connection:
        if self._con is None:
            self._created = not self.path.exists()
            self._con = connect(self.path)
        return self._con

    def _add(self, extraction: ExtractionLike) -> None:
        page = page_rows(extraction, self.all_regions)
        self.result.warnings.extend(page.warnings)
        con = self._db()
        exported = datetime.now(UTC).isoformat(timespec="seconds")
        try:
            with transaction(con, self.path):
                rows, tables = insert_page(con, page, exported)
                mark_done(con, page.source, exported)
        except BaseException:
            self._close()  # ``write`` does not abort: leave no open database (and no -wal file) behind
            raise
        self._written += 1
        self.result.rows += rows
        self.result.tables += tables

    def _write(self) -> None:
        self._db()  # an export of no page still leaves a database with the tables
        self._close()

    def abort(self) -> None:
        created = self._created and self._written == 0
        self._close()
        if created:
            for suffix in ("", "-wal", "-shm"):
                Path(str(self.path) + suffix).unlink(missing_ok=True)

    def _close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None


def mark_done(con: sqlite3.Connection, source: str, finished: str) -> None:
    """The job of ``source`` is done (inside the caller's transaction)."""
    con.execute("INSERT INTO jobs (source, status, attempts, started, finished) VALUES (?, 'done', 1, ?, ?) "
                "ON CONFLICT(source) DO UPDATE SET status = 'done', error = NULL, error_kind = NULL, "
                "error_type = NULL, finished = excluded.finished, "
                "attempts = max(jobs.attempts, 1), started = coalesce(jobs.started, excluded.started)",
                (source, finished, finished))


def _key_types(table: Table) -> dict[str, str]:
    out = {}
    for i in table.default_columns():
        c = table.columns[i]
        out[c.name] = _SQL_TYPES.get(c.type, "TEXT")
    return out


def _check_sqlite(path: Path) -> None:
    if path.is_dir():
        return  # check_path says so
    with path.open("rb") as fh:
        head = fh.read(16)
    if head and head != b"SQLite format 3\x00":
        raise ExportError(f"{path} exists and is not a SQLite database; choose another output path "
                          "or remove the file", source=str(path))
