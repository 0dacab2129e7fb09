"""DRMining + Recordmining (seed 003): the source's worked example, fixtures, small built pages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import visx
from visx.config import MineConfig
from visx.mine import leafpaths, mine, tagstring
from visx.mine import stats as stats_mod
from visx.mine.drmining import dr_mining, grid_cells, ocq, record_mining, runs_at
from visx.model import STYLE_PROPS, Node, NodeTable, PageSnapshot

TABLES = Path(__file__).resolve().parent.parent / "fixtures" / "tables"

# The source's worked example (Ren & Xue 2009, section 1.1.3.2).
S = [6, 7, 8, 7, 6, 9, 7, 8, 7, 6, 8, 7, 6, 8, 7, 6, 9, 8]


def _values(runs: list[tuple[int, int]]) -> list[list[int]]:
    return [S[a:b] for a, b in runs]


def test_worked_example_region_at_h9() -> None:
    dr = dr_mining(S)
    assert dr is not None
    assert dr.h == 9
    assert S[dr.start : dr.end] == [7, 8, 7, 6, 8, 7, 6, 8, 7, 6]
    # Three repeats of (8, 7, 6) after the leading 7.
    assert S[dr.start + 1 : dr.end] == [8, 7, 6] * 3


def test_worked_example_clusterings() -> None:
    assert _values(runs_at(S, 6)) == [S]
    assert _values(runs_at(S, 7)) == [
        [6],
        [7, 8, 7],
        [6],
        [9, 7, 8, 7],
        [6],
        [8, 7],
        [6],
        [8, 7],
        [6],
        [9, 8],
    ]
    assert _values(runs_at(S, 9)) == [
        [6, 7, 8, 7, 6],
        [9],
        [7, 8, 7, 6, 8, 7, 6, 8, 7, 6],
        [9],
        [8],
    ]


def test_ocq_smaller_at_h9_and_none_for_one_cluster() -> None:
    assert ocq(S, runs_at(S, 6)) is None  # "Sep(6) = na" in the source
    q = {h: ocq(S, runs_at(S, h)) for h in (7, 8, 9)}
    assert all(v is not None for v in q.values())
    assert min(q, key=lambda h: q[h] or 2.0) == 9


def test_sequence_without_a_split_is_one_region() -> None:
    dr = dr_mining([5, 5, 5, 5])
    assert dr is not None and (dr.start, dr.end) == (0, 4)
    assert dr_mining([]) is None


def _fixture(name: str) -> PageSnapshot:
    return visx.load_snapshot(TABLES / f"{name}.json.gz")


def test_similarity_is_depth_of_lowest_common_ancestor_plus_one() -> None:
    snap = _fixture("optional_badge")
    nodes = snap.nodes
    ts = tagstring.build(nodes, None)
    leaves = leafpaths.leaves(nodes, ts)
    sims = leafpaths.similarities(nodes, leaves)
    ul = nodes.find_xpath("/html/body/ul")
    assert ul is not None
    li_depth = nodes[ul].depth + 1
    for a, b, s in zip(leaves, leaves[1:], sims, strict=False):
        if nodes[a].parent == nodes[b].parent and nodes[nodes[a].parent].tag == "li":
            assert s == li_depth + 1  # same record: the <li> is shared
        elif nodes[nodes[a].parent].tag == "li" and nodes[nodes[b].parent].tag == "li":
            assert s == li_depth  # next record: only the <ul> is shared


@pytest.mark.parametrize(
    ("name", "parent", "n"),
    [
        ("optional_badge", "/html/body/ul", 5),
        ("list_field", "/html/body/section", 4),
        ("missing_field", "/html/body/div", 5),
    ],
)
def test_fixture_lists_top_region(name: str, parent: str, n: int) -> None:
    snap = _fixture(name)
    regions = mine(snap, None, MineConfig(miner="drmining"))
    top = regions[0]
    assert top.miner == "drmining"
    assert snap.nodes[top.parent].xpath == parent
    assert [snap.nodes[r.parts[0]].xpath for r in top.records] == [
        snap.nodes[c].xpath for c in snap.nodes[top.parent].children if snap.nodes.text(c)
    ]
    assert len(top.records) == n


# --- small pages built in memory (boxes given, no browser) -----------------

Spec = tuple[str, str, tuple[float, float, float, float], list[Any]]


def _page(spec: Spec) -> PageSnapshot:
    """A NodeTable from (tag, text, box, children) tuples in document order."""
    style = tuple("block" if p == "display" else "" for p in STYLE_PROPS)
    out: list[Node] = []

    def add(s: Spec, parent: int) -> None:
        tag, text, (x, y, w, h), children = s
        i = len(out)
        out.append(Node(i, parent, tag, "", (), {}, text, "", x, y, w, h, 0, 0))
        for c in children:
            add(c, i)

    add(spec, -1)
    nodes = NodeTable(out, [style])
    return PageSnapshot(nodes, "mem", "", "", 200, 1200.0, 2000.0, (1200, 900), False)


def _item(y: float, k: int) -> Spec:
    return (
        "li",
        "",
        (0, y, 600, 60),
        [
            ("img", "", (0, y, 40, 40), []),
            ("a", f"Item {k}", (50, y, 200, 20), []),
            ("span", f"${k}.00", (50, y + 20, 80, 20), []),
        ],
    )


def _layout_page() -> PageSnapshot:
    header = (
        "div",
        "",
        (0, 0, 1200, 100),
        [("h1", "Shop", (0, 0, 300, 40), []), ("p", "Welcome to the shop", (0, 50, 300, 20), [])],
    )
    items = [_item(200 + 70 * k, k) for k in range(6)]
    main = (
        "div",
        "",
        (0, 150, 1200, 600),
        [("h2", "Results", (0, 150, 300, 30), []), ("ul", "", (0, 200, 600, 420), items)],
    )
    links = [("p", f"Footer link {k}", (0, 1800 + 12 * k, 300, 12), []) for k in range(16)]
    footer = ("div", "", (0, 1800, 1200, 200), links)
    body = ("body", "", (0, 0, 1200, 2000), [header, main, footer])
    return _page(("html", "", (0, 0, 1200, 2000), [body]))


def test_recordmining_walks_past_a_layout_to_the_list() -> None:
    snap = _layout_page()
    nodes = snap.nodes
    ts = tagstring.build(nodes, None)
    st = stats_mod.build(nodes, ts)
    leaves = leafpaths.leaves(nodes, ts)
    t, recs = record_mining(nodes, ts, st, leaves[0], leaves[-1])
    assert nodes[t].tag == "ul"
    assert [nodes[r].tag for r in recs] == ["li"] * 6
    # The source's walk alone stops at <body>: no child holds more than FACTOR
    # of its elements (the list holds 27 of 48), so the layout blocks are returned.
    t_lit, recs_lit = record_mining(nodes, ts, st, leaves[0], leaves[-1], literal=True)
    assert nodes[t_lit].tag == "body" and len(recs_lit) == 3


def test_mine_drmining_ranks_the_list_first() -> None:
    snap = _layout_page()
    regions = mine(snap, None, MineConfig(miner="drmining"))
    assert snap.nodes[regions[0].parent].tag == "ul"
    assert [r.text for r in regions[0].records] == [f"Item {k} ${k}.00" for k in range(6)]


def _cell(x: float, y: float, k: int) -> Spec:
    return (
        "td",
        "",
        (x, y, 200, 150),
        [
            ("img", "", (x, y, 200, 100), []),
            ("a", f"Product {k}", (x, y + 100, 200, 20), []),
            ("span", f"{k}.99", (x, y + 120, 80, 20), []),
        ],
    )


def test_grid_rows_give_their_cells_as_records() -> None:
    rows = [
        ("tr", "", (0, 160 * r, 600, 150), [_cell(200 * c, 160 * r, 3 * r + c) for c in range(3)])
        for r in range(3)
    ]
    table = ("table", "", (0, 0, 600, 480), [("tbody", "", (0, 0, 600, 480), rows)])
    snap = _page(("html", "", (0, 0, 1200, 2000), [("body", "", (0, 0, 1200, 2000), [table])]))
    nodes = snap.nodes
    ts = tagstring.build(nodes, None)
    st = stats_mod.build(nodes, ts)
    tbody = nodes.find_xpath("/html/body/table/tbody")
    assert tbody is not None
    cells = grid_cells(nodes, ts, st, ts.children[tbody])
    assert cells is not None and [nodes[c].tag for c in cells] == ["td"] * 9
    top = mine(snap, None, MineConfig(miner="drmining"))[0]
    assert top.kind == "grid"
    assert [r.text for r in top.records] == [f"Product {k} {k}.99" for k in range(9)]


def test_stacked_fields_are_not_a_grid() -> None:
    snap = _layout_page()
    nodes = snap.nodes
    ts = tagstring.build(nodes, None)
    st = stats_mod.build(nodes, ts)
    ul = nodes.find_xpath("/html/body/div[2]/ul")
    assert ul is not None
    assert grid_cells(nodes, ts, st, ts.children[ul]) is None
