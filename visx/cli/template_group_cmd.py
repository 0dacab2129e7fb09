"""``visx template``: commands on a template file (``export`` now; more may join).

Each command of the group is an entry of :data:`COMMANDS`: a function that adds
its parser to the group's subparsers (``show`` or ``diff`` would join the same way).
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from visx.cli.logs import add_verbosity_options, say
from visx.cli.options import ALL_SECTIONS, add_set_option, apply_settings
from visx.config import Config


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "template",
        help="work with a learned template: export it as Crawl4AI, CSS or XPath selectors",
        description="Commands on a template file written by `visx learn`. -q and -v go before or "
        "after the command; --set goes before it and is checked here, for the commands of the "
        "group that read pages (export reads only the template, so no setting changes it).",
    )
    add_verbosity_options(p)
    add_set_option(p, ALL_SECTIONS, "render.timeout_s=60")
    group = p.add_subparsers(dest="template_command", metavar="COMMAND", required=True)
    for reg in COMMANDS:
        reg(group)


def _verbosity_here(p: argparse.ArgumentParser) -> None:
    """-q and -v after the command too; left unset there unless given, so that
    ``visx template -q export ...`` keeps the group's."""
    g = p.add_argument_group("messages")
    g.add_argument("-q", "--quiet", action="count", default=argparse.SUPPRESS,
                   help="less on standard error: -q warnings only (no notes, no status line), "
                   "-qq errors only")
    g.add_argument("-v", "--verbose", action="count", default=argparse.SUPPRESS,
                   help="more on standard error")


# ------------------------------------------------------------------ export

def _register_export(group: Any) -> None:
    from visx.template.portable import FORMATS

    p: argparse.ArgumentParser = group.add_parser(
        "export",
        help="write the template as portable selectors (Crawl4AI schema, CSS or XPath)",
        description="Write TEMPLATE's record and column selectors in a form that runs without visx. "
        "crawl4ai: the schema of Crawl4AI's JsonCssExtractionStrategy (baseSelector, fields of type "
        "text or attribute; a field in a later row of a split record hops there with \"source\": "
        "\"+ *\"). css: {\"records\": CSS, \"fields\": {name: CSS}, \"attributes\": {name: "
        "attribute}}, field selectors relative to the record (:scope is the record). xpath: the same "
        "with the first XPath of each queue (./... relative to the record). For every record a field "
        "is the first element its selector matches, read as text, or as the attribute named for it "
        "(src for images, href for links and <name>_url fields). Columns the form cannot say (no CSS "
        "twin, a star rating read by its width) are left out and named, with the reason, under "
        "left_out and on standard error; readings that differ from visx's (a list's entries, a "
        "second text run) are noted. Hidden columns are left out unless --all-columns.",
    )
    p.add_argument("template", type=Path, metavar="TEMPLATE", help="template file written by `visx learn`")
    p.add_argument("--format", choices=FORMATS, required=True,
                   help="crawl4ai (JsonCssExtractionStrategy schema), css or xpath")
    p.add_argument("-o", "--output", type=Path, metavar="FILE",
                   help="file to write (JSON); default: standard output")
    p.add_argument("--all-columns", action="store_true",
                   help="also export hidden columns (constant text, labels, interface words)")
    _verbosity_here(p)
    p.set_defaults(run=run_export)


def run_export(args: argparse.Namespace) -> int:
    from visx.atomic import write_bytes
    from visx.errors import ExportError
    from visx.template import load_template
    from visx.template.portable import portable

    apply_settings(Config(), args, ALL_SECTIONS)  # a wrong --set is an error, as everywhere
    t = load_template(args.template)
    out = portable(t, args.format, all_columns=args.all_columns)
    log = logging.getLogger("visx.template")
    for name, why in out.left_out.items():
        log.warning("column %r left out: %s", name, why)
    for n in out.notes:
        log.info("%s", n)
    text = out.text()
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        write_bytes(args.output, text.encode("utf-8"))
    except OSError as e:
        raise ExportError(f"{args.output}: cannot write the export ({e.strerror or e}); check the "
                          "folder is writable", source=str(args.output)) from e
    say(args, f"wrote {args.output}: {args.format}, records {out.records!r}, {len(out.fields)} field(s)")
    return 0


COMMANDS: list[Callable[[Any], None]] = [_register_export]
"""The group's commands, in the order ``visx template --help`` lists them."""
