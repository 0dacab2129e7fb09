"""Record trees: what :class:`TreeBuilder` keeps of a record, rule by rule.

Each test builds a small page from HTML (a tiny parser below: ``st`` picks a
rendered style, ``hidden`` marks an invisible element, ``x``/``w``/``h`` set its
box) and checks one rule of the tree: which elements and text pieces become
nodes, which inline children join the text around them, what items elements
carry themselves (images, labels, star widgets), and which elements the second
walk (:meth:`TreeBuilder.index`) visits.
"""

from __future__ import annotations

from html.parser import HTMLParser

from visx.align import align_region, align_regions
from visx.align import thresholds as th
from visx.align.tree import TEXT, PageCache, RecTree, TreeBuilder
from visx.model import STYLE_PROPS, Node, NodeTable, Record, Region


def _style(**kw: str) -> tuple[str, ...]:
    s = dict.fromkeys(STYLE_PROPS, "")
    s.update({"display": "block", "font-size": "16px", "font-weight": "400", "color": "black"})
    s.update({k.replace("_", "-"): v for k, v in kw.items()})
    return tuple(s[p] for p in STYLE_PROPS)


STYLES = {"block": _style(), "inline": _style(display="inline"), "abs": _style(position="absolute"),
          "big": _style(display="inline", font_size="20px")}
_NAMES = list(STYLES)
_INLINE = {"a", "b", "em", "i", "span", "strong", "img", "br"}
_VOID = {"img", "br", "hr", "input", "wbr"}


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.nodes: list[Node] = []
        self.open: list[int] = []
        self.last = (-1, "text")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        st = a.pop("st", "inline" if tag in _INLINE else "block")
        x, w, h = float(a.pop("x", "0")), float(a.pop("w", "60")), float(a.pop("h", "16"))
        vis = 1 if "hidden" in a else 0
        a.pop("hidden", None)
        classes = tuple(a.pop("class", "").split())
        i = len(self.nodes)
        parent = self.open[-1] if self.open else -1
        self.nodes.append(Node(i, parent, tag, a.pop("id", ""), classes, a, "", "", x, 20.0 * i, w, h, vis,
                               _NAMES.index(st)))
        if tag in _VOID:
            self.last = (i, "tail")
        else:
            self.open.append(i)
            self.last = (i, "text")

    def handle_endtag(self, tag: str) -> None:
        if tag not in _VOID:
            self.last = (self.open.pop(), "tail")

    def handle_data(self, data: str) -> None:
        i, which = self.last
        n = self.nodes[i]
        if which == "text":
            n.text += data
        else:
            n.tail += data


def page(html: str) -> NodeTable:
    p = _Parser()
    p.feed(html)
    return NodeTable(p.nodes, list(STYLES.values()))


def build(html: str, tag: str = "li") -> tuple[NodeTable, TreeBuilder, list[RecTree]]:
    """The page, its builder and one tree per ``tag`` element (each a record)."""
    nodes = page(html)
    b = TreeBuilder(PageCache(nodes))
    return nodes, b, [b.build(Record([n.index])) for n in nodes.nodes if n.tag == tag]


def texts(t: RecTree) -> list[str]:
    """The text leaves of a tree in reading order."""
    return [t.item[x].text for x in t.preorder() if t.label[x] == TEXT]  # type: ignore[union-attr]


def items(t: RecTree) -> list[tuple[str, str, str]]:
    """(kind, text, href) of every item in reading order."""
    return [(it.kind, it.text, it.href) for x in t.preorder() if (it := t.item[x]) is not None]


# -- which inline children join the text around them ------------------------------------------

def test_formatting_joins_the_sentence_even_when_it_outweighs_it() -> None:
    _, _, (t,) = build("<ul><li>a <b>really long bold words</b> z</li></ul>")
    assert texts(t) == ["a really long bold words z"]


