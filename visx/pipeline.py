"""The pipeline, top to bottom: render -> clean -> mine -> align -> schema.

``extract(source)`` renders (or loads a saved snapshot) and analyses;
``extract_async`` is its asyncio twin; ``analyse(snapshot)`` runs the stages
after rendering, without a browser.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from visx.capture_check import capture_warnings
from visx.config import Config
from visx.gcpause import gc_paused
from visx.log import log_snapshot
from visx.model import Cleaned, PageSnapshot, Region

if TYPE_CHECKING:
    import pandas

    from visx.export.base import ExportResult
    from visx.render.page_load import PageAction
    from visx.schema.table import Table

log = logging.getLogger(__name__)

SNAPSHOT_SUFFIXES = (".json.gz", ".snapshot.json")


@dataclass(slots=True)
class Extraction:
    """What visx found on one page: ranked regions, their tables, and what was removed."""

    snapshot: PageSnapshot
    cleaned: Cleaned
    regions: list[Region]
    tables: list[Table] = field(default_factory=list)
    """One table per region, in rank order: ``tables[k]`` is ``regions[k].table``."""
    timings: dict[str, float] = field(default_factory=dict)
    created: str = ""
    warnings: list[str] = field(default_factory=list)
    chosen: dict[str, Any] | None = None
    """The user's choice of list, when one was made (``extract(region=|hint=|example=)``,
    :func:`visx.choose.apply_choice`): ``{"by": "region" | "hint" | "example", "value": ...,
    "rank": N}``. The chosen region is then ``regions[0]`` (the main one), keeping its rank."""
    cuts: list[str] = field(default_factory=list)
    """What the analysis left out to stay within ``Config.analysis`` (elements past
    ``max_nodes``, tables past ``budget_s``); each also a warning."""

    @property
    def partial(self) -> bool:
        """The result is known to be incomplete: the capture (``PageSnapshot.partial``) or the analysis was cut."""
        return self.snapshot.partial or bool(self.cuts)

    @property
    def partial_reason(self) -> str:
        """Why :attr:`partial` is set, for people ('' when it is not)."""
        if not self.partial:
            return ""
        reasons = [self.snapshot.partial_reason or ("the capture is partial" if self.snapshot.partial else ""),
                   *self.cuts]
        return "; ".join(r for r in reasons if r)

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
        """The main list, if any: the chosen region when a choice was made (``chosen``), else rank 1."""
        return self.regions[0] if self.regions else None

    @property
    def data_regions(self) -> list[Region]:
        """The data lists only (no navigation, filters, pagers...), in rank order."""
        return [rg for rg in self.regions if rg.data]

    def to_records(self, *, all_regions: bool = False, all_columns: bool = False,
                   raw: bool = False) -> list[dict[str, Any]]:
        """The main table's rows as flat dicts (``Table.to_records``); empty without a region.

        ``all_regions``: the rows of every data list, each starting with its ``region``
        rank. ``all_columns``: also the columns the default table hides (constant text,
        labels, button words). ``raw``: the text as shown instead of typed values.
        """
        from visx.export.formats import flat_rows

        return flat_rows(self, all_regions, all_columns=all_columns, raw=raw)[0]

    def to_pandas(self, *, all_regions: bool = False, all_columns: bool = False,
                  raw: bool = False) -> pandas.DataFrame:
        """:meth:`to_records` as a DataFrame, columns in table order (needs ``visx[pandas]``)."""
        try:
            import pandas as pd
        except ImportError as e:
            from visx.errors import ExportError

            raise ExportError(f"{self.source}: Extraction.to_pandas needs pandas; install it with "
                              "`pip install 'visx[pandas]'`, or use to_records()",
                              source=self.source) from e
        from visx.export.formats import flat_rows

        rows, keys = flat_rows(self, all_regions, all_columns=all_columns, raw=raw)
        return pd.DataFrame(rows, columns=keys)

    def write(self, path: str | Path, fmt: str | None = None, *, all_regions: bool = False) -> ExportResult:
        """Write to ``path`` (:func:`visx.export.write`): the format follows the extension
        (.csv .json .jsonl .sqlite .parquet) unless ``fmt`` names it. ``all_regions``: the
        tables of every data list (CSV, Parquet, SQLite; JSON and JSON Lines hold every
        region anyway). Raises :class:`visx.ExportError` naming the path."""
        from visx.export import write

        return write(self, Path(path), all_regions=all_regions, fmt=fmt)


def is_snapshot_path(source: Any) -> bool:
    s = str(source)
    return not s.lstrip().startswith("<") and s.endswith(SNAPSHOT_SUFFIXES) and Path(s).is_file()


def extract(source: str | Path | PageSnapshot, config: Config | None = None, *,
            action: PageAction | None = None, region: int | None = None, hint: str | None = None,
            example: str | None = None) -> Extraction:
    """Render ``source`` (URL, file, HTML string) or load a saved snapshot, then analyse it.

    ``action`` (see :func:`visx.render`) runs on the settled page before the capture.
    ``region=N``, ``hint=SELECTOR`` or ``example=TEXT`` (one of them) choose the main
    list (:mod:`visx.choose`): it comes first, its rank kept, and ``chosen`` says how;
    :class:`visx.SelectionError` when the page has no such list.
    For many sources, :func:`visx.extract_many` renders a few at once and keeps going
    past a source that fails.
    """
    from visx.choose import apply_choice, check_choice

    check_choice(region=region, hint=hint, example=example)  # a bad option costs no render
    cfg = config or Config()
    _warm_while_rendering(source)
    out = analyse(load_or_render(source, cfg, action=action), cfg)
    return apply_choice(out, region=region, hint=hint, example=example)


def _warm_while_rendering(source: object) -> None:
    """A render leaves Python idle for most of a second: warm the stages meanwhile."""
    if not isinstance(source, PageSnapshot) and not is_snapshot_path(source):
        from visx import prewarm

        prewarm.start()


async def extract_async(source: str | Path | PageSnapshot, config: Config | None = None, *,
                        action: PageAction | None = None, region: int | None = None,
                        hint: str | None = None, example: str | None = None) -> Extraction:
    """Asyncio twin of :func:`extract` (``region``, ``hint``, ``example`` too). The page renders
    in visx's shared browser and the analysis runs on a worker thread, so the caller's event
    loop is never blocked; for many sources see :func:`visx.extract_many_async`."""
    from visx.choose import apply_choice, check_choice

    choice = check_choice(region=region, hint=hint, example=example)
    cfg = config or Config()
    _warm_while_rendering(source)
    snap = await load_or_render_async(source, cfg, action=action)
    out = await asyncio.to_thread(analyse, snap, cfg)
    if choice is None:
        return out
    return await asyncio.to_thread(apply_choice, out, region=region, hint=hint, example=example)


def load_or_render(source: str | Path | PageSnapshot, config: Config | None = None, *,
                   action: PageAction | None = None) -> PageSnapshot:
    """The snapshot of ``source``: itself, a saved snapshot file read back, or a fresh render."""
    if isinstance(source, PageSnapshot):
        return source
    if is_snapshot_path(source):
        return _read_snapshot(source)
    from visx.render.page_load import render

    return render(source, config or Config(), action=action)


async def load_or_render_async(source: str | Path | PageSnapshot, config: Config | None = None, *,
                               action: PageAction | None = None) -> PageSnapshot:
    """:func:`load_or_render` for asyncio: files are read on a worker thread."""
    if isinstance(source, PageSnapshot):
        return source
    if is_snapshot_path(source):
        return await asyncio.to_thread(_read_snapshot, source)
    from visx.render.page_load import render_async

    return await render_async(source, config or Config(), action=action)


def _read_snapshot(path: str | Path) -> PageSnapshot:
    from visx.render.snapshot_io import load_snapshot

    snap = load_snapshot(path)
    log_snapshot(log, snap, "read snapshot", notes_level=logging.DEBUG)
    return snap


def analyse(snapshot: PageSnapshot, config: Config | None = None) -> Extraction:
    """Run every stage after rendering on ``snapshot``."""
    with gc_paused():
        return _analyse(snapshot, config or Config())


def _analyse(snapshot: PageSnapshot, cfg: Config) -> Extraction:
    timings: dict[str, float] = dict(snapshot.timings)
    t = t_start = time.perf_counter()
    cuts: list[str] = []
    snapshot = _within_max_nodes(snapshot, cfg.analysis.max_nodes, cuts)
    cleaned = _clean(snapshot, cfg)
    timings["clean"] = _lap(t)
    t = time.perf_counter()
    from visx.flat import with_flat
    from visx.mine import mine

    regions = [] if cfg.mine.miner == "flat" else mine(snapshot, cleaned, cfg.mine)
    regions = with_flat(snapshot, cleaned, regions, cfg)  # flat text runs, when the DOM finds no list
    timings["mine"] = _lap(t)
    out = Extraction(
        snapshot=snapshot,
        cleaned=cleaned,
        regions=regions,
        timings=timings,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        cuts=cuts,
    )
    for rg in regions:
        for rec in rg.records:
            rec.step = min((snapshot.nodes[p].step for p in rec.parts), default=0)
    if not regions:
        out.warnings.append(f"{snapshot.source}: no repeated records found")
    out.warnings.extend(capture_warnings(snapshot, regions))
    spent = time.perf_counter() - t_start
    main_only = spent > cfg.analysis.budget_s and len(regions) > 1
    if main_only:
        cuts.append(f"the analysis had used {spent:.1f} s of its {cfg.analysis.budget_s:g} s budget after mining, "
                    f"so only the main list was aligned into a table ({len(regions) - 1} other region(s) without "
                    "one; raise analysis.budget_s to get them)")
    out.warnings.extend(f"{snapshot.source}: {c}" for c in cuts)
    if snapshot.partial and not snapshot.warnings and not cuts:
        # --partial keeps a page that timed out: say so where people look, not only in the output.
        out.warnings.append(f"{snapshot.source}: the result is partial ({snapshot.partial_reason or 'the capture'})")
    _tabulate(out, cfg, main_only=main_only)
    _log_extraction(out)
    return out


def _log_extraction(out: Extraction) -> None:
    """Warnings the snapshot did not already carry (those were logged as it was rendered or read)."""
    seen = set(out.snapshot.warnings)
    for w in out.warnings:
        if w not in seen:
            log.warning("%s", w)
    for rg, table in zip(out.regions, out.tables, strict=False):
        for w in table.warnings:
            log.info("%s: region %d: %s", out.source, rg.rank, w)
    if log.isEnabledFor(logging.DEBUG):
        stages = ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in out.timings.items())
        log.debug("analysed %s: %d region(s), %d record(s) in the main one; %s", out.source,
                  len(out.regions), len(out.main.records) if out.main else 0, stages)


def _clean(snapshot: PageSnapshot, cfg: Config) -> Cleaned:
    n = len(snapshot.nodes)
    if not cfg.clean.enabled:
        return Cleaned(removed=[], dropped=bytearray(n))
    from visx.clean import clean

    return clean(snapshot, cfg.clean)


def _within_max_nodes(snapshot: PageSnapshot, max_nodes: int, cuts: list[str]) -> PageSnapshot:
    """``snapshot``, or a copy holding only its first ``max_nodes`` elements (a whole tree:
    parents come before their children), with the cut said in ``cuts``."""
    n = len(snapshot.nodes)
    if n <= max_nodes:
        return snapshot
    import dataclasses

    from visx.model import NodeTable

    nodes = snapshot.nodes
    kept = [dataclasses.replace(x) for x in nodes.nodes[:max_nodes]]
    xsteps = {k: v for k, v in nodes.xsteps.items() if k < max_nodes}
    cuts.append(f"the page has {n} elements; the first {max_nodes} in document order were analysed "
                "(analysis.max_nodes), records further down are missing")
    return dataclasses.replace(snapshot, nodes=NodeTable(kept, nodes.styles, xsteps))


def _tabulate(out: Extraction, cfg: Config, *, main_only: bool = False) -> None:
    """Align each region's records and build its typed table (the main region's only, ``main_only``)."""
    from visx.align import align_regions
    from visx.schema import build_tables

    t = time.perf_counter()
    nodes = out.snapshot.nodes
    regions = out.regions[:1] if main_only else out.regions
    from visx.flat import FlatRegion, align_flat

    dom = iter(align_regions(nodes, [rg for rg in regions if not isinstance(rg, FlatRegion)], cfg))
    alignments = [align_flat(rg) if isinstance(rg, FlatRegion) else next(dom) for rg in regions]
    out.timings["align"] = _lap(t)
    t = time.perf_counter()
    out.tables = build_tables(nodes, regions, alignments, cfg)
    for rg, table in zip(out.regions, out.tables, strict=False):
        rg.table = table
    out.timings["schema"] = _lap(t)


def _lap(t: float) -> float:
    return round(time.perf_counter() - t, 4)
