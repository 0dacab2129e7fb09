"""From generalized nodes to records.

- A generalized node of r children is one record of r parts (two ``<tr>``
  per item), minus empty parts at its edges (separators).
- A generalized node whose children are similar, record-like and side by
  side on screen is a grid row: each child is a record.
- Rows whose cells line up in columns but alternate in kind (names, then
  prices) hold non-contiguous records: a record is a column of cells.
"""

from __future__ import annotations

import itertools
from collections import Counter

from visx.mine.mdr import Candidate, distance, lined_up, periodic
from visx.mine.stats import Stats
from visx.mine.tagstring import TagStrings
from visx.mine.thresholds import (
    COLUMN_OVERLAP,
    FOLD_TEMPLATE_SHARE,
    GRID_TEXT_SHARE,
    HOMOGENEOUS_SHARE,
    MIN_RECORD_ELEMENTS,
    SAME_TEMPLATE_SHARE,
    VISUAL_RELAX,
)
from visx.model import NodeTable, Record, Region, union_bbox

MAX_SPLIT_PERIOD = 4


def record_of(nodes: NodeTable, parts: list[int]) -> Record:
    parts = sorted(parts, key=lambda p: (nodes[p].y, nodes[p].x)) if len(parts) > 1 else parts
    text = " ".join(t for t in (nodes.text(p) for p in parts) if t)
    return Record(parts=parts, bbox=union_bbox([nodes[p].bbox for p in parts]), text=text)


def _trim(group: list[int], stats: Stats) -> list[int]:
    lo, hi = 0, len(group)
    while lo < hi - 1 and not stats.has_content([group[lo]]):
        lo += 1
    while hi - 1 > lo and not stats.has_content([group[hi - 1]]):
        hi -= 1
    return group[lo:hi]


def cells(row: int, ts: TagStrings, stats: Stats) -> list[int]:
    return [c for c in ts.children[row] if stats.has_content([c])]


def _side_by_side(nodes: NodeTable, cs: list[int]) -> bool:
    """Cells laid out left to right in one visual row."""
    for a, b in itertools.pairwise(cs):
        na, nb = nodes[a], nodes[b]
        if nb.x < na.x + na.w - 2 or abs(nb.y - na.y) > max(4.0, 0.25 * min(na.h, nb.h)):
            return False
    return True


def _signature(nodes: NodeTable, ts: TagStrings, stats: Stats, cell: int) -> tuple[str, ...]:
    """Style of the first text in the cell plus the kind of text: tells names from prices."""
    table = nodes.nodes
    for j in range(cell, table[cell].end):
        if ts.kept[j] and table[j].text.strip():
            t = table[j].text.strip()
            digits = sum(ch.isdigit() for ch in t)
            kind = "num" if digits * 2 >= len(t.replace(" ", "")) else "word"
            st = nodes.style_tuple(j)
            return (table[j].tag, st[4], st[5], st[8], kind)
    return ("", "", "", "", "none")


def _similar_cells(nodes: NodeTable, ts: TagStrings, stats: Stats, a: int, b: int, threshold: float) -> bool:
    if distance(ts.strings[a], ts.strings[b], threshold) > threshold:
        return False
    return _signature(nodes, ts, stats, a) == _signature(nodes, ts, stats, b)


def _columns_align(nodes: NodeTable, ra: list[int], rb: list[int]) -> bool:
    if len(ra) != len(rb):
        return False
    for a, b in zip(ra, rb, strict=True):
        na, nb = nodes[a], nodes[b]
        overlap = min(na.x + na.w, nb.x + nb.w) - max(na.x, nb.x)
        if overlap < COLUMN_OVERLAP * min(na.w, nb.w):
            return False
    return True


def _uniform_row(
    nodes: NodeTable, ts: TagStrings, stats: Stats, cs: list[int], threshold: float, *, styled: bool = True
) -> bool:
    """Cells side by side and alike; ``styled`` also asks for the same text style and kind.

    Grid cards have optional parts (a sale badge) that change their first
    text, so grids are compared by structure only (with the visual relaxation).
    """
    if len(cs) < 2 or not _side_by_side(nodes, cs):
        return False
    if styled:
        return all(_similar_cells(nodes, ts, stats, a, b, threshold) for a, b in itertools.pairwise(cs))
    relaxed = threshold + VISUAL_RELAX
    return all(
        distance(ts.strings[a], ts.strings[b], relaxed) <= relaxed or _same_card(nodes, a, b)
        for a, b in itertools.pairwise(cs)
    )


def _same_card(nodes: NodeTable, a: int, b: int) -> bool:
    """Grid cells of one template: a shared class and the same rendered size."""
    na, nb = nodes[a], nodes[b]
    return (
        na.tag == nb.tag
        and bool(set(na.classes) & set(nb.classes))
        and abs(na.w - nb.w) <= 2
        and abs(na.h - nb.h) <= max(2.0, 0.05 * max(na.h, nb.h))
    )


