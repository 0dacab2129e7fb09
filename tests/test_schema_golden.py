"""Golden tables: each fixture page's table compared exactly with its expected JSON.

The regions are made by hand (``tests/table_regions.py``), so these tests pin
alignment and schema alone. After a deliberate change, rewrite the goldens with
``VISX_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_schema_golden.py`` (every golden test then
fails, naming the file it wrote), review the diff, and run again without the variable.
Exact alignment on real pages, against gold records the code does not write, is
pinned in ``tests/test_alignment_pins.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from table_regions import NAMES, TABLES, table_json

UPDATE_VAR = "VISX_UPDATE_GOLDEN"


@pytest.mark.parametrize("name", NAMES)
def test_golden_table(name: str) -> None:
    got = json.loads(json.dumps(table_json(name)))
    path = TABLES / f"{name}.expected.json"
    if os.environ.get(UPDATE_VAR) == "1":
        # Writing the goldens is never a passing run: a suite run with the variable set
        # (a CI job, a stray export) would otherwise compare each file with itself.
        before = path.read_text(encoding="utf-8") if path.is_file() else None
        text = json.dumps(got, indent=1, ensure_ascii=False) + "\n"
        path.write_text(text, encoding="utf-8")
        what = "unchanged" if before == text else "rewritten"
        pytest.fail(f"{UPDATE_VAR}=1: {path.name} {what}; review `git diff {path}`, then run "
                    f"again without {UPDATE_VAR} to test", pytrace=False)
    expected = json.loads(path.read_text(encoding="utf-8"))
    assert got == expected


def _column(name: str, col: str) -> tuple[int, dict[str, object]]:
    t = table_json(name)
    cols = t["columns"]
    assert isinstance(cols, list)
    i = next(i for i, c in enumerate(cols) if c["name"] == col)
    return i, cols[i]


def test_optional_badge_does_not_shift_columns() -> None:
    t = table_json("optional_badge")
    names = [c["name"] for c in t["columns"]]  # type: ignore[index, union-attr]
    assert names == ["image", "badge", "name", "price", "stock"]
    badge = [row[1]["text"] if row[1] else None for row in t["rows"]]  # type: ignore[index, union-attr]
    assert badge == ["Sale", None, None, "New", None]
    prices = [row[3]["value"]["amount"] for row in t["rows"]]  # type: ignore[index, union-attr]
    assert prices == [24.99, 12.5, 18.0, 31.75, 27.0]


def test_missing_field_leaves_an_empty_cell() -> None:
    i, col = _column("missing_field", "rating")
    assert col["type"] == "rating" and col["fill"] == 0.6
    rows = table_json("missing_field")["rows"]
    assert [r[i] and r[i]["value"] for r in rows] == [4.5, None, 3.8, None, 4.1]  # type: ignore[index, union-attr]


def test_nested_lists_are_one_list_valued_cell() -> None:
    i, col = _column("list_field", "author")
    assert "list" in col["flags"]  # type: ignore[operator]
    rows = table_json("list_field")["rows"]
    assert rows[0][i]["value"] == ["J. Kim", "A. Roy", "W. Li"]  # type: ignore[index]
    assert rows[1][i]["value"] == ["C. Moreau"]  # type: ignore[index]
    assert len(table_json("list_field")["columns"]) == 4  # type: ignore[arg-type]


def test_header_cells_name_the_columns() -> None:
    cols = table_json("header_table")["columns"]
    assert [(c["name"], c["type"], c["source"]) for c in cols] == [  # type: ignore[index, union-attr]
        ("flight", "text", "header"), ("destination", "text", "header"), ("departure", "time", "header"),
        ("duration", "duration", "header"), ("fare", "price", "header"), ("on_time", "percent", "header")]


def test_labels_name_the_value_and_are_hidden() -> None:
    t = table_json("label_value")
    by_name = {c["name"]: c for c in t["columns"]}  # type: ignore[index, union-attr]
    assert by_name["price"]["source"] == "label" and by_name["price"]["type"] == "price"
    assert "label" in by_name["price_label"]["flags"]
    # "Posted by <a>ann_k</a>" is one running text; its shared opening names the column
    assert by_name["posted_by"]["source"] == "label" and "prefixed" in by_name["posted_by"]["flags"]
    i = list(by_name).index("posted_by")
    cell = t["rows"][0][i]  # type: ignore[index]
    assert (cell["text"], cell["value"], cell["href"]) == ("Posted by ann_k", "ann_k", "file:///u/ann")
    assert "constant" in by_name["contact_seller"]["flags"]


def test_locale_numbers_dates_and_relative_dates() -> None:
    t = table_json("locale")
    cols = {c["name"]: i for i, c in enumerate(t["columns"])}  # type: ignore[index, union-attr]
    first = t["rows"][0]  # type: ignore[index]
    assert first[cols["price"]]["value"] == {"amount": 1234.56, "currency": "EUR"}
    assert first[cols["date"]]["value"] == "2026-11-22"
    assert first[cols["date_2"]]["value"] == "3 days ago"
    assert "relative" in t["columns"][cols["date_2"]]["flags"]  # type: ignore[index]
    assert first[cols["count"]]["value"] == 12345  # "12.345" with a German decimal comma elsewhere
    assert [r[cols["rating"]]["value"] for r in t["rows"]] == [4.5, 3.5, 4.0, 2.5]  # type: ignore[index, union-attr]


def test_split_records_align_like_any_other() -> None:
    t = table_json("split_table")
    # "Details" in every record is interface; its link, the only one, is the record's URL.
    assert [c["name"] for c in t["columns"]] == ["model", "price", "url"]  # type: ignore[index, union-attr]
    assert [r[0]["text"] for r in t["rows"]] == ["Lumen X100", "Pico Z5", "Orbit 7", "Vega Mini"]  # type: ignore[index, union-attr]
    assert [r[2]["href"] for r in t["rows"]][2] == "file:///c/orbit7"  # type: ignore[index, union-attr]


def test_update_mode_never_passes() -> None:
    """With the variable set, a golden test writes its file and fails (here the file is
    rewritten with the same content, so the fixture does not change)."""
    if os.environ.get(UPDATE_VAR) == "1":
        pytest.skip(f"{UPDATE_VAR}=1 is set for this whole run")
    path = TABLES / "locale.expected.json"
    before = path.read_bytes()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"{__file__}::test_golden_table[locale]"],
        env={**os.environ, UPDATE_VAR: "1"}, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "locale.expected.json unchanged" in run.stdout
    assert path.read_bytes() == before
