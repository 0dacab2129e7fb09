"""Sections of one list joined, and a list's pagination row left out.

A results page often splits its list: sponsored results above and below the
organic ones, or "page 1" and "more results" blocks, each under its own
parent. Records whose root elements carry the same tag and the same (non-empty)
classes, in regions that share the column (each spans nearly all of the
other's width) and do not overlap, are one list: they join into one region,
records in page order.

A list's pagination row sometimes lines up with its records and becomes its
first or last one; a record of page numbers only leaves the list.
"""

from __future__ import annotations

import re

from visx.mine.mdr import distance
from visx.mine.shape import leaf_shape
from visx.mine.stats import Stats
from visx.mine.thresholds import (
    PAGER_MIN_RECORDS,
    SECTION_GAP_RECORDS,
    SECTION_MARKERS,
    SECTION_OVERLAP,
    SHAPE_DISTANCE,
    SHAPE_SAMPLE,
)
from visx.model import NodeTable, Region, union_bbox


def _template(nodes: NodeTable, rg: Region) -> tuple[str, tuple[str, ...]] | None:
    """The tag and the classes every record's root has (a last-item marker aside), if any."""
    if any(len(r.parts) != 1 for r in rg.records):
        return None
    roots = [nodes[r.parts[0]] for r in rg.records]
    if len({n.tag for n in roots}) != 1:
        return None
    shared = set(roots[0].classes).intersection(*(n.classes for n in roots[1:]))
    return (roots[0].tag, tuple(sorted(shared))) if shared else None


def _same_column(a: Region, b: Region) -> bool:
    """Horizontally, each region covers nearly all of the other (a 4-column strip above a
    list may reach a little further out than the list)."""
    ax, _, aw, _ = a.bbox
    bx, _, bw, _ = b.bbox
    overlap = min(ax + aw, bx + bw) - max(ax, bx)
    return aw > 0 and bw > 0 and overlap >= SECTION_OVERLAP * max(aw, bw)


def _within(nodes: NodeTable, inner: Region, outer: Region) -> bool:
    """Some record of ``inner`` lies inside a record of ``outer``."""
    return any(nodes.is_ancestor(p, q.parts[0]) for r in outer.records for p in r.parts for q in inner.records)


def _apart(nodes: NodeTable, a: Region, b: Region) -> bool:
    """Neither region lies inside a record of the other, and their boxes do not overlap vertically."""
    _, ay, _, ah = a.bbox
    _, by, _, bh = b.bbox
    if ay < by + bh and by < ay + ah:
        return False
    return not _within(nodes, b, a) and not _within(nodes, a, b)


def _document(nodes: NodeTable, i: int) -> int:
    """The ``<html>`` node of the document ``i`` belongs to (the page's, or a frame's)."""
    while i >= 0 and nodes[i].tag != "html":
        i = nodes[i].parent
    return i


def _common_ancestor(nodes: NodeTable, a: int, b: int) -> int:
    while not nodes.is_ancestor(a, b):
        a = nodes[a].parent
    return a


def join_sections(nodes: NodeTable, regions: list[Region]) -> list[Region]:
    """Regions of one record template in one column, joined (the largest one's evidence kept).

    One template: the records' roots have the same tag, and the classes all the
    records of one region share are those all the records of the other share (a
    last-item class on one of them aside). A class that only one section carries
    on every record ("sponsored") keeps it apart: on the dev pages, looser tests
    joined category tiles to product cards. Lists in two documents (the page and a
    frame, two frames) stay apart: each frame is a page of its own."""
    templates = [_template(nodes, rg) for rg in regions]
    order = sorted(range(len(regions)), key=lambda k: -len(regions[k].records))
    joined: dict[int, Region] = {}
    gone: set[int] = set()
    for k in order:
        base, key = regions[k], templates[k]
        if key is None or k in gone:
            continue
        parts = [base]
        for j in order:
            other = templates[j]
            if j == k or j in gone or j in joined:
                continue
            rg = regions[j]
            if other == key and _same_column(base, rg) and all(_apart(nodes, rg, p) for p in parts) \
                    and _document(nodes, rg.parent) == _document(nodes, base.parent):
                parts.append(rg)
                gone.add(j)
        if len(parts) < 2:
            continue
        records = sorted((r for p in parts for r in p.records), key=lambda r: r.parts[0])
        parent = base.parent
        for p in parts[1:]:
            parent = _common_ancestor(nodes, parent, p.parent)
        evidence = dict(base.evidence)
        evidence["joined_sections"] = len(parts)
        joined[k] = Region(parent=parent, records=records, bbox=union_bbox([r.bbox for r in records]),
                           kind=base.kind, gn_size=base.gn_size, evidence=evidence)
    return [joined.get(k, rg) for k, rg in enumerate(regions) if k not in gone]


