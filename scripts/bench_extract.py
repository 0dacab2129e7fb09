"""What a user waits for on a one-page ``visx extract`` of a saved HTML page.

    .venv/bin/python scripts/bench_extract.py [DATASET] [--limit N] [--json]

For each page (default: every dev testbed page, or an even sample of ``--limit``
of them) runs ``python -X importtime -m visx extract PAGE --no-js -o OUT.json``
in a fresh process, as a user would, and splits the run in three:

- browser: navigate + settle + snapshot, from the output's JSON ``timings``
  (the browser's launch is not counted, as the issue asks);
- analysis: clean + mine + align + schema, from the same timings;
- imports: every module the process imports after the interpreter's own start
  (``-X importtime``, top-level cumulative times), apart from Playwright's,
  which is the browser's cost. Playwright's is printed too.

Target: median over the pages of (analysis + imports) / browser <= 0.10;
and ``import visx`` under 0.2 s (printed first).

The stages are imported and warmed in a background thread while the browser
works (``visx.prewarm``), so ``-X importtime`` counts imports that nobody waits
for. What the user waits for beyond the browser is printed too, as
``felt``: the process's wall time less the interpreter's own start, the
browser's launch, Playwright's imports, navigate, settle and snapshot.
``--no-prewarm`` measures without the warming thread.
Prints one line per page, the medians, and a JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from visx.evaluate.dataset import load_dataset  # noqa: E402

BROWSER_STAGES = ("navigate", "settle", "snapshot")
ANALYSIS_STAGES = ("clean", "mine", "align", "schema")
INTERPRETER_START = frozenset({"site", "encodings", "_frozen_importlib_external", "zipimport", "codecs",
                               "_signal", "_abc", "abc", "io", "stat", "posixpath", "os", "_sitebuiltins",
                               "genericpath", "_codecs", "_io", "marshal", "posix", "time", "winreg",
                               "_distutils_hack", "_virtualenv", "__future__"})
"""Modules every Python process imports before ``-m visx`` runs (or ``.pth`` hooks)."""
TARGET = 0.10


def import_seconds(stderr: str) -> tuple[float, float]:
    """(imports apart from Playwright's, Playwright's) from ``-X importtime`` output."""
    own = pw = 0.0
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cum, name = line[len("import time:"):].split("|")
        if name.startswith("  "):  # nested: counted in its parent's cumulative time
            continue
        mod = name.strip()
        secs = int(cum) / 1e6
        if mod.split(".")[0] in INTERPRETER_START or mod.startswith("encodings"):
            continue
        if mod.startswith(("playwright", "greenlet", "pyee")):
            pw += secs
        else:
            own += secs
    return own, pw


def run_page(page_file: Path, out: Path, *, prewarm: bool, python_start: float) -> dict[str, float]:
    env = dict(os.environ, VISX_NO_PREWARM="0" if prewarm else "1")
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "visx", "extract", str(page_file), "--no-js",
         "--partial", "-o", str(out)],
        capture_output=True, text=True, env=env, timeout=180)
    wall = time.perf_counter() - t0
    if proc.returncode != 0 or not out.is_file():
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "failed")
    timings = json.loads(out.read_text())["timings"]
    imports, pw = import_seconds(proc.stderr)
    browser = sum(timings.get(k, 0.0) for k in BROWSER_STAGES)
    analysis = sum(timings.get(k, 0.0) for k in ANALYSIS_STAGES)
    felt = wall - python_start - timings.get("launch", 0.0) - pw - browser
    return {"browser": browser, "analysis": analysis, "imports": imports, "playwright_imports": pw,
            "ratio": (analysis + imports) / browser if browser else float("inf"),
            "felt": felt, "felt_ratio": felt / browser if browser else float("inf")}


def import_visx_s() -> float:
    """Median cumulative ``-X importtime`` of ``import visx`` over five fresh processes."""
    runs = []
    for _ in range(5):
        err = subprocess.run([sys.executable, "-X", "importtime", "-c", "import visx"], capture_output=True,
                             text=True, check=True).stderr
        runs.append(next(int(line.split("|")[1]) / 1e6 for line in reversed(err.splitlines())
                         if line.rstrip().endswith("| visx")))
    return statistics.median(runs)


def python_start_s() -> float:
    """Median wall time of an interpreter that does nothing (not visx's cost)."""
    runs = []
    for _ in range(5):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", nargs="?", type=Path, default=ROOT.parent / "shared" / "testbed" / "dev")
    ap.add_argument("--limit", type=int, default=None, help="an even sample of this many pages")
    ap.add_argument("--no-prewarm", action="store_true", help="turn off the warming thread (VISX_NO_PREWARM=1)")
    args = ap.parse_args()
    pages = [p for p in load_dataset(args.dataset) if p.page_file.name]
    if args.limit and args.limit < len(pages):
        step = len(pages) / args.limit
        pages = [pages[int(k * step)] for k in range(args.limit)]
    # Warm the bytecode cache once so every run measures imports as a user's second run does.
    subprocess.run([sys.executable, "-m", "visx", "--version"], capture_output=True, check=False)
    start = python_start_s()
    print(f"import visx: {import_visx_s() * 1e3:.0f} ms (target < 200 ms)")
    rows: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, page in enumerate(pages):
            try:
                row = run_page(page.page_file, Path(tmp) / f"{k}.json", prewarm=not args.no_prewarm,
                               python_start=start)
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                print(f"{page.id:<40} failed: {e}")
                continue
            rows.append(row)
            print(f"{page.id:<40} browser {row['browser']:6.2f} s  analysis {row['analysis'] * 1e3:6.1f} ms  "
                  f"imports {row['imports'] * 1e3:6.1f} ms (playwright {row['playwright_imports'] * 1e3:5.1f})"
                  f"  ratio {row['ratio']:.3f}  felt {row['felt'] * 1e3:6.1f} ms ({row['felt_ratio']:.3f})",
                  flush=True)
    if not rows:
        print("no page ran")
        return 1
    med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
    print(f"\n{len(rows)} pages; medians: browser {med['browser']:.2f} s, analysis {med['analysis'] * 1e3:.1f} ms, "
          f"imports {med['imports'] * 1e3:.0f} ms (Playwright's own {med['playwright_imports'] * 1e3:.0f} ms)")
    print(f"(analysis + imports) / browser, median: {med['ratio']:.3f} (target <= {TARGET})")
    print(f"felt beyond the browser: {med['felt'] * 1e3:.0f} ms, / browser {med['felt_ratio']:.3f} "
          f"(interpreter start {start * 1e3:.0f} ms not counted)")
    print(json.dumps({"bench": "extract", "pages": len(rows), "median": {k: round(v, 4) for k, v in med.items()}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
