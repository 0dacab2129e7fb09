"""SQLite export: a real database that several pages append to.

Tables::

    extractions(id, source, url, title, created, exported, timings)
    regions(id, extraction_id, rank, score, xpath, bbox, n_records, table_name, columns)
    region_<regions.id>(_record, _xpaths, <one column per field>)

A new database is built in a temporary file and renamed into place; an
existing one is appended to in a single transaction. Either way a failed
export leaves the file as it was.
"""

from __future__ import annotations

import json
import sqlite3
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


def _sql_value(v: Any) -> Any:
    if v is None or isinstance(v, (int, float, str)):
        return v
    return json.dumps(v, ensure_ascii=False)


class SqliteExporter(Exporter):
    format = "sqlite"

    def _reset(self) -> None:
        self._pages: list[ExtractionLike] = []

    def _add(self, extraction: ExtractionLike) -> None:
        self._pages.append(extraction)

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
            for e in self._pages:
                self._page(con, e)
            con.execute("COMMIT")
        except sqlite3.Error as err:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise ExportError(f"{self.path}: SQLite export failed ({err}); the database is unchanged. "
                              "Check the file and the free disk space, or write to a new .sqlite file",
                              source=str(self.path)) from err
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise
        finally:
            con.close()

    def _page(self, con: sqlite3.Connection, e: ExtractionLike) -> None:
        nodes = e.snapshot.nodes
        cur = con.execute(
            "INSERT INTO extractions (source, url, title, created, exported, timings) VALUES (?,?,?,?,?,?)",
            (e.source, e.url, e.title, e.created, datetime.now(UTC).isoformat(timespec="seconds"),
             json.dumps(dict(e.timings))))
        ext_id = cur.lastrowid
        picked = picked_regions(e, self.all_regions)
        if not picked or all(not e.regions[k].records for k in picked):
            self.result.warnings.append(f"{e.source}: no records to export (no region or empty table)")
        for k in picked:
            region = e.regions[k]
            table = table_of(e, k)
            cols = [c.to_dict() for c in table.columns] if table is not None else []
            cur = con.execute(
                "INSERT INTO regions (extraction_id, rank, score, xpath, bbox, n_records, columns)"
                " VALUES (?,?,?,?,?,?,?)",
                (ext_id, region.rank, float(region.score), nodes[region.parent].xpath,
                 json.dumps(list(region.bbox)), len(region.records), json.dumps(cols)))
            name = f"region_{cur.lastrowid}"
            con.execute("UPDATE regions SET table_name = ? WHERE id = ?", (name, cur.lastrowid))
            self._table(con, name, table, [[nodes[p].xpath for p in rec.parts] for rec in region.records])
            self.result.tables += 1

    def _table(self, con: sqlite3.Connection, name: str, table: Table | None,
               xpaths: list[list[str]]) -> None:
        keys = table.field_names() if table is not None else []
        types = _key_types(table) if table is not None else {}
        defs = ", ".join(["_record INTEGER", "_xpaths TEXT"]
                         + [f"{_quote(k)} {types.get(k, 'TEXT')}" for k in keys])
        con.execute(f"CREATE TABLE {_quote(name)} ({defs})")
        recs = table.to_records() if table is not None else [{} for _ in xpaths]
        marks = ",".join("?" * (len(keys) + 2))
        con.executemany(
            f"INSERT INTO {_quote(name)} VALUES ({marks})",
            [[r, json.dumps(xpaths[r])] + [_sql_value(rec.get(k)) for k in keys]
             for r, rec in enumerate(recs)])
        self.result.rows += len(recs)


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
