"""MDR's and the record builder's small rules at their limits (``visx.mine.mdr``,
``visx.mine.records``): boxes lined up, twin cards, rows side by side, columns that
align, two-row records, periods, and runs joined across an ad.

Boxes are laid out by hand (html > body > elements); tag strings are plain strings.
"""

from __future__ import annotations

from visx.mine import thresholds as th
from visx.mine.mdr import Candidate, _join_across_gaps, _twin_boxes, lined_up, periodic, two_row
from visx.mine.records import _columns_align, _same_card, _side_by_side
from visx.model import Node, NodeTable


def boxes(*specs: tuple[str, tuple[str, ...], float, float, float, float]) -> NodeTable:
    """html > body > one element per spec (tag, classes, x, y, w, h); the elements are 2, 3..."""
    nodes = [Node(0, -1, "html", "", (), {}, "", "", 0, 0, 2000, 4000, 0, 0),
             Node(1, 0, "body", "", (), {}, "", "", 0, 0, 2000, 4000, 0, 0)]
    for k, (tag, classes, x, y, w, h) in enumerate(specs):
        nodes.append(Node(2 + k, 1, tag, "", classes, {}, "", "", x, y, w, h, 0, 0))
    return NodeTable(nodes, [()])


# -- mdr.lined_up ------------------------------------------------------------------------------

def test_left_edges_two_pixels_apart_are_one_column() -> None:
    nodes = boxes(("div", (), 100, 0, 500, 80), ("div", (), 102, 300, 500, 80), ("div", (), 103, 600, 500, 80))
    assert lined_up(nodes, [2], [3])
    assert not lined_up(nodes, [2], [4])  # three pixels: another column


def test_boxes_with_one_top_and_height_are_one_row() -> None:
    nodes = boxes(("div", (), 0, 100, 300, 200), ("div", (), 400, 101, 290, 180), ("div", (), 800, 100, 200, 200))
    assert lined_up(nodes, [2], [3])
    assert not lined_up(nodes, [2], [4])  # same row, but two thirds of the width


# -- mdr._twin_boxes ----------------------------------------------------------------------------

def test_twin_cards_need_the_same_classes() -> None:
    nodes = boxes(("div", ("card",), 0, 0, 200, 300), ("div", ("card",), 220, 0, 200, 300),
                  ("div", ("card", "ad"), 440, 0, 200, 300), ("div", (), 660, 0, 200, 300),
                  ("div", (), 880, 0, 200, 300))
    assert _twin_boxes(nodes, 2, 3)
    assert not _twin_boxes(nodes, 2, 4)  # another class set
    assert not _twin_boxes(nodes, 5, 6)  # no classes: nothing says one template


def test_twin_cards_may_differ_in_size_by_the_slack() -> None:
    slack = th.TWIN_BOX_SLACK * 300
    nodes = boxes(("div", ("card",), 0, 0, 300, 300), ("div", ("card",), 320, 0, 300 - slack, 300 - slack),
                  ("div", ("card",), 640, 0, 300 - 2 * slack, 300))
    assert _twin_boxes(nodes, 2, 3)
    assert not _twin_boxes(nodes, 2, 4)


# -- mdr.periodic and mdr.two_row ---------------------------------------------------------------

TITLE, DETAILS = "<div><h3><a></a></h3></div>", "<p><span></span><span></span><em></em></p>"


def test_three_title_and_details_groups_show_a_period_two_do_not() -> None:
    strings = [TITLE, DETAILS] * 3
    assert periodic(strings, [[0, 1], [2, 3], [4, 5]])
    assert not periodic(strings, [[0, 1], [2, 3]])


def test_three_title_and_details_pairs_are_two_row_records_two_are_not() -> None:
    strings = [TITLE, DETAILS] * 3
    assert two_row(strings, [[0, 1], [2, 3], [4, 5]])
    assert not two_row(strings, [[0, 1], [2, 3]])


def test_like_rows_paired_by_chance_are_no_two_row_records() -> None:
    strings = [TITLE] * 6
    assert not two_row(strings, [[0, 1], [2, 3], [4, 5]])


