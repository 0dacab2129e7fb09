"""``visx check``: fail CI when a page no longer yields what its template promises."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from visx.cli.logs import add_verbosity_options, say
from visx.cli.options import (
    ALL_SECTIONS,
    add_render_options,
    add_set_option,
    apply_settings,
    read_source_arg,
    read_source_list,
    render_config,
)
from visx.config import Config
from visx.errors import ConfigError, VisxError


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "check",
        help="check that pages still yield what a template promises (exit 1 when not; for CI)",
        description="Apply TEMPLATE to each SOURCE without repairing it and hold the page to what the "
        "template promises: a record count from half to three times its usual count (the median of "
        "the counts it holds), and for each visible column (--all-columns: every column) that it is "
        "found, keeps its type, and is filled in at least its learned share less 0.3 (columns filled "
        "in under 30% of the records when learned are optional: only their type counts). A column "
        "that now reads another column's values, or whose values no longer parse as its type, breaks "
        "its promise too. Each page gets a PASS or FAIL line on standard output, a broken promise a "
        "diff ('- ' what the template promises, '+ ' what the page gives). The template runs on "
        "every page named, whatever its host and URL (a staging copy, a saved snapshot). Exit "
        "status: 0 when every page keeps every promise, 1 when a promise is broken, 2 when a page "
        "could not be checked (it did not load) or the template is unreadable.",
    )
    p.add_argument("sources", nargs="*", metavar="SOURCE",
                   help="http(s) URL, local HTML file, saved snapshot (.json.gz), or - for stdin HTML")
    p.add_argument("--sources-from", type=Path, metavar="FILE",
                   help="also read sources from FILE, one per line (blank lines and # comments "
                   "skipped; - reads standard input)")
    p.add_argument("--template", type=Path, required=True, metavar="FILE",
                   help="the template to check against (written by `visx learn`)")
    p.add_argument("--junit", type=Path, metavar="FILE",
                   help="also write JUnit XML for CI dashboards: a testsuite per page, a testcase per "
                   "promise ('records', 'column NAME'), a failure holding the diff; a page that could "
                   "not be checked has a 'page' testcase with an error")
    p.add_argument("--static", action="store_true",
                   help="read the page's HTML without a browser (plain HTTP, or the file) and run the "
                   "template on it with lxml: for sites that need no JavaScript; far faster")
    p.add_argument("--all-columns", action="store_true",
                   help="also hold hidden columns (constant text, labels) to their promises")
    add_render_options(p)
    add_set_option(p, ALL_SECTIONS, "render.timeout_s=60")
    add_verbosity_options(p, verbose_help="more on standard error: debug lines (pages rendered, "
                          "time per stage)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from visx.template import load_template
    from visx.template.check import CheckResult, check_page, write_junit

    sources = list(args.sources) + (read_source_list(args.sources_from) if args.sources_from else [])
    if not sources:
        raise ConfigError("no SOURCE given: name a page (URL, file, snapshot) or use --sources-from")
    if sources.count("-") > 1:
        raise ConfigError("- (HTML on standard input) can be given only once")
    cfg = apply_settings(Config(render=render_config(args)), args, ALL_SECTIONS)
    template = load_template(args.template)
    results: list[CheckResult] = []
    for k, source in enumerate(sources):
        tag = f"[{k + 1}/{len(sources)}] " if len(sources) > 1 else ""
        try:
            res = check_page(read_source_arg(source), template, cfg, static=args.static,
                             javascript=False if args.no_js else None, all_columns=args.all_columns,
                             template_name=str(args.template))
        except VisxError as e:
            res = CheckResult(source=source if source != "-" else "(standard input)", error=str(e),
                              error_type=type(e).__name__, template=str(args.template),
                              version=template.version)
            print(f"visx: error: {tag}{e}", file=sys.stderr)
        else:
            if source == "-":
                res.source = "(standard input)"
            print(f"{tag}{res.report()}", flush=True)
        results.append(res)
    if args.junit is not None:
        write_junit(results, args.junit)
        say(args, f"wrote {args.junit}")
    errors = sum(1 for r in results if r.error)
    failed = sum(1 for r in results if not r.error and r.broken)
    if len(results) > 1:
        parts = [f"{len(results) - errors - failed} of {len(results)} page(s) keep every promise"]
        if failed:
            parts.append(f"{failed} break some")
        if errors:
            parts.append(f"{errors} could not be checked")
        print(f"visx check: {'; '.join(parts)}", flush=True)
    if errors:
        return 2
    return 1 if failed else 0
