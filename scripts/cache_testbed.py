"""Render every page of a testbed folder once and cache its snapshot.

    .venv/bin/python scripts/cache_testbed.py [DATASET] [--cache DIR] [--limit N] [--pages GLOB]

One process, one shared browser, one page at a time (the machine has two
cores). Pages already cached are skipped; failures go to CACHE/failures.json.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from visx.evaluate.cache import FAILURES, cache_pages  # noqa: E402
from visx.evaluate.dataset import load_dataset  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", nargs="?", type=Path, default=ROOT.parent / "shared/testbed/dev")
    ap.add_argument("--cache", type=Path, default=ROOT / ".eval-cache")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--pages", metavar="GLOB")
    args = ap.parse_args()
    pages = load_dataset(args.dataset, pages=args.pages, limit=args.limit)
    t0 = time.perf_counter()
    done = [0]

    def progress(pid: str, msg: str) -> None:
        done[0] += 1
        print(f"[{done[0]}] {pid}: {msg}", flush=True)

    rep = cache_pages(pages, args.cache, progress=progress)
    total = time.perf_counter() - t0
    times = sorted(rep.rendered.values())
    print(f"{len(pages)} pages: {rep.cached} already cached, {len(rep.rendered)} rendered, "
          f"{len(rep.failed)} failed ({total:.0f} s)")
    if times:
        print(f"render wall s: median {times[len(times) // 2]:.2f}, mean {sum(times) / len(times):.2f}, "
              f"max {times[-1]:.2f}")
    if rep.failed:
        print(f"failures logged in {args.cache / FAILURES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
