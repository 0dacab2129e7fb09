"""Records made of rows in sibling blocks (``visx.mine.records.merge_split_rows``), and the
display classes tag strings tell apart (``visx.mine.tagstring.display_class``).

A names row above a prices row, each its own block of cells: in the DOM two one-row lists,
on screen columns, one record each. Pages are built node by node without a browser.
"""

from __future__ import annotations

import pytest
from test_columns import Builder

from visx.mine import mine
from visx.mine.tagstring import display_class
from visx.model import PageSnapshot
from visx.render.snapshot_io import snapshot_from_dom

NAMES = ["Brass lamp with shade", "Oak chair with arms", "Wool rug in grey", "Glass vase tall"]


def names_over_prices(cols: int, *, heading: bool) -> PageSnapshot:
    """section > [h2] div(names: div > a) + div(prices: div > span, del, em), ``cols`` columns."""
    b = Builder()
    html = b.add(-1, "html", box=(0, 0, 1200, 2000))
    body = b.add(html, "body", box=(0, 0, 1200, 2000))
    box = b.add(body, "section", box=(100, 60, 300 * cols, 140))
    if heading:
        b.add(box, "h2", "Compare these", box=(100, 60, 300, 40))
    row = b.add(box, "div", box=(100, 100, 300 * cols, 40))
    for k in range(cols):
        cell = b.add(row, "div", box=(100 + 300 * k, 100, 300, 40))
        b.add(cell, "a", NAMES[k], box=(100 + 300 * k, 100, 200, 20), href=f"http://x/{k}")
    row = b.add(box, "div", box=(100, 140, 300 * cols, 40))
    for k in range(cols):
        cell = b.add(row, "div", box=(100 + 300 * k, 140, 300, 40))
        b.add(cell, "span", f"${k + 1}9.00", box=(100 + 300 * k, 140, 80, 20))
        b.add(cell, "del", f"${k + 2}9.00", box=(180 + 300 * k, 140, 80, 20))
        b.add(cell, "em", "in stock", box=(260 + 300 * k, 140, 80, 20))
    return snapshot_from_dom(b.d, source="split-rows", status=200, javascript=True)


@pytest.mark.parametrize("heading", [False, True])
@pytest.mark.parametrize("cols", [2, 3])
def test_a_names_row_over_a_prices_row_gives_one_record_per_column(cols: int, heading: bool) -> None:
    # Two columns are the fewest that make a row a list; the rows may open their block.
    regions = mine(names_over_prices(cols, heading=heading), None)
    assert len(regions) == 1
    rg = regions[0]
    assert rg.kind == "split" and rg.gn_size == 2  # two rows per record
    assert [r.text for r in rg.records] == [f"{NAMES[k]} ${k + 1}9.00 ${k + 2}9.00 in stock" for k in range(cols)]
    assert all(len(r.parts) == 2 for r in rg.records)


def test_display_classes() -> None:
    # Table parts are one class, apart from blocks; flex boxes one class, inline or not.
    assert display_class("table-row") == display_class("table-cell") == display_class("table")
    assert display_class("table-row") != display_class("block")
    assert display_class("flex") == display_class("inline-flex") != display_class("block")
    assert display_class("grid") == display_class("inline-grid") != display_class("flex")
    assert display_class("inline") == display_class("inline-block") != display_class("block")
