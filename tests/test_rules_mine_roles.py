"""What a region is by its own records (``visx.mine.roles``), at each rule's limit.

The pages are made by hand (html > body > container > records), with the per-element
counts (``visx.mine.stats.Stats``) given directly, so each test moves one property of
the records across a threshold and says which role the region must take on each side.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from visx.mine import thresholds as th
from visx.mine.roles import _role, assign_roles
from visx.mine.stats import Stats
from visx.model import Node, NodeTable, Record, Region

PAGE_W, PAGE_H = 1200.0, 3000.0
LONG_TEXT = "a hand finished lamp of brass sold with a shade and a bulb in the home range"


@dataclass
class Page:
    """A page built in document order, with the counts of each element given by hand."""

    nodes: list[Node] = field(default_factory=list)
    counts: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)

    def add(self, parent: int, tag: str, box: tuple[float, float, float, float] = (0, 0, 100, 20),
            attrs: dict[str, str] | None = None, counts: tuple[int, int, int, int] | None = None) -> int:
        i = len(self.nodes)
        self.nodes.append(Node(i, parent, tag, "", (), dict(attrs or {}), "", "", *box, 0, 0))
        if counts is not None:
            self.counts[i] = counts
        return i

    def table(self) -> tuple[NodeTable, Stats]:
        table = NodeTable(self.nodes, [()])
        n = len(self.nodes)
        st = Stats([0] * n, [0] * n, [0] * n, [0] * n)
        for i, (c, lv, ln, md) in self.counts.items():
            st.text_chars[i], st.text_leaves[i], st.links[i], st.media[i] = c, lv, ln, md
        return table, st


def page_with_list(texts: list[str], *, chars: int = 100, leaves: int = 3, links: int = 0, media: int = 0,
                   y: float = 500.0, wrapper: tuple[str, dict[str, str]] = ("div", {}),
                   record_counts: list[tuple[int, int, int, int]] | None = None,
                   ) -> tuple[NodeTable, Stats, Region]:
    """One list (``ul`` inside ``wrapper``) whose records (one ``li`` each, stacked 40px apart
    from ``y``) read ``texts`` and all have the same counts unless ``record_counts`` says."""
    p = Page()
    html = p.add(-1, "html", (0, 0, PAGE_W, PAGE_H))
    body = p.add(html, "body", (0, 0, PAGE_W, PAGE_H))
    wrap = p.add(body, wrapper[0], (0, y, PAGE_W, 40 * len(texts)), wrapper[1])
    ul = p.add(wrap, "ul", (0, y, PAGE_W, 40 * len(texts)))
    recs = []
    for k, t in enumerate(texts):
        box = (0, y + 40 * k, 600, 40)
        cnt = record_counts[k] if record_counts else (chars, leaves, links, media)
        li = p.add(ul, "li", box, counts=cnt)
        recs.append(Record([li], box, t))
    table, st = p.table()
    return table, st, Region(ul, recs, bbox=(0, y, PAGE_W, 40 * len(texts)))


def role(texts: list[str], page_h: float = PAGE_H, **kw: object) -> str:
    table, st, rg = page_with_list(texts, **kw)  # type: ignore[arg-type]
    return _role(table, st, rg, page_h)


# -- filters ---------------------------------------------------------------------------

def test_facet_counts_alone_make_a_filter() -> None:
    # "Lamps (12)" links without any checkbox: the facet counts are enough.
    facets = [f"{w} ({k + 3})" for k, w in enumerate(["Lamps", "Chairs", "Mugs", "Rugs", "Desks"])]
    assert role(facets, chars=10, leaves=1, links=1) == "filter"


def test_a_few_counted_titles_among_records_make_no_filter() -> None:
    # Two records of five read like facets: fewer than ROLE_SHARE of them.
    texts = ["Lamps (12)", "Chairs (3)"] + [LONG_TEXT] * 3
    assert 2 < th.ROLE_SHARE * 5 <= 3
    assert role(texts, chars=100, leaves=3, links=1) == "data"
    assert role(["Lamps (12)", "Chairs (3)", "Mugs (4)"] + [LONG_TEXT] * 2, chars=100, leaves=3, links=1) == "filter"


# -- link lists, footer and the lowest band ---------------------------------------------

def test_footer_teasers_with_a_link_and_a_paragraph_are_data() -> None:
    # In the footer, but each record has two text pieces for its one link: not a link list.
    texts = [LONG_TEXT] * 5
    assert role(texts, chars=100, leaves=2, links=1, wrapper=("footer", {})) == "data"
    # One text piece per link is a link list: footer links.
    assert role(texts, chars=100, leaves=1, links=1, wrapper=("footer", {})) == "footer-links"


def test_link_list_at_its_leaves_per_link_limit_is_navigation() -> None:
    # Eight links per record and exactly LINK_LIST_LEAVES_PER_LINK text pieces per link.
    links = 8
    at = int(th.LINK_LIST_LEAVES_PER_LINK * links)
    assert at == th.LINK_LIST_LEAVES_PER_LINK * links
    assert role([LONG_TEXT] * 5, chars=200, leaves=at, links=links) == "navigation"
    assert role([LONG_TEXT] * 5, chars=200, leaves=at + 1, links=links) == "data"


def test_short_links_at_the_top_are_navigation_and_in_the_lowest_band_footer_links() -> None:
    words = ["About", "Privacy", "Terms", "Careers", "Press"]
    assert role(words, chars=7, leaves=1, links=1, y=100.0) == "navigation"
    low = (1.0 - th.BOTTOM_SHARE) * PAGE_H + 10
    assert role(words, chars=7, leaves=1, links=1, y=low) == "footer-links"


def test_short_lines_in_the_footer_band_are_footer_links() -> None:
    # No links (a copyright line, addresses): only the page's lowest band tells.
    texts = ["Copyright 2024 the shop", "Registered in England and Wales"] * 2
    low = (1.0 - th.FOOTER_BAND) * PAGE_H + 5
    assert role(texts, chars=30, leaves=2, links=0, y=low) == "footer-links"
    # The same lines higher up (between the two bands) are records.
    mid = (1.0 - th.BOTTOM_SHARE) * PAGE_H - 200
    assert role(texts, chars=30, leaves=2, links=0, y=mid) == "data"


# -- inside nav / footer containers -------------------------------------------------------

def test_role_navigation_attribute_marks_a_menu() -> None:
    texts = ["Shop all lamps and lights here"] * 4
    assert role(texts, chars=30, leaves=2, links=1) == "data"
    assert role(texts, chars=30, leaves=2, links=1, wrapper=("div", {"role": "navigation"})) == "navigation"
    assert role(texts, chars=30, leaves=2, links=1, wrapper=("nav", {})) == "navigation"


def test_the_root_element_counts_as_a_container() -> None:
    # A snapshot of a fragment whose root element is the <nav> holding the list.
    p = Page()
    nav = p.add(-1, "nav", (0, 0, PAGE_W, 200))
    recs = []
    for k in range(4):
        box = (0, 40.0 * k, 600, 40)
        li = p.add(nav, "li", box, counts=(30, 2, 1, 0))
        recs.append(Record([li], box, "Shop all lamps and lights here"))
    table, st = p.table()
    assert _role(table, st, Region(nav, recs, bbox=(0, 0, PAGE_W, 160)), PAGE_H) == "navigation"


# -- controls: few words per record --------------------------------------------------------

def test_control_words_limit() -> None:
    # Mean words per record exactly CONTROL_MAX_WORDS (3 and 4 words alternately): records.
    assert th.CONTROL_MAX_WORDS == 3.5
    at = ["alpha beta gamma", "alpha beta gamma delta"] * 2
    assert role(at, chars=30, leaves=3) == "data"
    below = ["alpha beta gamma"] * 4
    assert role(below, chars=30, leaves=3) == "filter"


def test_long_one_word_links_are_navigation_and_without_links_a_filter() -> None:
    # Too long for the menu rule (chars >= MENU_TEXT_CHARS), but one or two words each.
    texts = ["Internationalization Accessibility"] * 4
    assert role(texts, chars=34, leaves=2, links=1) == "navigation"
    assert role(texts, chars=34, leaves=2, links=0) == "filter"


# -- layouts ---------------------------------------------------------------------------------

def test_pair_words_limit() -> None:
    # Two blocks of exactly PAIR_MIN_WORDS words each are a pair of records.
    twelve = " ".join(["word"] * th.PAIR_MIN_WORDS)
    eleven = " ".join(["word"] * (th.PAIR_MIN_WORDS - 1))
    assert role([twelve, twelve], chars=100, leaves=3) == "data"
    assert role([eleven, eleven], chars=100, leaves=3) == "layout"


def test_few_thin_blocks_are_layout_but_four_are_records() -> None:
    texts = [LONG_TEXT] * 3
    assert role(texts, chars=50, leaves=1) == "layout"
    assert role([*texts, LONG_TEXT], chars=50, leaves=1) == "data"
    # Short text alone does not make a layout of many records with several fields.
    assert role([LONG_TEXT] * 5, chars=50, leaves=3) == "data"


# -- how regions sit in one another -------------------------------------------------------------

def layout_page(inner_n: int, inner_chars: int, box_chars: int) -> tuple[NodeTable, Stats, Region, Region]:
    """Two column boxes (a layout region); the first holds a list of ``inner_n`` records."""
    p = Page()
    html = p.add(-1, "html", (0, 0, PAGE_W, PAGE_H))
    body = p.add(html, "body", (0, 0, PAGE_W, PAGE_H))
    main = p.add(body, "main", (0, 0, PAGE_W, 2000))
    left = p.add(main, "div", (0, 0, 800, 2000), counts=(box_chars, 30, 10, 0))
    ul = p.add(left, "ul", (0, 0, 800, 2000))
    inner = []
    for k in range(inner_n):
        box = (0, 100.0 * k, 800, 100)
        li = p.add(ul, "li", box, counts=(inner_chars, 3, 1, 0))
        inner.append(Record([li], box, LONG_TEXT))
    right = p.add(main, "div", (800, 0, 400, 2000), counts=(box_chars, 30, 10, 0))
    table, st = p.table()
    outer = Region(main, [Record([left], (0, 0, 800, 2000), LONG_TEXT * 3),
                          Record([right], (800, 0, 400, 2000), LONG_TEXT * 3)],
                   bbox=(0, 0, PAGE_W, 2000), rank=1)
    lst = Region(ul, inner, bbox=(0, 0, 800, 100.0 * inner_n), rank=2)
    return table, st, outer, lst


def test_layout_boxes_holding_a_long_list_are_layout_and_the_list_stays_data() -> None:
    table, st, outer, lst = layout_page(inner_n=6, inner_chars=100, box_chars=5000)
    assert _role(table, st, outer, PAGE_H) == "data"  # on its own, the boxes read as records
    assert _role(table, st, lst, PAGE_H) == "data"
    assign_roles(table, st, [outer, lst], PAGE_H)
    assert (outer.role, lst.role) == ("layout", "data")
    assert lst.rank == 1  # the data list now ranks first


def test_boxes_whose_text_is_mostly_a_short_inner_list_are_layout() -> None:
    # Four inner records (fewer than LAYOUT_INNER_MIN): the text share decides.
    assert th.LAYOUT_INNER_MIN > 4
    table, st, outer, lst = layout_page(inner_n=4, inner_chars=200, box_chars=1000)  # 800 >= 0.6 * 1000
    assign_roles(table, st, [outer, lst], PAGE_H)
    assert (outer.role, lst.role) == ("layout", "data")
    # The same short list holding a small part of the box text is a field of the box.
    table, st, outer, lst = layout_page(inner_n=4, inner_chars=100, box_chars=5000)
    assign_roles(table, st, [outer, lst], PAGE_H)
    assert outer.role == "data" and lst.role == "fragment"


def test_a_list_inside_each_record_is_a_fragment() -> None:
    # Results whose first record holds a spec table of its own: part of the record.
    p = Page()
    html = p.add(-1, "html", (0, 0, PAGE_W, PAGE_H))
    body = p.add(html, "body", (0, 0, PAGE_W, PAGE_H))
    ol = p.add(body, "ol", (0, 0, PAGE_W, 2000))
    outer_recs = []
    inner_recs: list[Record] = []
    for k in range(5):
        box = (0, 300.0 * k, PAGE_W, 300)
        li = p.add(ol, "li", box, counts=(400, 8, 1, 1))
        outer_recs.append(Record([li], box, LONG_TEXT))
        if k == 0:
            ul = p.add(li, "ul", (0, 100, 800, 200))
            for j in range(3):
                rb = (0, 100 + 60.0 * j, 800, 60)
                row = p.add(ul, "li", rb, counts=(80, 3, 0, 0))
                inner_recs.append(Record([row], rb, LONG_TEXT))
    table, st = p.table()
    results = Region(ol, outer_recs, bbox=(0, 0, PAGE_W, 1500), rank=1)
    specs = Region(ul, inner_recs, bbox=(0, 100, 800, 180), rank=2)
    assign_roles(table, st, [results, specs], PAGE_H)
    assert (results.role, specs.role) == ("data", "fragment")
    assert results.data and not specs.data


def test_a_list_inside_a_lone_block_stays_data() -> None:
    # A region of one record is no list: what lies inside its block is not one of its records.
    table, st, outer, lst = layout_page(inner_n=4, inner_chars=100, box_chars=5000)
    lone = Region(outer.parent, outer.records[:1], bbox=outer.bbox, rank=1)
    assign_roles(table, st, [lone, lst], PAGE_H)
    assert lst.role == "data"


def test_two_readings_of_the_same_list_do_not_make_each_other_fragments() -> None:
    # MDR may report one list at two combination lengths: the same first element.
    # (Four pairs: more than LAYOUT_MAX_BLOCKS, so the pairs are no layout boxes either.)
    table, st, rg = page_with_list([LONG_TEXT] * 8, chars=100, leaves=3)
    pairs = Region(rg.parent, [Record(rg.records[k].parts + rg.records[k + 1].parts, rg.records[k].bbox,
                                      LONG_TEXT) for k in (0, 2, 4, 6)], bbox=rg.bbox, rank=2, gn_size=2)
    rg.rank = 1
    assign_roles(table, st, [rg, pairs], PAGE_H)
    assert rg.role == "data" and pairs.role == "data"


def test_a_second_list_under_the_same_parent_is_not_a_row_of_the_first() -> None:
    # Headings and blurbs alternate under one parent; the shorter reading lies between the
    # records of the longer one but is no expanded row of it.
    p = Page()
    html = p.add(-1, "html", (0, 0, PAGE_W, PAGE_H))
    body = p.add(html, "body", (0, 0, PAGE_W, PAGE_H))
    div = p.add(body, "div", (0, 0, PAGE_W, 2000))
    kids = [p.add(div, "section", (0, 100.0 * k, PAGE_W, 100), counts=(100, 3, 1, 0)) for k in range(10)]
    table, st = p.table()
    longer = Region(div, [Record([kids[k]], (0, 100.0 * k, PAGE_W, 100), LONG_TEXT) for k in (0, 2, 4, 6, 8)],
                    bbox=(0, 0, PAGE_W, 1000), rank=1)
    shorter = Region(div, [Record([kids[k]], (0, 100.0 * k, PAGE_W, 100), LONG_TEXT) for k in (1, 3, 5)],
                     bbox=(0, 100, PAGE_W, 500), rank=2)
    assign_roles(table, st, [longer, shorter], PAGE_H)
    assert longer.role == "data" and shorter.role == "data"
