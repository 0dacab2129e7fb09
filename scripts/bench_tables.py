"""CPU time of the stages after rendering over a folder of saved snapshots.

    .venv/bin/python scripts/bench_tables.py [.eval-cache/snapshots] [--limit N] [--runs R]
        [--profile align|schema|tables] [--top 30] [--sort tottime|cumulative] [--main-only]
        [--schema-parts]

Each snapshot is loaded (not timed), then clean, mine, align and schema run as
the pipeline runs them (with the cyclic GC paused, as ``visx.analyse`` does),
each timed with ``time.process_time`` (CPU time: the machine is shared, wall
time would measure the neighbours). Besides the ratio it prints the cost per
element each stage walks: mining walks the whole page, alignment and schema
only the elements inside records. With ``--runs R``
every page is analysed R times and the per-stage minimum kept. Prints per-stage
totals and medians, the ratio (align + schema) / mine (target <= 0.5), the
slowest pages, then one JSON line. ``--profile`` runs cProfile over the chosen
stages only and prints the top functions (by own time unless ``--sort``). Note:
``--runs`` > 1 warms the typing caches, so schema times drop; compare like with like.
``--schema-parts`` also prints how the schema stage's time splits between its steps
(labels, column typing, constant check, facts, naming, cells), timed around each call.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from visx.align import align_regions  # noqa: E402
from visx.align.tree import PageCache, TreeBuilder  # noqa: E402
from visx.config import Config  # noqa: E402
from visx.gcpause import gc_paused  # noqa: E402
from visx.mine import mine  # noqa: E402
from visx.model import PageSnapshot, Region  # noqa: E402
from visx.pipeline import _clean  # noqa: E402
from visx.render.snapshot_io import load_snapshot  # noqa: E402
from visx.schema import build_tables  # noqa: E402

STAGES = ("clean", "mine", "align", "schema")


def _timed(fn: Callable[[], Any], prof: cProfile.Profile | None) -> tuple[Any, float]:
    t = time.process_time()
    if prof is not None:
        prof.enable()
    out = fn()
    if prof is not None:
        prof.disable()
    return out, time.process_time() - t


SCHEMA_PARTS = ("_find_labels", "_type_column", "_is_constant", "_facts", "name_columns", "_cells")


def time_schema_parts() -> dict[str, float]:
    """Wrap the schema stage's steps (module globals of visx.schema.build) with CPU timers."""
    import visx.schema.build as build

    spent = dict.fromkeys(SCHEMA_PARTS, 0.0)

    def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def run(*a: Any, **k: Any) -> Any:
            t = time.process_time()
            try:
                return fn(*a, **k)
            finally:
                spent[name] += time.process_time() - t
        return run

    for name in SCHEMA_PARTS:
        setattr(build, name, timed(name, getattr(build, name)))
    return spent


def _build_trees(snap: PageSnapshot, regions: list[Region]) -> None:
    pc = PageCache(snap.nodes)
    for rg in regions:
        builder = TreeBuilder(pc)
        for rec in rg.records:
            builder.build(rec)


