"""Run the analysis over a dataset and score every page.

Per page: the cached snapshot (rendered once if missing), then the analysis
function, timed, then the scores: records per region, then the cells of the
top region's table field by field, and the stage timings. A page that fails to render or to analyse
is kept in the results with no regions and its error, so it counts against
the figures instead of vanishing from them.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from visx.config import Config, MineConfig
from visx.errors import ExtractionError
from visx.evaluate.cache import (
    get_snapshot,
    load_failures,
    prior_failure,
    stored_snapshot,
    testbed_config,
)
from visx.evaluate.data_lists import DataListScore, RegionLabel, load_labels, score_data_lists
from visx.evaluate.dataset import Page, load_dataset, read_gold
from visx.evaluate.fields import CellLike, PageFields, field_reason, score_fields
from visx.evaluate.metrics import PageScore, failure_reason, score_page
from visx.model import PageSnapshot, Region


class _RecordLike(Protocol):
    @property
    def text(self) -> str: ...


class _RegionLike(Protocol):
    @property
    def records(self) -> Sequence[_RecordLike]: ...


class _ExtractionLike(Protocol):
    @property
    def regions(self) -> Sequence[_RegionLike]: ...


class _ColumnLike(Protocol):
    @property
    def name(self) -> str: ...


class _TableLike(Protocol):
    """What the field scores read from ``visx.schema.table.Table``."""

    @property
    def columns(self) -> Sequence[_ColumnLike]: ...
    @property
    def rows(self) -> Sequence[Sequence[CellLike | None]]: ...


ANALYSIS_STAGES = ("clean", "mine", "align", "schema")
"""Stage timings kept from ``Extraction.timings`` (the render stages are not analysis)."""

STAGE_MODULES = ("visx.clean", "visx.mine", "visx.align", "visx.schema")
"""Imported by the pipeline on first use."""

Analyse = Callable[[PageSnapshot, Config], Any]
"""``analyse(snapshot, config) -> Extraction`` (regions sorted by rank)."""


def pipeline_analyse() -> Analyse:
    """``visx.pipeline.analyse``, imported only when an evaluation runs."""
    try:
        mod = importlib.import_module("visx.pipeline")
        for stage in STAGE_MODULES:  # imported here so the first page's stage timings hold no import time
            importlib.import_module(stage)
    except ImportError as e:
        raise ExtractionError(f"visx.pipeline cannot be imported ({e}); the evaluation needs the "
                        "analysis pipeline (clean + mine)") from e
    fn: Analyse = mod.analyse
    return fn


def region_texts(extraction: _ExtractionLike) -> list[list[str]]:
    """Record texts per region, in the extraction's rank order."""
    return [[r.text for r in region.records] for region in extraction.regions]


@dataclass(slots=True)
class PageResult:
    page: Page
    score: PageScore
    n_elements: int = 0
    analyse_s: float = 0.0
    render_s: float | None = None
    """Wall seconds the page took to render, when the snapshot recorded it."""
    error: str = ""
    stages: dict[str, float] = field(default_factory=dict)
    """Seconds per analysis stage as the extraction reported them (clean, mine, ...)."""
    fields: PageFields = field(default_factory=PageFields)
    """Field-level result on the top-ranked region's table."""
    data_lists: DataListScore | None = None
    """Data lists told from the rest, on pages with region labels (None: no labels)."""

    @property
    def reason(self) -> str:
        if self.error:
            return self.error
        return failure_reason(self.score)

    @property
    def field_reason(self) -> str:
        return self.error or field_reason(self.fields, self.reason)

    @property
    def time_ratio(self) -> float | None:
        """(align + schema) / mine seconds, when all three were timed and mine took any time."""
        st = self.stages
        if not st.get("mine") or "align" not in st or "schema" not in st:
            return None
        return (st["align"] + st["schema"]) / st["mine"]


def eval_config(miner: str = "mdr") -> Config:
    return testbed_config().model_copy(update={"mine": MineConfig.model_validate({"miner": miner})})


