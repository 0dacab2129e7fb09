"""Warnings an extraction owes its user because of how its page was captured.

A page captured while it was still loading can hand over its filters or its
navigation as the main list: the data came later. That is never silent: the
snapshot's own warnings (it did not settle, a wait ran out) are carried over,
and a main list that looks like navigation or filters on a page that was
still busy gets a warning naming the way out.
"""

from __future__ import annotations

import re

from visx.model import NodeTable, PageSnapshot, Region
from visx.render.thresholds import TIMER_LATER_MS

NAV_EVIDENCE = ("menu_like", "link_list", "in_nav_container")
"""Ranking evidence (``visx.mine.rank``) that already says "navigation"."""

FILTER_SHARE = 0.5
"""Share of records holding a checkbox or radio button (or of facet-count texts such
as "Lamps (12)") from which a list reads as filters rather than data."""

SIDE_COLUMN_SHARE = 0.25
"""A list no wider than this share of the page and ending in its left third is a side column."""

VIRTUAL_PLACED_SHARE = 0.8
"""Share of records placed with ``position: absolute`` (how react-window, TanStack Virtual
and AG Grid place the rows they mount) before a tall list is read as virtualised."""

VIRTUAL_CONTENT_RATIO = 1.5
"""The list's content must be this many times taller than its mounted rows (the harvest's
own test, ``visx.harvest.thresholds``)."""

_FACET = re.compile(r"^[^()]{1,40}\(\s*\d[\d.,\s]*\)$")
_TOGGLE_TYPES = frozenset({"checkbox", "radio"})


def capture_warnings(snapshot: PageSnapshot, regions: list[Region]) -> list[str]:
    out = list(snapshot.warnings)
    if regions and "harvest" not in snapshot.extra:
        tall = virtualised_height(snapshot.nodes, regions[0], snapshot.viewport[1])
        if tall:
            out.append(f"{snapshot.source}: the main list looks virtualised ({len(regions[0].records)} rows "
                       f"mounted in a list {tall:,.0f} px tall): only the mounted rows were captured; add "
                       "--pages 2 to scroll it to its end")
    settle = snapshot.extra.get("settle")
    if not isinstance(settle, dict):
        return out
    busy = _busy(settle)
    if not busy:
        return out
    if not regions:
        out.append(f"{snapshot.source}: no list found while the page was still busy ({busy}); the data "
                   "probably came later: wait for it with --wait-for SELECTOR or raise --timeout")
        return out
    why = navigation_like(snapshot.nodes, regions[0], snapshot.width)
    if why:
        out.append(f"{snapshot.source}: the main list looks like {why} and the page was still busy when "
                   f"captured ({busy}); the real list probably came later: wait for it with --wait-for "
                   "SELECTOR (a selector of its records) or raise --timeout")
    return out


def virtualised_height(nodes: NodeTable, region: Region, view_h: float) -> float:
    """The height of the list ``region``'s rows are placed in, when it is far taller than the rows
    (the rows absolutely placed): a virtualised list showing only its mounted rows. Else 0."""
    recs = region.records
    if len(recs) < 2:
        return 0.0
    placed = sum(1 for r in recs if nodes.style(r.parts[0], "position") == "absolute")
    holders = [region.parent]
    if nodes.style(region.parent, "position") == "absolute" and nodes[region.parent].parent >= 0:
        # Rows flowing in one wrapper that is moved inside a tall spacer (TanStack's pattern).
        holders.append(nodes[region.parent].parent)
    elif placed < VIRTUAL_PLACED_SHARE * len(recs):
        return 0.0
    top = min(r.bbox[1] for r in recs)
    span = max(r.bbox[1] + r.bbox[3] for r in recs) - top
    content = 0.0
    for i in holders:
        nd = nodes[i]
        bottom = max([nd.y + nd.h] + [nodes[c].y + nodes[c].h for c in nd.children])
        content = max(content, bottom - nd.y)
    return content if content > VIRTUAL_CONTENT_RATIO * max(span, 1.0) and content > view_h else 0.0


def _busy(settle: dict[str, object]) -> str:
    parts = []
    requests = settle.get("requests") or []
    if isinstance(requests, list) and requests:
        parts.append(f"{len(requests)} request(s) in flight")
    timers = settle.get("timers") or 0
    if isinstance(timers, int) and timers:
        parts.append(f"{timers} timer(s) pending")
    later = settle.get("later") or 0
    if isinstance(later, int) and later:
        parts.append(f"{later} timer(s) due within {TIMER_LATER_MS // 1000} s")
    if settle.get("loading"):
        parts.append(f"showing {str(settle['loading'])[:40]!r}")
    if settle.get("quiet") is False:
        parts.append("its DOM still changing")
    return ", ".join(parts)


def navigation_like(nodes: NodeTable, region: Region, page_w: float) -> str:
    """Why ``region`` reads as navigation or filters ("" when it does not)."""
    recs = region.records
    if recs:
        toggles = sum(1 for r in recs if any(_toggle(nodes, p) for p in r.parts))
        facets = sum(1 for r in recs if _FACET.match(r.text.strip()))
        if toggles >= FILTER_SHARE * len(recs) or facets >= FILTER_SHARE * len(recs):
            return "filters (checkboxes or facet counts)"
    if any(k in region.evidence for k in NAV_EVIDENCE):
        return "navigation (links in a menu or a navigation container)"
    if not recs:
        return ""
    x, _, w, _ = region.bbox
    if page_w > 0 and w <= SIDE_COLUMN_SHARE * page_w and x + w <= page_w / 3:
        return "a side column"
    return ""


def _toggle(nodes: NodeTable, root: int) -> bool:
    end = nodes[root].end
    return any(nodes[i].tag == "input" and nodes[i].attrs.get("type", "").lower() in _TOGGLE_TYPES
               for i in range(root, end))
