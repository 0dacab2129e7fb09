"""DRMining's record rules at their limits (``visx.mine.drmining``), and the tag strings and
counts they read (``visx.mine.tagstring``, ``visx.mine.stats``).

Tag strings are given directly (one letter per tag shape) where a rule reads only them;
pages are built node by node without a browser where the rule reads the tree.
"""

from __future__ import annotations

from test_columns import Builder

from visx.mine import stats as stats_mod
from visx.mine import tagstring
from visx.mine.drmining import (
    REPEAT_SHARE,
    REPEAT_WINDOW,
    ROW_TOP_TOLERANCE,
    _filter,
    _repeats,
    _side_by_side,
)
from visx.mine.stats import Stats
from visx.mine.tagstring import TagStrings
from visx.model import Node, NodeTable
from visx.render.snapshot_io import snapshot_from_dom

SHAPES = ["abcd", "efgh", "ijkl", "mnop", "qrst", "uvwx"]  # pairwise at distance 1.0


def strings_ts(strings: list[str]) -> tuple[TagStrings, list[int]]:
    n = len(strings)
    return TagStrings(bytearray([1] * n), [[] for _ in range(n)], strings, [1] * n), list(range(n))


def test_records_repeat_when_exactly_the_share_have_a_like_neighbour() -> None:
    assert REPEAT_SHARE * 10 == 7
    ts, recs = strings_ts(["abcd"] * 7 + SHAPES[1:4])
    assert _repeats(ts, recs)
    ts, recs = strings_ts(["abcd"] * 6 + SHAPES[1:5])
    assert not _repeats(ts, recs)


def test_like_records_further_apart_than_the_window_do_not_repeat() -> None:
    period = REPEAT_WINDOW + 1
    ts, recs = strings_ts(SHAPES[:period] * 3)
    assert not _repeats(ts, recs)
    ts, recs = strings_ts(SHAPES[:REPEAT_WINDOW] * 4)  # like ones exactly REPEAT_WINDOW apart
    assert _repeats(ts, recs)


def cells(*tops: float) -> NodeTable:
    nodes = [Node(0, -1, "html", "", (), {}, "", "", 0, 0, 2000, 4000, 0, 0)]
    for k, y in enumerate(tops):
        nodes.append(Node(1 + k, 0, "div", "", (), {}, "", "", 300 * k, y, 280, 200, 0, 0))
    return NodeTable(nodes, [()])


def test_cells_are_side_by_side_up_to_the_top_tolerance() -> None:
    nodes = cells(100, 100 + ROW_TOP_TOLERANCE)
    assert _side_by_side(nodes, [1, 2])
    nodes = cells(100, 101 + ROW_TOP_TOLERANCE)
    assert not _side_by_side(nodes, [1, 2])


def test_a_record_of_another_tag_stays_at_half_the_average_size() -> None:
    # Under t: four <div> records of 5 elements and one <section> of 3 (avgsize 4.6).
    n = 1 + 4 + 1
    nodes = [Node(0, -1, "main", "", (), {}, "", "", 0, 0, 1000, 1000, 0, 0)]
    nodes += [Node(1 + k, 0, "div", "", (), {}, "", "", 0, 100 * k, 1000, 100, 0, 0) for k in range(4)]
    nodes.append(Node(5, 0, "section", "", (), {}, "", "", 0, 400, 1000, 100, 0, 0))
    table = NodeTable(nodes, [()])
    size = [24, 5, 5, 5, 5, 3]
    ts = TagStrings(bytearray([1] * n), [[1, 2, 3, 4, 5], [], [], [], [], []], [""] * n, size)
    st = Stats([10] * n, [1] * n, [0] * n, [0] * n)
    assert _filter(table, ts, st, 0) == [1, 2, 3, 4, 5]
    ts.size[5] = 2  # below avgsize / 2 (4.4 / 2): a separator, dropped
    ts.size[0] = 23
    assert _filter(table, ts, st, 0) == [1, 2, 3, 4]


def test_hidden_elements_and_their_subtrees_are_not_walked() -> None:
    b = Builder()
    html = b.add(-1, "html", box=(0, 0, 1000, 2000))
    body = b.add(html, "body", box=(0, 0, 1000, 2000))
    shown = b.add(body, "div", "shown", box=(0, 0, 500, 30))
    hidden = b.add(body, "div", box=(0, 40, 500, 30))
    inner = b.add(hidden, "span", "inside the hidden one", box=(0, 40, 100, 20))
    b.d["vis"][hidden] = 1
    nodes = snapshot_from_dom(b.d, source="t", status=200, javascript=True).nodes
    ts = tagstring.build(nodes, None)
    assert ts.kept[shown] and not ts.kept[hidden] and not ts.kept[inner]
    assert ts.children[body] == [shown]


def test_only_anchors_with_an_href_count_as_links() -> None:
    b = Builder()
    html = b.add(-1, "html", box=(0, 0, 1000, 2000))
    body = b.add(html, "body", box=(0, 0, 1000, 2000))
    li = b.add(body, "li", box=(0, 0, 500, 30))
    b.add(li, "a", "a button without href", box=(0, 0, 100, 20))
    b.add(li, "a", "a link", box=(100, 0, 100, 20), href="http://x/1")
    nodes = snapshot_from_dom(b.d, source="t", status=200, javascript=True).nodes
    st = stats_mod.build(nodes, tagstring.build(nodes, None))
    assert st.links[li] == 1
