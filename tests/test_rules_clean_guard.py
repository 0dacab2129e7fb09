"""The over-cleaning guard's lists and slots, each rule on either side of its limit.

A repeated list is >= 3 siblings of one tag with similar boxes (one side within
GUARD_SIZE_TOL, the other within GUARD_OTHER_RATIO of the median) and similar
subtree sizes (within GUARD_SUBTREE_RATIO of the median). Pages are made by
hand (html > body > a ``ul`` of items) and read through ``PageView`` as
``clean`` reads them.
"""

from __future__ import annotations

import pytest

from visx.clean.guard import Guard, find_lists
from visx.clean.page import PageView
from visx.clean.thresholds import (
    GUARD_LINK_FLOOR,
    GUARD_OTHER_RATIO,
    GUARD_SIZE_TOL,
    GUARD_SUBTREE_RATIO,
)
from visx.model import STYLE_PROPS, Node, NodeTable, PageSnapshot

W, H = 1200.0, 3000.0
_STYLE = dict.fromkeys(STYLE_PROPS, "")
_STYLE.update({"display": "block", "visibility": "visible", "position": "static", "opacity": "1",
               "background-color": "rgba(0, 0, 0, 0)", "overflow": "visible"})
STYLES = [tuple(_STYLE[p] for p in STYLE_PROPS)]
TEXT = "A record title that is long enough to count as content"


class Page:
    """html > body > ul#list; ``item`` adds a child of the list (x, y, w, h)."""

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self.add(-1, "html", (0, 0, W, H))
        self.body = self.add(0, "body", (0, 0, W, H))
        self.list = self.add(self.body, "ul", (0, 0, W, H))

    def add(self, parent: int, tag: str, box: tuple[float, float, float, float], *, text: str = "",
            ident: str = "", classes: tuple[str, ...] = ()) -> int:
        i = len(self.nodes)
        x, y, w, h = box
        self.nodes.append(Node(i, parent, tag, ident, classes, {}, text, "", x, y, w, h, 0, 0))
        return i

    def item(self, box: tuple[float, float, float, float], *, tag: str = "li", text: str = TEXT,
             ident: str = "", extra: int = 0, link: bool = False) -> int:
        """An item whose text fills it; ``extra`` more descendants make its subtree bigger."""
        i = self.add(self.list, tag, box, ident=ident)
        inner = i
        for _ in range(extra):   # a chain of wrappers, not a list of its own
            inner = self.add(inner, "div", box)
        self.add(inner, "a" if link else "span", box, text=text)
        return i

    def view(self) -> PageView:
        return PageView(PageSnapshot(NodeTable(self.nodes, STYLES), "hand-made", "about:blank", "", 200, W, H,
                                     (W, 800), True))


def members(page: Page) -> list[tuple[int, ...]]:
    view = page.view()
    return [g.members for g in find_lists(view, bytearray(len(view.end)))]


def stacked(page: Page, heights: list[float], *, width: float = 800.0, widths: list[float] | None = None) -> list[int]:
    out, y = [], 0.0
    for k, h in enumerate(heights):
        out.append(page.item((0.0, y, widths[k] if widths else width, h)))
        y += h + 10.0
    return out


# --- stacked lists: one width, heights within GUARD_OTHER_RATIO ----------------------------------

def test_a_stacked_list_keeps_a_taller_item_of_the_same_width() -> None:
    """90px among 50px items is beyond the size tolerance but within the ratio: still a record."""
    assert 50.0 * (1 + GUARD_SIZE_TOL) < 90.0 < 50.0 * GUARD_OTHER_RATIO
    page = Page()
    items = stacked(page, [50.0, 50.0, 50.0, 90.0])
    assert members(page) == [tuple(items)]


def test_a_stacked_list_keeps_a_taller_item_a_little_narrower() -> None:
    """790px wide is the same width as 800 (within the tolerance), so its height may differ more."""
    page = Page()
    items = stacked(page, [50.0, 50.0, 50.0, 90.0], widths=[800.0, 800.0, 800.0, 790.0])
    assert members(page) == [tuple(items)]


@pytest.mark.parametrize(("short", "kept"), [(60.0 / GUARD_OTHER_RATIO, True), (60.0 / GUARD_OTHER_RATIO - 1, False)])
def test_a_stacked_item_may_be_a_third_of_the_median_height(short: float, kept: bool) -> None:
    page = Page()
    items = stacked(page, [60.0, 60.0, 60.0, short])
    assert members(page) == [tuple(items if kept else items[:3])]


