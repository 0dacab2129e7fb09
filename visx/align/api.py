"""The alignment stage: one region (:func:`align_region`) or all regions of a page."""

from __future__ import annotations

from visx.align.complement import merge_complementary
from visx.align.model import AlignedColumn, Alignment, Item
from visx.align.partial import align_trees
from visx.align.tree import ROOT, PageCache, RecTree, TreeBuilder, collapse_lists, find_lists
from visx.config import AlignConfig, Config
from visx.model import NodeTable, Region


def align_region(nodes: NodeTable, region: Region, config: Config | AlignConfig | None = None) -> Alignment:
    """Align the records of ``region`` into columns; does not modify its inputs.

    A region without records gives an alignment without rows or columns.
    """
    return align_regions(nodes, [region], config)[0]


def align_regions(nodes: NodeTable, regions: list[Region],
                  config: Config | AlignConfig | None = None) -> list[Alignment]:
    """:func:`align_region` for each region of a page, sharing the page's lookups."""
    cfg = config.align if isinstance(config, Config) else (config or AlignConfig())
    pc = PageCache(nodes)
    return [_align(pc, rg, cfg) if rg.records else Alignment([], [], stats={"records": 0.0})
            for rg in regions]


def _align(pc: PageCache, region: Region, cfg: AlignConfig) -> Alignment:
    records = region.records
    builder = TreeBuilder(pc)
    trees = [builder.build(rec) for rec in records]
    if cfg.lists and builder.alike:  # without two alike siblings in a row there is no list
        for tree, rec in zip(trees, records, strict=True):
            builder.index(tree, rec)
        for tree, runs in zip(trees, find_lists(pc, trees), strict=True):
            if runs:
                collapse_lists(pc, tree, runs)
    res = align_trees(trees, budget=cfg.max_stm_cells, style=cfg.style_evidence)

    # Columns: seed nodes that some record's item maps to, in the seed's reading order.
    filled: dict[int, list[tuple[int, Item]]] = {}
    for r, (tree, mapping) in enumerate(zip(trees, res.maps, strict=True)):
        items = tree.item
        for t, s in mapping.items():
            item = items[t]
            if item is not None:
                got = filled.get(s)
                if got is None:
                    filled[s] = [(r, item)]
                else:
                    got.append((r, item))
    order = [s for s in res.seed.preorder() if s in filled]
    paths = _paths(res.seed)
    columns: list[AlignedColumn] = []
    cells: list[list[Item | None]] = [[None] * len(order) for _ in records]
    for c, s in enumerate(order):
        got = filled[s]
        kinds = [it.kind for _, it in got]
        columns.append(AlignedColumn(max(set(kinds), key=kinds.count), paths[s], got[0][1].node))
        for r, it in got:
            cells[r][c] = it
    if cfg.join_complementary:
        columns, cells = merge_complementary(pc, records, columns, cells)
    stats = {
        "records": float(len(records)),
        "seed_nodes": float(len(res.seed.label)),
        "matches": float(res.matches),
        "budget": float(cfg.max_stm_cells),
    }
    return Alignment(columns, cells, seed=res.seed_record, forced=res.forced, stats=stats)


def _paths(seed: RecTree) -> dict[int, str]:
    out = {seed.root: ""}
    stack = [seed.root]
    while stack:
        t = stack.pop()
        for c in seed.children[t]:
            out[c] = f"{out[t]}/{seed.label[c]}" if out[t] else seed.label[c]
            stack.append(c)
    return out


__all__ = ["ROOT", "align_region", "align_regions"]
