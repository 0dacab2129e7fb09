"""Ranking a region: what makes a list the main one, and the penalties at their limits.

The regions are made by hand over a small page (html > body > ul > li...), with
the per-element counts (``visx.mine.stats.Stats``) given directly, so each test
varies one property of the records and says which way the score must move.
"""

from __future__ import annotations

import math

import pytest

from visx.mine.rank import score
from visx.mine.stats import Stats
from visx.mine.thresholds import (
    BOTTOM_PENALTY,
    BOTTOM_SHARE,
    MENU_PENALTY,
    MENU_TEXT_CHARS,
    STRICT_DISTANCE,
    TWO_RECORD_WEIGHT,
)
from visx.model import Node, NodeTable, Record, Region

PAGE_W, PAGE_H = 1000.0, 4000.0


def make(n: int, *, chars: int = 80, leaves: int = 3, links: int = 1, media: int = 0,
         tag_distance: float | None = None, y: float = 500.0, parent_tag: str = "ul") -> tuple[NodeTable, Stats, Region]:
    """``n`` records (one li each) with the same counts; the list box is 600 x 100n at ``y``."""
    nodes = [Node(0, -1, "html", "", (), {}, "", "", 0, 0, PAGE_W, PAGE_H, 0, 0),
             Node(1, 0, "body", "", (), {}, "", "", 0, 0, PAGE_W, PAGE_H, 0, 0),
             Node(2, 1, parent_tag, "", (), {}, "", "", 100, y, 600, 100 * n, 0, 0)]
    for k in range(n):
        nodes.append(Node(3 + k, 2, "li", "", (), {}, "", "", 100, y + 100 * k, 600, 100, 0, 0))
    table = NodeTable(nodes, [()])
    size = len(nodes)
    stats = Stats([0] * size, [0] * size, [0] * size, [0] * size)
    for k in range(n):
        i = 3 + k
        stats.text_chars[i], stats.text_leaves[i], stats.links[i], stats.media[i] = chars, leaves, links, media
    recs = [Record([3 + k], (100, y + 100 * k, 600, 100)) for k in range(n)]
    region = Region(2, recs, bbox=(100, y, 600, 100 * n))
    if tag_distance is not None:
        region.evidence["tag_distance"] = tag_distance
    return table, stats, region


def s(n: int, **kw: object) -> float:
    table, stats, region = make(n, **kw)  # type: ignore[arg-type]
    return score(table, stats, region, PAGE_W, PAGE_H)


def test_evidence_reports_the_record_means() -> None:
    table, stats, region = make(4, chars=81, leaves=3, media=1)
    stats.text_chars[3] = 82     # means: 81.25 chars, 3.0 leaves
    stats.media[4] = 2           # 1.25 media
    score(table, stats, region, PAGE_W, PAGE_H)
    ev = region.evidence
    assert ev["records"] == 4
    assert ev["mean_chars"] == round(81.25, 1)   # one place
    assert ev["mean_text_leaves"] == 3.0
    assert ev["mean_media"] == 1.25
    assert ev["area_share"] == round(600 * 400 / (PAGE_W * PAGE_H), 4)


def test_more_records_more_text_more_fields_and_more_area_score_higher() -> None:
    base = s(5)
    assert s(6) > base
    assert s(5, chars=160) > base
    assert s(5, leaves=5) > base
    assert s(5, media=1) > base


def test_unlike_records_score_lower() -> None:
    assert s(5, tag_distance=0.5) < s(5, tag_distance=0.1) < s(5, tag_distance=0.0)


def test_two_records_are_weak_evidence_and_weaker_when_not_strictly_alike() -> None:
    two, three = s(2, tag_distance=0.0), s(3, tag_distance=0.0)
    # the same records: 3 count log1p(3), 2 count log1p(2) times the two-record weight
    area = math.sqrt(3 / 2)
    assert three / two == pytest.approx(math.log1p(3) / (math.log1p(2) * TWO_RECORD_WEIGHT) * area)
    at = s(2, tag_distance=STRICT_DISTANCE)
    past = s(2, tag_distance=STRICT_DISTANCE + 0.01)
    # past the strict distance the weight applies twice
    assert at / past == pytest.approx((1 - STRICT_DISTANCE) / (1 - STRICT_DISTANCE - 0.01) / TWO_RECORD_WEIGHT)


@pytest.mark.parametrize(("chars", "leaves", "links", "menu"), [
    (MENU_TEXT_CHARS - 1, 1, 1, True),    # short single links: a menu
    (MENU_TEXT_CHARS, 1, 1, False),       # long enough to be content
    (MENU_TEXT_CHARS - 1, 2, 1, False),   # two texts a record: more than a menu
    (MENU_TEXT_CHARS - 1, 1, 0, False),   # no links: not a menu
])
def test_menu_like_records_are_penalised(chars: int, leaves: int, links: int, menu: bool) -> None:
    table, stats, region = make(6, chars=chars, leaves=leaves, links=links)
    got = score(table, stats, region, PAGE_W, PAGE_H)
    assert region.evidence.get("menu_like") == (MENU_PENALTY if menu else None)
    if menu:   # the same records with one more character each are not a menu
        table2, stats2, region2 = make(6, chars=MENU_TEXT_CHARS, leaves=leaves, links=links)
        assert score(table2, stats2, region2, PAGE_W, PAGE_H) > got / MENU_PENALTY * 0.99


def test_a_menu_with_a_leaf_and_a_half_a_record_is_still_a_menu() -> None:
    table, stats, region = make(4, chars=10, leaves=1, links=1)
    stats.text_leaves[3] = stats.text_leaves[4] = 2     # mean 1.5 leaves
    score(table, stats, region, PAGE_W, PAGE_H)
    assert region.evidence.get("menu_like") == MENU_PENALTY


def test_a_list_at_the_bottom_of_the_page_is_penalised() -> None:
    line = (1.0 - BOTTOM_SHARE) * PAGE_H
    high, low = s(3, y=line - 1), s(3, y=line + 1)
    assert low == pytest.approx(high * BOTTOM_PENALTY)


def test_a_list_inside_a_nav_is_penalised() -> None:
    assert s(5, parent_tag="nav") < s(5)
