"""Evaluate visx on a labelled dataset; the same code as ``visx eval``.

    .venv/bin/python scripts/eval.py ../shared/testbed/dev [--miner drmining] [--limit N] [-v]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from visx.cli import eval_cmd
from visx.errors import VisxError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/eval.py")
    sub = parser.add_subparsers(dest="command")
    eval_cmd.register(sub)
    args = parser.parse_args(["eval", *(sys.argv[1:] if argv is None else argv)])
    try:
        return int(args.run(args))
    except VisxError as e:
        print(f"eval: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
