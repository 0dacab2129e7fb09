"""``visx learn`` and ``visx apply``: templates learned from one page, applied to many."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from visx.cli.extract_cmd import FORMATS, MINER_HELP, choose_format
from visx.cli.logs import add_verbosity_options, say
from visx.cli.options import (
    ALL_SECTIONS,
    add_choice_options,
    add_render_options,
    add_set_option,
    apply_settings,
    choice_of,
    read_source_arg,
    read_source_list,
    render_config,
)
from visx.config import Config, MineConfig
from visx.errors import ConfigError, VisxError

if TYPE_CHECKING:
    from visx.template import Applied, Template


def register(sub: Any) -> None:
    _register_learn(sub)
    _register_apply(sub)


# ------------------------------------------------------------------ learn

def _register_learn(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "learn",
        help="learn a template (record and field XPaths, search rules) from one page",
        description="Extract SOURCE as `visx extract` does, then write a template for its main list "
        "(or the list chosen with --region, --hint or --example): the site and URL, a queue of record "
        "XPaths (id and class anchored, structural, generalised; best first), and per column its name, "
        "type, a queue of XPaths relative to the record and the search rules that find it again when "
        "the site changes (label, tag and its rarity, context label and distance, font, value type, "
        "place in the record). Plain JSON: read it, edit it, keep it under version control. "
        "`visx apply` runs it without mining; `visx template export` turns it into Crawl4AI, CSS or "
        "XPath selectors; `visx check` fails CI when a page no longer yields what it promises.",
    )
    p.add_argument("source", metavar="SOURCE",
                   help="http(s) URL, local HTML file, saved snapshot (.json.gz), or - for stdin HTML")
    p.add_argument("-o", "--output", type=Path, metavar="FILE",
                   help="template file to write (e.g. site.template.json); default: standard output")
    add_choice_options(p)
    p.add_argument("--miner", choices=("mdr", "drmining"), default="mdr", help=MINER_HELP)
    p.add_argument("--no-clean", action="store_true", help="skip the cleaner (keep headers, side columns, ads)")
    add_render_options(p)
    add_set_option(p, ALL_SECTIONS, "table.tidy=false")
    add_verbosity_options(p)
    p.set_defaults(run=run_learn)


def _config(args: argparse.Namespace) -> Config:
    return apply_settings(Config(
        render=render_config(args),
        clean=Config().clean.model_copy(update={"enabled": not getattr(args, "no_clean", False)}),
        mine=MineConfig(miner=getattr(args, "miner", "mdr")),
    ), args, ALL_SECTIONS)


def run_learn(args: argparse.Namespace) -> int:
    from visx.pipeline import extract
    from visx.template import learn_from

    choice = choice_of(args)
    cfg = _config(args)
    ex = extract(read_source_arg(args.source), cfg)
    t = learn_from(ex, **choice)
    if args.output is None:
        sys.stdout.write(t.to_json())
        return 0
    t.save(args.output)
    visible = [c.name for c in t.columns if not c.hidden]
    say(args, f"wrote {args.output}: {t.records.counts[0]} record(s) at {t.records.xpaths[0]}; "
              f"{len(visible)} column(s): {', '.join(visible)}")
    return 0


# ------------------------------------------------------------------ apply

def _register_apply(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "apply",
        help="extract with a learned template (XPath only, no mining; repairs itself)",
        description="Extract SOURCE with a template from `visx learn`: the template whose site is the "
        "page's and whose URL is most like the page's (seed 001's R(w,m) over the URLs' path segments, "
        "above --min-similarity) is tried first; the first that finds every item wins. Records and "
        "columns come by XPath alone, with no mining, and are written like `visx extract` writes. When "
        "the page changed (no record XPath finds anything, fewer than half the usual records, a column "
        "empty or mistyped) the template repairs itself: the page is re-mined and the old columns "
        "mapped to the new by type, place, font and label, or a column is searched by its rules. The "
        "repair is printed as a diff with a confidence; --save-repairs writes it into the template. "
        "A repair that cannot find a column is an error naming it: never an empty result.",
    )
    p.add_argument("sources", nargs="*", metavar="SOURCE",
                   help="http(s) URL, local HTML file, saved snapshot (.json.gz), or - for stdin HTML")
    p.add_argument("--sources-from", type=Path, metavar="FILE",
                   help="also read sources from FILE, one per line (- reads standard input)")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--template", type=Path, metavar="FILE", help="the template to apply")
    src.add_argument("--templates", type=Path, metavar="DIR",
                     help="a folder of templates (*.json): each page gets the best fitting one")
    p.add_argument("-o", "--output", type=Path, metavar="FILE",
                   help="output file; the format follows the extension (.json .jsonl .csv .sqlite .parquet); "
                   "default: JSON on standard output")
    p.add_argument("--format", choices=FORMATS, help="output format when it is not given by the extension")
    p.add_argument("--static", action="store_true",
                   help="read the page's HTML without a browser (plain HTTP, or the file) and run the "
                   "template on it with lxml: for sites that need no JavaScript; far faster than rendering")
    p.add_argument("--no-repair", action="store_true",
                   help="do not repair: a template that no longer fits is an error")
    p.add_argument("--lenient", action="store_true",
                   help="when a repair cannot find some column, write what was found with a warning "
                   "instead of failing (the record list must still be found)")
    p.add_argument("--save-repairs", action="store_true",
                   help="write a repaired template back to its file (version bumped, new XPaths first in "
                   "their queues, the repair logged under 'repairs'), with the page's record count in its "
                   "history")
    p.add_argument("--min-similarity", type=float, default=None, metavar="R",
                   help="seed 001's threshold t: a template fits a page of its site when R(w,m) > t "
                   "(default: 0.5)")
    add_render_options(p)
    add_set_option(p, ALL_SECTIONS, "table.tidy=false")
    add_verbosity_options(p)
    p.set_defaults(run=run_apply)


def _load(args: argparse.Namespace) -> list[tuple[Template, Path]]:
    """Each template with the file it came from (``--save-repairs`` writes it back there)."""
    from visx.template import load_template
    from visx.template.api import template_files

    files = [args.template] if args.template is not None else template_files(args.templates)
    return [(load_template(f), f) for f in files]


def run_apply(args: argparse.Namespace) -> int:
    from visx.export import open_exporter, write_stream
    from visx.template import apply_template
    from visx.template import thresholds as th

    if args.min_similarity is not None and not 0 <= args.min_similarity < 1:
        raise ConfigError(f"--min-similarity {args.min_similarity}: give a number from 0 to below 1")
    sources = list(args.sources) + (read_source_list(args.sources_from) if args.sources_from else [])
    if not sources:
        raise ConfigError("no SOURCE given: name a page (URL, file, snapshot) or use --sources-from")
    fmt = choose_format(args.output, args.format)
    cfg = _config(args)
    loaded = _load(args)
    path_of = {id(t): p for t, p in loaded}
    pool = [t for t, _ in loaded]
    exporter = open_exporter(args.output, all_regions=False, fmt=fmt) if args.output else None
    if exporter is None and len(sources) > 1 and fmt not in ("json", "jsonl"):
        raise ConfigError(f"format {fmt!r} with several sources needs a file: pass -o")
    failed = 0
    written = 0
    for k, source in enumerate(sources):
        tag = f"[{k + 1}/{len(sources)}] " if len(sources) > 1 else ""
        try:
            res = apply_template(read_source_arg(source), pool, cfg, static=args.static,
                                 repair=not args.no_repair, strict=not args.lenient,
                                 min_similarity=th.MIN_SIMILARITY if args.min_similarity is None
                                 else args.min_similarity,
                                 javascript=False if args.no_js else None)
        except VisxError as e:
            if len(sources) == 1:
                if exporter is not None:
                    exporter.abort()
                raise
            failed += 1
            print(f"visx: error: {tag}{e}", file=sys.stderr)
            continue
        written += 1
        say(args, f"{tag}{_summary(res)}")
        if args.save_repairs:
            _save(args, res, path_of, pool)
        if exporter is None:
            write_stream(res.extraction, sys.stdout, fmt=fmt)
        else:
            exporter.export(res.extraction)
    if exporter is not None:
        if written:
            exporter.finish()
            say(args, f"wrote {args.output}")
        else:
            exporter.abort()
    if failed:
        print(f"visx: {failed} of {len(sources)} source(s) failed", file=sys.stderr)
        return 1
    return 0


def _summary(res: Applied) -> str:
    ex = res.extraction
    n = len(ex.regions[0].records) if ex.regions else 0
    head = f"{ex.source}: {n} record(s) with template v{res.template.version} (R = {res.similarity:.2f})"
    if res.repaired:
        head += f"; repaired, confidence {res.confidence:.2f}"
    return head


def _save(args: argparse.Namespace, res: Applied, path_of: dict[int, Path], pool: list[Template]) -> None:
    """Write the repaired template over its file, and use it for the sources still to come."""
    from visx.template.model import HISTORY

    if not res.repaired:
        return
    original = next((t for t in pool if t.url == res.template.url and t.created == res.template.created), None)
    if original is None:
        return
    path = path_of[id(original)]
    t = res.template
    n = len(res.extraction.regions[0].records) if res.extraction.regions else 0
    t.records.counts = [*t.records.counts, n][-HISTORY:]
    t.save(path)
    pool[pool.index(original)] = t
    path_of[id(t)] = path
    say(args, f"wrote {path}: template version {t.version}")