def split_records(
    nodes: NodeTable, ts: TagStrings, stats: Stats, rows: list[int], threshold: float
) -> list[list[int]] | None:
    """Records as columns of cells, when rows repeat with a period p >= 2 and their cells align.

    A leading header cell of every row (``<th>Price</th>``) labels the row;
    it belongs to no record.
    """
    row_cells = [cells(r, ts, stats) for r in rows]
    if row_cells and all(len(cs) >= 3 and nodes[cs[0]].tag == "th" for cs in row_cells):
        row_cells = [cs[1:] for cs in row_cells]
    if len(rows) < 2 or not all(_uniform_row(nodes, ts, stats, cs, threshold) for cs in row_cells):
        return None
    for a, b in itertools.pairwise(row_cells):
        if not _columns_align(nodes, a, b):
            return None
    for p in range(2, min(MAX_SPLIT_PERIOD, len(rows)) + 1):
        if len(rows) % p:
            continue
        # Rows within a block differ in kind; rows a period apart match.
        differs = all(
            not _similar_cells(nodes, ts, stats, row_cells[i][0], row_cells[i + 1][0], threshold)
            for i in range(len(rows) - 1)
            if (i + 1) % p
        )
        repeats = all(
            _similar_cells(nodes, ts, stats, row_cells[i][0], row_cells[i + p][0], threshold)
            for i in range(len(rows) - p)
        )
        if differs and repeats:
            out: list[list[int]] = []
            for b0 in range(0, len(rows), p):
                block = row_cells[b0 : b0 + p]
                out.extend([blk[c] for blk in block] for c in range(len(block[0])))
            return out
    return None


def _grid_cells(nodes: NodeTable, ts: TagStrings, stats: Stats, rows: list[int], threshold: float) -> list[int] | None:
    """The cells of the grid rows among ``rows`` when those rows hold most of the text.

    Rows that are not grid rows (spacers, compare-checkbox rows) are left out.
    """
    out: list[int] = []
    n_grid = 0
    grid_chars = 0
    for r in rows:
        cs = cells(r, ts, stats)
        if _uniform_row(nodes, ts, stats, cs, threshold, styled=False) and all(
            ts.size[c] >= MIN_RECORD_ELEMENTS and stats.text_leaves[c] + stats.media[c] >= 2 for c in cs
        ):
            n_grid += 1
            out.extend(cs)
            grid_chars += stats.chars([r])
        elif len(cs) == 1 and ts.size[cs[0]] >= MIN_RECORD_ELEMENTS and n_grid:
            out.extend(cs)  # a last, incomplete grid row
            grid_chars += stats.chars([r])
    total = stats.chars(rows)
    if n_grid == 0 or total == 0 or grid_chars < GRID_TEXT_SHARE * total:
        return None
    return out


def _homogeneous(
    nodes: NodeTable, ts: TagStrings, stats: Stats, groups: list[list[int]], threshold: float
) -> list[int] | None:
    """The children themselves, when generalized nodes of r > 1 are runs of like items.

    Long combinations can win IdentDRs only because a few odd items break
    the runs of single ones; if most children share one template, each is a
    record and the odd ones are skipped. Not when the members repeat with
    the period r (a title row, then its subtext row): then the generalized
    node is the record. Nor when a generalized node holds several members of
    the template with no period among them: it folds several records.
    """
    # Members without content (an empty ad slot, a rule) say nothing of the period.
    groups = [[x for x in g if stats.has_content([x])] for g in groups]
    flat = [x for g in groups for x in g]
    if len(flat) < 3:
        return None
    # The class most children carry (with their tag) marks the record template:
    # when nearly all carry it, that settles it; otherwise a period r says the
    # generalized node is the record.
    tokens = [{(nodes[c].tag, k) for k in nodes[c].classes} for c in flat]
    counts = Counter(t for ts_ in tokens for t in ts_)
    top, count = counts.most_common(1)[0] if counts else ((" ", " "), 0)
    if count >= SAME_TEMPLATE_SHARE * len(flat):
        return [c for c, t in zip(flat, tokens, strict=True) if top in t]
    token_of = dict(zip(flat, tokens, strict=True))
    members = [[c for c in g if top in token_of[c]] for g in groups]
    if (count >= FOLD_TEMPLATE_SHARE * len(flat) and min(map(len, members)) >= 1
            and max(map(len, members)) > 1 and not _periodic(ts, members)):
        # Generalized nodes holding several alike members of the template, in no period
        # (unlike a title row and a detail row that share a class), fold several records
        # together: an odd child at each end (a heading, a closing box) made them win.
        return [c for c, t in zip(flat, tokens, strict=True) if top in t]
    if _periodic(ts, groups):
        return None
    if count >= HOMOGENEOUS_SHARE * len(flat):
        return [c for c, t in zip(flat, tokens, strict=True) if top in t]
    # Without a shared class, neighbours must be alike by MDR's strict threshold, or by
    # the relaxed one when they line up on screen (one column of like blocks).
    relaxed = threshold + VISUAL_RELAX
    sims = [d <= threshold or (d <= relaxed and lined_up(nodes, [a], [b]))
            for a, b in itertools.pairwise(flat)
            for d in (distance(ts.strings[a], ts.strings[b], relaxed),)]
    if sum(sims) >= HOMOGENEOUS_SHARE * len(sims):
        return [c for k, c in enumerate(flat) if (k > 0 and sims[k - 1]) or (k < len(sims) and sims[k])]
    return None


