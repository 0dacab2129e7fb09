"""The pipeline, top to bottom: render -> clean -> mine -> align -> schema.

``extract(source)`` renders (or loads a saved snapshot) and analyses;
``analyse(snapshot)`` runs the stages after rendering, without a browser.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from visx.capture_check import capture_warnings
from visx.config import Config
from visx.gcpause import gc_paused
from visx.model import Cleaned, PageSnapshot, Region

if TYPE_CHECKING:
    from visx.render.page_load import PageAction
    from visx.schema.table import Table

SNAPSHOT_SUFFIXES = (".json.gz", ".snapshot.json")


@dataclass(slots=True)
class Extraction:
    """What visx found on one page: ranked regions, their tables, and what was removed."""

    snapshot: PageSnapshot
    cleaned: Cleaned
    regions: list[Region]
    tables: list[Table] = field(default_factory=list)
    """One table per region, in rank order (``tables[k]`` belongs to ``regions[k]``)."""
    timings: dict[str, float] = field(default_factory=dict)
    created: str = ""
    warnings: list[str] = field(default_factory=list)

    @property
    def source(self) -> str:
        return self.snapshot.source

    @property
    def url(self) -> str:
        return self.snapshot.url

    @property
    def title(self) -> str:
        return self.snapshot.title

    @property
    def main(self) -> Region | None:
        """The top-ranked region (the main list), if any."""
        return self.regions[0] if self.regions else None

    @property
    def data_regions(self) -> list[Region]:
        """The data lists only (no navigation, filters, pagers...), in rank order."""
        return [rg for rg in self.regions if rg.data]


def is_snapshot_path(source: Any) -> bool:
    s = str(source)
    return not s.lstrip().startswith("<") and s.endswith(SNAPSHOT_SUFFIXES) and Path(s).is_file()


def extract(source: str | Path | PageSnapshot, config: Config | None = None, *,
            action: PageAction | None = None) -> Extraction:
    """Render ``source`` (URL, file, HTML string) or load a saved snapshot, then analyse it.

    ``action`` (see :func:`visx.render`) runs on the settled page before the capture.
    For many sources, :func:`visx.extract_many` renders a few at once and keeps going
    past a source that fails.
    """
    cfg = config or Config()
    return analyse(load_or_render(source, cfg, action=action), cfg)


def load_or_render(source: str | Path | PageSnapshot, config: Config | None = None, *,
                   action: PageAction | None = None) -> PageSnapshot:
    """The snapshot of ``source``: itself, a saved snapshot file read back, or a fresh render."""
    if isinstance(source, PageSnapshot):
        return source
    if is_snapshot_path(source):
        from visx.render.snapshot_io import load_snapshot

        return load_snapshot(source)
    from visx.render.page_load import render

    return render(source, config or Config(), action=action)


def analyse(snapshot: PageSnapshot, config: Config | None = None) -> Extraction:
    """Run every stage after rendering on ``snapshot``."""
    with gc_paused():
        return _analyse(snapshot, config or Config())


def _analyse(snapshot: PageSnapshot, cfg: Config) -> Extraction:
    timings: dict[str, float] = {k: v for k, v in snapshot.timings.items() if k != "launch"}
    t = time.perf_counter()
    cleaned = _clean(snapshot, cfg)
    timings["clean"] = _lap(t)
    t = time.perf_counter()
    from visx.mine import mine

    regions = mine(snapshot, cleaned, cfg.mine)
    timings["mine"] = _lap(t)
    out = Extraction(
        snapshot=snapshot,
        cleaned=cleaned,
        regions=regions,
        timings=timings,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
    )
    for rg in regions:
        for rec in rg.records:
            rec.step = min((snapshot.nodes[p].step for p in rec.parts), default=0)
    if not regions:
        out.warnings.append(f"{snapshot.source}: no repeated records found")
    out.warnings.extend(capture_warnings(snapshot, regions))
    _tabulate(out, cfg)
    return out


def _clean(snapshot: PageSnapshot, cfg: Config) -> Cleaned:
    n = len(snapshot.nodes)
    if not cfg.clean.enabled:
        return Cleaned(removed=[], dropped=bytearray(n))
    from visx.clean import clean

    return clean(snapshot, cfg.clean)


def _tabulate(out: Extraction, cfg: Config) -> None:
    """Align each region's records and build its typed table."""
    from visx.align import align_regions
    from visx.schema import build_tables

    t = time.perf_counter()
    nodes = out.snapshot.nodes
    alignments = align_regions(nodes, out.regions, cfg)
    out.timings["align"] = _lap(t)
    t = time.perf_counter()
    out.tables = build_tables(nodes, out.regions, alignments, cfg)
    out.timings["schema"] = _lap(t)


def _lap(t: float) -> float:
    return round(time.perf_counter() - t, 4)
