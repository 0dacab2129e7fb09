"""Rank regions: the main list first, menus, footers and pagination last.

The score multiplies named parts, each kept in ``Region.evidence`` so a
report can say why a region ranks where it does.
"""

from __future__ import annotations

import math

from visx.mine.stats import Stats
from visx.mine.thresholds import (
    BOTTOM_PENALTY,
    BOTTOM_SHARE,
    LINK_LIST_LEAVES_PER_LINK,
    LINK_LIST_MAX_MEDIA,
    LINK_LIST_MIN_LINKS,
    LINK_LIST_PENALTY,
    MENU_PENALTY,
    MENU_TEXT_CHARS,
    NAV_CONTAINER_PENALTY,
    STRICT_DISTANCE,
    TWO_RECORD_WEIGHT,
)
from visx.model import NodeTable, Region

NAV_TAGS = frozenset({"nav", "header", "footer", "aside", "menu"})
NAV_ROLES = frozenset({"navigation", "banner", "contentinfo", "menu", "menubar", "tablist", "complementary"})


def _in_nav(nodes: NodeTable, i: int) -> bool:
    j = i
    while j >= 0:
        nd = nodes[j]
        if nd.tag in NAV_TAGS or nd.attrs.get("role", "") in NAV_ROLES:
            return True
        j = nd.parent
    return False


def score(nodes: NodeTable, stats: Stats, region: Region, page_w: float, page_h: float) -> float:
    recs = region.records
    n = len(recs)
    if n == 0:
        return 0.0
    chars = [stats.chars(r.parts) for r in recs]
    mean_chars = sum(chars) / n
    mean_leaves = sum(sum(stats.text_leaves[p] for p in r.parts) for r in recs) / n
    mean_media = sum(sum(stats.media[p] for p in r.parts) for r in recs) / n
    mean_links = sum(sum(stats.links[p] for p in r.parts) for r in recs) / n
    _x, y, w, h = region.bbox
    area = max(0.0, w) * max(0.0, h) / max(1.0, page_w * page_h)
    ev = region.evidence
    ev["records"] = n
    ev["mean_chars"] = round(mean_chars, 1)
    ev["mean_text_leaves"] = round(mean_leaves, 2)
    ev["mean_media"] = round(mean_media, 2)
    ev["area_share"] = round(area, 4)
    # Two records are weak evidence of a list; the tag distance says how alike they are.
    two = TWO_RECORD_WEIGHT * (TWO_RECORD_WEIGHT if ev.get("tag_distance", 0.0) > STRICT_DISTANCE else 1.0)
    s = math.log1p(n) * math.log1p(mean_chars) * (two if n == 2 else 1.0)
    s *= 1.0 - min(0.9, float(ev.get("tag_distance", 0.0)))
    s *= 1.0 + min(mean_leaves, 6.0) / 4.0 + min(mean_media, 1.0) * 0.5
    s *= math.sqrt(max(area, 1e-6))
    penalty = 1.0
    if mean_chars < MENU_TEXT_CHARS and mean_leaves <= 1.5 and mean_links >= 0.8:
        penalty *= MENU_PENALTY
        ev["menu_like"] = MENU_PENALTY
    if (mean_links >= LINK_LIST_MIN_LINKS and mean_media < LINK_LIST_MAX_MEDIA
            and mean_leaves <= LINK_LIST_LEAVES_PER_LINK * mean_links):
        penalty *= LINK_LIST_PENALTY
        ev["link_list"] = LINK_LIST_PENALTY
    if _in_nav(nodes, region.parent):
        penalty *= NAV_CONTAINER_PENALTY
        ev["in_nav_container"] = NAV_CONTAINER_PENALTY
    if page_h > 0 and y > (1.0 - BOTTOM_SHARE) * page_h:
        penalty *= BOTTOM_PENALTY
        ev["at_page_bottom"] = BOTTOM_PENALTY
    return s * penalty


def rank(nodes: NodeTable, stats: Stats, regions: list[Region], page_w: float, page_h: float) -> list[Region]:
    """Score every region and sort them, main list first; ``rank`` 1 is the best."""
    for rg in regions:
        rg.score = round(score(nodes, stats, rg, page_w, page_h), 4)
    regions.sort(key=lambda rg: (-rg.score, rg.bbox[1], rg.bbox[0]))
    for k, rg in enumerate(regions, 1):
        rg.rank = k
    return regions
