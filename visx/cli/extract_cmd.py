"""``visx extract``: find the records of a page and write them as a table."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from visx.cli.options import add_render_options, read_source_arg, render_config
from visx.config import Config, MineConfig
from visx.errors import ConfigError

FORMATS = ("json", "jsonl", "csv", "sqlite", "parquet")
SUFFIX_FORMAT = {".json": "json", ".jsonl": "jsonl", ".csv": "csv", ".sqlite": "sqlite", ".db": "sqlite",
                 ".parquet": "parquet"}


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "extract",
        help="extract the records of a page as a table",
        description="Render SOURCE (or read a saved snapshot), drop noise by position, find the "
        "data regions and their records, and write them. Regions are ranked: 1 is the main list.",
    )
    p.add_argument("source", help="http(s) URL, local HTML file, saved snapshot (.json.gz), or - for stdin HTML")
    p.add_argument("-o", "--output", type=Path, metavar="FILE",
                   help="output file; the format follows the extension (.json .jsonl .csv .sqlite .parquet); "
                   "default: JSON on standard output")
    p.add_argument("--format", choices=FORMATS, help="output format when it is not given by the extension")
    p.add_argument("--all-regions", action="store_true",
                   help="tables of every region, not just the main one: CSV and Parquet get a leading "
                   "'region' column, SQLite one table per region (JSON and JSONL always hold every region)")
    p.add_argument("--miner", choices=("mdr", "drmining"), default="mdr",
                   help="region finder: MDR with visual evidence (default) or seed 003's DRMining")
    p.add_argument("--no-clean", action="store_true", help="skip the cleaner (keep headers, side columns, ads)")
    p.add_argument("--debug", type=Path, metavar="DIR",
                   help="also write an annotated screenshot and an HTML report into DIR")
    add_render_options(p)
    p.set_defaults(run=run)


def choose_format(output: Path | None, fmt: str | None) -> str:
    if fmt:
        return fmt
    if output is None:
        return "json"
    name = output.name.lower()
    for suffix, f in SUFFIX_FORMAT.items():
        if name.endswith(suffix):
            return f
    raise ConfigError(
        f"{output}: unknown output extension; use .json, .jsonl, .csv, .sqlite or .parquet, or pass --format"
    )


def run(args: argparse.Namespace) -> int:
    from visx.pipeline import extract

    fmt = choose_format(args.output, args.format)
    cfg = Config(
        render=render_config(args, screenshot=args.debug is not None),
        clean=Config().clean.model_copy(update={"enabled": not args.no_clean}),
        mine=MineConfig(miner=args.miner),
    )
    ex = extract(read_source_arg(args.source), cfg)
    for w in ex.warnings:
        print(f"visx: warning: {w}", file=sys.stderr)
    from visx.export import write, write_stream

    if args.output is None:
        write_stream(ex, sys.stdout, fmt=fmt, all_regions=args.all_regions)
    else:
        write(ex, args.output, fmt=fmt, all_regions=args.all_regions)
        main = ex.regions[0] if ex.regions else None
        n = len(main.records) if main else 0
        print(f"wrote {args.output}: {len(ex.regions)} region(s), {n} record(s) in the main one", file=sys.stderr)
    if args.debug is not None:
        from visx.debug import write_report

        path = write_report(ex, args.debug, cfg)
        print(f"wrote {path}", file=sys.stderr)
    return 0
