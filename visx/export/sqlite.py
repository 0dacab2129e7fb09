"""SQLite export: a real database that several pages append to.

Tables::

    extractions(id, source, url, title, created, exported, timings)
    regions(id, extraction_id, rank, score, xpath, bbox, n_records, table_name, columns)
    region_<regions.id>(_record, _xpaths, <one column per field>)

``_record`` numbers a region's records from 0 in page order, consecutively;
``_xpaths`` lists the XPaths of the record's parts (JSON).

A new database is built in a temporary file and renamed into place; an
existing one is appended to in a single transaction that holds every
extraction of the export (one ``write``, or ``start`` .. ``finish``). Either
way a failed export leaves the file as it was: no extraction row, region row
or region table of that export remains, and the earlier ones are untouched.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from visx.errors import ExportError
from visx.export.base import Exporter, output_file
from visx.export.contract import ExtractionLike, picked_regions, table_of
from visx.schema.table import Table

_SCHEMA = """
CREATE TABLE IF NOT EXISTS extractions (
    id INTEGER PRIMARY KEY, source TEXT, url TEXT, title TEXT,
    created TEXT, exported TEXT, timings TEXT);
CREATE TABLE IF NOT EXISTS regions (
    id INTEGER PRIMARY KEY, extraction_id INTEGER REFERENCES extractions(id),
    rank INTEGER, score REAL, xpath TEXT, bbox TEXT, n_records INTEGER,
    table_name TEXT, columns TEXT);
"""

_SQL_TYPES = {"price": "REAL", "number": "REAL", "percent": "REAL", "rating": "REAL",
              "integer": "INTEGER", "duration": "INTEGER"}
"""Column affinity per visx type; everything else is TEXT."""


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


_INT64 = (-(2**63), 2**63 - 1)


def _sql_value(v: Any) -> Any:
    if isinstance(v, int) and not isinstance(v, bool) and not _INT64[0] <= v <= _INT64[1]:
        return str(v)  # SQLite integers are 64-bit; the column's affinity decides what a longer one becomes
    if v is None or isinstance(v, (int, float, str)):
        return v
    return json.dumps(v, ensure_ascii=False)


@dataclass(slots=True)
class _RegionRows:
    rank: int
    score: float
    xpath: str
    bbox: str
    n_records: int
    columns: str
    keys: list[str]
    types: dict[str, str]
    rows: list[list[Any]]
    """Per record: its number, its parts' XPaths (JSON), then one value per key."""


@dataclass(slots=True)
class _PageRows:
    """What the database gets from one page, taken at ``export`` time so the
    extraction (and its snapshot) can be freed while a batch goes on."""

    meta: tuple[str, str, str, str, str]
    """source, url, title, created, timings (JSON)."""
    regions: list[_RegionRows]


class SqliteExporter(Exporter):
    format = "sqlite"

    def _reset(self) -> None:
        self._pages: list[_PageRows] = []

    def _add(self, extraction: ExtractionLike) -> None:
        self._pages.append(self._rows_of(extraction))

    def _write(self) -> None:
        path = self.path
        if path.exists():
            _check_sqlite(path)
            self._into(path)
            return
        with output_file(path) as tmp:
            self._into(tmp)

    def _into(self, db: Path) -> None:
        con = sqlite3.connect(db, isolation_level=None)
        try:
            con.execute("BEGIN IMMEDIATE")
            for stmt in _SCHEMA.split(";"):
                if stmt.strip():
                    con.execute(stmt)  # not executescript: it would commit the open transaction
            exported = datetime.now(UTC).isoformat(timespec="seconds")
            for page in self._pages:
                self._page(con, page, exported)
            con.execute("COMMIT")
        except sqlite3.Error as err:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise ExportError(f"{self.path}: SQLite export failed ({err}); the database is unchanged. "
                              "Check the file and the free disk space, or write to a new .sqlite file",
                              source=str(self.path)) from err
        except UnicodeEncodeError as err:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise ExportError(f"{self.path}: SQLite export failed: a value is not valid text ({err}); "
                              "the database is unchanged", source=str(self.path)) from err
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise
        finally:
            con.close()

    def _rows_of(self, e: ExtractionLike) -> _PageRows:
        nodes = e.snapshot.nodes
        picked = picked_regions(e, self.all_regions)
        if not picked or all(not e.regions[k].records for k in picked):
            self.result.warnings.append(f"{e.source}: no records to export (no region or empty table)")
        regions = []
        for k in picked:
            region = e.regions[k]
            table = table_of(e, k)
            keys = table.field_names() if table is not None else []
            recs = table.to_records() if table is not None else [{} for _ in region.records]
            xpaths = [[nodes[p].xpath for p in rec.parts] for rec in region.records]
            regions.append(_RegionRows(
                region.rank, float(region.score), nodes[region.parent].xpath, json.dumps(list(region.bbox)),
                len(region.records), json.dumps([c.to_dict() for c in table.columns] if table is not None else []),
                keys, _key_types(table) if table is not None else {},
                [[r, json.dumps(xpaths[r])] + [_sql_value(rec.get(k)) for k in keys] for r, rec in enumerate(recs)]))
        return _PageRows((e.source, e.url, e.title, e.created, json.dumps(dict(e.timings))), regions)

    def _page(self, con: sqlite3.Connection, page: _PageRows, exported: str) -> None:
        source, url, title, created, timings = page.meta
        cur = con.execute(
            "INSERT INTO extractions (source, url, title, created, exported, timings) VALUES (?,?,?,?,?,?)",
            (source, url, title, created, exported, timings))
        ext_id = cur.lastrowid
        for rg in page.regions:
            cur = con.execute(
                "INSERT INTO regions (extraction_id, rank, score, xpath, bbox, n_records, columns)"
                " VALUES (?,?,?,?,?,?,?)",
                (ext_id, rg.rank, rg.score, rg.xpath, rg.bbox, rg.n_records, rg.columns))
            name = f"region_{cur.lastrowid}"
            con.execute("UPDATE regions SET table_name = ? WHERE id = ?", (name, cur.lastrowid))
            defs = ", ".join(["_record INTEGER", "_xpaths TEXT"]
                             + [f"{_quote(k)} {rg.types.get(k, 'TEXT')}" for k in rg.keys])
            con.execute(f"CREATE TABLE {_quote(name)} ({defs})")
            marks = ",".join("?" * (len(rg.keys) + 2))
            con.executemany(f"INSERT INTO {_quote(name)} VALUES ({marks})", rg.rows)
            self.result.rows += len(rg.rows)
            self.result.tables += 1


def _key_types(table: Table) -> dict[str, str]:
    out = {}
    for i in table.default_columns():
        c = table.columns[i]
        out[c.name] = _SQL_TYPES.get(c.type, "TEXT")
    return out


def _check_sqlite(path: Path) -> None:
    with path.open("rb") as fh:
        head = fh.read(16)
    if head and head != b"SQLite format 3\x00":
        raise ExportError(f"{path} exists and is not a SQLite database; choose another output path "
                          "or remove the file", source=str(path))
