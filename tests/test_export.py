"""Exporters: the JSON contract, CSV round trip, SQLite append, JSONL, Parquet, bad outputs."""

from __future__ import annotations

import csv
import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from table_regions import extraction

from visx.errors import ExportError
from visx.export import open_exporter, to_json_dict, write, write_stream
from visx.export.formats import csv_value


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_json_contract_keys_and_cells(tmp_path: Path) -> None:
    ex: Any = extraction("optional_badge")
    doc = to_json_dict(ex)
    assert {"source", "url", "title", "regions", "removed", "timings"} <= set(doc)
    region = doc["regions"][0]
    assert {"rank", "score", "xpath", "bbox", "records", "columns"} <= set(region)
    assert [c["name"] for c in region["columns"]] == ["image", "badge", "name", "price", "stock"]
    rec = region["records"][1]
    assert rec["xpaths"] == ["/html/body/ul/li[2]"]
    assert len(rec["bbox"]) == 4 and rec["text"].startswith("Leaf rake")
    cell = next(c for c in rec["cells"] if c["column"] == 3)
    assert set(cell) == {"column", "text", "value", "href", "src", "xpath", "bbox"}
    assert cell["text"] == "$12.50" and cell["value"] == {"amount": 12.5, "currency": "$"}
    assert 1 not in [c["column"] for c in rec["cells"]]  # no badge on this record
    assert doc["removed"] == [{"xpath": "/html/body/h1", "reason": "header-band", "bbox": doc["removed"][0]["bbox"]}]
    path = tmp_path / "out.json"
    res = write(ex, path)
    assert json.loads(path.read_text(encoding="utf-8")) == json.loads(json.dumps(doc))
    assert res.rows == 5 and res.format == "json"


def test_csv_round_trip(tmp_path: Path) -> None:
    ex: Any = extraction("locale")
    path = tmp_path / "out.csv"
    write(ex, path)
    with path.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    expected = ex.tables[0].to_records()
    assert [list(r) for r in rows] == [list(r) for r in expected]
    assert rows == [{k: csv_value(v) for k, v in r.items()} for r in expected]
    assert rows[0]["price"] == "1234.56" and rows[0]["price_currency"] == "EUR"


def test_csv_lists_are_joined(tmp_path: Path) -> None:
    path = tmp_path / "papers.csv"
    write(extraction("list_field"), path)  # type: ignore[arg-type]
    with path.open(newline="", encoding="utf-8") as fh:
        first = next(csv.DictReader(fh))
    assert first["author"] == "J. Kim; A. Roy; W. Li"
    assert first["tags"] == "nlp; transformers"


def test_sqlite_two_pages_append_to_one_database(tmp_path: Path) -> None:
    db = tmp_path / "pages.sqlite"
    write(extraction("header_table", source="flights.html"), db)  # type: ignore[arg-type]
    write(extraction("optional_badge", source="tools.html"), db)  # type: ignore[arg-type]
    con = sqlite3.connect(db)
    try:
        pages = con.execute("SELECT id, source, url, created FROM extractions ORDER BY id").fetchall()
        assert [p[1] for p in pages] == ["flights.html", "tools.html"]
        assert all(p[3] == "2026-11-22T00:00:00+00:00" for p in pages)
        regions = con.execute("SELECT extraction_id, rank, n_records, table_name, columns FROM regions").fetchall()
        assert [(r[0], r[1], r[2]) for r in regions] == [(1, 1, 4), (2, 1, 5)]
        flights = con.execute(f'SELECT flight, fare, fare_currency, on_time FROM "{regions[0][3]}" ORDER BY _record').fetchall()
        assert flights[0] == ("AB 101", 89.0, "EUR", 92.0)
        assert json.loads(regions[0][4])[4]["type"] == "price"
        types = {r[1]: r[2] for r in con.execute(f'PRAGMA table_info("{regions[0][3]}")')}
        assert types["fare"] == "REAL" and types["flight"] == "TEXT"
        tools = con.execute(f'SELECT name, name_url, price FROM "{regions[1][3]}" ORDER BY _record').fetchall()
        assert tools[1] == ("Leaf rake", "file:///p/rake", 12.5)
    finally:
        con.close()


def test_streaming_several_pages_into_one_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "all.jsonl"
    with open_exporter(path) as ex:
        ex.export(extraction("missing_field", source="a.html"))  # type: ignore[arg-type]
        ex.export(extraction("split_table", source="b.html"))  # type: ignore[arg-type]
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [ln["source"] for ln in lines] == ["a.html"] * 5 + ["b.html"] * 4
    assert lines[5]["rank"] == 1 and len(lines[5]["xpaths"]) == 3  # a split record lists its parts
    assert lines[5]["fields"]["model"] == "Lumen X100"


def test_json_to_a_stream(tmp_path: Path) -> None:
    out = tmp_path / "stdout.txt"
    with out.open("w", encoding="utf-8") as fh:
        write_stream(extraction("split_table"), fh, fmt="json")  # type: ignore[arg-type]
    assert json.loads(out.read_text(encoding="utf-8"))["regions"][0]["columns"][1]["name"] == "price"
    with pytest.raises(ExportError, match="-o"):
        write_stream(extraction("split_table"), fh, fmt="sqlite")  # type: ignore[arg-type]