def _periodic(ts: TagStrings, groups: list[list[int]]) -> bool:
    return periodic(ts.strings, groups)


def _extend_grid(
    nodes: NodeTable, ts: TagStrings, stats: Stats, cd: Candidate, cells_: list[int], threshold: float
) -> list[int]:
    """Add a shorter last (or first) grid row that MDR's length cut-off left out."""
    sibs = ts.children[cd.parent]
    relaxed = threshold + VISUAL_RELAX
    ref = ts.strings[cells_[0]]
    out = list(cells_)
    for pos, at_end in ((cd.last, True), (cd.first - 1, False)):
        if not 0 <= pos < len(sibs):
            continue
        row = cells(sibs[pos], ts, stats)
        if row and (len(row) == 1 or _side_by_side(nodes, row)) and all(
            distance(ts.strings[c], ref, relaxed) <= relaxed for c in row
        ):
            out = out + row if at_end else row + out
    return out


def region_from(nodes: NodeTable, ts: TagStrings, stats: Stats, cd: Candidate, threshold: float) -> Region:
    groups = [_trim(g, stats) for g in cd.gns]
    if cd.r > 1:
        singles = _homogeneous(nodes, ts, stats, groups, threshold)
        if singles is not None:
            groups = [[c] for c in singles if stats.has_content([c])]
    kind = "list"
    flat = [x for g in groups for x in g]
    split = split_records(nodes, ts, stats, flat, threshold) if all(len(g) >= 1 for g in groups) else None
    if split is not None:
        parts_list, kind = split, "split"
    else:
        grid = _grid_cells(nodes, ts, stats, flat, threshold)
        if grid is not None:
            grid = _extend_grid(nodes, ts, stats, cd, grid, threshold)
            parts_list, kind = [[c] for c in grid], "grid"
        else:
            parts_list = groups
    records = [record_of(nodes, parts) for parts in parts_list if parts]
    return Region(
        parent=cd.parent,
        records=records,
        bbox=union_bbox([r.bbox for r in records]),
        kind=kind,
        gn_size=cd.r,
        evidence={"tag_distance": round(cd.mean_dist, 3)},
    )


def merge_split_rows(nodes: NodeTable, ts: TagStrings, stats: Stats, regions: list[Region], threshold: float) -> list[Region]:
    """Join regions found in consecutive sibling rows whose records line up in columns.

    A names row over a prices row gives two one-row regions in the DOM; on
    screen their cells form columns, and each column is one record.
    """
    by_parent = {rg.parent: rg for rg in regions if rg.kind in ("list", "grid") and rg.gn_size == 1}
    used: set[int] = set()
    out: list[Region] = []
    for rg in regions:
        if rg.parent in used or rg.parent not in by_parent:
            continue
        p = nodes[rg.parent].parent
        if p < 0:
            continue
        sibs = ts.children[p]
        pos = sibs.index(rg.parent) if rg.parent in sibs else -1
        chain = [rg]
        while pos >= 0 and pos + 1 < len(sibs) and sibs[pos + 1] in by_parent:
            nxt = by_parent[sibs[pos + 1]]
            a = [r.parts[0] for r in chain[-1].records]
            b = [r.parts[0] for r in nxt.records]
            if (
                len(a) < 2
                or not _columns_align(nodes, a, b)
                or nodes[b[0]].y <= nodes[a[0]].y
                or _similar_cells(nodes, ts, stats, a[0], b[0], threshold)  # same kind: two lists, not one
            ):
                break
            chain.append(nxt)
            pos += 1
        if len(chain) < 2:
            continue
        used.update(c.parent for c in chain)
        recs = [record_of(nodes, [c.records[k].parts[0] for c in chain]) for k in range(len(chain[0].records))]
        out.append(
            Region(
                parent=p,
                records=recs,
                bbox=union_bbox([r.bbox for r in recs]),
                kind="split",
                gn_size=len(chain),
                evidence={"tag_distance": round(sum(c.evidence.get("tag_distance", 0) for c in chain) / len(chain), 3)},
            )
        )
    return [rg for rg in regions if rg.parent not in used] + out
