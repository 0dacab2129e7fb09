"""Alignment: simple tree matching, partial tree alignment, style evidence, lists."""

from __future__ import annotations

import copy

from table_regions import NAMES, load

from visx.align import align_region
from visx.align.stm import Matcher, node_sim
from visx.align.tree import PageCache, TreeBuilder
from visx.config import AlignConfig, Config
from visx.model import STYLE_PROPS, Node, NodeTable, Record, Region

_BASE_STYLE = dict.fromkeys(STYLE_PROPS, "")


def _style(size: str, weight: str, color: str) -> tuple[str, ...]:
    s = dict(_BASE_STYLE, **{"display": "inline", "font-size": size, "font-weight": weight, "color": color})
    return tuple(s[p] for p in STYLE_PROPS)


# Three looks that only the rendered style tells apart (same tag, no classes).
BADGE, NAME, PRICE, STOCK, BLOCK = range(5)
STYLES = [_style("11px", "400", "red"), _style("16px", "700", "black"), _style("14px", "400", "green"),
          _style("12px", "400", "grey"), _style("16px", "400", "black")]


class _Page:
    """Builds a node table: ``add`` appends an element and returns its index."""

    def __init__(self) -> None:
        self.nodes: list[Node] = []

    def add(self, parent: int, tag: str, text: str, style: int = BLOCK, x: float = 0.0, y: float | None = None,
            classes: tuple[str, ...] = ()) -> int:
        i = len(self.nodes)
        top = 20.0 * i if y is None else y
        self.nodes.append(Node(i, parent, tag, "", classes, {}, text, "", x, top, 60.0, 16.0, 0, style))
        return i

    def list_root(self, tag: str) -> int:
        """html > body > ``tag``, the list's parent."""
        self.add(-1, "html", "", y=0.0)
        self.add(0, "body", "", y=0.0)
        return self.add(1, tag, "", y=0.0)

    def done(self, parent: int, items: list[int]) -> tuple[NodeTable, Region]:
        return NodeTable(self.nodes, STYLES), Region(parent, [Record([li]) for li in items])


def _table(records: list[list[tuple[int, str]]]) -> tuple[NodeTable, Region]:
    """A page whose <ul> holds one <li> per record, each a run of styled <span>s."""
    page = _Page()
    ul = page.list_root("ul")
    items = []
    for r, spans in enumerate(records):
        li = page.add(ul, "li", "", BLOCK, 0, 20.0 * r)
        items.append(li)
        for k, (look, text) in enumerate(spans):
            page.add(li, "span", text, look, 70.0 * k, 20.0 * r)
    return page.done(ul, items)


def _texts(nodes: NodeTable, region: Region, config: Config | AlignConfig | None = None) -> list[list[str | None]]:
    al = align_region(nodes, region, config)
    return [[it.text if it else None for it in row] for row in al.cells]


def test_style_evidence_keeps_optional_badge_in_its_own_column() -> None:
    nodes, region = _table([
        [(BADGE, "Sale"), (NAME, "Rake"), (PRICE, "$12"), (STOCK, "In stock")],
        [(NAME, "Hoe"), (PRICE, "$18"), (STOCK, "Only 2 left")],
        [(BADGE, "New"), (NAME, "Fork"), (PRICE, "$27")],
        [(NAME, "Spade"), (PRICE, "$24")],
    ])
    assert _texts(nodes, region) == [
        ["Sale", "Rake", "$12", "In stock"],
        [None, "Hoe", "$18", "Only 2 left"],
        ["New", "Fork", "$27", None],
        [None, "Spade", "$24", None],
    ]


def test_node_score_rewards_matching_fonts_and_offsets() -> None:
    nodes, region = _table([[(NAME, "A"), (PRICE, "$1")], [(NAME, "B"), (PRICE, "$2")]])
    trees = [TreeBuilder(PageCache(nodes)).build(r) for r in region.records]
    a, b = trees
    name_a, price_a = a.children[a.children[a.root][0]]
    name_b, price_b = b.children[b.children[b.root][0]]
    assert node_sim(a.feat[name_a], b.feat[name_b]) == 1.0
    assert node_sim(a.feat[name_a], b.feat[price_b]) < node_sim(a.feat[price_a], b.feat[price_b])