def test_parquet_when_pyarrow_is_installed(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "out.parquet"
    write(extraction("header_table"), path)  # type: ignore[arg-type]
    table = pq.read_table(path)
    assert table.column("fare").to_pylist() == [89.0, 129.5, 64.0, 110.25]
    assert table.column("source").to_pylist()[0] == "header_table.html"


def test_unknown_extension_is_refused_before_writing(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match=r"unknown output format '\.xls'.*\.csv"):
        write(extraction("split_table"), tmp_path / "out.xls")  # type: ignore[arg-type]
    assert _files(tmp_path) == []


def test_missing_folder_names_the_way_out(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="does not exist; create it"):
        write(extraction("split_table"), tmp_path / "nope" / "out.csv")  # type: ignore[arg-type]


def test_unwritable_folder(tmp_path: Path) -> None:
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        target = Path("/sys/visx-out.csv")  # even root cannot create files in sysfs
        match = "cannot write"
    else:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        target, match = ro / "out.csv", "not writable"
    with pytest.raises(ExportError, match=match) as err:
        write(extraction("split_table"), target)  # type: ignore[arg-type]
    assert "choose" in str(err.value) and str(target) in str(err.value)
    assert not target.exists()


def test_output_path_that_is_a_folder(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="is a folder"):
        write(extraction("split_table"), tmp_path)  # type: ignore[arg-type]


def test_failed_export_leaves_no_partial_file(tmp_path: Path) -> None:
    ex: Any = extraction("header_table")
    ex.tables[0].rows[0][0].value = object()  # not JSON-serialisable: the writer fails midway
    path = tmp_path / "out.json"
    with pytest.raises(TypeError):
        write(ex, path)
    assert _files(tmp_path) == []


def _db_state(db: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[str]]:
    """Extraction rows, region rows and the names of all tables of a database."""
    con = sqlite3.connect(db)
    try:
        return (con.execute("SELECT id, source FROM extractions ORDER BY id").fetchall(),
                con.execute("SELECT id, extraction_id, table_name FROM regions ORDER BY id").fetchall(),
                sorted(r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")))
    finally:
        con.close()


SPLIT = "records_model_price_price_currency_451bba"
"""The data table of split_table's columns: named from its first columns and a hash of them all."""
BASE_TABLES = ["extractions", "jobs", "record_tables", "regions"]


def test_failed_sqlite_append_leaves_the_database_unchanged(tmp_path: Path) -> None:
    """A value the SQLite adapter refuses (a lone surrogate is no UTF-8) fails while the
    region's rows are inserted, after the extraction and region rows went in."""
    db = tmp_path / "pages.db"
    write(extraction("split_table", source="a.html"), db)  # type: ignore[arg-type]
    state = _db_state(db)
    ex: Any = extraction("header_table", source="b.html")
    assert ex.tables[0].columns[0].type == "text"
    ex.tables[0].rows[2][0].value = "AB \udc80 101"
    with pytest.raises(ExportError, match=r"not valid text.*not written"):
        write(ex, db)
    assert state == _db_state(db) == ([(1, "a.html")], [(1, 1, SPLIT)], sorted([*BASE_TABLES, SPLIT]))
    assert _files(tmp_path) == ["pages.db"]


def test_sqlite_failure_mid_export_keeps_every_page_written_before(tmp_path: Path) -> None:
    """Each page is one transaction: a trigger makes the database refuse the third
    extraction's region, after its extraction row went in. The export fails; the database
    holds the first two pages whole and nothing of the third. Written again without the
    trigger, the pages replace their earlier rows (a source is stored once)."""
    db = tmp_path / "pages.sqlite"
    write(extraction("split_table", source="a.html"), db)  # type: ignore[arg-type]
    con = sqlite3.connect(db)
    con.execute("CREATE TRIGGER refuse BEFORE INSERT ON regions WHEN NEW.extraction_id = 3 "
                "BEGIN SELECT RAISE(ABORT, 'injected failure'); END")
    con.commit()
    con.close()
    with pytest.raises(ExportError, match="injected failure"), open_exporter(db) as ex:
        ex.export(extraction("header_table", source="b.html"))  # type: ignore[arg-type]
        ex.export(extraction("optional_badge", source="c.html"))  # type: ignore[arg-type]
    pages, regions, tables = _db_state(db)
    assert pages == [(1, "a.html"), (2, "b.html")]
    assert [r[:2] for r in regions] == [(1, 1), (2, 2)] and len(tables) == len(BASE_TABLES) + 2
    con = sqlite3.connect(db)
    con.execute("DROP TRIGGER refuse")
    con.commit()
    assert con.execute("SELECT source, status FROM jobs ORDER BY source").fetchall() == [
        ("a.html", "done"), ("b.html", "done")]
    con.close()
    with open_exporter(db) as ex:
        ex.export(extraction("header_table", source="b.html"))  # type: ignore[arg-type]
        ex.export(extraction("optional_badge", source="c.html"))  # type: ignore[arg-type]
    pages, regions, tables = _db_state(db)
    assert [p[1] for p in pages] == ["a.html", "b.html", "c.html"]
    assert len(regions) == 3 and len(tables) == len(BASE_TABLES) + 3
    con = sqlite3.connect(db)
    try:  # b.html's first rows are gone with its first extraction
        for (name,) in con.execute("SELECT table_name FROM record_tables"):
            counts = con.execute(f'SELECT count(*), count(DISTINCT extraction_id) FROM "{name}"').fetchone()
            assert counts[1] == 1
    finally:
        con.close()


def test_sqlite_records_are_numbered_from_zero_per_region(tmp_path: Path) -> None:
    db = tmp_path / "pages.sqlite"
    write(extraction("split_table", source="a.html"), db)  # type: ignore[arg-type]
    write(extraction("optional_badge", source="b.html"), db)  # type: ignore[arg-type]
    con = sqlite3.connect(db)
    try:
        tables = con.execute("SELECT table_name, n_records FROM regions ORDER BY id").fetchall()
        assert [n for _, n in tables] == [4, 5]
        split = con.execute(f'SELECT _record, _xpaths, model FROM "{tables[0][0]}" ORDER BY rowid').fetchall()
        badge = con.execute(f'SELECT _record, _xpaths, name FROM "{tables[1][0]}" ORDER BY rowid').fetchall()
    finally:
        con.close()
    assert [r[0] for r in split] == [0, 1, 2, 3]
    assert [r[0] for r in badge] == [0, 1, 2, 3, 4]
    # Record k of the split table is the table's column k+1, one cell per row (split_table.html).
    assert [json.loads(r[1]) for r in split] == [
        [f"/html/body/table/tbody/tr[{row}]/td[{k}]" for row in (1, 2, 3)] for k in (1, 2, 3, 4)]
    assert [r[2] for r in split] == ["Lumen X100", "Pico Z5", "Orbit 7", "Vega Mini"]
    assert [json.loads(r[1]) for r in badge] == [[f"/html/body/ul/li[{k}]"] for k in range(1, 6)]
    assert badge[1][2] == "Leaf rake"


def test_sqlite_integer_beyond_64_bits_is_kept(tmp_path: Path) -> None:
    """SQLite integers are 64-bit; a longer number (an id typed integer) must not fail the export."""
    ex: Any = extraction("header_table")
    ex.tables[0].rows[0][0].value = 2**70
    db = tmp_path / "big.sqlite"
    write(ex, db)
    con = sqlite3.connect(db)
    try:
        (name,) = con.execute("SELECT table_name FROM regions").fetchone()
        assert con.execute(f'SELECT flight FROM "{name}" WHERE _record = 0').fetchone() == (str(2**70),)
    finally:
        con.close()


def test_existing_non_database_is_not_touched(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("my notes", encoding="utf-8")
    with pytest.raises(ExportError, match="not a SQLite database"):
        write(extraction("split_table"), path)  # type: ignore[arg-type]
    assert path.read_text(encoding="utf-8") == "my notes"


def test_page_without_records_gives_an_empty_table_and_a_warning(tmp_path: Path) -> None:
    ex: Any = extraction("optional_badge")
    ex.regions.clear()
    ex.tables.clear()
    for suffix in (".csv", ".json", ".jsonl", ".sqlite"):
        res = write(ex, tmp_path / f"empty{suffix}")
        assert res.rows == 0
        assert res.warnings and "no records" in res.warnings[0]
    assert json.loads((tmp_path / "empty.json").read_text(encoding="utf-8"))["regions"] == []
    assert (tmp_path / "empty.csv").read_text(encoding="utf-8") == ""


def test_replacing_keeps_the_old_file_when_writing_fails(tmp_path: Path) -> None:
    from visx.atomic import replacing

    path = tmp_path / "out.csv"
    path.write_text("old", encoding="utf-8")
    with pytest.raises(RuntimeError), replacing(path) as tmp:
        tmp.write_text("half", encoding="utf-8")
        raise RuntimeError("disk full")
    assert path.read_text(encoding="utf-8") == "old"
    assert _files(tmp_path) == ["out.csv"]


def test_output_file_names_the_path_when_the_folder_is_gone(tmp_path: Path) -> None:
    from visx.errors import ExportError
    from visx.export.base import output_file

    path = tmp_path / "gone" / "out.csv"
    with pytest.raises(ExportError, match=r"out\.csv: cannot write"), output_file(path) as tmp:
        tmp.write_text("never", encoding="utf-8")
    assert not (tmp_path / "gone").exists()


def test_write_bytes_replaces_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    from visx.atomic import write_bytes

    path = tmp_path / "new" / "page.png"
    write_bytes(path, b"one")
    write_bytes(path, b"two")
    assert path.read_bytes() == b"two"
    assert oct(path.stat().st_mode & 0o777) == "0o644"
    assert sorted(p.name for p in path.parent.iterdir()) == ["page.png"]
