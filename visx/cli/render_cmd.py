"""``visx render``: render a page and save its snapshot."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from visx.cli.options import add_render_options, config_from, read_source_arg
from visx.errors import ExportError


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "render",
        help="render a page to a replayable snapshot",
        description="Render SOURCE in headless Chromium and save every element's box, "
        "styles and text as a snapshot that later commands replay without a browser.",
    )
    p.add_argument("source", help="http(s) URL, local HTML file, or - for HTML on standard input")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="FILE",
                   help="snapshot file to write (.json.gz)")
    p.add_argument("--screenshot", type=Path, metavar="PNG",
                   help="also write a full-page screenshot (capped at 16384 px)")
    add_render_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from visx.atomic import write_bytes
    from visx.render import render

    cfg = config_from(args, screenshot=args.screenshot is not None)
    snap = render(read_source_arg(args.source), cfg)
    try:
        snap.save(args.output)
        if args.screenshot is not None and snap.screenshot_png:
            write_bytes(args.screenshot, snap.screenshot_png)
    except OSError as e:
        raise ExportError(f"{e.filename}: cannot write ({e.strerror}); choose a writable path") from e
    flags = " (partial)" if snap.partial else ""
    print(f"wrote {args.output}: {len(snap.nodes)} elements, {snap.width:.0f}x{snap.height:.0f} px{flags}")
    if args.screenshot is not None:
        print(f"wrote {args.screenshot}")
    for note in snap.notes:
        print(f"note: {note}")
    return 0
