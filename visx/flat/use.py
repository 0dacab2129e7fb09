"""Where the flat miner runs, and how its regions rank against the DOM miner's.

``mode=auto`` (the default) runs it only when the DOM miner's main region is not
convincing: fewer than ``CONVINCING_RECORDS`` records or fewer than
``CONVINCING_FIELDS`` text leaves a record. On pages where DOM mining succeeds the
flat miner is skipped before any of its work, so it costs one pass over the main
region's text. When both find a region, they are ranked by one score,
records x fields (capped at 4), and each flat region says why it ranks where it does.
"""

from __future__ import annotations

import statistics

from visx.config import Config
from visx.flat import thresholds as th
from visx.flat.miner import mine_flat
from visx.flat.model import FlatRegion
from visx.model import Cleaned, NodeTable, PageSnapshot, Region


def fields_per_record(nodes: NodeTable, region: Region) -> float:
    """Mean text leaves (entities, for a flat region) per record."""
    if isinstance(region, FlatRegion):
        return region.evidence.get("fields", 0.0)
    if not region.records:
        return 0.0
    return statistics.fmean(sum(len(nodes.text_parts(p)) for p in r.parts) for r in region.records)


def common_score(nodes: NodeTable, region: Region) -> float:
    """The one score both miners' regions are ranked by: records x fields (capped at 4)."""
    return len(region.records) * min(fields_per_record(nodes, region), 4.0)


def convincing(nodes: NodeTable, region: Region | None) -> bool:
    """A data list of enough records with several text pieces each, whose records are not
    runs of bare one-piece blocks (MDR groups a fixed number of ``<p>`` fields as a record,
    which is a guess when the fields are flat)."""
    if region is None or not region.data or len(region.records) < th.CONVINCING_RECORDS:
        return False
    if fields_per_record(nodes, region) < th.CONVINCING_FIELDS:
        return False
    if region.gn_size > 1:
        parts = [p for r in region.records for p in r.parts]
        bare = sum(len(nodes.text_parts(p)) <= 1 and nodes[p].end - p <= 2 for p in parts)
        return bare < th.BARE_PARTS_SHARE * len(parts)
    return True


def _explains(nodes: NodeTable, flat: FlatRegion, dom: Region) -> bool:
    """Most of the DOM region's records lie inside the flat region's records: they are its fields."""
    inside = sum(any(nodes.is_ancestor(flat.parent, p) for p in r.parts) for r in dom.records)
    return inside >= 0.5 * len(dom.records)


def with_flat(snapshot: PageSnapshot, cleaned: Cleaned | None, regions: list[Region],
              config: Config) -> list[Region]:
    """``regions`` (the DOM miner's, ranked) with the flat miner's regions ranked in."""
    nodes = snapshot.nodes
    if config.mine.miner == "flat":
        flat = mine_flat(snapshot, cleaned, config)
        for k, rg in enumerate(flat, 1):
            rg.rank, rg.reason = k, "forced by mine.miner=flat"
        return list(flat)
    if config.flat.mode == "off":
        return regions
    main = regions[0] if regions else None
    if config.flat.mode == "auto" and convincing(nodes, main):
        return regions
    flat = mine_flat(snapshot, cleaned, config)
    if not flat:
        return regions
    dom_score = common_score(nodes, main) if main is not None else 0.0
    out: list[Region] = []
    for rg in flat:
        score = common_score(nodes, rg)
        rg.evidence["common_score"] = round(score, 2)
        if main is None:
            rg.reason = "the DOM miner found no region"
            out.append(rg)
        elif _explains(nodes, rg, main) and rg.evidence.get("fields", 0) > fields_per_record(nodes, main):
            rg.reason = (f"the DOM's main region ({len(main.records)} records of "
                         f"{fields_per_record(nodes, main):.1f} text leaves) lies inside these records: its records are their fields")
            out.append(rg)
        elif score > th.FLAT_MARGIN * dom_score:
            rg.reason = f"records x fields {score:.1f} > the DOM main region's {dom_score:.1f}"
            out.append(rg)
        else:
            rg.reason = f"records x fields {score:.1f} <= the DOM main region's {dom_score:.1f}"
    ahead = [rg for rg in flat if rg in out]
    behind = [rg for rg in flat if rg not in out]
    ranked: list[Region] = [*ahead, *regions, *behind]
    for k, r in enumerate(ranked, 1):
        r.rank = k
    return ranked
