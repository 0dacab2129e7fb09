"""Run the analysis over a dataset and score every page.

Per page: the cached snapshot (rendered once if missing), then the analysis
function, timed, then the scores. A page that fails to render or to analyse
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
from visx.evaluate.dataset import Page, load_dataset, read_gold
from visx.evaluate.metrics import PageScore, failure_reason, score_page
from visx.model import PageSnapshot


class _RecordLike(Protocol):
    @property
    def text(self) -> str: ...


class _RegionLike(Protocol):
    @property
    def records(self) -> Sequence[_RecordLike]: ...


class _ExtractionLike(Protocol):
    @property
    def regions(self) -> Sequence[_RegionLike]: ...


ANALYSIS_STAGES = ("clean", "mine", "align", "schema")
"""Stage timings kept from ``Extraction.timings`` (the render stages are not analysis)."""

Analyse = Callable[[PageSnapshot, Config], Any]
"""``analyse(snapshot, config) -> Extraction`` (regions sorted by rank)."""


def pipeline_analyse() -> Analyse:
    """``visx.pipeline.analyse``, imported only when an evaluation runs."""
    try:
        mod = importlib.import_module("visx.pipeline")
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

    @property
    def reason(self) -> str:
        if self.error:
            return self.error
        return failure_reason(self.score)


def eval_config(miner: str = "mdr") -> Config:
    return testbed_config().model_copy(update={"mine": MineConfig.model_validate({"miner": miner})})


def evaluate_page(
    page: Page, cache_dir: Path | None, config: Config, analyse: Analyse, *, retry_failed: bool = False
) -> PageResult:
    gold = [g.text for g in read_gold(page)]
    if not retry_failed and cache_dir is not None and stored_snapshot(page, cache_dir) is None:
        failures = load_failures(cache_dir)
        if page.id in failures:
            return PageResult(page, score_page(gold, []),
                              error=f"render failed (cached failure): {prior_failure(page, failures)}")
    try:
        snap = get_snapshot(page, cache_dir, config, retry_failed=retry_failed)
    except Exception as e:  # reported with the page (and logged in the cache), not fatal to the run
        return PageResult(page, score_page(gold, []), error=f"render failed: {_first_line(e)}")
    page_text = snap.nodes.text(0) if len(snap.nodes) else ""
    hidden_text = snap.nodes.text(0, visible_only=False) if len(snap.nodes) else ""
    render_s = snap.extra.get("render_wall_s")
    t0 = time.perf_counter()
    try:
        extraction = analyse(snap, config)
    except Exception as e:  # a crash on one page is reported with that page, not fatal to the run
        dt = time.perf_counter() - t0
        return PageResult(page, score_page(gold, [], page_text, hidden_text), len(snap.nodes), dt,
                          _seconds(render_s), error=f"analysis failed: {type(e).__name__}: {_first_line(e)}")
    dt = time.perf_counter() - t0
    score = score_page(gold, region_texts(extraction), page_text, hidden_text)
    timings = getattr(extraction, "timings", None) or {}
    stages = {k: float(v) for k, v in timings.items() if k in ANALYSIS_STAGES}
    return PageResult(page, score, len(snap.nodes), dt, _seconds(render_s), stages=stages)


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
) -> list[PageResult]:
    """Evaluate every page of ``dataset`` (see :func:`load_dataset` for ``pages``/``limit``).

    Pages whose render failed on an earlier run are not rendered again unless
    ``retry_failed``: they stay in the results as failures.
    """
    cfg = config or eval_config()
    fn = analyse or pipeline_analyse()
    todo = load_dataset(dataset, pages=pages, limit=limit)
    out = []
    for i, page in enumerate(todo, start=1):
        res = evaluate_page(page, cache_dir, cfg, fn, retry_failed=retry_failed)
        out.append(res)
        if progress is not None:
            progress(i, len(todo), res)
    return out
