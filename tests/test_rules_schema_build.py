"""Table building at its edges: empty regions, one record, cell flags, label words, export form.

Regions are the hand-made ones of ``table_regions`` over the saved table
fixtures (no browser). Expected values are read from the fixture pages.
"""

from __future__ import annotations

import pytest
from table_regions import load

from visx.align import align_region
from visx.config import Config
from visx.model import Region
from visx.schema import build_table
from visx.schema.build import _label_like
from visx.schema.table import Cell, Column, Table

pytestmark = pytest.mark.usefixtures("fresh_typing_caches")  # conftest.py


def _table(name: str, region: Region | None = None) -> Table:
    snap, reg = load(name)
    reg = reg if region is None else region
    return build_table(snap.nodes, reg, align_region(snap.nodes, reg, Config()), Config())


def test_region_outside_the_page_is_reported_as_unknown() -> None:
    table = _table("optional_badge", Region(-1, []))
    assert table.rows == [] and table.columns == []
    assert table.warnings == ["region ?: no records; its table is empty"]


def test_one_record_region_is_typed_without_labels() -> None:
    # one record cannot show that "Price:" repeats beside varying values: no label column
    _snap, region = load("label_value")
    one = Region(region.parent, region.records[:1], rank=1, bbox=region.bbox)
    table = _table("label_value", one)
    assert not any("label" in c.flags for c in table.columns)
    rec = table.to_records()[0]
    assert rec["price"] == 120.0 and rec["price_currency"] == "$"
    assert rec["contact"] == "ann@example.org"


def test_cells_keep_the_flags_of_their_values() -> None:
    table = _table("locale")
    names = [c.name for c in table.columns]
    rel, count = names.index("date_2"), names.index("count")
    assert [row[rel].flags for row in table.rows if row[rel]] == [("relative",)] * 4
    assert [row[count].flags for row in table.rows if row[count]] == [("unit",)] * 4
    assert [row[rel].value for row in table.rows if row[rel]][:2] == ["3 days ago", "yesterday"]


def test_image_columns_export_the_image_source() -> None:
    rec = _table("optional_badge").to_records()[0]
    assert rec["image"] == "file:///img/spade.png"  # not the alt text "Spade"


def test_json_form_of_the_table() -> None:
    table = _table("optional_badge")
    d = table.to_dict()
    assert d["rank"] == table.rank
    first = d["rows"][0][0]
    assert first["column"] == 0 and first["text"] == "Spade" and first["value"] == "file:///img/spade.png"
    assert len(first["bbox"]) == 4


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Price:", True),
        ("x" * 40, True),  # as long as a label may be
        ("x" * 41, False),
        ("Price 5:", False),  # a digit: a value, not a label
        ("a b c d:", True),  # as many words as a label may have
        ("a b c d e:", False),
        ("Price 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5:", False),
    ],
)
def test_label_like_texts(text: str, label: bool) -> None:
    assert _label_like(text) is label


def test_cells_export_links_and_image_sources() -> None:
    table = _table("optional_badge")
    names = [c.name for c in table.columns]
    d = table.to_dict()["rows"][0]
    assert d[names.index("name")]["href"] == "file:///p/spade"
    assert d[names.index("image")]["src"] == "file:///img/spade.png"


def test_image_column_exports_its_source_even_without_a_value() -> None:
    columns = [Column("image", "image", 1.0)]
    rows: list[list[Cell | None]] = [[Cell("Spade", None, None, "file:///img/spade.png")]]
    assert Table(1, columns, rows).to_records() == [{"image": "file:///img/spade.png"}]
