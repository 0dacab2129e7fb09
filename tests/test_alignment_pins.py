"""Exact alignment on real pages, checked against hand-labelled gold records.

The pages are gate pages (fixtures/gate/<site>/<query>/: a saved snapshot and
the testbed's gold ``records.csv``, one row per record and one column per
field; MIT, see fixtures/gate/LICENSE). The whole analysis runs on each
snapshot. For each pinned gold field, one column of the top table must hold
that field's value for every gold record, cell text equal to the gold text
(whitespace normalised), in page order; and the pinned fields of one record
must sit in one row. The expected values are the gold's, not the code's.
"""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path

import pytest

from visx.pipeline import Extraction, analyse
from visx.render.snapshot_io import load_snapshot

GATE = Path(__file__).resolve().parent.parent / "fixtures" / "gate"

PINS = {
    # page: gold field indexes (0-based columns of records.csv) that one table column holds whole
    "ebay.co.uk/world-games": (1, 2),  # title, price
    "goodreads.com/c-reference": (0, 9),  # title, "x avg rating — n ratings"
    "skysports.com/hockey": (0, 1, 2),  # date, headline, snippet
    "stackoverflow.com/touchscreen": (0, 2),  # question, excerpt
    "y8.com/teens-kids-dancing": (0, 2),  # game, plays
    "yelp.com/home-furniture": (9,),  # phone
}


def _norm(s: str) -> str:
    return " ".join(s.split())


def gold(page: str) -> list[list[str]]:
    with (GATE / page / "records.csv").open(encoding="utf-8", newline="") as fh:
        return [[_norm(c) for c in row] for row in csv.reader(fh)]


@cache
def extraction(page: str) -> Extraction:
    return analyse(load_snapshot(GATE / page / "snapshot.json.gz"))


def _rows_in_order(cells: list[str], values: list[str]) -> list[int] | None:
    """Rows holding ``values`` in this column, one per value, in page order; None if any is missing."""
    out: list[int] = []
    at = 0
    for v in values:
        try:
            at = cells.index(v, at)
        except ValueError:
            return None
        out.append(at)
        at += 1
    return out


@pytest.mark.parametrize("page", sorted(PINS))
def test_gold_fields_land_whole_in_one_column(page: str) -> None:
    records = gold(page)
    assert len(records) >= 9
    ex = extraction(page)
    assert ex.tables, f"{page}: no table"
    table = ex.tables[0]
    texts = [[_norm(c.text) if c is not None else "" for c in row] for row in table.rows]
    rows_of: dict[int, list[int]] = {}
    for f in PINS[page]:
        values = [r[f] for r in records]
        assert all(values), f"{page}: gold field {f} is empty in some record; pin another field"
        found = {k: _rows_in_order([row[k] for row in texts], values) for k in range(len(table.columns))}
        holding = {k: rows for k, rows in found.items() if rows is not None}
        assert holding, f"{page}: no column holds gold field {f} for every record"
        k, rows = next(iter(holding.items()))
        assert [texts[i][k] for i in rows] == values
        rows_of[f] = rows
    first, *others = rows_of.values()
    for rows in others:
        assert rows == first, f"{page}: the pinned fields of one gold record are in different rows"
