"""Evaluation outputs: per-page CSV, summary and category tables, worst pages, chart.

Record figures and field (cell) figures side by side; the definitions are in
``visx.evaluate.metrics`` and ``visx.evaluate.fields``.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from visx.errors import ExportError
from visx.evaluate import thresholds as th
from visx.evaluate.data_lists import DataListScore
from visx.evaluate.fields import FieldScore
from visx.evaluate.metrics import Score, micro
from visx.evaluate.runner import PageResult

_log = logging.getLogger(__name__)

CHART_EXTRA_HINT = "install it with `pip install 'visx[eval]'` (or matplotlib)"

PAGE_COLUMNS = (
    "id", "category", "site", "elements", "gold", "gold_in_page", "gold_visible", "regions",
    "top_predicted", "top_matched", "top_p", "top_r", "top_f1",
    "best_rank", "best_predicted", "best_matched", "best_p", "best_r", "best_f1",
    "hit", "perfect",
    "cell_fields", "cell_columns", "cell_mapped", "cell_correct", "cell_predicted", "cell_gold",
    "cell_p", "cell_r", "cell_f1", "cell_gold_all", "cell_r_e2e", "purity",
    "analyse_ms", "clean_ms", "mine_ms", "align_ms", "schema_ms", "time_ratio", "render_s",
    "reason", "field_reason",
)


@dataclass(slots=True, frozen=True)
class Summary:
    """Figures over a set of pages (micro-averaged P/R/F1)."""

    pages: int
    top: Score
    best: Score
    top_macro_f1: float
    best_macro_f1: float
    hits: int
    perfect: int
    errors: int
    analyse_median_ms: float
    analyse_max_ms: float
    clean_mine_median_ms: float
    """Median of clean + mine alone (the speed target's stages)."""
    cells: FieldScore = field(default_factory=FieldScore)
    """Field-level cell counts, summed over the pages (micro-average)."""
    cells_macro_f1: float = 0.0
    """Mean of the per-page cell F1 over pages with gold cells."""
    time_ratio_median: float | None = None
    """Median over pages of (align + schema) / mine time (None: no page timed them)."""
    time_ratio_total: float | None = None
    """Total align + schema time over total mine time, same pages."""
    align_schema_s: float = 0.0
    mine_s: float = 0.0
    data_lists: DataListScore | None = None
    """Data lists told from the other regions, over the pages with region labels."""
    data_list_pages: int = 0

    @property
    def hit_rate(self) -> float:
        return self.hits / self.pages if self.pages else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "pages": self.pages,
            "top": _figures(self.top),
            "best": _figures(self.best),
            "top_macro_f1": round(self.top_macro_f1, 4),
            "best_macro_f1": round(self.best_macro_f1, 4),
            "hit_rate": round(self.hit_rate, 4),
            "hits": self.hits,
            "perfect": self.perfect,
            "errors": self.errors,
            "analyse_median_ms": round(self.analyse_median_ms, 1),
            "analyse_max_ms": round(self.analyse_max_ms, 1),
            "clean_mine_median_ms": round(self.clean_mine_median_ms, 1),
            "cells": {**_cell_figures(self.cells), "macro_f1": round(self.cells_macro_f1, 4),
                      "target_f1": th.CELL_F1_TARGET},
            "time_ratio": {"median": _round(self.time_ratio_median), "total": _round(self.time_ratio_total),
                           "align_schema_s": round(self.align_schema_s, 3), "mine_s": round(self.mine_s, 3),
                           "target": th.TIME_RATIO_TARGET},
            "data_lists": None if self.data_lists is None else {
                "pages": self.data_list_pages, "p": round(self.data_lists.precision, 4),
                "r": round(self.data_lists.recall, 4), "f1": round(self.data_lists.f1, 4),
                "tp": self.data_lists.tp, "fp": self.data_lists.fp, "fn": self.data_lists.fn,
                "tn": self.data_lists.tn, "unlabelled": self.data_lists.unlabelled},
        }


def _cell_figures(c: FieldScore) -> dict[str, float | int]:
    return {"p": round(c.precision, 4), "r": round(c.recall, 4), "f1": round(c.f1, 4),
            "purity": round(c.purity, 4), "e2e_p": round(c.e2e_precision, 4),
            "e2e_r": round(c.e2e_recall, 4), "e2e_f1": round(c.e2e_f1, 4),
            "correct": c.correct, "predicted": c.predicted, "gold": c.gold,
            "predicted_all": c.predicted_all, "gold_all": c.gold_all,
            "pure": c.pure, "column_cells": c.column_cells}


def _round(v: float | None) -> float | None:
    return None if v is None else round(v, 4)


