"""``visx link``: fill a table's URL column from the link structure of a site."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from visx.cli.logs import add_verbosity_options, say
from visx.cli.options import add_set_option, apply_settings
from visx.errors import ConfigError
from visx.link import thresholds as T

SUFFIXES = (".csv", ".tsv", ".sqlite", ".sqlite3", ".db")


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "link",
        help="fill each row's own page (page_url) from the links of a site",
        description="Crawl breadth first from --source to --depth hops (same site, robots.txt "
        "obeyed), take the K shortest link paths to every page, gather the anchor texts on them "
        "plus each page's title and first heading into a bag, and match each row's --key against "
        "the top of the bags, one page per row and one row per page. Writes the table with two "
        "more columns: page_url and link_score (empty when no page matched confidently; those "
        "rows are listed on standard error, as are pages that could not be fetched).",
    )
    p.add_argument("--source", required=True, metavar="URL",
                   help="the page to crawl from (a department, a listing, a catalogue's home page)")
    p.add_argument("--table", required=True, type=Path, metavar="FILE",
                   help="the rows to link: a .csv (UTF-8, with a header line) or .sqlite file")
    p.add_argument("--key", required=True, metavar="COLUMN",
                   help="the column naming each row (a person's name, a film's title, a product)")
    p.add_argument("--sql-table", metavar="NAME", help="which table of a SQLite file holding several")
    p.add_argument("-o", "--output", type=Path, metavar="FILE",
                   help="where to write the table (.csv, or .sqlite with a table 'linked'); "
                   "default: CSV on standard output")
    g = p.add_argument_group("method")
    g.add_argument("--depth", type=int, default=T.DEPTH, metavar="H",
                   help=f"hops from the source to crawl, and the longest path used (default {T.DEPTH})")
    g.add_argument("--k", type=int, default=T.K, metavar="K",
                   help=f"shortest link paths per page whose anchor texts make its bag (default {T.K}, "
                   "the paper's)")
    g.add_argument("--no-titles", action="store_true",
                   help="leave page titles out of the bags (the older anchors-only method, to compare)")
    g.add_argument("--no-headings", action="store_true", help="leave each page's first heading out of its bag")
    g.add_argument("--paths", choices=("layers", "yen"), default="layers",
                   help="layers (default): every page's paths at once, level by level; yen: "
                   "networkx's Yen per page (exact, much slower on large sites)")
    c = p.add_argument_group("crawl")
    c.add_argument("--render", action="store_true",
                   help="fetch pages with the browser (sites that build their links with JavaScript); "
                   "default: plain HTTP")
    c.add_argument("--any-site", action="store_true",
                   help="also follow links to other hosts (default: the source's site only)")
    c.add_argument("--ignore-robots", action="store_true",
                   help="do not obey robots.txt: only for sites you own or may crawl")
    c.add_argument("--per-host", type=int, default=T.PER_HOST, metavar="N",
                   help=f"requests in flight to one host (default {T.PER_HOST})")
    c.add_argument("--timeout", type=float, default=T.TIMEOUT_S, metavar="S",
                   help=f"seconds for one page (default {T.TIMEOUT_S:g})")
    c.add_argument("--retries", type=int, default=T.RETRIES, metavar="N",
                   help=f"retries of a page after a timeout, connection error, HTTP 5xx/408/429 "
                   f"(default {T.RETRIES})")
    c.add_argument("--max-pages", type=int, default=T.MAX_PAGES, metavar="N",
                   help=f"stop crawling after N pages (default {T.MAX_PAGES})")
    add_set_option(p, SET_SECTIONS, "render.javascript=false (with --render)")
    add_verbosity_options(p)
    p.set_defaults(run=run)


SET_SECTIONS = ("render",)
"""Only the browser's settings apply: plain HTTP fetching has its own options above."""


def options_of(args: argparse.Namespace) -> Any:
    from visx.link.api import LinkOptions

    if args.depth < 0 or args.k < 1:
        raise ConfigError(f"--depth must be 0 or more and --k 1 or more (got {args.depth}, {args.k})")
    if args.timeout <= 0:
        raise ConfigError(f"--timeout must be more than 0 seconds (got {args.timeout:g})")
    return LinkOptions(depth=args.depth, k=args.k, render=args.render, same_site=not args.any_site,
                       robots=not args.ignore_robots, per_host=args.per_host, timeout_s=args.timeout,
                       retries=args.retries, max_pages=args.max_pages, titles=not args.no_titles,
                       headings=not args.no_headings, paths=args.paths)


def run(args: argparse.Namespace) -> int:
    from visx.link.api import check_key, crawl_site, link_crawl, load_rows
    from visx.link.table_io import write_table

    if args.output is not None and args.output.suffix.lower() not in SUFFIXES:
        raise ConfigError(f"{args.output}: write the table as .csv or .sqlite")
    opt = options_of(args)
    opt.crawl_options().check()
    columns, rows = load_rows(args.table, args.sql_table)  # a bad table or key fails before the crawl
    check_key(columns, args.key, args.table)
    from visx.config import Config, RenderConfig

    # Checked even without --render: a wrong --set is an error, never silently ignored.
    render_cfg = apply_settings(Config(render=RenderConfig(timeout_s=args.timeout)), args, SET_SECTIONS)
    if args.settings and not args.render:
        raise ConfigError("--set changes the browser's settings; add --render, or drop --set")
    config = render_cfg if args.render else None
    crawl = crawl_site(args.source, opt, config,
                       progress=lambda done, queued: say(args, f"crawled {done} page(s), {queued} queued"))
    res = link_crawl(crawl, columns, rows, args.key, opt)
    write_table(args.output, res.columns, res.rows)
    report(args, res)
    return 0


def report(args: argparse.Namespace, res: Any) -> None:
    """What could not be done, on standard error: failed pages, rows left empty."""
    for url, reason in res.failed:
        print(f"visx: warning: page failed: {url}: {reason}", file=sys.stderr)
    for note in res.notes:
        say(args, f"visx: note: {note}")
    for i in res.unmatched:
        near = res.near_misses.get(i)
        hint = f"; closest {near[0]} ({near[1]:.2f})" if near else ""
        say(args, f"visx: no page for row {i + 1} ({res.rows[i].get(res.key)!r}){hint}")
    where = args.output if args.output is not None else "standard output"
    say(args, f"linked {res.matched} of {len(res.rows)} row(s) to pages; crawled {res.pages} page(s) in "
        f"{res.crawl_s:.1f} s ({len(res.failed)} failed); wrote {where}")