_PAGER_TOKEN = re.compile(r"^(?:\d{1,4}|[.…«»‹›<>|/,:-]+)$")


def _pager_like(text: str) -> bool:
    """Page numbers and arrows only ("1 2 3 … 13", "« 1 2 »"): no letters, two numbers or more."""
    toks = text.split()
    return len(toks) >= 2 and sum(t.isdigit() for t in toks) >= 2 and all(_PAGER_TOKEN.match(t) for t in toks)


def drop_pager_records(regions: list[Region]) -> list[Region]:
    """A first or last record made of page numbers, in a list whose other records hold words,
    is the list's pagination that happened to line up with it: it leaves the records."""
    out = []
    for rg in regions:
        recs = rg.records
        if len(recs) >= PAGER_MIN_RECORDS and any(any(c.isalpha() for c in r.text) for r in recs[1:-1]):
            keep = [r for k, r in enumerate(recs) if not ((k == 0 or k == len(recs) - 1) and _pager_like(r.text))]
            if len(keep) != len(recs):
                rg = Region(parent=rg.parent, records=keep, bbox=union_bbox([r.bbox for r in keep]), kind=rg.kind,
                            gn_size=rg.gn_size, evidence=dict(rg.evidence))
        out.append(rg)
    return out


def _shape(nodes: NodeTable, stats: Stats, rg: Region) -> str:
    """The most common record shape of a region."""
    counts: dict[str, int] = {}
    for r in rg.records[:SHAPE_SAMPLE]:
        k = leaf_shape(nodes, r.parts)
        counts[k] = counts.get(k, 0) + 1
    return max(counts, key=lambda k: counts[k]) if counts else ""


def join_adjacent_sections(nodes: NodeTable, stats: Stats, regions: list[Region]) -> list[Region]:
    """Data lists one right above the other, in one column and one document, whose records
    have the same shape (the same text, link and picture leaves in the same order) are one
    list written two ways: sponsored results above organic ones, a featured strip."""
    data = sorted((rg for rg in regions if rg.data and rg.records), key=lambda rg: rg.bbox[1])
    replaced: dict[int, Region] = {}
    current: Region | None = None
    for b in data:
        if current is not None and _follows(nodes, stats, current, b):
            merged = _merge(nodes, current, b)
            for rg in (current, b):
                replaced[id(rg)] = merged
            for key, rep in replaced.items():
                if rep is current:
                    replaced[key] = merged
            current = merged
        else:
            current = b
    if not replaced:
        return regions
    out: list[Region] = []
    for rg in regions:
        rep = replaced.get(id(rg), rg)
        if all(o is not rep for o in out):
            out.append(rep)
    return out


def _follows(nodes: NodeTable, stats: Stats, a: Region, b: Region) -> bool:
    """``b`` starts right below ``a``, in its column and document, with records of its shape."""
    _, ay, _, ah = a.bbox
    _, by, _, bh = b.bbox
    gap = by - (ay + ah)
    rec_h = (ah / len(a.records) + bh / len(b.records)) / 2
    if gap < -1 or gap > SECTION_GAP_RECORDS * rec_h or not _same_column(a, b):
        return False
    if _document(nodes, a.parent) != _document(nodes, b.parent) or not _apart(nodes, a, b):
        return False
    if not _markers_allow(nodes, a, b):
        return False
    sa, sb = _shape(nodes, stats, a), _shape(nodes, stats, b)
    return bool(sa and sb) and distance(sa, sb, SHAPE_DISTANCE) <= SHAPE_DISTANCE


_TOKEN = re.compile(r"[-_\s:.]+|(?<=[a-z])(?=[A-Z])")


def _markers_allow(nodes: NodeTable, a: Region, b: Region) -> bool:
    """Classes that one section's records carry and the other's do not must say why the
    section stands apart (sponsored, featured); other differences ("video" and "text"
    items) mark two kinds of content, two lists."""
    ca = set.intersection(*(set(nodes[r.parts[0]].classes) for r in a.records))
    cb = set.intersection(*(set(nodes[r.parts[0]].classes) for r in b.records))
    diff = ca ^ cb
    if not diff:
        return True
    tokens = {t.lower() for name in diff for t in _TOKEN.split(name) if t}
    return not tokens.isdisjoint(SECTION_MARKERS)


def _merge(nodes: NodeTable, a: Region, b: Region) -> Region:
    records = sorted(a.records + b.records, key=lambda r: r.parts[0])
    big = a if len(a.records) >= len(b.records) else b
    evidence = dict(big.evidence)
    evidence["joined_sections"] = evidence.get("joined_sections", 1) + 1
    return Region(parent=_common_ancestor(nodes, a.parent, b.parent), records=records,
                  bbox=union_bbox([r.bbox for r in records]), kind=big.kind, gn_size=big.gn_size,
                  evidence=evidence)
