"""Evaluation outputs: per-page CSV, summary and category tables, worst pages, chart."""

from __future__ import annotations

import csv
import io
import json
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from visx.errors import ExportError
from visx.evaluate.metrics import Score, micro
from visx.evaluate.runner import PageResult

PAGE_COLUMNS = (
    "id", "category", "site", "elements", "gold", "gold_in_page", "gold_visible", "regions",
    "top_predicted", "top_matched", "top_p", "top_r", "top_f1",
    "best_rank", "best_predicted", "best_matched", "best_p", "best_r", "best_f1",
    "hit", "perfect", "analyse_ms", "clean_ms", "mine_ms", "render_s", "reason",
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
        }


def _figures(s: Score) -> dict[str, float | int]:
    return {"p": round(s.precision, 4), "r": round(s.recall, 4), "f1": round(s.f1, 4),
            "matched": s.matched, "predicted": s.predicted, "gold": s.gold}


def summarize(results: Sequence[PageResult]) -> Summary:
    ms = [r.analyse_s * 1000 for r in results if not r.error]
    cm = [(r.stages["clean"] + r.stages["mine"]) * 1000 for r in results
          if "clean" in r.stages and "mine" in r.stages]
    return Summary(
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
    )


def by_category(results: Sequence[PageResult]) -> dict[str, Summary]:
    groups: dict[str, list[PageResult]] = {}
    for r in results:
        groups.setdefault(r.page.category or "-", []).append(r)
    return {k: summarize(v) for k, v in sorted(groups.items())}


def page_row(r: PageResult) -> dict[str, Any]:
    s = r.score
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
        "analyse_ms": f"{r.analyse_s * 1000:.1f}",
        "clean_ms": _ms(r.stages.get("clean")),
        "mine_ms": _ms(r.stages.get("mine")),
        "render_s": "" if r.render_s is None else f"{r.render_s:.2f}",
        "reason": r.reason,
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
    return "\n".join(lines)


def category_table(cats: dict[str, Summary]) -> str:
    lines = [f"{'category':16}{'pages':>6}{'topF1':>7}{'bestF1':>7}{'hit':>7}{'perfect':>8}"]
    for name, s in cats.items():
        lines.append(f"{name:16}{s.pages:6d}{s.top.f1:7.3f}{s.best.f1:7.3f}{s.hit_rate:7.0%}{s.perfect:8d}")
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


def chart_png(cats: dict[str, Summary], path: Path, title: str = "visx record F1 per category") -> None:
    """Bar chart of top- and best-region F1 per category (matplotlib, Agg backend)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ExportError(f"{path}: the chart needs matplotlib, which is not installed; install "
                          "it with `pip install 'visx[dev]'` (or matplotlib), or pass --no-chart") from e
    names = list(cats)
    xs = range(len(names))
    fig, ax = plt.subplots(figsize=(max(6.0, 0.6 * len(names) + 2), 4.5), dpi=110)
    ax.bar([x - 0.2 for x in xs], [cats[n].top.f1 for n in names], width=0.4, label="top region")
    ax.bar([x + 0.2 for x in xs], [cats[n].best.f1 for n in names], width=0.4, label="best region")
    ax.set_xticks(list(xs))
    ax.set_xticklabels(names, rotation=45, ha="right")
    ax.set_ylim(0, 1.18)  # headroom above 1.0 keeps the legend off the bars
    ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 0.9, 1.0])
    ax.set_ylabel("record F1 (micro)")
    ax.axhline(0.9, color="grey", linewidth=0.8, linestyle="--", label="target 0.9")
    ax.set_title(title)
    ax.legend(loc="upper center", ncol=3, frameon=False)
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
    """pages.csv, summary.json (overall, per category, worst pages) and f1_by_category.png."""
    from visx.render.snapshot_io import atomic_write_bytes

    summary = summarize(results)
    cats = by_category(results)
    doc = {
        "overall": summary.as_dict(),
        "categories": {k: v.as_dict() for k, v in cats.items()},
        "worst": [{"id": r.page.id, "top_f1": round(r.score.top.f1, 4), "best_f1": round(r.score.best.f1, 4),
                   "reason": r.reason} for r in worst_pages(results)],
    }
    paths = {"pages": out_dir / "pages.csv", "summary": out_dir / "summary.json"}
    try:
        atomic_write_bytes(paths["pages"], pages_csv(results).encode())
        atomic_write_bytes(paths["summary"], json.dumps(doc, indent=1).encode())
    except OSError as e:
        raise ExportError(f"{out_dir}: cannot write the evaluation ({e.strerror}); choose a writable --out") from e
    if chart:
        paths["chart"] = out_dir / "f1_by_category.png"
        title = "visx record F1 per category" + (f" ({label})" if label else "")
        chart_png(cats, paths["chart"], title)
    return paths
