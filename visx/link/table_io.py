"""The user's table in and out: CSV or SQLite, picked by the file's extension."""

from __future__ import annotations

import csv
import io
import sqlite3
import sys
from pathlib import Path
from typing import Any

from visx.errors import ExportError, LinkError

SQLITE_SUFFIXES = (".sqlite", ".sqlite3", ".db")
Rows = list[dict[str, Any]]


def read_table(path: Path, sql_table: str | None = None) -> tuple[list[str], Rows]:
    """Column names and rows of a CSV file or of one table of a SQLite file."""
    if not path.is_file():
        raise LinkError(f"{path}: no such table file; give a .csv or .sqlite file with --table",
                        source=str(path))
    if path.suffix.lower() in SQLITE_SUFFIXES:
        return _read_sqlite(path, sql_table)
    if path.suffix.lower() not in (".csv", ".tsv", ".txt"):
        raise LinkError(f"{path}: unknown table format {path.suffix or '(no extension)'}; "
                        "use a .csv or .sqlite file", source=str(path))
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise LinkError(f"{path}: cannot read the table ({e}); save it as UTF-8 CSV",
                        source=str(path)) from e
    delimiter = "\t" if path.suffix.lower() == ".tsv" else ","
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    if not reader.fieldnames:
        raise LinkError(f"{path}: the table is empty (no header line)", source=str(path))
    rows = [dict(r) for r in reader]
    return list(reader.fieldnames), rows


def _read_sqlite(path: Path, table: str | None) -> tuple[list[str], Rows]:
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            names = [r[0] for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') "
                "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
            if table is None:
                if len(names) != 1:
                    raise LinkError(f"{path}: holds {len(names)} tables ({', '.join(names) or 'none'}); "
                                    "name one with --sql-table", source=str(path))
                table = names[0]
            elif table not in names:
                raise LinkError(f"{path}: no table {table!r}; it has {', '.join(names) or 'none'}",
                                source=str(path))
            cur = con.execute(f'SELECT * FROM "{table.replace(chr(34), chr(34) * 2)}"')
            cols = [d[0] for d in cur.description]
            return cols, [dict(zip(cols, r, strict=True)) for r in cur]
        finally:
            con.close()
    except sqlite3.DatabaseError as e:
        raise LinkError(f"{path}: not a readable SQLite file ({e})", source=str(path)) from e


def write_table(path: Path | None, columns: list[str], rows: Rows, sql_table: str = "linked") -> None:
    """CSV to ``path`` (standard output when None), or SQLite for a .sqlite/.db path."""
    try:
        if path is not None and path.suffix.lower() in SQLITE_SUFFIXES:
            _write_sqlite(path, columns, rows, sql_table)
            return
        if path is None:
            _write_csv(sys.stdout, columns, rows)
        else:
            with path.open("w", encoding="utf-8", newline="") as f:
                _write_csv(f, columns, rows)
    except OSError as e:
        raise ExportError(f"{path}: cannot write the table ({e}); check the folder exists and is writable",
                          source=str(path)) from e


def _write_csv(f: Any, columns: list[str], rows: Rows) -> None:
    w = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({c: "" if r.get(c) is None else r.get(c) for c in columns})


def _write_sqlite(path: Path, columns: list[str], rows: Rows, table: str) -> None:
    tmp = path.with_name(path.name + ".part")
    tmp.unlink(missing_ok=True)
    con = sqlite3.connect(tmp)
    try:
        quoted = ", ".join('"' + c.replace('"', '""') + '"' for c in columns)
        con.execute(f'CREATE TABLE "{table}" ({quoted})')
        con.executemany(f'INSERT INTO "{table}" VALUES ({", ".join("?" * len(columns))})',
                        [[r.get(c) for c in columns] for r in rows])
        con.commit()
    finally:
        con.close()
    tmp.replace(path)
