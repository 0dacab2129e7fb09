"""Options shared by the subcommands that render pages."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from visx.config import Config, RenderConfig, parse_viewport, with_overrides
from visx.errors import ConfigError

ALL_SECTIONS = tuple(Config.model_fields)
"""Every section of :class:`visx.config.Config`: render, clean, mine, align, table, debug."""


def add_set_option(p: argparse.ArgumentParser, sections: tuple[str, ...], example: str) -> None:
    """``--set SECTION.KEY=VALUE`` (repeatable): any setting of those config sections."""
    p.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE", dest="settings",
                   help=f"change a setting of visx.config.Config, e.g. {example} (sections: "
                   f"{', '.join(sections)}; repeatable; applied after the other options, so it wins). "
                   "A wrong key is an error that lists the section's keys; a wrong value, one that names the key")


def apply_settings(cfg: Config, args: argparse.Namespace, sections: tuple[str, ...]) -> Config:
    """``cfg`` with the ``--set`` settings applied (a ConfigError naming a bad one)."""
    return with_overrides(cfg, args.settings, sections=sections)


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


def add_choice_options(p: argparse.ArgumentParser) -> None:
    """--region, --hint, --example (one of them): which list is the main one."""
    g = p.add_argument_group(
        "choosing the list",
        "When the ranking picks the wrong list, name the one you want (one way only). It becomes "
        "the main list: its table is what CSV, Parquet and SQLite get (and the first with "
        "--all-regions), it comes first in JSON and JSONL, keeping its rank, and JSON records the "
        "choice under 'chosen'. With several sources the same choice applies to each; a page "
        "without such a list fails like any other (with --debug, its report is still written).")
    m = g.add_mutually_exclusive_group()
    m.add_argument("--region", type=int, metavar="N",
                   help="the region of rank N, as numbered in the JSON output and the --debug report")
    m.add_argument("--hint", metavar="CSS|XPATH",
                   help="the list holding the element this selects: CSS (e.g. '#results li', '.product') "
                   "or XPath when it starts with / ( or ./ (e.g. \"//ul[@id='results']\", or an xpath "
                   "from the JSON output, #shadow-root steps included); css= and xpath= prefixes also "
                   "work. Matched on the captured page, no browser needed (tags, id, class, text, and href "
                   "and src made absolute among a few attributes); the --debug report shows a hint "
                   "for every region")
    m.add_argument("--example", metavar="TEXT",
                   help="the list with a record or a value whose text is TEXT, copied from the page; "
                   "case and spacing do not matter and near matches count (the best match wins)")


def choice_of(args: argparse.Namespace) -> dict[str, Any]:
    """``region``, ``hint`` and ``example`` of the command line, checked (ConfigError when bad)."""
    from visx.choose import check_choice

    choice = {"region": args.region, "hint": args.hint, "example": args.example}
    check_choice(**choice)
    return choice


def add_render_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("rendering")
    g.add_argument("--no-js", action="store_true",
                   help="render with JavaScript off (saved pages, or to see the server's HTML)")
    g.add_argument("--keep-noscript", action="store_true",
                   help="with --no-js, keep <noscript> content; by default it is removed, because "
                   "pages saved after their scripts ran often hide their content from it")
    g.add_argument("--timeout", type=float, default=30.0, metavar="S",
                   help="seconds allowed for loading and settling (default: 30)")
    g.add_argument("--viewport", default="1280x900", metavar="WxH",
                   help="browser window size; boxes depend on it (default: 1280x900)")
    g.add_argument("--scroll", action="store_true",
                   help="auto-scroll to the bottom until the page stops growing (lazy content)")
    g.add_argument("--pages", type=int, default=1, metavar="N",
                   help="harvest up to N batches of the main list into one table: scroll an infinite "
                   "list, click 'Load more', follow next links (same site); a virtualised list is "
                   "scrolled to its end. Each step gets --timeout (default: 1, the first view only)")
    g.add_argument("--wait-for", metavar="SELECTOR",
                   help="wait until SELECTOR matches before settling (CSS, which pierces open shadow "
                   "roots, xpath=//... or text=...); an error if it never does, unless --partial")
    g.add_argument("--wait-for-count", type=int, default=1, metavar="N",
                   help="with --wait-for: wait until at least N elements match (default: 1)")
    g.add_argument("--quiet-ms", type=int, default=500, metavar="MS",
                   help="the DOM must be unchanged this long before the capture (default: 500)")
    g.add_argument("--network-idle-s", type=float, default=5.0, metavar="S",
                   help="at most this long waiting for images and fonts to load and for a visible "
                   "loading indicator to go; the page's own fetch/XHR requests are waited for up "
                   "to --timeout (default: 5)")
    g.add_argument("--partial", action="store_true",
                   help="on timeout keep what rendered, flagged partial, instead of failing")
    g.add_argument("--allow-http-errors", action="store_true",
                   help="render 4xx/5xx pages instead of failing")
    g.add_argument("--base-url", metavar="URL",
                   help="for HTML given as text: the URL it is served at (its relative links resolve "
                   "against it, and it is the extraction's url); its resources load with --allow-network")
    g.add_argument("--chromium", type=Path, metavar="PATH",
                   help="Chromium binary to use (else $VISX_CHROMIUM, Playwright's, Debian's, PATH)")
    r = p.add_argument_group("requests")
    r.add_argument("--user-agent", metavar="TEXT", help="User-Agent header and navigator.userAgent")
    r.add_argument("--header", action="append", default=[], metavar="'NAME: VALUE'",
                   help="extra HTTP header sent with every request (repeatable)")
    r.add_argument("--cookie", action="append", default=[], metavar="NAME=VALUE",
                   help="cookie set for the source URL's site before it loads (repeatable)")
    r.add_argument("--storage-state", type=Path, metavar="FILE",
                   help="Playwright storage state (cookies and localStorage) to load, as written by "
                   "context.storage_state(path=...)")
    r.add_argument("--locale", metavar="LOCALE", help="browser locale, e.g. de-DE (language, number formats)")
    r.add_argument("--timezone", metavar="ZONE", help="IANA time zone of the page's clock, e.g. Europe/Berlin")
    r.add_argument("--proxy", metavar="URL",
                   help="proxy for the page's requests: http://[user:pass@]host:port or socks5://host:port")
    r.add_argument("--allow-network", action="store_true",
                   help="let local files and HTML text load what they link to over the network "
                   "(by default only file: resources load, so renders are private and repeatable)")


_OPTION = {"timeout_s": "--timeout", "quiet_ms": "--quiet-ms", "network_idle_s": "--network-idle-s",
           "viewport_width": "--viewport", "viewport_height": "--viewport", "wait_for_count": "--wait-for-count",
           "pages": "--pages", "timezone": "--timezone", "proxy": "--proxy", "headers": "--header",
           "user_agent": "--user-agent", "locale": "--locale", "storage_state": "--storage-state"}


def render_config(args: argparse.Namespace, *, screenshot: bool = False) -> RenderConfig:
    w, h = parse_viewport(args.viewport)
    try:
        return RenderConfig(
            javascript=not args.no_js,
            timeout_s=args.timeout,
            viewport_width=w,
            viewport_height=h,
            scroll=args.scroll,
            pages=args.pages,
            wait_for=args.wait_for,
            wait_for_count=args.wait_for_count,
            quiet_ms=args.quiet_ms,
            network_idle_s=args.network_idle_s,
            keep_noscript=args.keep_noscript,
            partial_on_timeout=args.partial,
            allow_http_errors=args.allow_http_errors,
            base_url=args.base_url,
            chromium=args.chromium,
            screenshot=screenshot,
            user_agent=args.user_agent,
            headers=parse_pairs(args.header, ":", "--header", "'NAME: VALUE'"),
            cookies=parse_pairs(args.cookie, "=", "--cookie", "NAME=VALUE"),
            storage_state=args.storage_state,
            locale=args.locale,
            timezone=args.timezone,
            proxy=args.proxy,
            block_network=False if args.allow_network else None,
        )
    except ValidationError as e:
        first = e.errors()[0]
        name = str(first["loc"][0]) if first["loc"] else ""
        msg = str(first["msg"]).removeprefix("Value error, ")
        raise ConfigError(f"option {_OPTION.get(name, '--' + name.replace('_', '-'))}: {msg}") from e


def parse_pairs(items: list[str], sep: str, option: str, form: str) -> dict[str, str]:
    """``NAME<sep>VALUE`` items as a dict; a ConfigError naming the option for a bad one."""
    out: dict[str, str] = {}
    for item in items:
        name, found, value = item.partition(sep)
        if not found or not name.strip():
            raise ConfigError(f"option {option}: {item!r} is not {form}")
        out[name.strip()] = value.strip()
    return out


def config_from(args: argparse.Namespace, *, screenshot: bool = False) -> Config:
    return Config(render=render_config(args, screenshot=screenshot))


STDIN = "standard input"


def read_source_arg(value: str) -> str:
    """``-`` reads HTML from standard input (bytes: a byte order mark says how to decode them)."""
    if value == "-":
        return read_stdin_html(sys.stdin.buffer.read())
    return value


def read_stdin_html(data: bytes) -> str:
    """The HTML piped into visx, checked: not empty, not binary, starting like HTML."""
    from visx import sniff
    from visx.errors import EmptyContentError
    from visx.render.page_load import SUPPORTED, check_content

    if sniff.is_blank(data):
        raise EmptyContentError(f"{STDIN} was empty; pipe an HTML page into visx, or "
                                f"{SUPPORTED.removeprefix('give ')}", source=STDIN)
    check_content(STDIN, data[:4096], verb="is")
    text = sniff.decode(data)
    body = text.lstrip()
    if not body.startswith("<"):
        if "<" not in body:
            raise ConfigError(f"{STDIN}: does not look like HTML (no tag in it); pipe an HTML page, "
                              f"or {SUPPORTED.removeprefix('give ')}", source=STDIN)
        # Text before the first tag is still HTML; the empty comment keeps it from being taken
        # for a file path or URL (and, unlike a doctype, leaves the page's rendering mode alone).
        text = "<!---->" + text
    return text


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


FILE_OUTPUT = {"extract", "apply"}
"""Commands whose ``-o`` is one file in a format named by its extension (or ``--format``)."""


def check_outputs(args: argparse.Namespace) -> None:
    """Output checks that need no page, before any render: a folder given for a file, an
    unknown format, a missing or unwritable folder (``/proc``, a read-only mount)."""
    from visx.atomic import probe
    from visx.errors import ExportError
    from visx.export import check_output

    out = getattr(args, "output", None)
    if not isinstance(out, Path):
        return
    if args.command in FILE_OUTPUT:
        check_output(out, getattr(args, "format", None))
        return
    try:  # a snapshot file or a folder of them, a report folder: made where it can be
        probe(out if out.is_dir() else out.parent)
    except OSError as e:
        raise ExportError(f"{out}: cannot write there ({e.strerror or e}); choose a writable output path",
                          source=str(out)) from e
