"""The schema stage's table build, without what a template's table does not keep.

:func:`visx.schema.build_table` types, labels, names and tidies the aligned columns.
A template's table keeps the types, flags, fills and cells, but renames every
column as the template names it, so naming (header search, class words, the title
column) is wasted work, except where tidying reads the names: two sparse columns
are merged only when their names say one role. :func:`build_light` runs the same
steps in the same order with the same functions, and names the columns only when
such a merge is possible at all (two sparse columns that never share a record);
its table equals ``build_table``'s but for the names and name sources, which the
template replaces. ``scripts/bench_templates.py --verify`` checks that on every
dev page (the reference side builds with ``build_table``).
"""

from __future__ import annotations

from visx.align.model import Alignment, Item
from visx.config import Config
from visx.model import NodeTable, Region
from visx.schema import thresholds as sth
from visx.schema.build import (
    _build_or_empty,
    _facts,
    assemble,
    typed_columns,
)
from visx.schema.names import name_columns
from visx.schema.table import Column, Table


def build_light(nodes: NodeTable, region: Region, alignment: Alignment, config: Config) -> Table:
    """``build_table(nodes, region, alignment, config)`` with placeholder column names
    (``column_<k>``, source ``template``) unless tidying may read the real ones."""
    cfg = config.table
    n = len(region.records)
    if n == 0 or not alignment.columns:
        return _build_or_empty(nodes, region, alignment, cfg)
    cols = typed_columns(nodes, alignment, cfg, n)
    fills = [sum(it is not None for it in col.items) / n for col in cols]
    if cfg.tidy and _may_merge_sparse([col.items for col in cols], fills, n):
        facts = [_facts(col, n) for col in cols]
        linked = [any(it is not None and it.href and it.kind == "text" for it in col.items) for col in cols]
        names = name_columns(nodes, region, facts, linked)
    else:
        names = [(f"column_{k}", "template") for k in range(len(cols))]
    columns = [Column(name, col.type, fill, col.flags, source)
               for col, fill, (name, source) in zip(cols, fills, names, strict=True)]
    return assemble(nodes, region, alignment, cols, columns, cfg)


def _may_merge_sparse(items: list[list[Item | None]], fills: list[float], n: int) -> bool:
    """Tidying's sparse merge could join two columns (``tidy._merge_sparse``'s tests that do
    not read names, types or flags): two columns filled in few records, never in the same
    one. Earlier tidy steps change no fill and no cell's presence, so this holds then too."""
    if n < sth.SPARSE_MIN_RECORDS:
        return False
    sparse = [c for c, f in enumerate(fills) if f <= sth.SPARSE_MAX_FILL]
    for k, a in enumerate(sparse):
        for b in sparse[k + 1:]:
            if fills[a] + fills[b] > sth.SPARSE_MAX_FILL * 2:
                continue
            if not any(x is not None and y is not None for x, y in zip(items[a], items[b], strict=True)):
                return True
    return False
