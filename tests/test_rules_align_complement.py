"""Joining complementary columns: two columns that never share a record are one field
only when their values look alike (kind, holder tag, font, link status, label or not,
left offset). Each test makes two such halves differ in one of these, or not at all."""

from __future__ import annotations

from test_rules_align_trees import page

from visx.align.complement import merge_complementary
from visx.align.model import AlignedColumn, Item
from visx.align.tree import PageCache
from visx.model import NodeTable, Record


def _records(n: int, styles: list[str]) -> tuple[NodeTable, list[Record], list[int]]:
    """``n`` records, each an <li> holding one <span> (of the given style) at x=10."""
    html = "".join(f"<li><span st={styles[r]} x=10>v{r}</span></li>" for r in range(n))
    nodes = page(f"<ul>{html}</ul>")
    lis = [i for i, nd in enumerate(nodes.nodes) if nd.tag == "li"]
    return nodes, [Record([i]) for i in lis], [nodes[i].children[0] for i in lis]


def _join(halves: list[list[int]], styles: list[str], hrefs: dict[int, str] | None = None) -> list[list[int]]:
    """Which records each column holds after joining; ``halves[c]`` lists column c's records."""
    n = len(styles)
    nodes, records, spans = _records(n, styles)
    hrefs = hrefs or {}
    cells: list[list[Item | None]] = [[None] * len(halves) for _ in range(n)]
    for c, rs in enumerate(halves):
        for r in rs:
            cells[r][c] = Item("text", f"v{r}", spans[r], hrefs.get(r, ""))
    columns = [AlignedColumn("text", f"li/span[{c}]/#text", spans[rs[0]]) for c, rs in enumerate(halves)]
    cols, out = merge_complementary(PageCache(nodes), records, columns, cells)
    assert len(cols) == len(out[0])
    return [[r for r in range(n) if out[r][c] is not None] for c in range(len(cols))]


def test_alike_halves_join() -> None:
    assert _join([[0, 1, 2], [3, 4, 5]], ["inline"] * 6) == [[0, 1, 2, 3, 4, 5]]


def test_halves_in_different_fonts_stay_apart() -> None:
    styles = ["inline"] * 3 + ["big"] * 3
    assert _join([[0, 1, 2], [3, 4, 5]], styles) == [[0, 1, 2], [3, 4, 5]]


def test_link_status_is_what_most_values_have() -> None:
    same = ["inline"] * 6
    # one link in three values: the column is not linked, like a column without links
    assert _join([[0, 1, 2], [3, 4, 5]], same, {3: "u"}) == [[0, 1, 2, 3, 4, 5]]
    # half the values linked is a linked column: it does not join one without links
    assert _join([[0, 1], [2, 3]], same, {2: "u"}) == [[0, 1], [2, 3]]
    assert _join([[0, 1, 2], [3, 4, 5]], same, {3: "u", 4: "u", 5: "u"}) == [[0, 1, 2], [3, 4, 5]]


def test_a_half_joins_an_alike_column_past_one_it_shares_a_record_with() -> None:
    # column 2 shares record 0 with column 0 (another font); column 1 is its complement
    styles = ["big", "big"] + ["inline"] * 4
    assert _join([[0, 1], [2, 3], [0, 4, 5]], styles) == [[0, 1], [0, 2, 3, 4, 5]]


def test_a_fixed_label_does_not_join_a_varying_column() -> None:
    nodes, records, spans = _records(6, ["inline"] * 6)
    cells: list[list[Item | None]] = [[None, None] for _ in range(6)]
    for r in range(3):
        cells[r][0] = Item("text", "Ad", spans[r])
    for r in range(3, 6):
        cells[r][1] = Item("text", f"v{r}", spans[r])
    columns = [AlignedColumn("text", "li/span/#text", spans[0]), AlignedColumn("text", "li/span/#text", spans[3])]
    cols, _ = merge_complementary(PageCache(nodes), records, columns, cells)
    assert len(cols) == 2
