"""Hand-made regions over the saved table fixtures (no miner, no browser).

Each fixture page in ``fixtures/tables/`` has one list; its records are
picked here by structure, the way the miner would report them.
"""

from __future__ import annotations

from pathlib import Path

from visx.model import NodeTable, PageSnapshot, Record, Region, union_bbox
from visx.render.snapshot_io import load_snapshot

TABLES = Path(__file__).resolve().parent.parent / "fixtures" / "tables"
NAMES = ("optional_badge", "missing_field", "list_field", "header_table", "label_value",
         "locale", "split_table")


def _find(nodes: NodeTable, tag: str, *, id: str = "", cls: str = "") -> int:
    for n in nodes.nodes:
        if n.tag == tag and (not id or n.id == id) and (not cls or cls in n.classes):
            return n.index
    raise LookupError(f"no <{tag} id={id!r} class={cls!r}>")


def _record(nodes: NodeTable, parts: list[int]) -> Record:
    return Record(parts, union_bbox([nodes[p].bbox for p in parts]),
                  " ".join(nodes.text(p) for p in parts))


def _children(nodes: NodeTable, parent: int) -> Region:
    recs = [_record(nodes, [c]) for c in nodes[parent].children]
    return Region(parent, recs, rank=1, bbox=nodes[parent].bbox)


def load(name: str) -> tuple[PageSnapshot, Region]:
    """The snapshot of fixture ``name`` and its hand-made region."""
    snap = load_snapshot(TABLES / f"{name}.json.gz")
    nodes = snap.nodes
    if name == "optional_badge":
        return snap, _children(nodes, _find(nodes, "ul", cls="products"))
    if name == "missing_field":
        return snap, _children(nodes, _find(nodes, "div", id="results"))
    if name == "list_field":
        return snap, _children(nodes, _find(nodes, "section", id="papers"))
    if name == "header_table":
        return snap, _children(nodes, _find(nodes, "tbody"))
    if name == "label_value":
        return snap, _children(nodes, _find(nodes, "div", id="ads"))
    if name == "locale":
        return snap, _children(nodes, _find(nodes, "div", id="offers"))
    if name == "split_table":
        # Row 1 holds the names, row 2 the prices, row 3 the links: record k is
        # the k-th data cell of every row (the row-label <th> is not a record part).
        table = _find(nodes, "table", id="compare")
        tbody = nodes[table].children[0]
        rows = [[c for c in nodes[tr].children if nodes[c].tag == "td"] for tr in nodes[tbody].children]
        recs = [_record(nodes, [row[k] for row in rows]) for k in range(len(rows[0]))]
        return snap, Region(tbody, recs, rank=1, bbox=nodes[table].bbox, kind="split")
    raise LookupError(name)


def table_json(name: str) -> dict[str, object]:
    """The golden form of fixture ``name``'s table: columns and cells without boxes."""
    from visx.align import align_region
    from visx.config import Config
    from visx.schema import build_table

    snap, region = load(name)
    table = build_table(snap.nodes, region, align_region(snap.nodes, region, Config()), Config())
    rows = [[None if c is None else {"text": c.text, "value": c.value, "href": c.href, "src": c.src,
                                     "xpath": c.xpath} for c in row] for row in table.rows]
    return {"columns": [c.to_dict() for c in table.columns], "rows": rows, "warnings": table.warnings}


def extraction(names: list[str] | str, *, source: str = "") -> object:
    """A real pipeline ``Extraction`` over hand-made regions of fixture(s), for exporters."""
    from visx.align import align_region
    from visx.config import Config
    from visx.model import Cleaned, Removal
    from visx.pipeline import Extraction
    from visx.schema import build_table

    name = names if isinstance(names, str) else names[0]
    snap, region = load(name)
    table = build_table(snap.nodes, region, align_region(snap.nodes, region, Config()), Config())
    if source:
        snap.source = source
    head = next(n.index for n in snap.nodes.nodes if n.tag == "h1")
    return Extraction(snapshot=snap, cleaned=Cleaned([Removal(head, "header-band")], bytearray(len(snap.nodes))),
                      regions=[region], tables=[table], timings={"align": 0.001, "schema": 0.002},
                      created="2026-11-22T00:00:00+00:00")