def _figures(s: Score) -> dict[str, float | int]:
    return {"p": round(s.precision, 4), "r": round(s.recall, 4), "f1": round(s.f1, 4),
            "matched": s.matched, "predicted": s.predicted, "gold": s.gold}


def summarize(results: Sequence[PageResult]) -> Summary:
    ms = [r.analyse_s * 1000 for r in results if not r.error]
    cm = [(r.stages["clean"] + r.stages["mine"]) * 1000 for r in results
          if "clean" in r.stages and "mine" in r.stages]
    timed = [r for r in results if r.time_ratio is not None]
    after = sum(r.stages["align"] + r.stages["schema"] for r in timed)
    mine = sum(r.stages["mine"] for r in timed)
    with_cells = [r.fields.score.f1 for r in results if r.fields.score.gold_all]
    labelled = [r.data_lists for r in results if r.data_lists is not None]
    return Summary(
        data_lists=sum(labelled, DataListScore()) if labelled else None,
        data_list_pages=len(labelled),
        pages=len(results),
        top=micro(r.score.top for r in results),
        best=micro(r.score.best for r in results),
        top_macro_f1=statistics.fmean(r.score.top.f1 for r in results) if results else 0.0,
        best_macro_f1=statistics.fmean(r.score.best.f1 for r in results) if results else 0.0,
        hits=sum(r.score.hit for r in results),
        perfect=sum(r.score.perfect for r in results),
        errors=sum(bool(r.error) for r in results),
        analyse_median_ms=statistics.median(ms) if ms else 0.0,
        analyse_max_ms=max(ms) if ms else 0.0,
        clean_mine_median_ms=statistics.median(cm) if cm else 0.0,
        cells=sum((r.fields.score for r in results), FieldScore()),
        cells_macro_f1=statistics.fmean(with_cells) if with_cells else 0.0,
        time_ratio_median=statistics.median(r.time_ratio for r in timed if r.time_ratio is not None)
        if timed else None,
        time_ratio_total=after / mine if mine else None,
        align_schema_s=after,
        mine_s=mine,
    )


def by_category(results: Sequence[PageResult]) -> dict[str, Summary]:
    groups: dict[str, list[PageResult]] = {}
    for r in results:
        groups.setdefault(r.page.category or "-", []).append(r)
    return {k: summarize(v) for k, v in sorted(groups.items())}


def page_row(r: PageResult) -> dict[str, Any]:
    s, f = r.score, r.fields
    c = f.score
    return {
        "id": r.page.id, "category": r.page.category, "site": r.page.site,
        "elements": r.n_elements, "gold": s.n_gold,
        "gold_in_page": "" if s.gold_in_page is None else s.gold_in_page,
        "gold_visible": "" if s.gold_visible is None else s.gold_visible,
        "regions": len(s.regions),
        "top_predicted": s.top.predicted, "top_matched": s.top.matched,
        "top_p": f"{s.top.precision:.4f}", "top_r": f"{s.top.recall:.4f}", "top_f1": f"{s.top.f1:.4f}",
        "best_rank": s.best_rank, "best_predicted": s.best.predicted, "best_matched": s.best.matched,
        "best_p": f"{s.best.precision:.4f}", "best_r": f"{s.best.recall:.4f}", "best_f1": f"{s.best.f1:.4f}",
        "hit": int(s.hit), "perfect": int(s.perfect),
        "cell_fields": f.gold_fields, "cell_columns": len(f.columns), "cell_mapped": len(f.mapping),
        "cell_correct": c.correct, "cell_predicted": c.predicted, "cell_gold": c.gold,
        "cell_p": f"{c.precision:.4f}", "cell_r": f"{c.recall:.4f}", "cell_f1": f"{c.f1:.4f}",
        "cell_gold_all": c.gold_all, "cell_r_e2e": f"{c.e2e_recall:.4f}", "purity": f"{c.purity:.4f}",
        "analyse_ms": f"{r.analyse_s * 1000:.1f}",
        "clean_ms": _ms(r.stages.get("clean")),
        "mine_ms": _ms(r.stages.get("mine")),
        "align_ms": _ms(r.stages.get("align")),
        "schema_ms": _ms(r.stages.get("schema")),
        "time_ratio": "" if r.time_ratio is None else f"{r.time_ratio:.3f}",
        "render_s": "" if r.render_s is None else f"{r.render_s:.2f}",
        "reason": r.reason,
        "field_reason": r.field_reason,
    }


def _ms(seconds: float | None) -> str:
    return "" if seconds is None else f"{seconds * 1000:.1f}"