def test_a_bare_span_joins_like_formatting_and_a_classed_one_like_a_link() -> None:
    _, _, (bare, classed) = build("<ul><li>a <span>really long plain words</span> z</li>"
                                  "<li>a <span class=tag>really long plain words</span> z</li></ul>")
    assert texts(bare) == ["a really long plain words z"]
    assert texts(classed) == ["a", "really long plain words", "z"]


def test_a_link_that_outweighs_the_text_around_it_stays_apart() -> None:
    _, _, (t,) = build("<ul><li>a <a href=u>really long link words</a> z</li></ul>")
    assert items(t) == [("text", "a", ""), ("text", "really long link words", "u"), ("text", "z", "")]


def test_a_link_inside_running_text_joins_it_with_the_formatting() -> None:
    _, _, (t,) = build("<ul><li>Read the <b>whole</b> story and <a href=u>more</a> right here</li></ul>")
    assert items(t) == [("text", "Read the whole story and more right here", "u")]


def test_a_short_label_before_one_link_joins_it() -> None:
    # "by" is shorter than "Ann Smith", but a short label before a single link runs on with it.
    _, _, (t,) = build("<ul><li>by <a href=u>Ann Smith</a></li></ul>")
    assert items(t) == [("text", "by Ann Smith", "u")]


def test_a_label_before_several_links_with_separators_stays_apart() -> None:
    _, _, (t,) = build("<ul><li>By <a href=1>Ann Lee</a>, <a href=2>Bob Ray</a></li></ul>")
    assert items(t) == [("text", "By", ""), ("text", "Ann Lee", "1"), ("text", "Bob Ray", "2")]


def test_a_line_break_or_hidden_part_inside_a_link_keeps_it_inline() -> None:
    _, _, (br, hid) = build(
        "<ul><li>Read the whole story and <a href=u>a<br>b</a> right here</li>"
        "<li>Read the whole story and <a href=u>ab<div hidden>secret</div></a> right here</li></ul>")
    assert texts(br) == ["Read the whole story and a b right here"]
    assert texts(hid) == ["Read the whole story and ab right here"]


def test_merged_text_keeps_breaks_nested_pieces_and_drops_hidden_ones() -> None:
    _, _, (t,) = build("<ul><li>see <b>Apple<br>iPhone <i>7</i> Plus<span hidden>gone</span>!</b> now</li></ul>")
    assert texts(t) == ["see Apple iPhone 7 Plus! now"]


def test_a_line_break_between_text_runs_separates_words() -> None:
    _, _, (t,) = build("<ul><li>Apple<br>iPhone 7 <div>Block</div></li></ul>")
    assert texts(t) == ["Apple iPhone 7", "Block"]


def test_text_after_a_child_is_kept_when_the_parent_has_none_before_it() -> None:
    _, _, (one, two) = build("<ul><li><div>Name</div> $12</li><li><div>A</div><div>B</div> tail</li></ul>")
    assert texts(one) == ["Name", "$12"]
    assert texts(two) == ["A", "B", "tail"]


# -- which elements become nodes ---------------------------------------------------------------

def test_an_empty_element_leaves_no_node() -> None:
    _, _, (t,) = build("<ul><li><div>Name</div><div></div></li></ul>")
    li = t.children[t.root][0]
    assert len(t.children[li]) == 1
    assert texts(t) == ["Name"]


def test_an_image_first_in_a_record_is_kept() -> None:
    _, _, (t,) = build("<ul><li><img src=a.png><div>Name</div></li></ul>")
    assert [k for k, _, _ in items(t)] == ["image", "text"]
    assert t.n_data == 2


def test_every_part_of_a_record_counts_even_after_a_hidden_one() -> None:
    nodes = page("<div><img src=a.png><p hidden>gone</p><p>Name</p><p>More</p></div>")
    t = TreeBuilder(PageCache(nodes)).build(Record([1, 2, 3, 4]))
    assert [(k, s) for k, s, _ in items(t)] == [("image", ""), ("text", "Name"), ("text", "More")]
    assert t.n_data == 3