def page_times(snap: PageSnapshot, cfg: Config, profile: set[str],
               prof: cProfile.Profile | None, main_only: bool = False) -> dict[str, float]:
    """CPU seconds per stage for one analysis of ``snap``."""
    with gc_paused():
        cleaned, t_clean = _timed(lambda: _clean(snap, cfg), None)
        regions, t_mine = _timed(lambda: mine(snap, cleaned, cfg.mine), None)
        nodes = snap.nodes
        if main_only:
            regions = regions[:1]  # how much of the cost is the main list alone
        # The calls of visx.pipeline._tabulate, each stage timed on its own.
        aligns, t_align = _timed(lambda: align_regions(nodes, regions, cfg), prof if "align" in profile else None)
        _, t_schema = _timed(lambda: build_tables(nodes, regions, aligns, cfg), prof if "schema" in profile else None)
        # The record-tree build inside align, run again on its own: the share a faster builder could save.
        _, t_trees = _timed(lambda: _build_trees(snap, regions), None)
    nn = nodes.nodes
    in_records = sum(nn[p].end - p for rg in regions for rec in rg.records for p in rec.parts)
    return {"clean": t_clean, "mine": t_mine, "align": t_align, "schema": t_schema, "trees": t_trees,
            "regions": float(len(regions)), "elements": float(len(nn)), "in_records": float(in_records)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", default=str(ROOT / ".eval-cache" / "snapshots"))
    ap.add_argument("--limit", type=int, default=0, help="first N snapshots only")
    ap.add_argument("--runs", type=int, default=1, help="analyses per page; the minimum per stage is kept")
    ap.add_argument("--profile", choices=("align", "schema", "tables"), default=None)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--sort", default="tottime", help="pstats sort key for --profile (tottime, cumulative)")
    ap.add_argument("--main-only", action="store_true", help="align and type only the top-ranked region")
    ap.add_argument("--schema-parts", action="store_true", help="split the schema stage's time by step")
    args = ap.parse_args()
    paths = sorted(Path(args.folder).glob("*.json.gz"))
    if args.limit:
        paths = paths[: args.limit]
    if not paths:
        print(f"bench_tables: no *.json.gz snapshots in {args.folder}", file=sys.stderr)
        return 2
    profile = {"align", "schema"} if args.profile == "tables" else ({args.profile} if args.profile else set())
    prof = cProfile.Profile() if profile else None
    cfg = Config()
    parts = time_schema_parts() if args.schema_parts else None
    per_page: list[tuple[str, dict[str, float]]] = []
    for p in paths:
        snap = load_snapshot(p)
        runs = [page_times(snap, cfg, profile, prof, args.main_only) for _ in range(max(1, args.runs))]
        per_page.append((p.name, {k: min(r[k] for r in runs) for k in runs[0]}))
    totals = {k: sum(t[k] for _, t in per_page) for k in STAGES}
    medians = {k: statistics.median(t[k] for _, t in per_page) for k in STAGES}
    print(f"{len(per_page)} snapshots from {args.folder} (CPU seconds, process_time)")
    print(f"{'stage':>8} {'total s':>9} {'median ms':>10}")
    for k in STAGES:
        print(f"{k:>8} {totals[k]:>9.3f} {medians[k] * 1000:>10.2f}")
    ratio = (totals["align"] + totals["schema"]) / totals["mine"] if totals["mine"] else float("inf")
    ratios = [(t["align"] + t["schema"]) / t["mine"] for _, t in per_page if t["mine"] > 0]
    print(f"(align + schema) / mine over all pages: {ratio:.2f} (target <= 0.5)")
    print(f"median per-page ratio: {statistics.median(ratios):.2f}" if ratios else "median per-page ratio: -")
    elements = sum(t["elements"] for _, t in per_page)
    in_records = sum(t["in_records"] for _, t in per_page)
    per_el = {"mine": totals["mine"] / max(elements, 1) * 1e6,
              "align_schema": (totals["align"] + totals["schema"]) / max(in_records, 1) * 1e6}
    trees = sum(t["trees"] for _, t in per_page)
    rest = (totals["align"] - trees + totals["schema"]) / totals["mine"] if totals["mine"] else float("inf")
    print(f"building record trees (timed apart): {trees:.3f} s; without it the ratio would be {rest:.2f}")
    print(f"per element: mine {per_el['mine']:.2f} us over {int(elements)} page elements; "
          f"align + schema {per_el['align_schema']:.2f} us over {int(in_records)} elements in records")
    print("slowest pages by align + schema:")
    for name, t in sorted(per_page, key=lambda x: -(x[1]["align"] + x[1]["schema"]))[:8]:
        print(f"  {name}: align {t['align'] * 1000:.1f} ms, schema {t['schema'] * 1000:.1f} ms, "
              f"mine {t['mine'] * 1000:.1f} ms, {int(t['regions'])} regions")
    if parts is not None:
        runs = max(1, args.runs)  # every run is timed here, not only the fastest
        print("schema steps (s, summed over all runs / runs): "
              + ", ".join(f"{k.strip('_')} {v / runs:.3f}" for k, v in parts.items()))
    if prof is not None:
        pstats.Stats(prof).sort_stats(args.sort).print_stats(args.top)
    print(json.dumps({"bench": "tables", "pages": len(per_page), "ratio": round(ratio, 3),
                      "totals": {k: round(v, 4) for k, v in totals.items()},
                      "us_per_element": {k: round(v, 2) for k, v in per_el.items()},
                      "medians": {k: round(v, 5) for k, v in medians.items()}}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
