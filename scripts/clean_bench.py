"""Time the cleaner on saved snapshots (no browser): CPU and wall time per page.

    .venv/bin/python scripts/clean_bench.py [--runs 7] [SNAPSHOT.json.gz ...]

Without arguments: the generated 1k..100k-element pages of scripts/bench_mine.py
(.eval-cache/bench/page-*.json.gz; run that script once to create them) and the
five largest cached dev snapshots. Prints medians over --runs runs and the
fitted exponent of CPU time against element count (over the generated series). CPU time is the figure to
read on a shared machine: wall time also measures the neighbours.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from visx.clean import clean  # noqa: E402
from visx.render.snapshot_io import load_snapshot  # noqa: E402

CACHE = ROOT / ".eval-cache"


def default_paths() -> list[Path]:
    bench = sorted(CACHE.glob("bench/page-*.json.gz"), key=lambda p: int(p.name.split("-")[1].split(".")[0]))
    dev = sorted(CACHE.glob("snapshots/*.json.gz"), key=lambda p: p.stat().st_size)[-5:]
    return bench + dev


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", type=Path)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    paths = args.paths or default_paths()
    if not paths:
        print("no snapshots: pass some, or run scripts/bench_mine.py to generate the bench pages")
        return 1
    points: list[tuple[int, float]] = []
    print(f"{'snapshot':45s} {'elements':>9s} {'cpu ms':>9s} {'wall ms':>9s}")
    for path in paths:
        snap = load_snapshot(path)
        cpu, wall = [], []
        for _ in range(args.runs):
            c0, w0 = time.process_time(), time.perf_counter()
            clean(snap)
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
        n = len(snap.nodes)
        med = statistics.median(cpu)
        points.append((n, med))
        print(f"{path.name[:45]:45s} {n:9d} {med * 1000:9.1f} {statistics.median(wall) * 1000:9.1f}")
    # The exponent is fitted over one family of pages (the generated series when
    # present): pages of different sites differ in more than their size.
    series = [pt for pt, path in zip(points, paths, strict=True) if path.name.startswith("page-")]
    big = [(n, t) for n, t in (series if len(series) >= 2 else points) if n >= 1000 and t > 0]
    if len({n for n, _ in big}) >= 2:
        xs = [math.log(n) for n, _ in big]
        ys = [math.log(t) for _, t in big]
        mx, my = statistics.fmean(xs), statistics.fmean(ys)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
        print(f"fitted exponent of CPU time against element count: {slope:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
