"""``visx extract``: find the records of a page and write them as a table."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from visx.cli.logs import add_verbosity_options, say
from visx.cli.options import (
    ALL_SECTIONS,
    add_choice_options,
    add_render_options,
    add_set_option,
    add_source_options,
    apply_settings,
    choice_of,
    gather_sources,
    read_source_arg,
    render_config,
)
from visx.config import Config, MineConfig
from visx.errors import ConfigError

if TYPE_CHECKING:
    from visx.pipeline import Extraction

FORMATS = ("json", "jsonl", "csv", "sqlite", "parquet")
SUFFIX_FORMAT = {".json": "json", ".jsonl": "jsonl", ".csv": "csv", ".sqlite": "sqlite", ".db": "sqlite",
                 ".parquet": "parquet"}


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "extract",
        help="extract the records of a page as a table",
        description="Render SOURCE (or read a saved snapshot), drop noise by position, find the "
        "data regions and their records, and write them. Regions are ranked: 1 is the main list. "
        "With several sources, one that fails is reported and skipped; the others are written, "
        "and the exit status is 1.",
    )
    add_source_options(p, "http(s) URL, local HTML file, saved snapshot (.json.gz), or - for stdin HTML; "
                       "several go into one output (a 'source' column or key tells them apart)")
    p.add_argument("-o", "--output", type=Path, metavar="FILE",
                   help="output file; the format follows the extension (.json .jsonl .csv .sqlite .parquet); "
                   "default: JSON on standard output")
    p.add_argument("--format", choices=FORMATS, help="output format when it is not given by the extension")
    p.add_argument("--all-regions", action="store_true",
                   help="tables of every data list, not just the main one (navigation, filters, pagers, "
                   "breadcrumbs and the like left out): CSV and Parquet get a leading 'region' column, "
                   "SQLite stores every data list's region and rows (each in the table of its columns). JSON and JSONL always hold every region, each with "
                   "'data' and 'role'")
    add_batch_options(p)
    add_choice_options(p)
    p.add_argument("--miner", choices=("mdr", "drmining", "flat"), default="mdr", help=MINER_HELP)
    p.add_argument("--no-clean", action="store_true", help="skip the cleaner (keep headers, side columns, ads)")
    p.add_argument("--link-depth", type=int, metavar="H",
                   help="fill a page_url (and link_score) column of the main table: crawl the page's "
                   "site H hops deep and match each record to its own page by link paths "
                   "(see `visx link`; one source only)")
    p.add_argument("--link-key", metavar="COLUMN",
                   help="with --link-depth: the column naming each record (default: each record's first non-empty text column)")
    p.add_argument("--debug", type=Path, metavar="DIR",
                   help="also write an annotated screenshot and an HTML report into DIR")
    add_render_options(p)
    add_set_option(p, ALL_SECTIONS, "table.tidy=false")
    add_verbosity_options(p)
    p.set_defaults(run=run)


def add_batch_options(p: argparse.ArgumentParser) -> None:
    from visx.batch.defaults import BACKOFF_INITIAL_S, BACKOFF_MAX_S, DEFAULT_RETRIES

    g = p.add_argument_group("batches")
    g.add_argument("--resume", action="store_true",
                   help="continue an interrupted run into the same -o output: sources already done, or "
                   "failed for good (404, not HTML, missing file...), are skipped; the others run (again), "
                   "nothing is written twice. SQLite keeps its job list in the 'jobs' table, other formats "
                   "in OUTPUT.jobs.sqlite beside OUTPUT.part until the run completes")
    g.add_argument("--retries", type=int, default=None, metavar="N",
                   help=f"retries of a source after a transient failure (no response from the server in "
                   f"time, connection refused or reset, crash, HTTP 5xx/408/429), waiting "
                   f"{BACKOFF_INITIAL_S:g} s, then twice as long each time up to {BACKOFF_MAX_S:g} s; 404, a "
                   f"page that arrived but never settled and other permanent failures are never retried "
                   f"(default {DEFAULT_RETRIES} for several sources or --resume; 0 for one source, so that "
                   f"--timeout bounds its run)")
    g.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="where the pages of a batch (-o with several sources, or --resume) are rendered: "
                   "local (default) renders -j pages at once in this process's browser; dask runs each "
                   "page on a Dask worker, one browser per worker process (pip install 'visx[dask]'), "
                   "with the same resume, retries and output")
    g.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --engine dask: the address of a running Dask scheduler (tcp://host:8786); "
                   "default: a local cluster of -j worker processes started for the run")


MINER_HELP = ("region finder: mdr (default) compares the trees of adjacent elements (MDR) and weighs "
              "their boxes and styles; drmining cuts the page's sequence of leaf-path similarities into "
              "runs and takes each run's repeated children as records (DRMining, Ren & Xue 2009): "
              "markup only, no visual evidence, a baseline to compare with; flat finds records written as "
              "text runs (fields ended by <br>, joined by | or ·, lines of a <pre>, bare <p> fields) by "
              "typing the text's entities and mining their repeated type pattern (seed 002); mdr runs it "
              "itself when no convincing list is found (flat.mode)")


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
    fmt = choose_format(args.output, args.format)
    choice_of(args)  # a bad --hint or two choices fail here, before any render
    sources = gather_sources(args)
    cfg = apply_settings(Config(
        render=render_config(args, screenshot=args.debug is not None),
        clean=Config().clean.model_copy(update={"enabled": not args.no_clean}),
        mine=MineConfig(miner=args.miner),
    ), args, ALL_SECTIONS)
    from visx.batch.defaults import DEFAULT_RETRIES

    if args.retries is None:  # one source: --timeout bounds the run; a batch rides out blips
        args.retries = 0 if len(sources) == 1 and not args.resume else DEFAULT_RETRIES
    if args.retries < 0:
        raise ConfigError(f"--retries must be 0 or more (got {args.retries})")
    if args.resume and args.output is None:
        raise ConfigError("--resume continues a run into an output file; give it with -o")
    if args.link_depth is not None and (len(sources) != 1 or args.resume or args.link_depth < 0):
        raise ConfigError("--link-depth takes one source and a depth of 0 or more; for many tables use `visx link`")
    if args.engine != "local" and args.output is None:
        raise ConfigError(f"--engine {args.engine} runs a batch into an output file; give it with -o")
    if len(sources) == 1 and not args.resume and args.engine == "local":
        return _run_one(args, sources[0], fmt, cfg)
    if args.output is not None:
        return _run_batch(args, sources, fmt, cfg)
    return _run_many(args, sources, fmt, cfg)


def _run_one(args: argparse.Namespace, source: str, fmt: str, cfg: Config) -> int:
    from visx.batch.retry import RetryPolicy, with_retries
    from visx.export import open_exporter, write_stream
    from visx.pipeline import extract

    # Opened before the render: a bad output path or format costs no render.
    exporter = open_exporter(args.output, all_regions=args.all_regions, fmt=fmt) if args.output else None
    src = read_source_arg(source)
    got, err, _ = with_retries(lambda: extract(src, cfg), RetryPolicy(retries=args.retries), source)
    if err is not None:
        if exporter is not None:
            exporter.abort()
        raise err
    assert got is not None
    ex = got  # its warnings are logged (visx: warning: ...)
    _choose(args, ex, cfg)
    if args.link_depth is not None:
        from visx.link.api import LinkOptions
        from visx.link.extraction import link_extraction

        res = link_extraction(ex, LinkOptions(depth=args.link_depth), args.link_key)
        say(args, f"linked {res.matched} of {len(res.rows)} record(s) to pages ({res.pages} page(s) crawled)")
    if exporter is None:
        write_stream(ex, sys.stdout, fmt=fmt, all_regions=args.all_regions)
    else:
        exporter.export(ex)
        exporter.finish()
        say(args, f"wrote {args.output}: {_summary(ex)}")
    if args.debug is not None:
        from visx.debug import write_report

        path = write_report(ex, args.debug, cfg)
        say(args, f"wrote {path}")
    return 0


def _choose(args: argparse.Namespace, ex: Extraction, cfg: Config, folder: Path | None = None) -> None:
    """Apply --region/--hint/--example to ``ex``; when the page has no such list, write the
    --debug report anyway (it shows every region and the command that extracts it), then raise."""
    from visx.choose import apply_choice
    from visx.errors import SelectionError

    try:
        apply_choice(ex, **choice_of(args))
    except SelectionError:
        if args.debug is not None:
            from visx.debug import write_report

            say(args, f"wrote {write_report(ex, folder or args.debug, cfg)}: the regions found")
        raise


def _summary(ex: Extraction) -> str:
    chosen = ex.chosen
    which = f"the chosen one (#{chosen['rank']}, by {chosen['by']})" if chosen else "the main one"
    return f"{len(ex.regions)} region(s), {_main_records(ex)} record(s) in {which}"


def _main_records(ex: Extraction) -> int:
    return len(ex.main.records) if ex.main else 0


def _run_batch(args: argparse.Namespace, sources: list[str], fmt: str, cfg: Config) -> int:
    """Every source into the -o output, page by page, with a job list (``--resume``), retries and
    a progress display; a failed source is reported and the rest still written."""
    from visx.batch.engines import engine_named
    from visx.batch.progress import BatchDisplay
    from visx.batch.run import run_batch
    from visx.batch.work import Outcome
    from visx.cli.logs import level
    from visx.debug.index import IndexEntry, write_index

    display = BatchDisplay(quiet=level(args) > logging.INFO)
    entries: list[IndexEntry] = []
    n = len(sources)

    def progress(done: int, total: int, o: Outcome) -> None:
        tag = f"[{o.task.index + 1}/{n}]"
        if not o.ok:
            display.page(False, f"visx: error: {tag} {o.error}")
            entries.append(IndexEntry(o.task.index + 1, o.task.label, error=o.error))
            return
        display.page(True, f"{tag} {o.task.label}: {_outcome_summary(o)}")
        if args.debug is not None and o.extraction is not None:
            from visx.debug import write_report

            folder = f"{o.task.index + 1:03d}"
            path = write_report(o.extraction, args.debug / folder, cfg)
            entries.append(IndexEntry(o.task.index + 1, o.task.label, f"{folder}/{path.name}", o.regions,
                                      o.main_records))

    inputs = [read_source_arg(s) if s == "-" else s for s in sources]
    try:
        summary = run_batch(inputs, args.output, cfg, resume=args.resume, retries=args.retries, workers=args.jobs,
                            engine=engine_named(args.engine, args.jobs, args.scheduler),
                            all_regions=args.all_regions, fmt=fmt, choice=choice_of(args),
                            keep_extraction=args.debug is not None, progress=progress, on_start=display.start)
    except KeyboardInterrupt:
        display.close()
        print(f"visx: interrupted; run the same command with --resume to continue into {args.output}",
              file=sys.stderr)
        return 130
    finally:
        display.close()
    if args.debug is not None:
        say(args, f"wrote {write_index(args.debug, entries)}: one line per source")
    if summary.written:
        say(args, f"wrote {args.output}: {summary.rows} row(s) from {summary.ok} page(s)")
    say(args, f"visx: {summary.line()}")
    if summary.failed:
        what = "the others were written" if summary.written else "nothing was written"
        print(f"visx: {summary.failed} of {summary.sources - summary.skipped - summary.duplicates} source(s) "
              f"failed; {what}", file=sys.stderr)
        return 1
    return 0


def _outcome_summary(o: Any) -> str:
    chosen = o.chosen
    which = f"the chosen one (#{chosen['rank']}, by {chosen['by']})" if chosen else "the main one"
    return f"{o.regions} region(s), {o.main_records} record(s) in {which}"


def _run_many(args: argparse.Namespace, sources: list[str], fmt: str, cfg: Config) -> int:
    """Every source to standard output (a text format), in memory; a failed source is reported
    and the rest still written."""
    from visx.batch import extract_many
    from visx.export import open_exporter
    from visx.export.formats import TEXT_FORMATS

    stream = None
    if args.output is not None:
        exporter = open_exporter(args.output, all_regions=args.all_regions, fmt=fmt)
    elif fmt in TEXT_FORMATS:
        exporter = stream = TEXT_FORMATS[fmt](Path("-"), all_regions=args.all_regions)
    else:
        raise ConfigError(f"format {fmt!r} cannot go to standard output; write it to a file with -o")
    from visx.debug.index import IndexEntry, write_index
    from visx.errors import SelectionError

    failed = 0
    entries: list[IndexEntry] = []
    inputs = [read_source_arg(s) if s == "-" else s for s in sources]
    for res in extract_many(inputs, cfg, workers=args.jobs):
        tag = f"[{res.index + 1}/{len(sources)}]"
        ex = res.extraction
        if ex is None:
            failed += 1
            print(f"visx: error: {tag} {res.error}", file=sys.stderr)
            entries.append(IndexEntry(res.index + 1, res.source, error=str(res.error)))
            continue
        folder = f"{res.index + 1:03d}"
        try:
            _choose(args, ex, cfg, args.debug / folder if args.debug is not None else None)
        except SelectionError as e:  # the same choice on every page: one without that list fails
            failed += 1
            print(f"visx: error: {tag} {e}", file=sys.stderr)
            entries.append(IndexEntry(res.index + 1, res.source, error=str(e)))
            continue
        say(args, f"{tag} {res.source}: {_summary(ex)}")  # its warnings were logged, naming it
        exporter.export_unchecked(ex)
        if args.debug is not None:
            from visx.debug import write_report

            path = write_report(ex, args.debug / folder, cfg)
            say(args, f"{tag} wrote {path}")
            entries.append(IndexEntry(res.index + 1, res.source, f"{folder}/{path.name}", len(ex.regions),
                                      _main_records(ex)))
    if args.debug is not None:
        say(args, f"wrote {write_index(args.debug, entries)}: one line per source")
    ok = len(sources) - failed
    if not ok:
        exporter.abort()
    elif stream is not None:
        sys.stdout.write(stream.text())
    else:
        result = exporter.finish()
        say(args, f"wrote {args.output}: {ok} page(s), {result.rows} row(s)")
    if failed:
        print(f"visx: {failed} of {len(sources)} source(s) failed; "
              f"{'nothing was written' if not ok else 'the others were written'}", file=sys.stderr)
        return 1
    return 0