def evaluate_page(
    page: Page, cache_dir: Path | None, config: Config, analyse: Analyse, *, retry_failed: bool = False,
    labels: Sequence[RegionLabel] | None = None,
) -> PageResult:
    gold_records = read_gold(page)
    gold = [g.text for g in gold_records]
    cells = [g.cells for g in gold_records]
    no_fields = score_fields(cells, None, ())
    if not retry_failed and cache_dir is not None and stored_snapshot(page, cache_dir) is None:
        failures = load_failures(cache_dir)
        if page.id in failures:
            return PageResult(page, score_page(gold, []), fields=no_fields,
                              error=f"render failed (cached failure): {prior_failure(page, failures)}")
    try:
        snap = get_snapshot(page, cache_dir, config, retry_failed=retry_failed)
    except Exception as e:  # reported with the page (and logged in the cache), not fatal to the run
        return PageResult(page, score_page(gold, []), fields=no_fields, error=f"render failed: {_first_line(e)}")
    page_text = snap.nodes.text(0) if len(snap.nodes) else ""
    hidden_text = snap.nodes.text(0, visible_only=False) if len(snap.nodes) else ""
    render_s = snap.extra.get("render_wall_s")
    t0 = time.perf_counter()
    try:
        extraction = analyse(snap, config)
    except Exception as e:  # a crash on one page is reported with that page, not fatal to the run
        dt = time.perf_counter() - t0
        return PageResult(page, score_page(gold, [], page_text, hidden_text), len(snap.nodes), dt,
                          _seconds(render_s), fields=no_fields,
                          error=f"analysis failed: {type(e).__name__}: {_first_line(e)}")
    dt = time.perf_counter() - t0
    score = score_page(gold, region_texts(extraction), page_text, hidden_text)
    timings = getattr(extraction, "timings", None) or {}
    stages = {k: float(v) for k, v in timings.items() if k in ANALYSIS_STAGES}
    fields = page_fields(cells, score, top_table(extraction))
    lists = None
    if labels is not None:
        regions = [rg for rg in getattr(extraction, "regions", ()) if isinstance(rg, Region)]
        lists = score_data_lists(snap.nodes, regions, labels)
    return PageResult(page, score, len(snap.nodes), dt, _seconds(render_s), stages=stages, fields=fields,
                      data_lists=lists)


def top_table(extraction: object) -> _TableLike | None:
    """The top-ranked region's table, when the extraction built tables."""
    tables: Sequence[_TableLike] = getattr(extraction, "tables", None) or ()
    return tables[0] if tables else None


def page_fields(cells: Sequence[Sequence[str]], score: PageScore, table: _TableLike | None) -> PageFields:
    """Field scores of the top region: its table against the gold cells of its matched records."""
    pairs = score.regions[0].pairs if score.regions else ()
    if table is None:
        return score_fields(cells, None, pairs)
    return score_fields(cells, table.rows, pairs, [c.name for c in table.columns])


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _seconds(v: object) -> float | None:
    return float(v) if isinstance(v, int | float) else None


def run_eval(
    dataset: str | Path,
    *,
    cache_dir: Path | None,
    config: Config | None = None,
    pages: str | None = None,
    limit: int | None = None,
    analyse: Analyse | None = None,
    retry_failed: bool = False,
    progress: Callable[[int, int, PageResult], None] | None = None,
    data_lists: Path | None = None,
) -> list[PageResult]:
    """Evaluate every page of ``dataset`` (see :func:`load_dataset` for ``pages``/``limit``).

    Pages whose render failed on an earlier run are not rendered again unless
    ``retry_failed``: they stay in the results as failures. ``data_lists`` names a file of
    region labels (:mod:`visx.evaluate.data_lists`) for the data-list score.
    """
    labels = load_labels(data_lists) if data_lists is not None else {}
    cfg = config or eval_config()
    fn = analyse or pipeline_analyse()
    todo = load_dataset(dataset, pages=pages, limit=limit)
    out = []
    for i, page in enumerate(todo, start=1):
        res = evaluate_page(page, cache_dir, cfg, fn, retry_failed=retry_failed, labels=labels.get(page.id))
        out.append(res)
        if progress is not None:
            progress(i, len(todo), res)
    return out
