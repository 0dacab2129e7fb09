"""Side columns and bands at the exact limits the boundary tests straddle.

Pages are made with the helpers of ``test_bands_boundaries`` (html > body >
boxes given as x0, y0, x1, y1 on a 1000px frame) and cleaned by one pass after
the invisible pass and with the real guard, as ``clean`` runs them.
"""

from __future__ import annotations

import pytest
from test_bands_boundaries import Page, W, run, with_body_text

from visx.clean.bands import (
    remove_columns_beside_main,
    remove_footer,
    remove_header,
    remove_side_columns,
    union_extent,
)
from visx.clean.thresholds import (
    BAND_EDGE_TOL_PX,
    BAND_WIDE_FRAC,
    FOOTER_ZONE_MAX_PX,
    SIDE_MIN_HEIGHT_PX,
    SIDE_MIN_WIDTH_PX,
)

# --- columns in a layout row ---------------------------------------------------------------------


def _row(page: Page, parent: int, main: tuple[float, float], side: tuple[float, float]) -> None:
    """A row of a main column (x range ``main``, y 0..1000) and a column beside it (y 100..500)."""
    row = page.add(parent, "div", ident="row")
    m = page.add(row, "div", ident="main")
    page.leaf(m, "p", (main[0], 0.0, main[1], 1000.0), "The main column " * 5)
    s = page.add(row, "aside", ident="side")
    page.leaf(s, "a", (side[0], 100.0, side[1], 500.0), "Categories")


@pytest.mark.parametrize(("width", "removed"), [(SIDE_MIN_WIDTH_PX, True), (SIDE_MIN_WIDTH_PX - 1, False)])
def test_a_side_column_may_be_as_narrow_as_the_minimum_width(width: float, removed: bool) -> None:
    page = Page()
    _row(page, page.body, (300.0, W), (0.0, width))
    with_body_text(page, 1900.0, 2000.0)
    assert run(page, remove_side_columns) == ({"side": "column:left"} if removed else {})


@pytest.mark.parametrize(("into", "removed"), [(BAND_EDGE_TOL_PX, True), (BAND_EDGE_TOL_PX + 1, False)])
def test_a_right_column_may_overlap_the_main_column_by_the_edge_tolerance(into: float, removed: bool) -> None:
    page = Page()
    _row(page, page.body, (0.0, 700.0), (700.0 - into, 950.0 - into))
    with_body_text(page, 1900.0, 2000.0)
    assert run(page, remove_side_columns) == ({"side": "column:right"} if removed else {})


def test_a_row_nested_in_wrappers_is_still_split() -> None:
    page = Page()
    wrapper = page.add(page.body, "div", ident="wrapper")
    _row(page, wrapper, (300.0, W), (0.0, 250.0))
    with_body_text(page, 1900.0, 2000.0)
    assert run(page, remove_side_columns) == {"side": "column:left"}


# --- columns beside the best list ----------------------------------------------------------------

def _list_page() -> tuple[Page, int]:
    """A list of five results (x 300..1000, y 200..690) in a wrapper; returns the page and the wrapper."""
    page = Page()
    col = page.add(page.body, "div", ident="col")
    ul = page.add(col, "ul", ident="list")
    for k in range(5):
        li = page.add(ul, "li", ident=f"r{k}")
        y = 200.0 + 100.0 * k
        page.leaf(li, "a", (300.0, y, W, y + 90.0), f"Result number {k} with a title long enough")
    return page, col


@pytest.mark.parametrize(("height", "removed"), [(SIDE_MIN_HEIGHT_PX, True), (SIDE_MIN_HEIGHT_PX - 1, False)])
def test_a_panel_beside_the_list_may_be_as_short_as_the_minimum_height(height: float, removed: bool) -> None:
    page, _ = _list_page()
    panel = page.add(page.body, "div", ident="panel")
    page.leaf(panel, "a", (0.0, 300.0, 250.0, 300.0 + height), "Filters")
    with_body_text(page, 1900.0, 2000.0)
    assert run(page, remove_columns_beside_main) == ({"panel": "column:left"} if removed else {})


def test_two_stacked_widgets_beside_the_list_make_a_column() -> None:
    """Each widget (150px) is too short to be a column; together (300px) they are one."""
    page, col = _list_page()
    for k, top in enumerate((250.0, 400.0)):
        w = page.add(col, "div", ident=f"w{k}")
        page.leaf(w, "a", (0.0, top, 250.0, top + 150.0), f"Widget {k}")
    with_body_text(page, 1900.0, 2000.0)
    assert run(page, remove_columns_beside_main) == {"w0": "column:left", "w1": "column:left"}


def test_union_extent_holds_every_extent() -> None:
    assert union_extent([(900.0, 100.0, 1000.0, 400.0), (850.0, 450.0, 950.0, 700.0)]) == (850.0, 100.0, 1000.0, 700.0)


# --- bands ---------------------------------------------------------------------------------------

def test_a_plain_band_of_exactly_the_wide_share_is_a_band() -> None:
    page = Page()
    page.block("div", (0.0, 0.0, BAND_WIDE_FRAC * W, 60.0), ident="top")
    with_body_text(page, 300.0, 2000.0)
    assert run(page, remove_header) == {"top": "band:header"}


def test_a_footer_starting_exactly_at_the_zone_limit_less_the_tolerance_is_in_it() -> None:
    bottom = 5000.0
    top = bottom - FOOTER_ZONE_MAX_PX - BAND_EDGE_TOL_PX
    page = Page()
    with_body_text(page, 0.0, top - 200.0)
    page.block("div", (0.0, top, W, bottom), ident="bottom")
    assert run(page, remove_footer) == {"bottom": "band:footer"}
