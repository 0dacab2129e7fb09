"""Ad slots, fixed overlays and invisible subtrees, each rule on either side of its limit.

Pages are made by hand (html > body > a main list, then the element under
test), and cleaned by ``visx.clean.clean`` as the pipeline runs it, so each
case says what a reader of the page would call noise.
"""

from __future__ import annotations

import pytest

from visx.clean import clean
from visx.clean.ads import match_size
from visx.clean.thresholds import AD_LOOSE_SLACK_PX, AD_SIZE_TOL_PX, MODAL_MIN_Z_INDEX
from visx.config import CleanConfig
from visx.model import STYLE_PROPS, VIS_HIDDEN, VIS_OFFPAGE, Node, NodeTable, PageSnapshot

W, H = 1200.0, 2000.0
VIEWPORT = (1200, 800)


def style(**props: str) -> tuple[str, ...]:
    base = dict.fromkeys(STYLE_PROPS, "")
    base.update({"display": "block", "visibility": "visible", "position": "static", "opacity": "1",
                 "background-color": "rgba(0, 0, 0, 0)", "overflow": "visible", "z-index": "auto"})
    base.update({k.replace("_", "-"): v for k, v in props.items()})
    return tuple(base[p] for p in STYLE_PROPS)


class Page:
    """html > body > main (a list of ten text items in the middle of the page)."""

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self.styles: list[tuple[str, ...]] = [style()]
        self.add(-1, "html", (0, 0, W, H))
        self.body = self.add(0, "body", (0, 0, W, H))
        main = self.add(self.body, "ul", (200, 600, 800, 600), ident="main")
        for k in range(10):
            self.add(main, "li", (200, 600 + 60 * k, 800, 50), text=f"Item {k} with a long enough title")

    def add(self, parent: int, tag: str, box: tuple[float, float, float, float], *, text: str = "",
            ident: str = "", classes: tuple[str, ...] = (), attrs: dict[str, str] | None = None,
            vis: int = 0, css: tuple[str, ...] | None = None) -> int:
        i = len(self.nodes)
        st = 0
        if css is not None:
            self.styles.append(css)
            st = len(self.styles) - 1
        x, y, w, h = box
        self.nodes.append(Node(i, parent, tag, ident, classes, dict(attrs or {}), text, "", x, y, w, h, vis, st))
        return i

    def removed(self, **config: bool) -> dict[str, str]:
        snap = PageSnapshot(NodeTable(self.nodes, self.styles), "hand-made", "about:blank", "", 200, W, H,
                            VIEWPORT, True)
        cfg = CleanConfig(bands=False, side_columns=False, **config)
        cleaned = clean(snap, cfg)
        return {(self.nodes[r.node].id or self.nodes[r.node].tag): r.reason for r in cleaned.removed}


# -- ads -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("w", "h", "exact", "loose"), [
    (300, 250, True, True),
    (300 + AD_SIZE_TOL_PX, 250 - AD_SIZE_TOL_PX, True, True),        # a border off: still the unit
    (300 + AD_SIZE_TOL_PX + 1, 250, False, True),                     # a label off: only loosely
    (300, 250 + AD_SIZE_TOL_PX + 1, False, True),
    (300 - AD_SIZE_TOL_PX - 1, 250, False, True),                    # the width range starts below too
    (300 + AD_LOOSE_SLACK_PX, 250 + AD_LOOSE_SLACK_PX, False, True),
    (728, 90, True, True),
    (728 + AD_LOOSE_SLACK_PX + 1, 90, False, False),   # no other unit is near 728 x 90
    (728, 90 + AD_LOOSE_SLACK_PX + 1, False, False),
    (500, 500, False, False),
])
def test_standard_ad_sizes(w: float, h: float, exact: bool, loose: bool) -> None:
    assert match_size(w, h) is exact
    assert match_size(w, h, loose=True) is loose


def test_a_box_of_an_ad_size_with_little_text_is_an_ad() -> None:
    page = Page()
    page.add(page.body, "div", (900, 100, 300, 250), ident="slot")
    assert page.removed() == {"slot": "ad:standard-size"}


def test_an_ad_size_box_full_of_text_is_content_unless_it_is_named_an_ad() -> None:
    page = Page()
    page.add(page.body, "div", (900, 100, 300, 250), text="A real paragraph of content " * 5, ident="story")
    assert page.removed() == {}
    page = Page()
    page.add(page.body, "div", (900, 100, 300, 250), text="A real paragraph of content " * 5, ident="ad-slot")
    assert page.removed() == {"ad-slot": "ad:class-hint"}


def test_a_name_alone_takes_a_box_a_little_off_the_unit() -> None:
    page = Page()
    page.add(page.body, "div", (900, 100, 320, 270), ident="sidebar-advert")  # 20px off: loose
    assert page.removed() == {"sidebar-advert": "ad:class-hint"}
    page = Page()
    page.add(page.body, "div", (900, 100, 320, 270), ident="sidebar-box")
    assert page.removed() == {}


def test_a_thin_or_empty_box_is_no_ad() -> None:
    page = Page()
    page.add(page.body, "div", (900, 100, 0, 250), ident="ad-zero-width")
    page.add(page.body, "div", (900, 400, 300, 0), ident="ad-zero-height")
    page.add(page.body, "div", (900, 500, 100, 30), ident="ad-small")     # named, but smaller than any unit
    assert page.removed() == {}


