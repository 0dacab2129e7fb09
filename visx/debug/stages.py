"""``stages.json``: what each stage produced, nodes labelled ``tag#id.class``.

Each node reference is ``{"node": "div#main.results", "xpath": "/html/body/div[2]"}``
so a dump reads on its own and still points at the exact element.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from visx.debug.layers import table_for
from visx.debug.thresholds import TEXT_LIMIT

if TYPE_CHECKING:
    from visx.model import NodeTable
    from visx.pipeline import Extraction

FORMAT_VERSION = 1


def _bbox(b: tuple[float, float, float, float]) -> list[float]:
    return [round(float(v), 1) for v in b]


def node_ref(nodes: NodeTable, i: int) -> dict[str, str]:
    if not 0 <= i < len(nodes):
        return {"node": "?", "xpath": ""}
    n = nodes[i]
    return {"node": n.label, "xpath": n.xpath}


def _xpath_label(nodes: NodeTable, xpath: str) -> str:
    i = nodes.find_xpath(xpath) if xpath else None
    return nodes[i].label if i is not None else ""


def _clip(text: str) -> str:
    return text if len(text) <= TEXT_LIMIT else text[: TEXT_LIMIT - 1] + "…"


def stage_dump(ex: Extraction) -> dict[str, Any]:
    """The per-stage dump of ``ex`` as a JSON-ready dict."""
    snap = ex.snapshot
    nodes = snap.nodes
    t = ex.timings
    removed = [{**node_ref(nodes, r.node), "reason": r.reason, "detail": r.detail,
                "bbox": _bbox(nodes[r.node].bbox) if 0 <= r.node < len(nodes) else None}
               for r in ex.cleaned.removed]
    regions = []
    for rg in ex.regions:
        regions.append({
            "rank": rg.rank, "score": rg.score, "kind": rg.kind, "miner": rg.miner,
            "gn_size": rg.gn_size, "parent": node_ref(nodes, rg.parent), "bbox": _bbox(rg.bbox),
            "evidence": dict(rg.evidence),
            "records": [{"parts": [node_ref(nodes, p) for p in rec.parts], "bbox": _bbox(rec.bbox),
                         "text": _clip(rec.text or " ".join(nodes.text(p) for p in rec.parts))}
                        for rec in rg.records],
        })
    tables = []
    for k, rg in enumerate(ex.regions):
        table = table_for(ex, k)
        if table is None:
            continue
        tables.append({
            "rank": rg.rank,
            "columns": [c.to_dict() for c in table.columns],
            "warnings": list(table.warnings),
            "rows": [[None if cell is None else
                      {"column": c, "node": _xpath_label(nodes, cell.xpath), "xpath": cell.xpath,
                       "text": _clip(cell.text), "value": cell.value, "bbox": _bbox(cell.bbox)}
                      for c, cell in enumerate(row)] for row in table.rows],
        })
    return {
        "visx_debug": FORMAT_VERSION,
        "source": ex.source, "url": ex.url, "title": ex.title, "created": ex.created,
        "warnings": list(ex.warnings),
        "stages": {
            "render": {
                "elements": len(nodes), "page": [snap.width, snap.height], "viewport": list(snap.viewport),
                "javascript": snap.javascript, "status": snap.status, "partial": snap.partial,
                "screenshot": snap.screenshot_png is not None, "notes": list(snap.notes),
                "seconds": {k: v for k, v in snap.timings.items()},
            },
            "clean": {
                "seconds": t.get("clean"),
                "dropped_elements": sum(ex.cleaned.dropped),
                "by_reason": dict(Counter(r.reason for r in ex.cleaned.removed).most_common()),
                "removed": removed,
            },
            "mine": {"seconds": t.get("mine"), "regions": regions},
            "align": {"seconds": t.get("align")},
            "schema": {"seconds": t.get("schema"), "tables": tables},
        },
    }
