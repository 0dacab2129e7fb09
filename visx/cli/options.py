"""Options shared by the subcommands that render pages."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pydantic import ValidationError

from visx.config import Config, RenderConfig, parse_viewport
from visx.errors import ConfigError


def add_source_options(p: argparse.ArgumentParser, help_text: str) -> None:
    """SOURCE..., --sources-from and --jobs: one page or a batch."""
    from visx.batch import DEFAULT_WORKERS

    p.add_argument("sources", nargs="*", metavar="SOURCE", help=help_text)
    p.add_argument("--sources-from", type=Path, metavar="FILE",
                   help="also read sources from FILE, one per line (blank lines and # comments skipped; "
                   "- reads the list from standard input)")
    p.add_argument("-j", "--jobs", type=int, default=DEFAULT_WORKERS, metavar="N",
                   help=f"pages rendered at once when there are several (default: {DEFAULT_WORKERS}); "
                   "a source that fails is reported and the others go on (exit status 1)")


def add_render_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("rendering")
    g.add_argument("--no-js", action="store_true",
                   help="render with JavaScript off (saved pages, or to see the server's HTML)")
    g.add_argument("--timeout", type=float, default=30.0, metavar="S",
                   help="seconds allowed for loading and settling (default: 30)")
    g.add_argument("--viewport", default="1280x900", metavar="WxH",
                   help="browser window size; boxes depend on it (default: 1280x900)")
    g.add_argument("--scroll", action="store_true",
                   help="auto-scroll to the bottom until the page stops growing (lazy lists)")
    g.add_argument("--partial", action="store_true",
                   help="on timeout keep what rendered, flagged partial, instead of failing")
    g.add_argument("--allow-http-errors", action="store_true",
                   help="render 4xx/5xx pages instead of failing")
    g.add_argument("--base-url", metavar="URL",
                   help="for HTML given as text: the URL its relative links resolve against")
    g.add_argument("--chromium", type=Path, metavar="PATH",
                   help="Chromium binary to use (else $VISX_CHROMIUM, Playwright's, Debian's, PATH)")


def render_config(args: argparse.Namespace, *, screenshot: bool = False) -> RenderConfig:
    w, h = parse_viewport(args.viewport)
    try:
        return RenderConfig(
            javascript=not args.no_js,
            timeout_s=args.timeout,
            viewport_width=w,
            viewport_height=h,
            scroll=args.scroll,
            partial_on_timeout=args.partial,
            allow_http_errors=args.allow_http_errors,
            base_url=args.base_url,
            chromium=args.chromium,
            screenshot=screenshot,
        )
    except ValidationError as e:
        first = e.errors()[0]
        raise ConfigError(f"option {first['loc'][0]}: {first['msg']}") from e


def config_from(args: argparse.Namespace, *, screenshot: bool = False) -> Config:
    return Config(render=render_config(args, screenshot=screenshot))


def read_source_arg(value: str) -> str:
    """``-`` reads HTML from standard input."""
    if value == "-":
        return sys.stdin.read()
    return value


def gather_sources(args: argparse.Namespace) -> list[str]:
    """The sources named on the command line, then those listed in ``--sources-from``."""
    out = list(args.sources)
    if args.sources_from is not None:
        out += read_source_list(args.sources_from)
    if not out:
        raise ConfigError("no source given; name one or more, or list them in a file with --sources-from")
    if out.count("-") > 1:
        raise ConfigError("- (HTML on standard input) can be given only once")
    if "-" in out and args.sources_from is not None and str(args.sources_from) == "-":
        raise ConfigError("standard input cannot hold both the source list and an HTML page")
    if args.jobs < 1:
        raise ConfigError(f"--jobs must be at least 1 (got {args.jobs})")
    return out


def read_source_list(path: Path) -> list[str]:
    """One source a line; blank lines and lines starting with # are skipped."""
    try:
        text = sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot read the source list ({e}); give a UTF-8 text file, "
                          "one source a line") from e
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
