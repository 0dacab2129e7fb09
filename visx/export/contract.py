"""The extraction contract: what an exporter needs, and the JSON form of it.

Any object with these read-only attributes can be exported; the pipeline's
``visx.pipeline.Extraction`` is one. Tables pair with regions by position
(``tables[k]`` belongs to ``regions[k]``, regions in rank order).

The JSON form (``to_json_dict``, and each JSON Lines line) is a public contract,
published as a JSON Schema: ``visx/export/extraction.schema.json``
(:func:`json_schema`). Every output carries ``"visx": <version>``; keys are only
ever added.

When the user chose the list (``Extraction.chosen``, :mod:`visx.choose`), the chosen
region is ``regions[0]`` whatever its rank: it is "the main table" of every exporter,
and the JSON says how it was chosen under ``"chosen"``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any, Protocol

from visx.model import Cleaned, NodeTable, Record, Region
from visx.schema.table import Table
from visx.version import __version__

SCHEMA_FILE = "extraction.schema.json"
"""The JSON Schema of the JSON output, beside this module in the package."""


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of visx's JSON output: a page, or a list of pages;
    ``$defs/line`` is one line of a JSON Lines output."""
    text = resources.files("visx.export").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


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


def chosen_of(extraction: ExtractionLike) -> dict[str, Any] | None:
    """The user's choice of list (``{"by", "value", "rank"}``), or None: ``regions[0]`` is then
    the chosen region. Read with getattr: an exporter's input need not know of choices."""
    chosen = getattr(extraction, "chosen", None)
    return chosen if isinstance(chosen, dict) else None


def picked_regions(extraction: ExtractionLike, all_regions: bool, *, data_only: bool = True) -> list[int]:
    """Indices of the regions to export: the main one (``regions[0]``: rank 1, or the chosen
    region), or all the data lists (every region with ``data_only=False``), a chosen region
    first even when it is not a data list."""
    regions = extraction.regions
    if not all_regions:
        return list(range(min(len(regions), 1)))
    picked = [k for k, rg in enumerate(regions) if rg.data or not data_only]
    if regions and chosen_of(extraction) is not None and 0 not in picked:
        picked.insert(0, 0)
    return picked


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


REMOVED_MAX = 200
"""Removed subtrees listed in the JSON at most (the largest, in document order); ``removed_total``
counts them all. A page of 5,000 nested empty boxes removes 4,500 of them, each with a
path thousands of steps long: listing all made a 42 MB file of a 120 KB result."""


def removed_list(extraction: ExtractionLike) -> tuple[list[dict[str, Any]], int]:
    """The JSON's ``removed`` entries (at most :data:`REMOVED_MAX`) and how many there were."""
    nodes = extraction.snapshot.nodes
    kept = [r for r in extraction.cleaned.removed if 0 <= r.node < len(nodes)]
    total = len(kept)
    if total > REMOVED_MAX:
        largest = sorted(kept, key=lambda r: -(nodes[r.node].w * nodes[r.node].h))[:REMOVED_MAX]
        kept = sorted(largest, key=lambda r: r.node)
    return [{"xpath": nodes[r.node].xpath, "reason": r.reason, "bbox": _bbox(nodes[r.node].bbox)}
            for r in kept], total


def partial_of(extraction: ExtractionLike) -> tuple[bool, str]:
    """(partial, why): read with getattr, an exporter's input need not know of partial results."""
    partial = bool(getattr(extraction, "partial", False))
    reason = getattr(extraction, "partial_reason", "") if partial else ""
    return partial, str(reason or ("incomplete" if partial else ""))


def to_json_dict(extraction: ExtractionLike, *, all_regions: bool = True) -> dict[str, Any]:
    """The JSON contract for one extraction (all regions, or only the main one); see :func:`json_schema`.
    ``"chosen"`` is there only when the user chose the list (then ``regions[0]``)."""
    removed, removed_total = removed_list(extraction)
    partial, partial_reason = partial_of(extraction)
    out: dict[str, Any] = {
        "visx": __version__,
        "source": extraction.source,
        "url": extraction.url,
        "title": extraction.title,
        "created": extraction.created,
        "regions": [region_dict(extraction, k) for k in picked_regions(extraction, all_regions, data_only=False)],
        "removed": removed,
        "removed_total": removed_total,
        "partial": partial,
        "partial_reason": partial_reason,
        "timings": dict(extraction.timings),
        "warnings": list(extraction.warnings) + [
            w for k in picked_regions(extraction, all_regions, data_only=False)
            if (t := table_of(extraction, k)) is not None for w in t.warnings],
    }
    chosen = chosen_of(extraction)
    if chosen is not None:
        out["chosen"] = dict(chosen)
    return out
