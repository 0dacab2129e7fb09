"""Over-cleaning guard: strong repeated structures are not removed by position.

A *list* is >= 3 visible sibling elements with the same tag, similar box
sizes (the same width and a comparable height for stacked lists, the other
way round for rows) and similar subtree sizes
(a cheap stand-in for similar tag strings), carrying text. Its score is the
area it covers, discounted when its members carry little text or only
link text (menus, link columns). A
list scoring a good share of the page's best list is *strong*; a removal by
position is vetoed when the candidate holds a member of a strong list or
lies inside one; elements with a member's tag and classes elsewhere count as
members. The list's other children of the members' tag are its *slots*: an
ad-like name alone does not take them out (``in_slot``). Removal by invisibility never asks the guard.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import accumulate

from visx.clean.page import PageView
from visx.clean.thresholds import (
    GUARD_LINK_FLOOR,
    GUARD_MIN_AREA_FRAC,
    GUARD_MIN_MEMBERS,
    GUARD_OTHER_RATIO,
    GUARD_REL_SCORE,
    GUARD_SIZE_TOL,
    GUARD_SUBTREE_RATIO,
    GUARD_TEXT_FULL,
)
from visx.model import Node


@dataclass(slots=True, frozen=True)
class RepeatedList:
    parent: int
    members: tuple[int, ...]
    area: float
    score: float


class Guard:
    """Answers "may this subtree be removed by position?" in O(1)."""

    __slots__ = ("_inside", "_prefix", "_slot", "end", "lists", "main", "strong")

    def __init__(self, view: PageView, dropped: bytearray) -> None:
        self.end = view.end
        self.lists = find_lists(view, dropped)
        best = max((g.score for g in self.lists), default=0.0)
        min_area = GUARD_MIN_AREA_FRAC * view.page_area
        self.strong = [
            g for g in self.lists if g.score >= GUARD_REL_SCORE * best and g.area >= min_area
        ]
        n = len(view.end)
        member = bytearray(n)
        slot = bytearray(n)
        for g in self.strong:
            for m in g.members:
                member[m] = 1
            _slots(view, dropped, g, slot)
        self._slot = slot
        _echo(view, dropped, member)
        inside = bytearray(n)
        for m in range(n):
            if member[m] and not inside[m]:
                e = view.end[m]
                inside[m:e] = b"\x01" * (e - m)
        self._inside = inside
        self._prefix = [0, *accumulate(member)]
        # Extent (x0, y0, x1, y1) of the best list: the likely main content.
        self.main = main_box(view, max(self.lists, key=lambda g: g.score)) if self.lists else None

    def in_slot(self, i: int) -> bool:
        """Is ``i`` (in) a child of a strong list with the members' tag? A name that
        says "ad" is too weak to take such an element out of the list: the miner
        skips it or keeps it."""
        return bool(self._slot[i])

    def vetoes(self, i: int) -> bool:
        """True when removing subtree ``i`` would cut into a strong list."""
        return bool(self._inside[i]) or self._prefix[self.end[i]] > self._prefix[i]


def find_lists(view: PageView, dropped: bytearray) -> list[RepeatedList]:
    """Every repeated list of the page (one per parent and tag), linear time."""
    nodes = view.nodes.nodes
    ext, tlen, ltext, end = view.ext, view.tlen, view.ltext, view.end
    page_w, page_h = view.page_w, view.page_h
    out: list[RepeatedList] = []
    for nd in nodes:
        kids = nd.children
        if len(kids) < GUARD_MIN_MEMBERS or dropped[nd.index] or nd.vis:
            continue
        buckets: dict[str, list[int]] = {}
        for c in kids:
            if dropped[c] or not tlen[c] or ext[c][0] == float("inf"):
                continue
            buckets.setdefault(nodes[c].tag, []).append(c)
        for members in buckets.values():
            if len(members) < GUARD_MIN_MEMBERS:
                continue
            g = _similar(nodes, members, ext, end, page_w, page_h)
            if len(g) < GUARD_MIN_MEMBERS:
                continue
            area = 0.0
            text = links = 0
            for c in g:
                e = ext[c]
                area += _clip(e[0], e[2], page_w) * _clip(e[1], e[3], page_h)
                text += tlen[c]
                links += ltext[c]
            richness = min(1.0, text / len(g) / GUARD_TEXT_FULL)
            plain = max(GUARD_LINK_FLOOR, 1.0 - links / text)
            out.append(RepeatedList(nd.index, tuple(g), area, area * richness * plain))
    return out


def _slots(view: PageView, dropped: bytearray, g: RepeatedList, slot: bytearray) -> None:
    """Mark the list's children of the members' tag and their subtrees: record slots,
    whether they hold a record of another shape or a sponsored item."""
    nodes = view.nodes.nodes
    tag = nodes[g.members[0]].tag
    tlen = view.tlen
    for c in nodes[g.parent].children:
        if nodes[c].tag == tag and tlen[c] and not dropped[c]:
            e = view.end[c]
            slot[c:e] = b"\x01" * (e - c)


def _echo(view: PageView, dropped: bytearray, member: bytearray) -> None:
    """Protect elements styled like a strong list's members (same tag and classes):
    records the list detection left out, such as a first result set apart from
    the rest or a last one of another size."""
    nodes = view.nodes.nodes
    sigs = {(nodes[m].tag, nodes[m].classes) for m in range(len(member)) if member[m]}
    sigs = {s for s in sigs if s[1]}
    if not sigs:
        return
    tlen = view.tlen
    for nd in nodes:
        if tlen[nd.index] and not dropped[nd.index] and (nd.tag, nd.classes) in sigs:
            member[nd.index] = 1


def main_box(view: PageView, g: RepeatedList) -> tuple[float, float, float, float]:
    es = [view.ext[m] for m in g.members]
    return (min(e[0] for e in es), min(e[1] for e in es), max(e[2] for e in es), max(e[3] for e in es))


def _similar(
    nodes: list[Node],
    members: list[int],
    ext: list[tuple[float, float, float, float]],
    end: list[int],
    page_w: float,
    page_h: float,
) -> list[int]:
    ws = [_clip(ext[c][0], ext[c][2], page_w) for c in members]
    hs = [_clip(ext[c][1], ext[c][3], page_h) for c in members]
    sizes = [end[c] - c for c in members]
    mw, mh, ms = _median(ws), _median(hs), _median([float(s) for s in sizes])
    out = []
    for c, w, h, s in zip(members, ws, hs, sizes, strict=True):
        if not (ms / GUARD_SUBTREE_RATIO <= s <= ms * GUARD_SUBTREE_RATIO):
            continue
        same_w, same_h = abs(w - mw) <= GUARD_SIZE_TOL * mw, abs(h - mh) <= GUARD_SIZE_TOL * mh
        near_w = mw / GUARD_OTHER_RATIO <= w <= mw * GUARD_OTHER_RATIO
        near_h = mh / GUARD_OTHER_RATIO <= h <= mh * GUARD_OTHER_RATIO
        if (same_w and near_h) or (same_h and near_w):
            out.append(c)
    return _common_class(out, nodes)


def _common_class(members: list[int], nodes: list[Node]) -> list[int]:
    """When most members share a class token, siblings without it (a sort bar,
    a heading styled like the records) are not members."""
    counts: Counter[str] = Counter(t for c in members for t in set(nodes[c].classes))
    if not counts:
        return members
    token, k = counts.most_common(1)[0]
    if 2 * k <= len(members):
        return members
    return [c for c in members if token in nodes[c].classes]


def _clip(a: float, b: float, limit: float) -> float:
    return max(0.0, min(b, limit) - max(a, 0.0))


def _median(v: list[float]) -> float:
    s = sorted(v)
    return s[len(s) // 2]
