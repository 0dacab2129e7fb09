"""PageView, the columns every cleaning pass reads: visible text, extents and the frame.

Each rule is what a reader would see: text counts once wherever it sits (text
or tails), a box counts where its content is (or whole when it is painted
against the page), and the frame is the horizontal extent of what is shown.
"""

from __future__ import annotations

from visx.clean.page import PageView
from visx.model import STYLE_PROPS, VIS_HIDDEN, Node, NodeTable, PageSnapshot

W, H = 1000.0, 2000.0


def style(background: str = "rgba(0, 0, 0, 0)") -> tuple[str, ...]:
    base = dict.fromkeys(STYLE_PROPS, "")
    base.update({"display": "block", "visibility": "visible", "position": "static", "opacity": "1",
                 "background-color": background, "overflow": "visible"})
    return tuple(base[p] for p in STYLE_PROPS)


class Page:
    """html > body, unless ``body=False``; styles are added by ``add(..., bg=...)``."""

    def __init__(self, *, body: bool = True, page_bg: str | None = None) -> None:
        self.nodes: list[Node] = []
        self.styles: list[tuple[str, ...]] = [style()]
        self.add(-1, "html", (0, 0, W, H))
        self.body = self.add(0, "body", (0, 0, W, H), bg=page_bg) if body else 0

    def add(self, parent: int, tag: str, box: tuple[float, float, float, float], *, text: str = "",
            tail: str = "", bg: str | None = None, vis: int = 0) -> int:
        i = len(self.nodes)
        st = 0
        if bg is not None:
            self.styles.append(style(bg))
            st = len(self.styles) - 1
        x, y, w, h = box
        self.nodes.append(Node(i, parent, tag, "", (), {}, text, tail, x, y, w, h, vis, st))
        return i

    def view(self, width: float = W) -> PageView:
        return PageView(PageSnapshot(NodeTable(self.nodes, self.styles), "hand-made", "about:blank", "", 200,
                                     width, H, (1280, 800), True))


# --- visible text ------------------------------------------------------------------------------

def test_text_length_counts_text_and_the_tails_of_children() -> None:
    """<p>Hello <b>big</b> world</p>: 6 + 3 + 6 characters, all of them the paragraph's."""
    page = Page()
    p = page.add(page.body, "p", (0, 0, 500, 20), text="Hello ")
    b = page.add(p, "b", (40, 0, 30, 20), text="big", tail=" world")
    view = page.view()
    assert view.tlen[b] == 3
    assert view.tlen[p] == 15
    assert view.tlen[page.body] == 15


def test_a_box_without_text_has_no_text_length() -> None:
    page = Page()
    wrapper = page.add(page.body, "div", (0, 0, 500, 100))
    page.add(wrapper, "div", (0, 0, 500, 50))
    view = page.view()
    assert view.tlen[wrapper] == 0
    assert view.tlen[0] == 0


# --- extents -----------------------------------------------------------------------------------

def test_an_empty_leaf_box_is_seen_whole() -> None:
    """A sized box with nothing inside (an image placeholder, a rule) is content where it is."""
    page = Page()
    leaf = page.add(page.body, "div", (100, 200, 300, 50))
    view = page.view()
    assert view.has_extent(leaf)
    assert view.ext[leaf] == (100, 200, 400, 250)


def test_a_transparent_wrapper_extends_only_as_far_as_its_content() -> None:
    page = Page()
    wrapper = page.add(page.body, "div", (0, 0, W, 500))
    page.add(wrapper, "span", (10, 20, 100, 20), text="short")
    assert page.view().ext[wrapper] == (10, 20, 110, 40)


def test_a_box_painted_like_the_page_is_not_seen_whole() -> None:
    """The page is grey: a grey wrapper does not stand out, a white card does."""
    grey, white = "rgb(240, 240, 240)", "rgb(255, 255, 255)"
    page = Page(page_bg=grey)
    wrapper = page.add(page.body, "div", (0, 0, W, 500), bg=grey)
    page.add(wrapper, "span", (10, 20, 100, 20), text="short")
    card = page.add(page.body, "div", (0, 600, 400, 300), bg=white)
    page.add(card, "span", (10, 620, 100, 20), text="short")
    view = page.view()
    assert view.ext[wrapper] == (10, 20, 110, 40)
    assert view.ext[card] == (0, 600, 400, 900)


def test_a_page_without_a_body_takes_its_colour_from_the_root() -> None:
    """A document whose root holds no body (a frameset, a fragment) still gets a view."""
    page = Page(body=False)
    page.nodes[0] = Node(0, -1, "html", "", (), {}, "", "", 0, 0, W, H, 0, 1)
    page.styles.append(style("rgb(240, 240, 240)"))
    wrapper = page.add(0, "div", (0, 0, W, 500), bg="rgb(240, 240, 240)")
    page.add(wrapper, "span", (10, 20, 100, 20), text="short")
    view = page.view()
    assert view.ext[wrapper] == (10, 20, 110, 40)


def test_extent_width_is_clipped_to_the_frame() -> None:
    page = Page()
    page.add(page.body, "p", (0, 0, W, 40), text="full width content")
    over = page.add(page.body, "div", (900, 100, 300, 40), text="runs off the right edge")
    view = page.view()
    assert view.frame == (0.0, W)
    assert view.ext_width(over) == 100.0


# --- the frame ---------------------------------------------------------------------------------

def test_the_frame_is_the_horizontal_extent_of_the_content() -> None:
    page = Page()
    page.add(page.body, "p", (0, 0, 600, 40), text="from the left edge")
    page.add(page.body, "p", (-50, 100, 100, 40), text="partly off the page to the left")
    view = page.view()
    assert view.frame == (0.0, 600.0)
    assert view.content_bottom == 140.0


def test_a_page_with_nothing_shown_has_the_whole_page_as_its_frame() -> None:
    page = Page()
    page.add(page.body, "p", (0, 0, 600, 40), text="hidden", vis=VIS_HIDDEN)
    view = page.view()
    assert not view.has_extent(0)
    assert view.frame == (0.0, W)
    assert view.frame_w == W
    assert view.content_bottom == H