# --- rows: one height, widths within GUARD_OTHER_RATIO ---------------------------------------------

@pytest.mark.parametrize(("narrow", "kept"), [(300.0 / GUARD_OTHER_RATIO, True), (300.0 / GUARD_OTHER_RATIO - 1, False)])
def test_a_row_item_may_be_a_third_of_the_median_width(narrow: float, kept: bool) -> None:
    page = Page()
    items = [page.item((x, 100.0, w, 100.0)) for x, w in [(0, 300.0), (310, 300.0), (620, 300.0), (930, narrow)]]
    assert members(page) == [tuple(items if kept else items[:3])]


# --- subtree sizes ---------------------------------------------------------------------------------

def test_subtree_sizes_are_compared_not_positions() -> None:
    """Items apart in document order (a big block between them) are still one list."""
    page = Page()
    first = stacked(page, [50.0, 50.0, 50.0])
    block = page.add(page.list, "div", (0.0, 200.0, 800.0, 300.0))
    for _ in range(40):   # a deep chain, not a list of its own
        block = page.add(block, "div", (0.0, 200.0, 800.0, 300.0))
    page.add(block, "p", (0.0, 200.0, 800.0, 300.0), text="filler")
    last = [page.item((0.0, 520.0 + 60 * k, 800.0, 50.0)) for k in range(2)]
    assert members(page) == [tuple(first + last)]


@pytest.mark.parametrize(("extra", "kept"), [(int(2 * GUARD_SUBTREE_RATIO) - 2, True),
                                             (int(2 * GUARD_SUBTREE_RATIO) - 1, False)])
def test_an_item_with_a_much_bigger_subtree_is_left_out_and_the_rest_stay(extra: int, kept: bool) -> None:
    """Items are 2 nodes (li > span); one of 2 + extra nodes is kept within GUARD_SUBTREE_RATIO times that."""
    page = Page()
    odd = page.item((0.0, 0.0, 800.0, 50.0), extra=extra)   # first, so the others come after it
    rest = [page.item((0.0, 60.0 + 60 * k, 800.0, 50.0)) for k in range(4)]
    assert members(page) == [tuple([odd, *rest] if kept else rest)]


# --- link text discounts the score -----------------------------------------------------------------

def _score(link: bool) -> float:
    page = Page()
    for k in range(4):
        page.item((0.0, 60.0 * k, 800.0, 50.0), link=link)
    view = page.view()
    (g,) = find_lists(view, bytearray(len(view.end)))
    return g.score


def test_a_list_of_links_scores_the_link_floor_share_of_plain_records() -> None:
    assert _score(link=True) == pytest.approx(GUARD_LINK_FLOOR * _score(link=False))


def test_a_list_half_of_link_text_scores_half() -> None:
    page = Page()
    for k in range(4):
        li = page.add(page.list, "li", (0.0, 60.0 * k, 800.0, 50.0))
        page.add(li, "a", (0.0, 60.0 * k, 400.0, 50.0), text="x" * 40)
        page.add(li, "span", (400.0, 60.0 * k, 400.0, 50.0), text="y" * 40)
    view = page.view()
    (g,) = find_lists(view, bytearray(len(view.end)))
    assert g.score == pytest.approx(0.5 * g.area)


# --- slots: the strong list's other children of the members' tag ------------------------------------

def test_slots_are_the_lists_children_of_the_members_tag_with_text() -> None:
    page = Page()
    items = stacked(page, [50.0] * 5)
    odd = page.item((0.0, 400.0, 300.0, 250.0), ident="promo")           # an li of another shape
    other_tag = page.item((0.0, 700.0, 800.0, 50.0), tag="div", ident="sort-bar")
    empty = page.add(page.list, "li", (0.0, 760.0, 800.0, 50.0), ident="spacer")
    view = page.view()
    guard = Guard(view, bytearray(len(view.end)))
    assert [g.members for g in guard.strong] == [tuple(items)]
    assert guard.in_slot(odd) and guard.in_slot(odd + 1)                  # the slot and its subtree
    assert all(guard.in_slot(i) for i in items)
    assert not guard.in_slot(other_tag)
    assert not guard.in_slot(empty)
    assert not guard.in_slot(page.list)