def test_data_items_are_counted_one_by_one() -> None:
    _, _, (t,) = build("<ul><li><img src=a.png><img src=b.png><div>x</div></li></ul>")
    assert t.n_data == 3


def test_a_link_passes_its_href_to_the_text_below_it() -> None:
    _, _, (one, many) = build("<ul><li><a href=u><div>Title</div></a></li>"
                              "<li><a href=v><div>A</div><div>B</div></a></li></ul>")
    assert items(one) == [("text", "Title", "u")]
    assert items(many) == [("text", "A", "v"), ("text", "B", "v")]


def test_text_shape_is_for_text_leaves_and_shapes_tell_leaves_apart() -> None:
    _, _, (t,) = build("<ul><li><div>$12</div><div>Rake</div><img src=a.png><a href=u class=go></a></li></ul>")
    by_label: dict[str, list[int]] = {}
    for x in t.preorder():
        by_label.setdefault(t.label[x], []).append(x)
    price, word = by_label[TEXT]
    assert (t.feat[price].shape, t.feat[word].shape) == ("price", "word")
    assert t.shape[price] != t.shape[word]          # same look, different text shape
    assert all(t.feat[x].shape == "" for x in t.preorder() if t.label[x] != TEXT)
    img, link = by_label["img"][0], by_label["a"][0]
    assert t.shape[img] != t.shape[link]            # leaf elements of different tags


# -- items elements carry themselves -----------------------------------------------------------

def test_an_image_needs_a_source_or_an_alt_text() -> None:
    _, _, (src, alt, none) = build("<ul><li><img src=a.png></li><li><img alt=' Logo '></li><li><img class=x></li></ul>")
    assert items(src) == [("image", "", "")]
    assert items(alt) == [("image", "Logo", "")]
    assert items(none) == []


def test_a_label_attribute_is_an_item_of_the_element() -> None:
    nodes, _, (aria, title) = build("<ul><li><span class=r aria-label='4.5 of 5'></span></li>"
                                    "<li><span class=r title=' Rated  4 '></span></li></ul>")
    for t, text in ((aria, "4.5 of 5"), (title, "Rated 4")):
        (x,) = [x for x in t.preorder() if t.item[x] is not None]
        it = t.item[x]
        assert it is not None
        assert (it.kind, it.text) == ("attr", text)
        assert nodes[it.node].tag == "span"


def _stars(inner: str) -> float | None:
    _, _, (t,) = build(f"<ul><li><div class=stars x=10 w=100>{inner}</div></li></ul>")
    got = [it.fill for x in t.preorder() if (it := t.item[x]) is not None and it.kind == "stars"]
    return got[0] if got else None


def test_star_fill_is_the_inner_bars_share_of_the_widget() -> None:
    assert _stars("<div x=10 w=45></div>") == 0.45
    assert _stars("<div x=11 w=45></div>") == 0.45      # 1 px off still lines up
    assert _stars("<div x=11.5 w=45></div>") is None    # further off is not the bar


def test_star_fill_skips_what_overflows_the_widget() -> None:
    assert _stars("<div st=abs x=10 w=101></div><div x=10 w=60></div>") == 0.6


def test_a_full_width_bar_counts_only_when_laid_over_the_widget() -> None:
    assert _stars("<div x=10 w=100></div><div x=10 w=30></div>") == 0.3   # the row of empty stars
    assert _stars("<div st=abs x=10 w=100></div>") == 1.0                 # a full overlay


# -- alike siblings and the second walk --------------------------------------------------------

def test_alike_needs_two_alike_siblings_in_a_row() -> None:
    _, b, _ = build("<ul><li><span class=a>x</span><span class=b>y</span><span class=a>z</span></li></ul>")
    assert b.alike is False