def test_stm_counts_matched_nodes() -> None:
    nodes, region = _table([[(NAME, "A"), (PRICE, "$1")], [(NAME, "B"), (PRICE, "$2")], [(NAME, "C")]])
    t = [TreeBuilder(PageCache(nodes)).build(r) for r in region.records]
    # root + li + 2 spans + 2 texts; the same shape matches node for node
    assert Matcher(t[0], t[1], style=False).score(t[0].root, t[1].root) == 6.0
    assert Matcher(t[0], t[2], style=False).score(t[0].root, t[2].root) == 4.0
    pairs = Matcher(t[0], t[2]).pairs()
    assert len(pairs) == 4 and pairs[t[2].root] == t[0].root


def test_every_item_lands_in_exactly_one_column() -> None:
    for name in NAMES:
        snap, region = load(name)
        al = align_region(snap.nodes, region, Config())
        trees = [TreeBuilder(PageCache(snap.nodes)).build(r) for r in region.records]
        assert al.forced == 0, name
        assert len(al.cells) == len(region.records)
        for row, tree in zip(al.cells, trees, strict=True):
            placed = [it for it in row if it is not None]
            assert len({id(it) for it in placed}) == len(placed)
            # list collapse may merge items, never lose text
            texts = " ".join(it.text for it in placed)
            for t in (it.text for it in tree.item if it is not None and it.kind == "text"):
                assert t in texts, (name, t)


def test_work_budget_caps_big_records_without_losing_items() -> None:
    rows = [[(NAME if k % 2 else PRICE, f"v{r}-{k}") for k in range(40 + r)] for r in range(6)]
    nodes, region = _table(rows)
    al = align_region(nodes, region, AlignConfig(max_stm_cells=100))
    for r, row in enumerate(al.cells):
        assert sum(it is not None for it in row) == 40 + r


def test_inputs_are_not_modified() -> None:
    snap, region = load("list_field")
    before = copy.deepcopy(region)
    align_region(snap.nodes, region, Config())
    assert region == before


def test_region_without_records_gives_empty_alignment() -> None:
    snap, region = load("optional_badge")
    al = align_region(snap.nodes, Region(region.parent, []), Config())
    assert al.columns == [] and al.cells == [] and al.seed == -1


def test_lists_can_be_turned_off() -> None:
    snap, region = load("list_field")
    on = align_region(snap.nodes, region, Config())
    off = align_region(snap.nodes, region, AlignConfig(lists=False))
    assert [c.kind for c in on.columns].count("list") == 2
    assert "list" not in [c.kind for c in off.columns]
    assert len(off.columns) > len(on.columns)


def _meta_records(extra: dict[int, list[list[str]]], base: list[list[str]],
                  label: bool = False) -> tuple[NodeTable, Region]:
    """Records: a title span, then a div holding one <ul class="info"> of <li>s per entry;
    ``extra[r]`` adds entries (more alike <ul>s) to record r. With ``label`` the first
    text of each entry is a <b> label, not an <li>."""
    page = _Page()
    ol = page.list_root("ol")
    items = []
    for r, first in enumerate(base):
        li = page.add(ol, "li", "")
        items.append(li)
        page.add(li, "span", f"Title {r}", classes=("title",))
        meta = page.add(li, "div", "", classes=("meta",))
        for entry in [first, *extra.get(r, [])]:
            ul = page.add(meta, "ul", "", classes=("info",))
            for k, text in enumerate(entry):
                page.add(ul, "b" if label and k == 0 else "li", text)
    return page.done(ol, items)


def test_typed_first_entry_with_a_lone_unlike_second_is_not_a_list() -> None:
    # "4 months ago · 436 views" in every record, a second <ul> in one: fields, not a list.
    base = [[f"{r + 1} months ago", f"{100 * (r + 1)} views"] for r in range(5)]
    nodes, region = _meta_records({3: [["Season 1 Episode 17"]]}, base)
    al = align_region(nodes, region, Config())
    assert "list" not in [c.kind for c in al.columns]
    texts = _texts(nodes, region)
    assert [row[1] for row in texts] == [f"{r + 1} months ago" for r in range(5)]
    assert [row[2] for row in texts] == [f"{100 * (r + 1)} views" for r in range(5)]


