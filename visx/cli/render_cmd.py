"""``visx render``: render pages and save their snapshots."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from visx.cli.logs import add_verbosity_options, say
from visx.cli.options import (
    add_render_options,
    add_set_option,
    add_source_options,
    apply_settings,
    config_from,
    gather_sources,
    read_source_arg,
)
from visx.errors import ConfigError, ExportError
from visx.model import PageSnapshot


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "render",
        help="render pages to replayable snapshots",
        description="Render SOURCE in headless Chromium and save every element's box, "
        "styles and text as a snapshot that later commands replay without a browser. "
        "With several sources, -o names a folder that gets NNN-<name>.json.gz per source.",
    )
    add_source_options(p, "http(s) URL, local HTML file, or - for HTML on standard input")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="PATH",
                   help="snapshot file to write (.json.gz), or a folder when there are several sources")
    p.add_argument("--screenshot", type=Path, metavar="PNG",
                   help="also write a full-page screenshot (capped at 16384 px); a folder when there are "
                   "several sources")
    add_render_options(p)
    add_set_option(p, RENDER_SECTIONS, "render.scroll_max_steps=60")
    add_verbosity_options(p)
    p.set_defaults(run=run)


RENDER_SECTIONS = ("render",)
"""What ``render --set`` may change: the other sections act after rendering."""


def run(args: argparse.Namespace) -> int:
    sources = gather_sources(args)
    cfg = apply_settings(config_from(args, screenshot=args.screenshot is not None), args, RENDER_SECTIONS)
    if len(sources) == 1:
        from visx.render import render

        snap = render(read_source_arg(sources[0]), cfg)
        _save(args, snap, args.output, args.screenshot)
        return 0
    # Both paths are checked before either folder is made: a bad one leaves nothing behind.
    for folder in (args.output, args.screenshot):
        if folder is not None and folder.exists() and not folder.is_dir():
            raise ConfigError(f"{folder}: with several sources this must be a folder, and it is a file")
    from visx.batch import render_many

    for folder in (args.output, args.screenshot):
        if folder is not None:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise ExportError(f"{folder}: cannot create the output folder ({e.strerror}); "
                                  "choose a writable path") from e
    failed = 0
    inputs = [read_source_arg(s) if s == "-" else s for s in sources]
    for res in render_many(inputs, cfg, workers=args.jobs):
        tag = f"[{res.index + 1}/{len(sources)}]"
        if res.snapshot is None:
            failed += 1
            print(f"visx: error: {tag} {res.error}", file=sys.stderr)
            continue
        name = f"{res.index + 1:03d}-{slug(res.source)}"
        shot = args.screenshot / f"{name}.png" if args.screenshot is not None else None
        _save(args, res.snapshot, args.output / f"{name}.json.gz", shot, tag=f"{tag} ")
    if failed:
        print(f"visx: {failed} of {len(sources)} source(s) failed; the others were saved", file=sys.stderr)
        return 1
    return 0


def slug(source: str, limit: int = 60) -> str:
    """A file-name-safe name for a source: the URL's host and path, or the file's name."""
    if source.startswith(("http://", "https://")):
        u = urlparse(source)
        text = u.netloc + u.path
    elif source.startswith("HTML text"):
        text = "html"
    else:
        text = Path(source).name.rsplit(".", 1)[0]
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")[:limit] or "page"


def _save(args: argparse.Namespace, snap: PageSnapshot, out: Path, shot: Path | None, *,
          tag: str = "") -> None:
    """Write the snapshot (and screenshot); the "wrote" lines go to standard output. Its
    notes and warnings were logged as it was rendered (``visx: note:`` on standard error)."""
    from visx.atomic import write_bytes

    try:
        snap.save(out)
        if shot is not None and snap.screenshot_png:
            write_bytes(shot, snap.screenshot_png)
    except OSError as e:
        raise ExportError(f"{e.filename}: cannot write ({e.strerror}); choose a writable path") from e
    flags = " (partial)" if snap.partial else ""
    say(args, f"{tag}wrote {out}: {len(snap.nodes)} elements, {snap.width:.0f}x{snap.height:.0f} px{flags}",
        sys.stdout)
    if shot is not None:
        say(args, f"{tag}wrote {shot}", sys.stdout)
