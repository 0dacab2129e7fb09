"""Header/footer bands and side columns, each rule at its threshold.

Every page here is made by hand: a few boxes placed just inside and just
outside one limit of ``visx/clean/thresholds.py``, so that a rule that moves
(a ``min`` made ``max``, a ``<`` made ``>``, a cap or a gap changed) flips
the outcome of one test of each pair. The passes run alone, after the
invisible pass and with the real guard, as ``clean`` runs them.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from visx.clean.bands import (
    remove_columns_beside_main,
    remove_footer,
    remove_header,
    remove_side_columns,
)
from visx.clean.guard import Guard
from visx.clean.page import Marks, PageView
from visx.clean.thresholds import (
    BAND_CHAIN_GAP_PX,
    BAND_EDGE_TOL_PX,
    BAND_WIDE_FRAC,
    FOOTER_ZONE_MAX_FRAC,
    FOOTER_ZONE_MAX_PX,
    HEADER_ZONE_MAX_FRAC,
    HEADER_ZONE_MAX_PX,
    SEMANTIC_BAND_MIN_FRAC,
    SIDE_ANCHOR_MIN_OVERLAP_PX,
    SIDE_MIN_OVERLAP,
)
from visx.clean.visibility import remove_invisible
from visx.model import STYLE_PROPS, Node, NodeTable, PageSnapshot

W = 1000.0
"""Page width; the frame (the extent of visible content) is 0..W on every page here."""

_STYLE = dict.fromkeys(STYLE_PROPS, "")
_STYLE.update({"display": "block", "visibility": "visible", "position": "static", "opacity": "1",
               "background-color": "rgba(0, 0, 0, 0)", "overflow": "visible"})
STYLES = [tuple(_STYLE[p] for p in STYLE_PROPS)]

Box = tuple[float, float, float, float]
"""x0, y0, x1, y1."""


class Page:
    """html > body > what ``add`` puts there; every leaf has text, so its box is content."""

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self.ids: dict[str, int] = {}
        self.add(-1, "html")
        self.body = self.add(0, "body")

    def add(self, parent: int, tag: str, box: Box = (0.0, 0.0, 0.0, 0.0), *, text: str = "",
            ident: str = "", attrs: dict[str, str] | None = None) -> int:
        i = len(self.nodes)
        x0, y0, x1, y1 = box
        self.nodes.append(Node(i, parent, tag, ident, (), dict(attrs or {}), text, "", x0, y0, x1 - x0, y1 - y0, 0, 0))
        if ident:
            self.ids[ident] = i
        return i

    def leaf(self, parent: int, tag: str, box: Box, text: str, *, ident: str = "") -> int:
        return self.add(parent, tag, box, text=text, ident=ident)

    def block(self, tag: str, box: Box, *, ident: str, link: bool = True, parent: int | None = None,
              attrs: dict[str, str] | None = None) -> int:
        """A box holding one link (or one plain text) that fills it."""
        b = self.add(self.body if parent is None else parent, tag, box, ident=ident, attrs=attrs)
        self.add(b, "a" if link else "span", box, text=f"{ident} text")
        return b

    def snapshot(self) -> PageSnapshot:
        bottom = max(n.y + n.h for n in self.nodes)
        for n in self.nodes[:2]:
            n.w, n.h = W, bottom
        return PageSnapshot(NodeTable(self.nodes, STYLES), "hand-made", "about:blank", "", 200, W, bottom,
                            (1280, 900), True)


def run(page: Page, *passes: Callable[[PageView, Marks, Guard], None]) -> dict[str, str]:
    """Removed element ids -> reason, after the invisible pass and then ``passes``."""
    snap = page.snapshot()
    view = PageView(snap)
    marks = Marks(view.end)
    remove_invisible(view, marks)
    guard = Guard(view, marks.dropped)
    for p in passes:
        p(view, marks, guard)
    return {snap.nodes[r.node].id: r.reason for r in marks.top_most() if snap.nodes[r.node].id}


def with_body_text(page: Page, y0: float, y1: float) -> None:
    """Main content: a full-width paragraph (it fixes the frame and, at its bottom, the content height)."""
    page.leaf(page.body, "p", (0.0, y0, W, y1), "Some main content of the page " * 3, ident="content")


# --- Header zone: min(top + HEADER_ZONE_MAX_PX, HEADER_ZONE_MAX_FRAC * content height) ----------

def _header_page(header_bottom: float, content_bottom: float) -> Page:
    page = Page()
    page.block("nav", (0.0, 0.0, W, header_bottom), ident="top")
    with_body_text(page, header_bottom + 200.0, content_bottom)
    return page


@pytest.mark.parametrize(("delta", "removed"), [(-1.0, True), (1.0, False)])
def test_header_zone_on_a_long_page_is_capped_in_pixels(delta: float, removed: bool) -> None:
    """3000px of content: 30% would be 900px, the pixel cap (420) is the smaller."""
    limit = HEADER_ZONE_MAX_PX
    assert limit < HEADER_ZONE_MAX_FRAC * 3000.0
    got = run(_header_page(limit + BAND_EDGE_TOL_PX + delta, 3000.0), remove_header)
    assert got == ({"top": "band:header"} if removed else {})


@pytest.mark.parametrize(("delta", "removed"), [(-1.0, True), (1.0, False)])
def test_header_zone_on_a_short_page_is_capped_by_its_share(delta: float, removed: bool) -> None:
    """600px of content: 30% (180px) is smaller than the pixel cap, so it is the zone."""
    limit = HEADER_ZONE_MAX_FRAC * 600.0
    assert limit < HEADER_ZONE_MAX_PX
    page = Page()
    page.block("nav", (0.0, 0.0, W, limit + BAND_EDGE_TOL_PX + delta), ident="top")
    with_body_text(page, 400.0, 600.0)
    assert run(page, remove_header) == ({"top": "band:header"} if removed else {})


# --- Footer zone: max(bottom - FOOTER_ZONE_MAX_PX, (1 - FOOTER_ZONE_MAX_FRAC) * bottom) -------

def _footer_page(footer_top: float, bottom: float) -> Page:
    page = Page()
    with_body_text(page, 0.0, footer_top - 200.0)
    page.block("div", (0.0, footer_top, W, bottom), ident="bottom")
    return page


@pytest.mark.parametrize(("delta", "removed"), [(1.0, True), (-1.0, False)])
def test_footer_cap_in_pixels_on_a_long_page(delta: float, removed: bool) -> None:
    """5000px of content: the footer may take at most the bottom 900px (35% would be 1750px)."""
    bottom = 5000.0
    limit = bottom - FOOTER_ZONE_MAX_PX
    assert limit > (1.0 - FOOTER_ZONE_MAX_FRAC) * bottom
    got = run(_footer_page(limit - BAND_EDGE_TOL_PX + delta, bottom), remove_footer)
    assert got == ({"bottom": "band:footer"} if removed else {})


@pytest.mark.parametrize(("delta", "removed"), [(1.0, True), (-1.0, False)])
def test_footer_cap_by_its_share_on_a_short_page(delta: float, removed: bool) -> None:
    """1000px of content: at most the bottom 35% (350px; the pixel cap would allow 900px)."""
    bottom = 1000.0
    limit = (1.0 - FOOTER_ZONE_MAX_FRAC) * bottom
    assert limit > bottom - FOOTER_ZONE_MAX_PX
    got = run(_footer_page(limit - BAND_EDGE_TOL_PX + delta, bottom), remove_footer)
    assert got == ({"bottom": "band:footer"} if removed else {})


# --- Chain gap: blocks of a band follow each other within BAND_CHAIN_GAP_PX ----------------------

@pytest.mark.parametrize(("gap", "both"), [(BAND_CHAIN_GAP_PX, True), (BAND_CHAIN_GAP_PX + 1.0, False)])
def test_header_blocks_chain_across_a_small_gap(gap: float, both: bool) -> None:
    """The bar ends below BAND_START_MAX_PX (160), so the menu joins by the gap alone."""
    page = Page()
    page.block("div", (0.0, 0.0, W, 170.0), ident="bar")
    page.block("div", (0.0, 170.0 + gap, W, 230.0 + gap), ident="menu", link=False)
    with_body_text(page, 400.0, 2000.0)
    got = run(page, remove_header)
    assert got == ({"bar": "band:header", "menu": "band:header"} if both else {"bar": "band:header"})


@pytest.mark.parametrize(("gap", "both"), [(BAND_CHAIN_GAP_PX, True), (BAND_CHAIN_GAP_PX + 1.0, False)])
def test_footer_blocks_chain_across_a_small_gap(gap: float, both: bool) -> None:
    page = Page()
    with_body_text(page, 0.0, 1500.0)
    page.block("div", (0.0, 1700.0, W, 1830.0 - gap), ident="links", link=False)
    page.block("div", (0.0, 1830.0, W, 2000.0), ident="legal")
    got = run(page, remove_footer)
    assert got == ({"links": "band:footer", "legal": "band:footer"} if both else {"legal": "band:footer"})


# --- Width, content and hints --------------------------------------------------------------------

@pytest.mark.parametrize(("frac", "removed"), [(BAND_WIDE_FRAC + 0.01, True), (BAND_WIDE_FRAC - 0.01, False)])
def test_a_plain_band_spans_most_of_the_frame(frac: float, removed: bool) -> None:
    page = Page()
    page.block("div", (0.0, 0.0, frac * W, 60.0), ident="top")
    with_body_text(page, 300.0, 2000.0)
    assert run(page, remove_header) == ({"top": "band:header"} if removed else {})


def test_a_band_needs_links_or_a_control() -> None:
    page = Page()
    page.block("div", (0.0, 0.0, W, 60.0), ident="title", link=False)
    with_body_text(page, 300.0, 2000.0)
    assert run(page, remove_header) == {}
    page = Page()
    top = page.add(page.body, "div", (0.0, 0.0, W, 60.0), ident="top")
    page.leaf(top, "span", (0.0, 0.0, 600.0, 60.0), "Shop name")
    page.add(top, "input", (600.0, 10.0, W, 50.0), attrs={"type": "search"})
    with_body_text(page, 300.0, 2000.0)
    assert run(page, remove_header) == {"top": "band:header"}


@pytest.mark.parametrize(
    ("tag", "attrs"), [("header", {}), ("div", {"role": "banner"})]
)
@pytest.mark.parametrize(
    ("frac", "removed"), [(SEMANTIC_BAND_MIN_FRAC + 0.01, True), (SEMANTIC_BAND_MIN_FRAC - 0.01, False)]
)
def test_a_header_hint_lets_a_narrower_band_count(tag: str, attrs: dict[str, str], frac: float,
                                                  removed: bool) -> None:
    """A <header> (or role=banner) between 35% and 60% of the frame is a band; a div is not."""
    assert frac < BAND_WIDE_FRAC
    page = Page()
    page.block(tag, (0.0, 0.0, frac * W, 60.0), ident="top", attrs=attrs)
    with_body_text(page, 300.0, 2000.0)
    assert run(page, remove_header) == ({"top": "band:header"} if removed else {})
    page = Page()
    page.block("div", (0.0, 0.0, frac * W, 60.0), ident="top")
    with_body_text(page, 300.0, 2000.0)
    assert run(page, remove_header) == {}


@pytest.mark.parametrize(("tag", "attrs"), [("footer", {}), ("div", {"role": "contentinfo"})])
def test_a_footer_hint_counts_without_links(tag: str, attrs: dict[str, str]) -> None:
    """A <footer> holding only a copyright line is a band; the same div is not."""
    for hinted in (True, False):
        page = Page()
        with_body_text(page, 0.0, 1700.0)
        if hinted:
            page.block(tag, (0.0, 1900.0, W, 2000.0), ident="bottom", link=False, attrs=attrs)
        else:
            page.block("div", (0.0, 1900.0, W, 2000.0), ident="bottom", link=False)
        assert run(page, remove_footer) == ({"bottom": "band:footer"} if hinted else {})


# --- Side columns in a layout row: overlap with the main column ---------------------------------

def _row_page(side_top: float, side_h: float = 400.0) -> Page:
    """A row: a 250px column at the left, a 700px main column (0..1000) at the right."""
    page = Page()
    row = page.add(page.body, "div", ident="row")
    main = page.add(row, "div", ident="main")
    page.leaf(main, "p", (300.0, 0.0, W, 1000.0), "The main column " * 5)
    side = page.add(row, "aside", ident="side")
    page.leaf(side, "a", (0.0, side_top, 250.0, side_top + side_h), "Categories")
    with_body_text(page, 1900.0, 2000.0)
    return page


@pytest.mark.parametrize(("past", "removed"), [(0.0, True), (1.0, False)])
def test_side_column_runs_beside_the_main_column_for_half_its_height(past: float, removed: bool) -> None:
    """The column (400px tall) overlaps the main column by exactly half (200px), then by 199px."""
    side_top = 1000.0 - SIDE_MIN_OVERLAP * 400.0 + past
    assert run(_row_page(side_top), remove_side_columns) == ({"side": "column:left"} if removed else {})


def test_side_column_entirely_beside_the_main_column() -> None:
    assert run(_row_page(100.0), remove_side_columns) == {"side": "column:left"}


def test_side_column_below_the_main_column_is_not_one() -> None:
    assert run(_row_page(1100.0), remove_side_columns) == {}


# --- Columns beside the best list (not siblings of it) ------------------------------------------

def _list_page(panel_top: float) -> Page:
    """A list of five results (x 300..1000, y 200..690) and a 300px panel at its left."""
    page = Page()
    col = page.add(page.body, "div", ident="col")
    ul = page.add(col, "ul", ident="list")
    for k in range(5):
        li = page.add(ul, "li", ident=f"r{k}")
        y = 200.0 + 100.0 * k
        page.leaf(li, "a", (300.0, y, W, y + 90.0), f"Result number {k} with a title long enough")
    panel = page.add(page.body, "div", ident="panel")
    page.leaf(panel, "a", (0.0, panel_top, 250.0, panel_top + 300.0), "Filters")
    with_body_text(page, 1900.0, 2000.0)
    return page


@pytest.mark.parametrize(("past", "removed"), [(0.0, True), (1.0, False)])
def test_panel_beside_the_best_list_runs_alongside_it_for_a_few_lines(past: float, removed: bool) -> None:
    """The list ends at 690; the panel (300px tall) overlaps it by 40px, then by 39px."""
    panel_top = 690.0 - SIDE_ANCHOR_MIN_OVERLAP_PX + past
    got = run(_list_page(panel_top), remove_columns_beside_main)
    assert got == ({"panel": "column:left"} if removed else {})
