"""Where the CLI's messages go: ``-q``/``-v``, a stderr handler on the ``visx`` logger,
and the status lines each subcommand prints.

The library logs (:mod:`visx.log`); the CLI shows those records on standard error as
``visx: warning: ...``, ``visx: note: ...`` (INFO) or ``visx: debug: ...``. The
default shows notes and warnings; ``-v`` adds debug lines (timings, files read),
``-q`` keeps warnings and errors only, ``-qq`` errors only. Status lines ("wrote
out.csv: ...") show unless ``-q``.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
from collections.abc import Iterator
from typing import TextIO

_TAGS = {logging.DEBUG: "debug", logging.INFO: "note", logging.WARNING: "warning"}


def add_verbosity_options(p: argparse.ArgumentParser, *, verbose_help: str | None = None) -> None:
    g = p.add_argument_group("messages")
    g.add_argument("-q", "--quiet", action="count", default=0,
                   help="less on standard error: -q warnings and errors only (no notes, no "
                   "status lines), -qq errors only")
    g.add_argument("-v", "--verbose", action="count", default=0,
                   help=verbose_help or "more on standard error: debug lines (files read, "
                   "pages rendered, time per stage)")


def level(args: argparse.Namespace, base: int = logging.INFO) -> int:
    """The logging level ``-q``/``-v`` ask for, each a step of 10 from ``base``."""
    return min(max(base + 10 * (int(args.quiet) - int(args.verbose)), logging.DEBUG), logging.CRITICAL)


def say(args: argparse.Namespace, text: str, stream: TextIO | None = None) -> None:
    """A status line (standard error unless ``stream``), left out with ``-q``."""
    if level(args) <= logging.INFO:
        print(text, file=stream or sys.stderr, flush=True)


def note(args: argparse.Namespace, text: str) -> None:
    """A note of the command itself (``visx: note: ...`` on standard error), left out with ``-q``."""
    say(args, f"visx: note: {text}")


class _Stderr(logging.Handler):
    """Writes to the current ``sys.stderr`` (looked up per record, so redirections apply)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            tag = _TAGS.get(record.levelno, "error")
            sys.stderr.write(f"visx: {tag}: {record.getMessage()}\n")
        except Exception:
            self.handleError(record)


@contextlib.contextmanager
def logging_to_stderr(args: argparse.Namespace, *, library_base: int = logging.INFO) -> Iterator[None]:
    """Show the ``visx`` logger's records on standard error for the ``with`` block.

    ``library_base`` is the level shown without ``-q``/``-v`` (``visx eval`` raises it:
    hundreds of pages' warnings would drown its report). The logger's state is restored
    after, so ``visx.cli.main`` can be called from a program that logs on its own.
    """
    log = logging.getLogger("visx")
    saved = (log.level, log.propagate)
    handler = _Stderr()
    log.addHandler(handler)
    log.setLevel(level(args, library_base))
    log.propagate = False  # shown once, here, not again by the application's root handlers
    try:
        yield
    finally:
        log.removeHandler(handler)
        log.setLevel(saved[0])
        log.propagate = saved[1]