def test_an_uncaptured_frame_is_an_ad_whatever_its_size() -> None:
    page = Page()
    page.add(page.body, "iframe", (900, 100, 50, 20), ident="f")
    assert page.removed() == {"f": "ad:iframe"}


def _frame_with_document(page: Page, **attrs: str) -> None:
    f = page.add(page.body, "iframe", (900, 100, 500, 400), ident="f", attrs=attrs)
    doc = page.add(f, "html", (900, 100, 500, 400))
    page.add(doc, "p", (900, 100, 500, 40), text="Frame content that is long enough to count")


@pytest.mark.parametrize(("attrs", "ad"), [
    ({"src": "https://ads.example.com/slot.htm"}, True),             # ad host
    ({"src": "https://cdn.example.com/ads/slot.htm"}, True),         # ad path segment
    ({"src": "https://cdn.example.com/player.htm?ref=ads#ads"}, False),  # query and fragment say nothing
    ({"src": "https://cdn.example.com/player.htm"}, False),
    ({"name": "google_ads_iframe_1"}, True),
    ({"name": "player"}, False),
])
def test_a_frame_with_content_is_an_ad_when_its_address_or_name_says_so(attrs: dict[str, str], ad: bool) -> None:
    page = Page()
    _frame_with_document(page, **attrs)
    assert page.removed() == ({"f": "ad:frame-hint"} if ad else {})


def test_ads_after_a_removed_subtree_are_still_found() -> None:
    page = Page()
    page.add(page.body, "div", (0, 100, 300, 250), ident="hidden-box", vis=VIS_HIDDEN)
    page.add(page.body, "div", (900, 100, 300, 250), ident="slot")
    assert page.removed() == {"hidden-box": "invisible:visibility-hidden", "slot": "ad:standard-size"}


# -- overlays --------------------------------------------------------------------------------

def _overlay(page: Page, box: tuple[float, float, float, float], *, z: str = "auto", position: str = "fixed",
             text: str = "Menu Home Shop", ident: str = "bar") -> None:
    o = page.add(page.body, "div", box, ident=ident, css=style(position=position, z_index=z))
    page.add(o, "span", box, text=text)


@pytest.mark.parametrize(("position", "reason"), [("fixed", "overlay:fixed"), ("sticky", "overlay:sticky")])
def test_a_pinned_bar_is_removed_by_its_position(position: str, reason: str) -> None:
    page = Page()
    _overlay(page, (0, 0, W, 60), position=position)
    assert page.removed() == {"bar": reason}


def test_consent_text_makes_a_bar_a_consent_banner_in_any_case() -> None:
    page = Page()
    _overlay(page, (0, 740, W, 60), text="We use COOKIES to improve the site")
    assert page.removed() == {"bar": "overlay:consent"}


@pytest.mark.parametrize(("z", "reason"), [
    (str(MODAL_MIN_Z_INDEX), "overlay:modal-backdrop"),      # high enough: a dialog
    (str(MODAL_MIN_Z_INDEX - 1), "overlay:fixed"),
    ("auto", "overlay:fixed"),                                # no z-index: no claim to be on top
])
def test_a_half_viewport_overlay_is_a_dialog_when_it_is_on_top(z: str, reason: str) -> None:
    page = Page()
    _overlay(page, (0, 0, 1200, 480), z=z)   # 60% of the viewport
    assert page.removed() == {"bar": reason}


def test_a_tall_narrow_overlay_covers_by_both_its_sides() -> None:
    # 300 x 800 = 25% of the viewport: a side panel, not a dialog, however high its z-index
    page = Page()
    _overlay(page, (900, 0, 300, 800), z="1000")
    assert page.removed() == {"bar": "overlay:fixed"}


# -- invisible -------------------------------------------------------------------------------

def test_a_hidden_box_with_a_shown_child_is_entered_not_removed() -> None:
    page = Page()
    box = page.add(page.body, "div", (0, 100, 300, 100), ident="hidden", vis=VIS_HIDDEN)
    page.add(box, "p", (0, 100, 300, 40), text="visible inside", ident="inside")
    page.add(box, "p", (0, 150, 300, 40), text="hidden too", ident="hidden-child", vis=VIS_HIDDEN)
    assert page.removed() == {"hidden-child": "invisible:visibility-hidden"}


def test_a_hidden_box_whose_child_has_no_size_is_removed() -> None:
    page = Page()
    box = page.add(page.body, "div", (0, 100, 300, 100), ident="gone", vis=VIS_OFFPAGE)
    page.add(box, "p", (0, 100, 300, 0), text="no height")
    page.add(box, "p", (0, 100, 0, 40), text="no width")
    assert page.removed() == {"gone": "invisible:off-page"}


def test_an_item_after_a_removed_subtree_is_still_judged() -> None:
    page = Page()
    page.add(page.body, "script", (0, 0, 0, 0), text="var x")
    page.add(page.body, "div", (0, 100, 300, 100), ident="later", vis=VIS_HIDDEN)
    assert page.removed() == {"script": "invisible:non-content", "later": "invisible:visibility-hidden"}
