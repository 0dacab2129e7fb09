"""Mining: data regions and their records (MDR with visual evidence).

``mine(snapshot, cleaned, config)`` returns the regions ranked, main list first.
"""

from __future__ import annotations

import itertools

from visx.config import MineConfig
from visx.mine import stats as stats_mod
from visx.mine import tagstring
from visx.mine.mdr import candidates_for, distance
from visx.mine.rank import rank
from visx.mine.records import merge_split_rows, region_from
from visx.mine.roles import assign_roles
from visx.mine.sections import drop_pager_records, join_adjacent_sections, join_sections
from visx.mine.thresholds import (
    BLOCK_ONLY_HOLDERS,
    BLOCK_ONLY_TEXT_SHARE,
    CONTAINER_TEXT_SHARE,
    MAX_CONTAINERS,
    MIN_BLOCK_RECORDS,
    VISUAL_RELAX,
)
from visx.model import Cleaned, NodeTable, PageSnapshot, Region, union_bbox

__all__ = ["mine"]


def mine(snapshot: PageSnapshot, cleaned: Cleaned | None, config: MineConfig | None = None) -> list[Region]:
    cfg = config or MineConfig()
    if cfg.miner == "drmining":
        from visx.mine.drmining import mine_drmining

        return mine_drmining(snapshot, cleaned, cfg)
    nodes = snapshot.nodes
    ts = tagstring.build(nodes, cleaned)
    st = stats_mod.build(nodes, ts)
    regions: list[Region] = []
    for i, ch in enumerate(ts.children):
        if len(ch) < 2:
            continue
        for cd in candidates_for(i, ch, ts.strings, nodes, st, cfg.max_combination, cfg.threshold, cfg.visual):
            rg = region_from(nodes, ts, st, cd, cfg.threshold)
            if len(rg.records) >= 2:
                regions.append(rg)
    regions = merge_split_rows(nodes, ts, st, regions, cfg.threshold)
    regions = drop_covered(nodes, ts, st, regions, cfg.threshold)
    regions = drop_pager_records(join_sections(nodes, regions))
    regions = assign_roles(nodes, st, rank(nodes, st, regions, snapshot.width, snapshot.height), snapshot.height)
    if cfg.join_shapes:
        joined = join_adjacent_sections(nodes, st, regions)
        if len(joined) != len(regions):
            regions = assign_roles(nodes, st, rank(nodes, st, joined, snapshot.width, snapshot.height),
                                   snapshot.height)
    return regions


def drop_covered(
    nodes: NodeTable, ts: tagstring.TagStrings, st: stats_mod.Stats, regions: list[Region], threshold: float
) -> list[Region]:
    """MDR's covering rule: a region inside the records of a higher one is part of them.

    Two exceptions. When alike regions sit in several records of the outer
    one (a results grid cut into sibling blocks), the outer records are only
    containers: the inner regions' records join into one region. And a
    covered region survives when it holds clearly more records than the
    region covering it (two page columns, each holding a long list).
    """
    order = sorted(regions, key=lambda rg: (nodes[rg.parent].depth, rg.parent))
    n = len(nodes)
    owner = [-1] * n  # top region holding each node in one of its records
    rec_of = [-1] * n  # ... and which record
    tops: list[Region] = []
    covered_by: dict[int, list[Region]] = {}
    for rg in order:
        o = owner[rg.records[0].parts[0]]
        if o >= 0 and all(owner[q] == o for r in rg.records for q in r.parts):
            covered_by.setdefault(o, []).append(rg)
            continue
        tid = len(tops)
        tops.append(rg)
        for k, r in enumerate(rg.records):
            for p in r.parts:
                end = nodes[p].end
                owner[p:end] = [tid] * (end - p)
                rec_of[p:end] = [k] * (end - p)
    out: list[Region] = []
    for tid, top in enumerate(tops):
        inner = covered_by.get(tid, [])
        merged = _merge_blocks(nodes, ts, st, top, inner, rec_of, threshold)
        if merged is not None:
            out.append(merged)
            continue
        out.append(top)
        out.extend(rg for rg in inner if len(rg.records) >= 2 * len(top.records))
    return out


def _side_by_side(blocks: list[Region]) -> bool:
    """Blocks laid out as columns: each overlaps the next one vertically and lies beside it."""
    boxes = sorted((rg.bbox for rg in blocks), key=lambda b: b[0])
    return len(boxes) >= 2 and all(
        b[0] >= a[0] + a[2] - 1 and b[1] < a[1] + a[3] and a[1] < b[1] + b[3]
        for a, b in itertools.pairwise(boxes))


def _merge_blocks(
    nodes: NodeTable,
    ts: tagstring.TagStrings,
    st: stats_mod.Stats,
    top: Region,
    inner: list[Region],
    rec_of: list[int],
    threshold: float,
) -> Region | None:
    """One region from alike inner regions spread over several records of ``top``."""
    if len(inner) < 2:
        return None
    many = len(top.records) >= MAX_CONTAINERS
    blocks = inner
    big = max(blocks, key=lambda rg: len(rg.records), default=None)
    if big is None:
        return None
    ref = "".join(ts.strings[p] for p in big.records[0].parts)
    relaxed = threshold + VISUAL_RELAX
    alike = [
        rg for rg in blocks
        if distance("".join(ts.strings[p] for p in rg.records[0].parts), ref, relaxed) <= relaxed
    ]
    holders = {rec_of[rg.records[0].parts[0]] for rg in alike}
    n = sum(len(rg.records) for rg in alike)
    if len(holders) < 2 or n <= len(top.records):
        return None
    # Blocks of several records each, and records, not single fields.
    inner_recs = [r for rg in alike for r in rg.records]
    richness = sum(sum(st.text_leaves[p] + st.media[p] for p in r.parts) for r in inner_recs) / n
    if n < MIN_BLOCK_RECORDS * len(holders) or richness < 2:
        return None
    # The outer records must be mere containers: the blocks hold most of their text.
    inner_chars = sum(st.chars(r.parts) for rg in alike for r in rg.records)
    outer_chars = sum(st.chars(top.records[k].parts) for k in holders)
    # Many alike outer records are a list of their own whose inner lists are fields, unless
    # the inner lists are all their text (blocks of headlines, nothing else in a block).
    if inner_chars < (BLOCK_ONLY_TEXT_SHARE if many else CONTAINER_TEXT_SHARE) * outer_chars:
        return None
    if many and len(holders) < BLOCK_ONLY_HOLDERS * len(top.records):
        return None
    alike.sort(key=lambda rg: rg.parent)
    records = [r for rg in alike for r in rg.records]
    if _side_by_side(alike):
        # Columns of one feed (masonry): the list reads across, top to bottom.
        records.sort(key=lambda r: (r.bbox[1], r.bbox[0]))
    return Region(
        parent=top.parent,
        records=records,
        bbox=union_bbox([r.bbox for r in records]),
        kind=big.kind,
        gn_size=big.gn_size,
        evidence={"tag_distance": big.evidence.get("tag_distance", 0.0), "merged_blocks": len(alike)},
    )