def test_names_with_a_lone_second_entry_stay_a_list() -> None:
    # Authors: one record has two. Entries of one shape are exchangeable: a list.
    base = [[f"Author {chr(65 + r)}"] for r in range(5)]
    nodes, region = _meta_records({2: [["Second Writer"]]}, base)
    al = align_region(nodes, region, Config())
    kinds = [c.kind for c in al.columns]
    assert kinds.count("list") == 1
    col = kinds.index("list")
    assert al.cells[2][col] is not None and al.cells[2][col].values == ("Author C", "Second Writer")


def _two_builds() -> tuple[NodeTable, Region]:
    """Six records: the title is <b><span> in three and a bare <span> in three, the price alike."""
    page = _Page()
    ul = page.list_root("ul")
    items = []
    for r in range(6):
        y = 20.0 * r
        li = page.add(ul, "li", "", BLOCK, 0, y)
        items.append(li)
        holder = page.add(li, "b", "", NAME, 0, y) if r % 2 else li
        page.add(holder, "span", f"Product {r}", NAME, 0, y)
        page.add(li, "span", f"${r + 10}.00", PRICE, 70, y)
    return page.done(ul, items)


def test_a_field_built_two_ways_is_one_column() -> None:
    nodes, region = _two_builds()
    joined = _texts(nodes, region)
    assert [row[0] for row in joined] == [f"Product {r}" for r in range(6)]
    assert [row[-1] for row in joined] == [f"${r + 10}.00" for r in range(6)]
    apart = _texts(nodes, region, AlignConfig(join_complementary=False))
    assert len(apart[0]) == len(joined[0]) + 1  # without the join, titles split over two columns


def test_label_value_rows_are_fields_not_a_list() -> None:
    # Every record opens with a "Current" row (label, then value); some add one more
    # row, each of another label. Rows of their own labels are fields, not a list.
    base = [["Current", f"engineer at firm {r}"] for r in range(5)]
    extra = {1: [["Education", "school one"]], 2: [["Summary", "likes maps"]], 3: [["Past", "cook at inn"]]}
    nodes, region = _meta_records(extra, base, label=True)
    al = align_region(nodes, region, Config())
    assert "list" not in [c.kind for c in al.columns]
    texts = _texts(nodes, region)
    col = next(c for c in range(len(texts[0])) if texts[0][c] == "engineer at firm 0")
    assert [row[col] for row in texts] == [f"engineer at firm {r}" for r in range(5)]


def test_prices_behind_two_sets_of_labels_are_fields() -> None:
    # "Reg."/"Orig." prices first, "Was"/"Sale" prices after, in varying numbers: each
    # position is its own field (neither label set opens most entries on its own).
    rows = [["Reg. $60", "Was $40", "Sale $20"], ["Orig. $61", "Sale $21"], ["Reg. $62", "Was $42", "Sale $22"],
            ["Orig. $63", "Was $43"], ["Reg. $64"], ["Orig. $65", "Sale $25"]]
    nodes, region = _meta_records({r: [[t] for t in row[1:]] for r, row in enumerate(rows)},
                                  [[row[0]] for row in rows])
    al = align_region(nodes, region, Config())
    assert "list" not in [c.kind for c in al.columns]
    texts = _texts(nodes, region)
    assert [row[1] for row in texts] == [row[0] for row in rows]


def test_list_entries_lose_their_separators() -> None:
    base = [[f"Writer {chr(65 + r)}"] for r in range(5)]
    nodes, region = _meta_records({1: [[", Second Writer"]], 3: [["; Third Writer |"]]}, base)
    al = align_region(nodes, region, Config())
    col = [c.kind for c in al.columns].index("list")
    assert al.cells[1][col] is not None and al.cells[1][col].values == ("Writer B", "Second Writer")
    assert al.cells[3][col] is not None and al.cells[3][col].values == ("Writer D", "Third Writer")
