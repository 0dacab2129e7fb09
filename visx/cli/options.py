"""Options shared by the subcommands that render pages."""

from __future__ import annotations

import argparse
from pathlib import Path

from pydantic import ValidationError

from visx.config import Config, RenderConfig, parse_viewport
from visx.errors import ConfigError


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
        import sys

        return sys.stdin.read()
    return value
