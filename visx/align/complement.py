"""Join columns that hold one field in differently built records.

Tree matching pairs nodes of the same tag only, so when some records build a
field another way (a title as ``h2 > a`` in most records, a bare ``a`` in
sponsored ones) the field lands in two columns that never share a record.
Two such columns are one field when no record fills both and their values
look alike on screen: same item kind and holding tag, same font (size, weight,
colour), the same link status, both varying or both a fixed label, and the same
left offset inside the record.
"""

from __future__ import annotations

from collections import Counter

from visx.align import thresholds as th
from visx.align.model import AlignedColumn, Item
from visx.align.tree import PageCache
from visx.model import Record

Look = tuple[str, str, tuple[str, ...], bool, bool, float]
"""Item kind, holder tag, font, linked, one text in every record (a label), median left offset."""


def _look(pc: PageCache, records: list[Record], cells: list[list[Item | None]], c: int) -> Look | None:
    nodes = pc.nodes
    fonts: Counter[tuple[str, ...]] = Counter()
    kinds: Counter[str] = Counter()
    tags: Counter[str] = Counter()
    texts: set[str] = set()
    linked = 0
    offsets: list[float] = []
    for r, row in enumerate(cells):
        it = row[c]
        if it is None:
            continue
        fonts[pc.font(it.node)] += 1
        kinds[it.kind] += 1
        tags[nodes[it.node].tag] += 1
        texts.add(it.text)
        linked += bool(it.href)
        offsets.append(nodes[it.node].x - records[r].bbox[0])
    if not offsets:
        return None
    offsets.sort()
    n = len(offsets)
    return (kinds.most_common(1)[0][0], tags.most_common(1)[0][0], fonts.most_common(1)[0][0], 2 * linked >= n,
            len(texts) == 1 and n > 1, offsets[n // 2])


def merge_complementary(pc: PageCache, records: list[Record], columns: list[AlignedColumn],
                        cells: list[list[Item | None]]) -> tuple[list[AlignedColumn], list[list[Item | None]]]:
    """Columns (reading order kept) and cells after joining each column into the first earlier
    one that no record fills together with it and that looks the same."""
    n = len(cells)
    filled = [{r for r, it in enumerate(col) if it is not None} for col in zip(*cells, strict=True)]
    # Only a column filled in some records but not in all (two at least either way) can
    # be one half of a field built two ways; most columns are not, and are not looked at.
    halves = [c for c, f in enumerate(filled) if th.JOIN_MIN_RECORDS <= len(f) <= n - th.JOIN_MIN_RECORDS]
    if len(halves) < 2:
        return columns, cells
    looks: dict[int, Look | None] = {}

    def look(c: int) -> Look | None:
        if c not in looks:
            looks[c] = _look(pc, records, cells, c)
        return looks[c]

    into = list(range(len(columns)))
    for i, b in enumerate(halves):
        for a in halves[:i]:
            if into[a] != a or filled[a] & filled[b]:
                continue
            la, lb = look(a), look(b)
            if la is None or lb is None or la[:5] != lb[:5] or abs(la[5] - lb[5]) > th.X_TOLERANCE_PX:
                continue
            into[b] = a
            filled[a] |= filled[b]
            break
    if all(into[c] == c for c in range(len(columns))):
        return columns, cells
    keep = [c for c in range(len(columns)) if into[c] == c]
    pos = {c: k for k, c in enumerate(keep)}
    out: list[list[Item | None]] = []
    for row in cells:
        new: list[Item | None] = [None] * len(keep)
        for c, it in enumerate(row):
            if it is not None:
                new[pos[into[c]]] = it
        out.append(new)
    return [columns[c] for c in keep], out
