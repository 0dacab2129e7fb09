"""What the flat miner adds to analysis time, on saved snapshots.

    .venv/bin/python scripts/bench_flat.py [SNAPSHOTS] [--every K] [--repeat N]

Each snapshot is analysed with ``flat.mode=off`` and ``auto`` (the default),
alternately, best of N runs each in CPU time (honest on a shared machine).
Pages split in two: those where DOM mining succeeds (its main region is
convincing, so ``auto`` skips the flat miner after one check), where the
target is under 20% more time; and the others, where the flat miner runs,
whose cost is printed for information. Figures and ratios only, no pass/fail.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from visx.config import Config, FlatConfig
from visx.flat.use import convincing
from visx.pipeline import _read_snapshot, analyse


def best_cpu(fn: object, repeat: int) -> float:
    out = []
    for _ in range(repeat):
        t = time.process_time()
        fn()  # type: ignore[operator]
        out.append(time.process_time() - t)
    return min(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="scripts/bench_flat.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("snapshots", nargs="?", type=Path, default=Path(".eval-cache/snapshots"),
                    help="folder of *.json.gz snapshots (default: the dev eval cache)")
    ap.add_argument("--every", type=int, default=1, metavar="K", help="only every K-th snapshot")
    ap.add_argument("--repeat", type=int, default=3, metavar="N", help="runs per setting; the best counts")
    args = ap.parse_args(argv)
    files = sorted(args.snapshots.glob("*.json.gz"))[:: max(1, args.every)]
    if not files:
        ap.error(f"{args.snapshots}: no *.json.gz snapshots; run scripts/eval.py with --cache first")
    on, off = Config(), Config(flat=FlatConfig(mode="off"))
    skipped: list[tuple[float, float]] = []
    ran: list[tuple[float, float]] = []
    for f in files:
        snap = _read_snapshot(f)
        dom = analyse(snap, off)  # also warms caches before timing
        t_off = best_cpu(lambda s=snap: analyse(s, off), args.repeat)
        t_on = best_cpu(lambda s=snap: analyse(s, on), args.repeat)
        (skipped if convincing(snap.nodes, dom.main) else ran).append((t_off, t_on))
    for name, rows in (("DOM mining succeeds (flat skipped)", skipped), ("DOM region not convincing (flat runs)", ran)):
        if not rows:
            print(f"{name}: no pages")
            continue
        off_s, on_s = sum(r[0] for r in rows), sum(r[1] for r in rows)
        ratios = sorted(b / a for a, b in rows if a > 0)
        print(f"{name}: {len(rows)} pages, analysis {off_s * 1000:.0f} ms flat off, {on_s * 1000:.0f} ms auto: "
              f"total x{on_s / off_s:.3f} ({100 * (on_s / off_s - 1):+.1f}%), per page median "
              f"x{statistics.median(ratios):.3f}, max x{ratios[-1]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