def pages_csv(results: Sequence[PageResult]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=PAGE_COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in results:
        w.writerow(page_row(r))
    return buf.getvalue()


def summary_table(summary: Summary, label: str = "") -> str:
    s = summary
    head = f"{label}: " if label else ""
    lines = [
        f"{head}{s.pages} pages, {s.errors} with errors",
        f"{'':14}{'P':>7}{'R':>7}{'F1':>7}{'macroF1':>9}{'matched':>9}{'pred':>7}{'gold':>7}",
    ]
    for name, sc, macro in (("top region", s.top, s.top_macro_f1), ("best region", s.best, s.best_macro_f1)):
        lines.append(f"{name:14}{sc.precision:7.3f}{sc.recall:7.3f}{sc.f1:7.3f}{macro:9.3f}"
                     f"{sc.matched:9d}{sc.predicted:7d}{sc.gold:7d}")
    lines.append(f"main-region hit {s.hits}/{s.pages} = {s.hit_rate:.1%}; perfect pages "
                 f"{s.perfect}/{s.pages}; analysis median {s.analyse_median_ms:.0f} ms "
                 f"(clean + mine {s.clean_mine_median_ms:.0f} ms), max {s.analyse_max_ms:.0f} ms")
    c = s.cells
    lines.append(f"{'cells (top)':14}{c.precision:7.3f}{c.recall:7.3f}{c.f1:7.3f}{s.cells_macro_f1:9.3f}"
                 f"{c.correct:9d}{c.predicted:7d}{c.gold:7d}  over matched records; "
                 f"target F1 >= {th.CELL_F1_TARGET}")
    lines.append(f"{'cells e2e':14}{c.e2e_precision:7.3f}{c.e2e_recall:7.3f}{c.e2e_f1:7.3f}{'':9}"
                 f"{c.correct:9d}{c.predicted_all:7d}{c.gold_all:7d}  over all records; "
                 f"column purity {c.purity:.3f} ({c.pure}/{c.column_cells} cells)")
    if s.data_lists is not None:
        d = s.data_lists
        lines.append(f"{'data lists':14}{d.precision:7.3f}{d.recall:7.3f}{d.f1:7.3f}{'':9}"
                     f"{d.tp:9d}{d.tp + d.fp:7d}{d.tp + d.fn:7d}  over {d.labelled} labelled regions on "
                     f"{s.data_list_pages} pages ({d.unlabelled} unlabelled)")
    lines.append(f"align + schema / mine time: median {_fmt(s.time_ratio_median)} per page, total "
                 f"{_fmt(s.time_ratio_total)} ({s.align_schema_s:.2f} s / {s.mine_s:.2f} s); "
                 f"target <= {th.TIME_RATIO_TARGET}")
    return "\n".join(lines)


def _fmt(v: float | None) -> str:
    return "-" if v is None else f"{v:.3f}"


def category_table(cats: dict[str, Summary]) -> str:
    lines = [f"{'category':16}{'pages':>6}{'topF1':>7}{'bestF1':>7}{'hit':>7}{'perfect':>8}"
             f"{'cellP':>7}{'cellR':>7}{'cellF1':>7}{'purity':>7}{'ratio':>7}"]
    for name, s in cats.items():
        c = s.cells
        lines.append(f"{name:16}{s.pages:6d}{s.top.f1:7.3f}{s.best.f1:7.3f}{s.hit_rate:7.0%}{s.perfect:8d}"
                     f"{c.precision:7.3f}{c.recall:7.3f}{c.f1:7.3f}{c.purity:7.3f}{_fmt(s.time_ratio_median):>7}")
    return "\n".join(lines)


def worst_pages(results: Sequence[PageResult], n: int = 10) -> list[PageResult]:
    """The ``n`` lowest pages by top-region F1, then best-region F1, then id."""
    imperfect = [r for r in results if r.error or not r.score.perfect]
    return sorted(imperfect, key=lambda r: (r.score.top.f1, r.score.best.f1, r.page.id))[:n]


def worst_table(results: Sequence[PageResult], n: int = 10) -> str:
    lines = [f"{'page':40}{'topF1':>6}{'bestF1':>7}  reason"]
    for r in worst_pages(results, n):
        reason = r.reason if len(r.reason) <= 120 else r.reason[:117] + "..."
        lines.append(f"{r.page.id[:40]:40}{r.score.top.f1:6.2f}{r.score.best.f1:7.2f}  {reason}")
    return "\n".join(lines)


def worst_field_pages(results: Sequence[PageResult], n: int = 10) -> list[PageResult]:
    """The ``n`` pages lowest by cell F1 (matched records), then end-to-end F1, then id.

    Only pages with matched records: a page without any is a record failure,
    listed by :func:`worst_pages`, and says nothing about its columns.
    """
    scored = [r for r in results if r.fields.matched and r.fields.score.f1 < 1.0]
    return sorted(scored, key=lambda r: (r.fields.score.f1, r.fields.score.e2e_f1, r.page.id))[:n]


def worst_fields_table(results: Sequence[PageResult], n: int = 10) -> str:
    lines = [f"{'page':40}{'cellF1':>7}{'purity':>7}{'topF1':>6}  reason"]
    for r in worst_field_pages(results, n):
        c = r.fields.score
        reason = r.field_reason if len(r.field_reason) <= 120 else r.field_reason[:117] + "..."
        lines.append(f"{r.page.id[:40]:40}{c.f1:7.2f}{c.purity:7.2f}{r.score.top.f1:6.2f}  {reason}")
    return "\n".join(lines)


def chart_png(cats: dict[str, Summary], path: Path, title: str = "visx F1 per category") -> None:
    """Bar chart of top- and best-region record F1 and cell F1 per category (matplotlib, Agg backend)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ExportError(f"{path}: the chart needs matplotlib, which is not installed; "
                          f"{CHART_EXTRA_HINT}, or pass --no-chart", source=str(path)) from e
    names = list(cats)
    xs = range(len(names))
    fig, ax = plt.subplots(figsize=(max(6.0, 0.6 * len(names) + 2), 4.5), dpi=110)
    ax.bar([x - 0.27 for x in xs], [cats[n].top.f1 for n in names], width=0.27, label="records, top region")
    ax.bar(list(xs), [cats[n].best.f1 for n in names], width=0.27, label="records, best region")
    ax.bar([x + 0.27 for x in xs], [cats[n].cells.f1 for n in names], width=0.27, label="cells, top region (matched records)")
    ax.set_xticks(list(xs))
    ax.set_xticklabels(names, rotation=45, ha="right")
    ax.set_ylim(0, 1.3)  # headroom above 1.0 keeps the two legend rows off the bars
    ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 0.9, 1.0])
    ax.set_ylabel("F1 (micro)")
    ax.axhline(0.9, color="grey", linewidth=0.8, linestyle="--", label="record target 0.9")
    ax.axhline(th.CELL_F1_TARGET, color="grey", linewidth=0.8, linestyle=":",
               label=f"cell target {th.CELL_F1_TARGET}")
    ax.set_title(title)
    ax.legend(loc="upper center", ncol=3, frameon=False, fontsize="small")
    fig.tight_layout()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path)
    except OSError as e:
        raise ExportError(f"{path}: cannot write the chart ({e.strerror}); choose a writable --out") from e
    finally:
        plt.close(fig)


def write_outputs(
    results: Sequence[PageResult], out_dir: Path, *, chart: bool = True, label: str = ""
) -> dict[str, Path]:
    """pages.csv, summary.json (overall, per category, worst pages by record and by cell F1)
    and f1_by_category.png.

    Without matplotlib (the ``eval`` extra) the chart is skipped with a warning on the
    ``visx.evaluate.report`` logger and left out of the paths; the tables are written."""
    from visx.atomic import write_bytes

    summary = summarize(results)
    cats = by_category(results)
    doc = {
        "overall": summary.as_dict(),
        "categories": {k: v.as_dict() for k, v in cats.items()},
        "worst": [{"id": r.page.id, "top_f1": round(r.score.top.f1, 4), "best_f1": round(r.score.best.f1, 4),
                   "reason": r.reason} for r in worst_pages(results)],
        "worst_fields": [{"id": r.page.id, "cell_f1": round(r.fields.score.f1, 4),
                          "purity": round(r.fields.score.purity, 4), "top_f1": round(r.score.top.f1, 4),
                          "reason": r.field_reason} for r in worst_field_pages(results)],
    }
    paths = {"pages": out_dir / "pages.csv", "summary": out_dir / "summary.json"}
    try:
        write_bytes(paths["pages"], pages_csv(results).encode())
        write_bytes(paths["summary"], json.dumps(doc, indent=1).encode())
    except OSError as e:
        raise ExportError(f"{out_dir}: cannot write the evaluation ({e.strerror}); choose a writable --out") from e
    if chart:
        png = out_dir / "f1_by_category.png"
        if _have_matplotlib():
            chart_png(cats, png, "visx F1 per category" + (f" ({label})" if label else ""))
            paths["chart"] = png
        else:
            _log.warning("%s skipped: the chart needs matplotlib, which is not installed; %s, "
                         "or pass --no-chart", png, CHART_EXTRA_HINT)
    return paths


def _have_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True