def test_two_row_alike_limit_is_inclusive() -> None:
    # Firsts and seconds each one edit in twenty apart across pairs: exactly TWO_ROW_ALIKE.
    a, a2 = "x" * 20, "x" * 19 + "y"
    b, b2 = "q" * 20, "q" * 19 + "z"
    assert th.TWO_ROW_ALIKE == 1 / 20
    assert two_row([a, b, a2, b2, a, b], [[0, 1], [2, 3], [4, 5]])
    c2 = "x" * 18 + "yy"  # two edits: no longer alike
    assert not two_row([a, b, c2, "q" * 18 + "zz", a, b], [[0, 1], [2, 3], [4, 5]])


# -- mdr._join_across_gaps ------------------------------------------------------------------------

def test_runs_resembling_across_one_ad_are_joined() -> None:
    # Children 0-2 and 4-5 are records; 3 is an ad. Records 2 and 4 at exactly the threshold.
    strings = ["abcd", "abcd", "abcd", "<ad>", "abce", "abce"]
    prev = Candidate(1, 1, [[0], [1], [2]], 0, 3, 0.0, [])
    cd = Candidate(1, 1, [[4], [5]], 4, 6, 0.0, [])
    out = _join_across_gaps([prev, cd], list(range(6)), strings, 0.25)
    assert len(out) == 1 and out[0].gns == [[0], [1], [2], [4], [5]] and out[0].skipped == [3]
    assert len(_join_across_gaps([prev, cd], list(range(6)), strings, 0.2)) == 2


def test_runs_of_different_lengths_are_not_joined_across_an_ad() -> None:
    # The pairs' joined tag string is the single records' one: only the run lengths differ.
    strings = ["abcd"] * 3 + ["<ad>"] + ["ab", "cd"] * 2
    prev = Candidate(1, 1, [[0], [1], [2]], 0, 3, 0.0, [])
    cd = Candidate(1, 2, [[4, 5], [6, 7]], 4, 8, 0.0, [])
    assert len(_join_across_gaps([prev, cd], list(range(8)), strings, 0.3)) == 2


# -- records: cells in a row, cards of one template, columns ------------------------------------

def test_cells_side_by_side_may_shift_down_by_a_quarter_of_their_height() -> None:
    nodes = boxes(("td", (), 0, 0, 100, 100), ("td", (), 110, 20, 100, 100), ("td", (), 220, 50, 100, 100))
    assert _side_by_side(nodes, [2, 3])
    assert not _side_by_side(nodes, [3, 4])  # 30px on 100px cells: the next row


def test_same_card_needs_tag_class_and_size() -> None:
    nodes = boxes(("li", ("card", "p1"), 0, 0, 200, 300), ("li", ("card", "p2"), 210, 0, 201, 310),
                  ("li", ("item",), 420, 0, 200, 300), ("li", ("card",), 630, 0, 200, 360),
                  ("div", ("card",), 840, 0, 200, 300))
    assert _same_card(nodes, 2, 3)       # a shared class, height within 5%
    assert not _same_card(nodes, 2, 4)   # no shared class
    assert not _same_card(nodes, 2, 5)   # 20% taller
    assert not _same_card(nodes, 2, 6)   # another tag


def test_columns_align_at_the_overlap_limit() -> None:
    shift = (1 - th.COLUMN_OVERLAP) * 100
    nodes = boxes(("td", (), 0, 0, 100, 20), ("td", (), 200, 0, 100, 20),
                  ("td", (), shift, 30, 100, 20), ("td", (), 200, 30, 100, 20),
                  ("td", (), shift + 1, 60, 100, 20))
    assert _columns_align(nodes, [2, 3], [4, 5])
    assert not _columns_align(nodes, [2, 3], [6, 5])
    assert not _columns_align(nodes, [2, 3], [4])


def test_an_empty_box_lines_up_with_nothing() -> None:
    # Same left edge and width, but no height: an empty placeholder, not a record box.
    nodes = boxes(("div", (), 100, 0, 500, 80), ("div", (), 100, 300, 500, 0), ("div", (), 100, 600, 500, 80))
    assert lined_up(nodes, [2], [4])
    assert not lined_up(nodes, [2], [3])
    assert not lined_up(nodes, [3], [2])