def test_alike_siblings_after_running_text_are_noticed() -> None:
    _, b, _ = build("<ul><li>Tags: <div class=tag>a</div><div class=b>c</div><div class=tag>d</div>"
                    "<div class=tag>e</div></li></ul>")
    assert b.alike is True


def _depth(nodes: NodeTable, e: int, top: int) -> int:
    d = 0
    while e != top and e >= 0:
        e, d = nodes[e].parent, d + 1
    return d


def test_index_walks_the_elements_build_visits() -> None:
    deep = "".join("<div>" for _ in range(th.MAX_DEPTH + 5)) + "x" + "</div>" * (th.MAX_DEPTH + 5)
    nodes = page(f"<ul><p hidden>gone</p><li><div>A</div><div hidden>h</div><div>B</div>{deep}</li></ul>")
    li = 2
    assert nodes[li].tag == "li"
    b = TreeBuilder(PageCache(nodes))
    rec = Record([1, li])   # a hidden part first, then the visible one
    t = b.build(rec)
    b.index(t, rec)
    want = {e for e in range(li, nodes[li].end)
            if not nodes[e].vis and _depth(nodes, e, li) <= th.MAX_DEPTH}
    assert set(t.paths.values()) == want


# -- alignment statistics ----------------------------------------------------------------------

def test_alignment_reports_records_and_tree_matchings() -> None:
    nodes = page("<ul><li><div class=a>A</div></li><li><div class=a>B</div><div class=b>C</div></li>"
                 "<li><div class=a>D</div><div class=b>E</div><div class=c>F</div></li>"
                 "<li><div class=a>G</div></li></ul>")
    lis = [n.index for n in nodes.nodes if n.tag == "li"]
    al = align_region(nodes, Region(0, [Record([i]) for i in lis]))
    assert al.stats["records"] == 4.0
    assert al.stats["matches"] == 2.0   # the last record is shaped like the first: its mapping is reused
    assert align_regions(nodes, [Region(0, [])])[0].stats == {"records": 0.0}


# -- text shapes, lists, more items ------------------------------------------------------------

def test_text_shapes_of_ascii_text() -> None:
    from visx.align.tree import text_shape
    assert text_shape("$12") == "price"
    assert text_shape("12/05/2024") == "date"
    assert text_shape("Mar 5") == "date"
    assert text_shape("12.50") == "num"
    assert text_shape("Route 66") == "word"


def test_a_bare_link_and_a_thin_bar_are_items() -> None:
    _, _, (t,) = build("<ul><li><a href=u class=go></a></li></ul>")
    assert items(t) == [("link", "", "u")]
    assert _stars("<div x=10 w=1></div>") == 0.01
    assert _stars("<div st=abs x=10 w=100.4></div>") == 1.0   # a hair wider is still full


def test_two_alike_siblings_after_text_are_noticed() -> None:
    _, b, _ = build("<ul><li>Tags: <div class=t>a</div><div class=t>b</div></li></ul>")
    assert b.alike is True


def test_hidden_children_between_visible_ones_leave_no_text() -> None:
    _, _, (t,) = build("<ul><li><div>A</div><div hidden>h</div><div>B</div></li></ul>")
    assert texts(t) == ["A", "B"]


def test_two_records_are_enough_for_a_list_of_varying_length() -> None:
    nodes = page("<ul><li><div class=title>Rake</div><div><span class=au>Ann Lee</span>"
                 "<span class=au>Bob Ray</span></div></li>"
                 "<li><div class=title>Hoe</div><div><span class=au>Cy Young</span></div></li></ul>")
    lis = [n.index for n in nodes.nodes if n.tag == "li"]
    al = align_region(nodes, Region(0, [Record([i]) for i in lis]))
    assert al.seed == 0   # the record with most data seeds the alignment
    lists = [it for row in al.cells for it in row if it is not None and it.kind == "list"]
    assert [it.values for it in lists] == [("Ann Lee", "Bob Ray"), ("Cy Young",)]
