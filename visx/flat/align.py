"""A flat region's alignment: one column per field type (and its occurrence in the record)."""

from __future__ import annotations

from visx.align.model import AlignedColumn, Alignment, Item
from visx.flat.model import FlatRecord, FlatRegion


def align_flat(region: FlatRegion) -> Alignment:
    """Columns keyed by (type, k-th entity of that type in the record), in order of appearance."""
    keys: dict[tuple[str, int], int] = {}
    rows: list[dict[int, Item]] = []
    seeds: list[int] = []
    for rec in region.records:
        assert isinstance(rec, FlatRecord)
        seen: dict[str, int] = {}
        row: dict[int, Item] = {}
        for e, t in zip(rec.entities, rec.types, strict=True):
            k = seen.get(t, 0)
            seen[t] = k + 1
            col = keys.setdefault((t, k), len(keys))
            if col == len(seeds):
                seeds.append(e.node)
            row[col] = Item("text", e.text, e.node, e.href if e.href != "#" else "")
        rows.append(row)
    columns = [AlignedColumn("text", f"flat/{t}[{k + 1}]", seeds[c]) for (t, k), c in keys.items()]
    cells: list[list[Item | None]] = [[row.get(c) for c in range(len(columns))] for row in rows]
    return Alignment(columns, cells, seed=0 if rows else -1, stats={"records": float(len(rows))})
