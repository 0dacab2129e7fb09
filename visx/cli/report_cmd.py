"""``visx report``: the annotated screenshot, HTML report and stage dumps of one page."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from visx.cli.extract_cmd import MINER_HELP
from visx.cli.logs import add_verbosity_options, note, say
from visx.cli.options import (
    ALL_SECTIONS,
    add_render_options,
    add_set_option,
    apply_settings,
    read_source_arg,
    render_config,
)
from visx.config import Config, DebugConfig, MineConfig
from visx.errors import ConfigError
from visx.model import PageSnapshot


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "report",
        help="show what visx saw: annotated screenshot and HTML report",
        description="Extract SOURCE (a page, or a saved snapshot) and write page.png (the page with "
        "removed areas, regions, records and columns drawn on it), report.html (one file: "
        "clickable boxes, each region's table and why it ranks where it does, why areas were "
        "removed) and stages.json into DIR. A snapshot saved without a screenshot is drawn on a "
        "wireframe of its text unless --rerender renders its source again.",
    )
    p.add_argument("source", help="http(s) URL, local HTML file, saved snapshot (.json.gz), or - for stdin HTML")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="DIR",
                   help="folder to write page.png, report.html and stages.json into")
    p.add_argument("--max-height", type=int, default=DebugConfig().max_height, metavar="PX",
                   help="cut the picture at this height; a note says so (default: %(default)s)")
    p.add_argument("--rerender", action="store_true",
                   help="for a snapshot without a screenshot: render its source again (same viewport "
                   "and JavaScript setting) to get one, when that file or URL is reachable")
    p.add_argument("--no-embed", action="store_true",
                   help="write the screenshot beside report.html instead of inside it")
    p.add_argument("--miner", choices=("mdr", "drmining", "flat"), default="mdr", help=MINER_HELP)
    p.add_argument("--no-clean", action="store_true", help="skip the cleaner")
    add_render_options(p)
    add_set_option(p, ALL_SECTIONS, "debug.embed_image=false")
    add_verbosity_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from visx.debug import write_report
    from visx.pipeline import analyse, extract, is_snapshot_path

    try:
        debug = DebugConfig(max_height=args.max_height, embed_image=not args.no_embed)
    except ValueError as e:  # pydantic's ValidationError
        raise ConfigError(f"--max-height {args.max_height}: must be between 200 and 65000") from e
    cfg = apply_settings(Config(
        render=render_config(args, screenshot=True),
        clean=Config().clean.model_copy(update={"enabled": not args.no_clean}),
        mine=MineConfig(miner=args.miner),
        debug=debug,
    ), args, ALL_SECTIONS)
    source = read_source_arg(args.source)
    if is_snapshot_path(source):
        from visx.render.snapshot_io import load_snapshot

        snap = load_snapshot(source)
        again = rerender_target(snap) if args.rerender and not snap.screenshot_png else None
        if args.rerender and not snap.screenshot_png and again is None:
            note(args, f"{snap.source} is not reachable; drawing on a wireframe")
        if again is not None:
            w, h = snap.viewport
            render = cfg.render.model_copy(update={"javascript": snap.javascript, "viewport_width": w,
                                                   "viewport_height": h})
            cfg = cfg.model_copy(update={"render": render})
            note(args, f"re-rendering {again} for its screenshot")
            ex = extract(again, cfg)
        else:
            ex = analyse(snap, cfg)
    else:
        ex = extract(source, cfg)
    path = write_report(ex, args.output, cfg)  # the warnings of ex were logged
    n = sum(len(rg.records) for rg in ex.regions)
    say(args, f"wrote {path.parent}/page.png, {path.name}, stages.json: "
        f"{len(ex.regions)} region(s), {n} record(s); open {path} in a browser", sys.stdout)
    return 0


def rerender_target(snap: PageSnapshot) -> str | None:
    """Where the snapshot's page can be rendered again: an existing local file or an http(s) URL."""
    for cand in (snap.url, snap.source):
        if not cand:
            continue
        if cand.startswith(("http://", "https://")):
            return cand
        path = Path(unquote(urlparse(cand).path)) if cand.startswith("file://") else Path(cand)
        if path.is_file():
            return str(path)
    return None
