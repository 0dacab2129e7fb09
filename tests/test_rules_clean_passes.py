"""Ads, overlays and invisible subtrees: the limits the slot tests leave open.

Same hand-made pages as ``test_rules_clean_slots`` (html > body > a list of
ten items, then the element under test), cleaned as the pipeline cleans them.
"""

from __future__ import annotations

from test_rules_clean_slots import Page, style

from visx.clean.page import Marks, PageView
from visx.clean.visibility import remove_invisible
from visx.model import VIS_HIDDEN, NodeTable, PageSnapshot

MAIN = 2
"""The main list's index: html, body, then the list."""

# -- ads -------------------------------------------------------------------------------------


def test_a_frame_without_width_or_height_is_no_ad_slot() -> None:
    """An uncaptured frame is an ad whatever its size, but not one that takes no room."""
    page = Page()
    page.add(page.body, "iframe", (900, 100, 0, 20), ident="no-width")
    page.add(page.body, "iframe", (900, 200, 20, 0), ident="no-height")
    assert page.removed() == {}


def test_a_frames_query_says_nothing_even_when_it_holds_an_ad_path() -> None:
    page = Page()
    f = page.add(page.body, "iframe", (900, 100, 500, 400), ident="f",
                 attrs={"src": "https://cdn.example.com/player.htm?back=/ads/list.htm"})
    doc = page.add(f, "html", (900, 100, 500, 400))
    page.add(doc, "p", (900, 100, 500, 40), text="Frame content that is long enough to count")
    assert page.removed() == {}


def test_an_ad_named_slot_of_the_main_list_is_kept_and_ads_after_it_are_still_found() -> None:
    page = Page()
    page.add(MAIN, "li", (200, 1200, 320, 270), ident="ad-slot",            # loosely an ad unit, by name
             text="A sponsored record with enough text to be more than a bare unit " * 2)
    page.add(page.body, "div", (900, 1600, 300, 250), ident="slot")
    assert page.removed() == {"slot": "ad:standard-size"}


# -- overlays --------------------------------------------------------------------------------

def test_a_collapsed_pinned_wrapper_is_judged_by_what_it_shows() -> None:
    """A fixed wrapper 10px high whose child covers the whole viewport is a dialog's backdrop."""
    page = Page()
    o = page.add(page.body, "div", (0, 0, 1200, 10), ident="bar", css=style(position="fixed", z_index="1000"))
    page.add(o, "span", (0, 0, 1200, 800), text="Subscribe to our newsletter")
    assert page.removed() == {"bar": "overlay:modal-backdrop"}


# -- invisible -------------------------------------------------------------------------------

def test_a_hidden_box_with_a_one_pixel_wide_shown_child_is_entered() -> None:
    page = Page()
    box = page.add(page.body, "div", (0, 100, 300, 100), ident="hidden", vis=VIS_HIDDEN)
    page.add(box, "div", (0, 100, 1, 100), ident="rule")
    assert page.removed() == {}


def test_an_unknown_flag_reads_as_the_weakest_claim() -> None:
    """The last known reason (off the page) is what an unexplained flag is taken for."""
    page = Page()
    page.add(page.body, "div", (0, 100, 300, 100), text="flagged", ident="odd", vis=1 << 7)
    assert page.removed() == {"odd": "invisible:off-page"}


def test_the_invisible_pass_run_again_changes_nothing() -> None:
    page = Page()
    box = page.add(page.body, "div", (0, 100, 300, 100), ident="hidden", vis=VIS_HIDDEN)
    page.add(box, "p", (0, 100, 300, 40), text="hidden too", vis=VIS_HIDDEN)
    snap = PageSnapshot(NodeTable(page.nodes, page.styles), "hand-made", "about:blank", "", 200, 1200.0, 2000.0,
                        (1200, 800), True)
    view = PageView(snap)
    marks = Marks(view.end)
    remove_invisible(view, marks)
    first = list(marks.removed)
    remove_invisible(view, marks)
    assert marks.removed == first
    assert [r.node for r in first] == [box]
