"""The extraction contract: what an exporter needs, and the JSON form of it.

Any object with these read-only attributes can be exported; the pipeline's
``visx.pipeline.Extraction`` is one. Tables pair with regions by position
(``tables[k]`` belongs to ``regions[k]``, regions in rank order).

JSON (``to_json_dict``), a public contract; keys are only ever added::

    {"source", "url", "title", "created",
     "regions": [{"rank", "score", "data", "role", "xpath", "bbox": [x, y, w, h],
                  "records": [{"xpaths": [str, ...], "bbox", "text", "step", "page",
                               "cells": [{"column": int, "text", "value",
                                          "href", "src", "xpath", "bbox"}]}],
                  "columns": [{"name", "type", "fill", "flags", "source"}]}],
     "removed": [{"xpath", "reason", "bbox"}],
     "timings": {stage: seconds},
     "warnings": [str, ...]}

``data`` is true for a data list (results, products, posts, related items) and
``role`` says what a region is: ``data``, or ``navigation``, ``filter``,
``pager``, ``breadcrumb``, ``footer-links``, ``tag-cloud``, ``fragment``,
``layout`` (``visx.mine.roles``); data lists rank before the rest.
``step`` is the harvest step that brought a record and ``page`` the list page it
was on (0 and 1 without ``--pages``). XPaths cross into shadow roots and frames
with ``#shadow-root`` and ``#document`` steps (``visx.model``).
``cells`` lists a record's non-empty cells; ``column`` indexes the region's
``columns``, which include the columns the default table hides (flags
``constant`` or ``label``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from visx.model import Cleaned, NodeTable, Record, Region
from visx.schema.table import Table


class SnapshotLike(Protocol):
    @property
    def nodes(self) -> NodeTable: ...


class ExtractionLike(Protocol):
    """What the exporters read from an extraction."""

    @property
    def source(self) -> str: ...
    @property
    def url(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def created(self) -> str:
        """ISO-8601 time of the extraction."""
    @property
    def snapshot(self) -> SnapshotLike: ...
    @property
    def cleaned(self) -> Cleaned: ...
    @property
    def regions(self) -> Sequence[Region]:
        """In rank order (rank 1, the main list, first)."""
    @property
    def tables(self) -> Sequence[Table]:
        """``tables[k]`` is the table of ``regions[k]``; may be shorter when tables were not built."""
    @property
    def timings(self) -> Mapping[str, float]: ...
    @property
    def warnings(self) -> Sequence[str]: ...


def _bbox(b: Sequence[float]) -> list[float]:
    return [round(float(v), 1) for v in b]


def table_of(extraction: ExtractionLike, k: int) -> Table | None:
    tables = extraction.tables
    return tables[k] if k < len(tables) else None


def picked_regions(extraction: ExtractionLike, all_regions: bool, *, data_only: bool = True) -> list[int]:
    """Indices of the regions to export: the top-ranked one, or all the data lists (every
    region with ``data_only=False``)."""
    regions = extraction.regions
    if not all_regions:
        return list(range(min(len(regions), 1)))
    return [k for k, rg in enumerate(regions) if rg.data or not data_only]


def record_dict(nodes: NodeTable, record: Record, table: Table | None, r: int,
                pages: Mapping[int, int] | None = None) -> dict[str, Any]:
    text = record.text or " ".join(nodes.text(p) for p in record.parts)
    cells = []
    if table is not None and r < len(table.rows):
        cells = [cell.to_dict(c) for c, cell in enumerate(table.rows[r]) if cell is not None]
    return {"xpaths": [nodes[p].xpath for p in record.parts], "bbox": _bbox(record.bbox),
            "text": text, "step": record.step, "page": (pages or {}).get(record.step, 1), "cells": cells}


def step_pages(extraction: ExtractionLike) -> dict[int, int]:
    """Harvest step -> list page, from the snapshot's harvest log (empty without one)."""
    extra = getattr(extraction.snapshot, "extra", None)
    log = extra.get("harvest") if isinstance(extra, dict) else None
    steps = log.get("steps") if isinstance(log, dict) else None
    out: dict[int, int] = {}
    for s in steps if isinstance(steps, list) else []:
        if isinstance(s, dict) and isinstance(s.get("step"), int) and isinstance(s.get("page"), int):
            out[s["step"]] = s["page"]
    return out


def region_dict(extraction: ExtractionLike, k: int) -> dict[str, Any]:
    nodes = extraction.snapshot.nodes
    region = extraction.regions[k]
    table = table_of(extraction, k)
    pages = step_pages(extraction)
    return {
        "rank": region.rank,
        "score": round(float(region.score), 4),
        "data": region.data,
        "role": region.role,
        "xpath": nodes[region.parent].xpath if 0 <= region.parent < len(nodes) else "",
        "bbox": _bbox(region.bbox),
        "records": [record_dict(nodes, rec, table, r, pages) for r, rec in enumerate(region.records)],
        "columns": [c.to_dict() for c in table.columns] if table is not None else [],
    }


def to_json_dict(extraction: ExtractionLike, *, all_regions: bool = True) -> dict[str, Any]:
    """The JSON contract for one extraction (all regions, or only the top one)."""
    nodes = extraction.snapshot.nodes
    removed = [{"xpath": nodes[r.node].xpath, "reason": r.reason, "bbox": _bbox(nodes[r.node].bbox)}
               for r in extraction.cleaned.removed if 0 <= r.node < len(nodes)]
    return {
        "source": extraction.source,
        "url": extraction.url,
        "title": extraction.title,
        "created": extraction.created,
        "regions": [region_dict(extraction, k) for k in picked_regions(extraction, all_regions, data_only=False)],
        "removed": removed,
        "timings": dict(extraction.timings),
        "warnings": list(extraction.warnings) + [
            w for k in picked_regions(extraction, all_regions, data_only=False)
            if (t := table_of(extraction, k)) is not None for w in t.warnings],
    }
