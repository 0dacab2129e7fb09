"""``visx eval``: measure record and field extraction on a labelled dataset."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import Any

from visx.cli.extract_cmd import MINER_HELP
from visx.cli.logs import add_verbosity_options, say
from visx.cli.options import add_set_option

ANALYSIS_SECTIONS = ("clean", "mine", "flat", "align", "table")
"""What ``--set`` may change: snapshots are cached, so render settings would not apply."""


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "eval",
        help="score record and field extraction against a labelled dataset",
        description="Render (once, cached) and analyse every page of DATASET, compare the regions "
        "with the gold records.csv of each page (records, then the top table's cells field by "
        "field), and write pages.csv, summary.json and a chart of F1 per category. Pages are "
        "rendered with JavaScript and the network off.",
    )
    p.add_argument("dataset", type=Path,
                   help="folder with index.json (or */meta.json), the pages and their records.csv")
    p.add_argument("--out", type=Path, default=Path("out/eval"), metavar="DIR",
                   help="where to write the results (default: out/eval)")
    p.add_argument("--cache", type=Path, default=Path(".eval-cache"), metavar="DIR",
                   help="snapshot cache; a re-run only re-analyses (default: .eval-cache)")
    p.add_argument("--miner", choices=("mdr", "drmining", "flat"), default="mdr", help=MINER_HELP)
    p.add_argument("--limit", type=int, metavar="N", help="evaluate only the first N pages")
    p.add_argument("--pages", metavar="GLOB", help="only page ids matching this glob, e.g. 'ebay.com/*'")
    p.add_argument("--worst", type=int, default=10, metavar="N",
                   help="list the N worst pages with their reasons (default: 10)")
    p.add_argument("--retry-failed", action="store_true",
                   help="render again the pages whose render failed on an earlier run")
    p.add_argument("--no-chart", action="store_true", help="skip the PNG chart (no matplotlib needed)")
    add_set_option(p, ANALYSIS_SECTIONS, "align.join_complementary=false (an ablation)")
    p.add_argument("--data-lists", type=Path, metavar="FILE",
                   help="region labels (data list or not) for a data-list score, as written by "
                   "scripts/label_data_lists.py (the dev labels: fixtures/testbed/data_lists.json)")
    add_verbosity_options(p, verbose_help="-v: a line per page, and the pages' warnings on standard "
                          "error; -vv adds notes, -vvv debug lines")
    # Hundreds of pages' warnings would drown the report: the library's messages need -v.
    p.set_defaults(run=run, library_log_base=logging.ERROR)


def run(args: argparse.Namespace) -> int:
    from visx.evaluate import report
    from visx.evaluate.runner import PageResult, eval_config, run_eval

    def progress(i: int, n: int, r: PageResult) -> None:
        if args.verbose:
            s = r.score
            print(f"[{i}/{n}] {r.page.id}: top F1 {s.top.f1:.2f}, best F1 {s.best.f1:.2f} "
                  f"(rank {s.best_rank}), cell F1 {r.fields.score.f1:.2f}, {r.analyse_s * 1000:.0f} ms  "
                  f"{r.reason}", flush=True)
        elif i % 25 == 0 or i == n:
            say(args, f"{i}/{n} pages")

    from visx.cli.options import apply_settings

    cfg = apply_settings(eval_config(args.miner), args, ANALYSIS_SECTIONS)
    results = run_eval(args.dataset, cache_dir=args.cache, config=cfg,
                       pages=args.pages, limit=args.limit, retry_failed=args.retry_failed,
                       progress=progress, data_lists=args.data_lists)
    paths = report.write_outputs(results, args.out, chart=not args.no_chart,
                                 label=f"{args.dataset.name}, {args.miner}, {len(results)} pages"
                                 + (f", {' '.join(args.settings)}" if args.settings else ""))
    print(report.summary_table(report.summarize(results), label=f"{args.dataset} ({args.miner})"))
    print()
    print(report.category_table(report.by_category(results)))
    if args.worst > 0:
        print()
        print(f"worst {args.worst} pages:")
        print(report.worst_table(results, args.worst))
        print()
        print(f"worst {args.worst} pages by cell F1:")
        print(report.worst_fields_table(results, args.worst))
    print()
    for name, path in paths.items():
        print(f"wrote {path} ({name})")
    if not args.no_chart and "chart" not in paths:
        print(f"skipped the chart: matplotlib is not installed; {report.CHART_EXTRA_HINT}")
    return 0
