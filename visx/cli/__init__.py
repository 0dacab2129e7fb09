"""The ``visx`` command: one module per subcommand, registered here.

Every subcommand takes ``-q``/``-v`` (:mod:`visx.cli.logs`); errors are one
``visx: error: ...`` line with exit status 2.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from visx.cli import (
    check_cmd,
    eval_cmd,
    extract_cmd,
    link_cmd,
    render_cmd,
    report_cmd,
    template_cmd,
    template_group_cmd,
)
from visx.cli.logs import logging_to_stderr
from visx.cli.options import check_outputs
from visx.errors import VisxError

SUBCOMMANDS = (extract_cmd, render_cmd, report_cmd, eval_cmd, template_cmd, template_group_cmd, check_cmd,
               link_cmd)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="visx",
        description="Turn list pages (search results, product grids, listings) into tables.",
    )
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for mod in SUBCOMMANDS:
        mod.register(sub)
    return parser


def _version() -> str:
    from visx import __version__

    return f"visx {__version__}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        with logging_to_stderr(args, library_base=getattr(args, "library_log_base", logging.INFO)):
            check_outputs(args)
            return int(args.run(args))
    except VisxError as e:
        print(f"visx: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("visx: interrupted", file=sys.stderr)
        return 130
