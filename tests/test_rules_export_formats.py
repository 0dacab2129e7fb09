"""Exporters' rules: which regions each format writes, what a CSV field or a JSON number
looks like, the harvest page of a record, the counts an export reports, and the
path checks that fail before any work is done.

The pages are real pipeline extractions over the saved table fixtures
(``tests/table_regions.py``); a second region is the same fixture's list
ranked second, so that "the top region" and "every region" differ.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from table_regions import extraction

from visx.align import align_region
from visx.config import Config
from visx.errors import ExportError
from visx.export import open_exporter, render_text, to_json_dict, write
from visx.export.formats import CsvExporter, JsonExporter, csv_value
from visx.model import Record, Region, Removal
from visx.schema import build_table


def two_regions(source: str = "tools.html", *, second_table: bool = False) -> Any:
    """optional_badge (5 records) ranked first, then its first two records as a second region
    (with its own table when ``second_table``)."""
    ex: Any = extraction("optional_badge", source=source)
    top = ex.regions[0]
    top.rank, top.score = 1, 0.123456
    second = Region(top.parent, [Record(list(r.parts), r.bbox, r.text) for r in top.records[:2]],
                    score=0.05, rank=2, bbox=top.bbox)
    ex.regions.append(second)
    if second_table:
        nodes = ex.snapshot.nodes
        ex.tables.append(build_table(nodes, second, align_region(nodes, second, Config()), Config()))
    return ex


# -- CSV fields ---------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "field"), [
    (None, ""),
    (True, "true"),
    (False, "false"),
    (0, "0"),
    (["J. Kim", "A. Roy"], "J. Kim; A. Roy"),
    (("a", None, 2), "a; ; 2"),
    ({"b": 1, "a": "é"}, '{"a": "é", "b": 1}'),   # JSON, keys sorted, accents kept
    ("Zoë", "Zoë"),
])
def test_csv_field(value: Any, field: str) -> None:
    assert csv_value(value) == field


def test_csv_has_the_top_region_only_unless_all_regions() -> None:
    ex = two_regions(second_table=True)
    top = list(csv.DictReader(io.StringIO(render_text(ex, "csv"))))
    assert len(top) == 5 and "region" not in top[0]
    every = list(csv.DictReader(io.StringIO(render_text(ex, "csv", all_regions=True))))
    assert [r["region"] for r in every] == ["1"] * 5 + ["2"] * 2
    assert next(iter(every[0])) == "region"


def test_csv_of_several_pages_leads_with_the_source(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    with open_exporter(path) as exp:
        exp.export(extraction("optional_badge", source="a.html"))  # type: ignore[arg-type]
        exp.export(extraction("locale", source="b.html"))  # type: ignore[arg-type]
    res = exp.result
    with path.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert next(iter(rows[0])) == "source"
    assert [r["source"] for r in rows] == ["a.html"] * 5 + ["b.html"] * len(rows[5:])
    assert res.pages == 2 and res.rows == len(rows) and res.tables == 2
    one = render_text(extraction("optional_badge", source="a.html"), "csv")  # type: ignore[arg-type]
    assert not one.startswith("source")


# -- JSON and JSONL -------------------------------------------------------------------------

def test_json_numbers_are_rounded_for_reading() -> None:
    ex = two_regions()
    ex.regions[0].records[0].bbox = (10.26, 20.04, 300.55, 40.0)
    doc = to_json_dict(ex)
    assert doc["regions"][0]["score"] == 0.1235          # four places
    assert doc["regions"][0]["records"][0]["bbox"] == [10.3, 20.0, 300.6, 40.0]  # one place


def test_json_lists_every_region_ranked_with_its_xpath_and_columns() -> None:
    ex = two_regions()
    doc = to_json_dict(ex, all_regions=False)
    assert [rg["rank"] for rg in doc["regions"]] == [1]
    doc = to_json_dict(ex)
    assert [rg["rank"] for rg in doc["regions"]] == [1, 2]
    assert [len(rg["records"]) for rg in doc["regions"]] == [5, 2]
    assert doc["regions"][0]["xpath"] == "/html/body/ul"
    assert doc["regions"][0]["columns"] and doc["regions"][1]["columns"] == []  # no table for rank 2
    assert doc["regions"][1]["records"][0]["cells"] == []


def test_json_keeps_the_first_node_and_the_tables_warnings() -> None:
    ex: Any = extraction("optional_badge")
    ex.cleaned.removed.append(Removal(0, "header-band"))
    ex.tables[0].warnings.append("column 3 guessed")
    ex.warnings.append("page did not settle")
    doc = to_json_dict(ex)
    assert doc["removed"][-1]["xpath"] == "/html"
    assert doc["warnings"] == ["page did not settle", "column 3 guessed"]
    assert doc["created"] == "2026-11-22T00:00:00+00:00"


def test_records_carry_the_page_the_harvest_found_them_on() -> None:
    ex = two_regions()
    ex.snapshot.extra = {"harvest": {"steps": [{"step": 1, "page": 3}, {"step": "2", "page": 4}, "junk"]}}
    ex.regions[0].records[4].step = 1
    recs = to_json_dict(ex)["regions"][0]["records"]
    assert [r["page"] for r in recs] == [1, 1, 1, 1, 3]   # first view: page 1
    lines = [json.loads(x) for x in render_text(ex, "jsonl").splitlines()]
    assert [ln["page"] for ln in lines[:5]] == [1, 1, 1, 1, 3]


def test_json_text_keeps_accents_and_counts_records_of_every_region(tmp_path: Path) -> None:
    ex = two_regions()
    ex.snapshot.title = "Outils de jardin — été"
    path = tmp_path / "out.json"
    res = write(ex, path)
    text = path.read_text(encoding="utf-8")
    assert "— été" in text and "\\u" not in text
    assert text.startswith('{\n "visx"')                 # indented by one space
    assert res.rows == 7 and res.tables == 2


def test_json_of_several_pages_is_a_list_and_counts_add_up(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    with open_exporter(path) as exp:
        exp.export(two_regions("a.html"))
        exp.export(two_regions("b.html"))
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert [d["source"] for d in doc] == ["a.html", "b.html"]
    assert exp.result.rows == 14 and exp.result.tables == 4


def test_jsonl_is_one_record_a_line_with_its_rank_and_fields(tmp_path: Path) -> None:
    ex = two_regions()
    ex.snapshot.title = "été"
    ex.regions[0].records[0].text = "Rateau à feuilles"
    path = tmp_path / "out.jsonl"
    res = write(ex, path)
    raw = path.read_text(encoding="utf-8").splitlines()
    lines = [json.loads(x) for x in raw]
    assert [ln["rank"] for ln in lines] == [1] * 5 + [2] * 2
    assert "Rateau à feuilles" in raw[0]                  # not escaped
    assert lines[0]["fields"] and lines[5]["fields"] == {}  # rank 2 has no table
    assert res.rows == 7 and res.tables == 2


# -- Parquet -------------------------------------------------------------------------------

def test_parquet_columns_hold_one_type(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    ex: Any = extraction("optional_badge", source="tools.html")
    path = tmp_path / "out.parquet"
    res = write(ex, path)
    table = pq.read_table(path)
    assert table.column_names[0] == "source"
    assert set(table.column("source").to_pylist()) == {"tools.html"}
    assert table.schema.metadata[b"visx.sources"] == b"tools.html"
    assert res.rows == 5 == table.num_rows
    price = table.column("price").to_pylist()
    assert all(isinstance(v, float) for v in price if v is not None)


def test_parquet_mixed_values_become_text_and_numbers_floats() -> None:
    from visx.export.parquet import _uniform

    assert _uniform([1, 2.5, None]) == [1.0, 2.5, None]
    assert [type(v) for v in _uniform([1, 2.5])] == [float, float]
    assert _uniform([3, 4]) == [3, 4]
    assert _uniform([9.5, "Free", None]) == ["9.5", "Free", None]
    assert _uniform(["a", None]) == ["a", None]


def test_parquet_of_no_records_is_an_empty_table_and_a_warning(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    ex: Any = extraction("optional_badge", source="empty.html")
    ex.regions.clear()
    ex.tables.clear()
    path = tmp_path / "out.parquet"
    res = write(ex, path)
    assert pq.read_table(path).num_rows == 0
    assert res.warnings == ["empty.html: no records to export (no region or empty table)"]


# -- paths ---------------------------------------------------------------------------------

def test_a_folder_is_refused_before_any_work_with_the_path_as_source(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="is a folder") as err:
        write(extraction("optional_badge"), tmp_path)  # type: ignore[arg-type]
    assert err.value.source == str(tmp_path)
    assert str(tmp_path / "out.csv") in str(err.value)


def test_a_missing_folder_is_refused_at_the_first_page(tmp_path: Path) -> None:
    exp = CsvExporter(tmp_path / "nope" / "out.csv")   # not started: the first page starts it
    with pytest.raises(ExportError, match="does not exist") as err:
        exp.export(extraction("optional_badge"))  # type: ignore[arg-type]
    assert err.value.source == str(tmp_path / "nope" / "out.csv")


def test_finish_checks_the_path_when_no_page_came(tmp_path: Path) -> None:
    exp = JsonExporter(tmp_path / "nope" / "out.json")
    with pytest.raises(ExportError, match="does not exist"):
        exp.finish()


def test_a_relative_path_is_checked_in_the_working_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    res = write(extraction("optional_badge"), Path("out.csv"))  # type: ignore[arg-type]
    assert res.rows == 5 and (tmp_path / "out.csv").is_file()
