"""Benchmark rendering: launch, navigate, settle and snapshot times.

Median of ``--runs`` runs (default 5) for a generated 5k- and 50k-element
list page and for 10 testbed dev pages (JavaScript off, network off).
Prints a table and one JSON line. The generated pages run with JavaScript
on (the default, whose settle waits for network idle and a quiet DOM) and
off. Target: on the 5k page with default settings the snapshot takes at
most 35% of navigate + settle.

Launch is measured apart: a fresh browser per run (``visx.render.shutdown()``
in between), on a tiny page, so page timings are not mixed with start-up.

The harvest part (``--pages``) renders the client-rendered fixture apps
(``fixtures/spa/``, served with their JSON API on 127.0.0.1) and reports the
time per harvested record for infinite scroll, "Load more", next links and
virtualised lists, and the peak memory of a 10,000-row virtualised list.

    .venv/bin/python scripts/bench_render.py [--runs 5] [--testbed DIR] [--pages 10]
    .venv/bin/python scripts/bench_render.py --harvest-only [--rows 10000]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from visx import render
from visx.config import Config, RenderConfig
from visx.render import shutdown

TARGET_RATIO = 0.35
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TESTBED = ROOT.parent / "shared" / "testbed" / "dev"
PHASES = ("navigate", "settle", "snapshot")


def generated_page(n_elements: int) -> str:
    """A product-list page of about ``n_elements`` elements (7 per record)."""
    records = []
    for i in range(max(1, (n_elements - 8) // 7)):
        records.append(
            f'<div class="rec" id="r{i}"><h3 class="t"><a href="/item/{i}">Item number {i}</a></h3>'
            f'<p class="snip">Description of item {i} with <b>bold</b> words.</p>'
            f'<span class="price">${i}.99</span><img src="data:," width="40" height="30" alt="pic {i}"></div>'
        )
    style = (".rec{display:inline-block;width:300px;margin:4px;vertical-align:top}"
             ".price{color:#b12704;font-weight:700}.t{font-size:15px;margin:2px 0}")
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Generated {n_elements}</title>"
            f"<style>{style}</style></head><body><h1>Results</h1><main id='list'>"
            + "".join(records) + "</main><footer><p>end</p></footer></body></html>")


def testbed_pages(root: Path, count: int) -> list[Path]:
    """``count`` pages spread over the index (every k-th entry), for variety."""
    index = json.loads((root / "index.json").read_text(encoding="utf-8"))
    step = max(1, len(index) // count)
    return [root / e["id"] / e["page"] for e in index[::step][:count]]


def median_timings(source: str | Path, cfg: Config, runs: int) -> tuple[dict[str, float], int]:
    render(source, cfg)  # warm-up: browser up, files in the page cache
    samples: dict[str, list[float]] = {k: [] for k in PHASES}
    n = 0
    for _ in range(runs):
        snap = render(source, cfg)
        n = len(snap.nodes)
        for k in PHASES:
            samples[k].append(snap.timings[k])
    return {k: statistics.median(v) for k, v in samples.items()}, n


def median_launch(runs: int) -> float:
    cfg = Config(render=RenderConfig(javascript=False))
    out = []
    for _ in range(runs):
        shutdown()
        out.append(render("<html><body><p>x</p></body></html>", cfg).timings["launch"])
    return statistics.median(out)


@dataclass(slots=True)
class Row:
    page: str
    elements: int
    navigate: float
    settle: float
    snapshot: float

    @property
    def ratio(self) -> float:
        """Snapshot time as a share of navigate + settle."""
        load = self.navigate + self.settle
        return self.snapshot / load if load > 0 else float("inf")


def measure(label: str, source: Path, cfg: Config, runs: int) -> Row:
    med, n = median_timings(source, cfg, runs)
    return Row(label, n, med["navigate"], med["settle"], med["snapshot"])


HARVESTS = (
    # (label, app and knobs, pages, records expected)
    ("infinite scroll (20 a batch, 300 ms)", "infinite.html?total=200&delay=300", 20, 200),
    ("load more (12 a click, 300 ms)", "loadmore.html?total=96&delay=300", 20, 96),
    ("next links (20 a page, 300 ms)", "paged.html?total=100&delay=300", 20, 100),
    ("virtualised: react-window", "virtual-window.html?total=1000", 2, 1000),
    ("virtualised: TanStack (variable rows)", "virtual-tanstack.html?total=1000", 2, 1000),
    ("virtualised: window-scrolled", "virtual-page.html?total=1000", 2, 1000),
    ("virtualised: AG Grid", "aggrid.html?total=1000", 2, 1000),
)


def harvest_rows(rows_big: int) -> list[dict[str, object]]:
    """Time each harvest over the fixture apps; the last row is the big virtualised list."""
    import resource

    sys.path.insert(0, str(ROOT / "tests"))
    import spa_api

    from visx import extract

    httpd, base = spa_api.serve(ROOT / "fixtures")
    out: list[dict[str, object]] = []
    try:
        cases = [*HARVESTS, (f"virtualised: react-window, {rows_big:,} rows",
                             f"virtual-window.html?total={rows_big}", 2, rows_big)]
        for label, app, pages, want in cases:
            cfg = Config(render=RenderConfig(pages=pages, timeout_s=120))
            before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            ex = extract(f"{base}/spa/dist/{app}", cfg)
            got = len(ex.main.records) if ex.main else 0
            t = ex.snapshot.timings
            secs = t["navigate"] + t["settle"] + t["snapshot"]
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            steps = len(ex.snapshot.extra.get("harvest", {}).get("steps", []))
            out.append({"case": label, "records": got, "expected": want, "steps": steps,
                        "seconds": round(secs, 2), "ms_per_record": round(1000 * secs / max(1, got), 2),
                        "elements": len(ex.snapshot.nodes), "peak_rss_mb": round(peak / 1024),
                        "rss_growth_mb": round((peak - before) / 1024)})
    finally:
        httpd.shutdown()
    return out


def print_harvests(rows: list[dict[str, object]]) -> None:
    head = (f"{'harvest':42} {'records':>8} {'steps':>6} {'seconds':>8} {'ms/record':>10} {'elements':>9} "
            f"{'peak RSS MB':>12}")
    print(head)
    print("-" * len(head))
    for r in rows:
        flag = "" if r["records"] == r["expected"] else f"  (expected {r['expected']})"
        print(f"{r['case']!s:42} {r['records']!s:>8} {r['steps']!s:>6} {r['seconds']!s:>8} "
              f"{r['ms_per_record']!s:>10} {r['elements']!s:>9} {r['peak_rss_mb']!s:>12}{flag}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--pages", type=int, default=10, help="testbed pages to time (default 10)")
    ap.add_argument("--testbed", type=Path, default=DEFAULT_TESTBED, help="testbed dev folder")
    ap.add_argument("--harvest-only", action="store_true", help="only the harvest part")
    ap.add_argument("--rows", type=int, default=10_000, help="rows of the big virtualised list (default 10000)")
    args = ap.parse_args(argv)
    if args.harvest_only:
        rows = harvest_rows(args.rows)
        shutdown()
        print_harvests(rows)
        print(json.dumps({"harvest": rows}, separators=(",", ":")))
        return 0

    launch = median_launch(args.runs)
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="visx-bench-") as tmp:
        for size, label in ((5_000, "generated 5k"), (50_000, "generated 50k")):
            page = Path(tmp) / f"gen{size}.html"
            page.write_text(generated_page(size), encoding="utf-8")
            for js in (True, False):
                cfg = Config(render=RenderConfig(javascript=js, timeout_s=120))
                rows.append(measure(f"{label} js={'on' if js else 'off'}", page, cfg, args.runs))
    if args.testbed.is_dir():
        cfg = Config(render=RenderConfig(javascript=False, timeout_s=60))
        for page in testbed_pages(args.testbed, args.pages):
            rows.append(measure(str(page.parent.relative_to(args.testbed)), page, cfg, args.runs))
    else:
        print(f"testbed not found at {args.testbed}; skipped its pages", file=sys.stderr)
    shutdown()

    print(f"median of {args.runs} runs, seconds; launch (fresh browser, tiny page) {launch:.3f}")
    head = f"{'page':40} {'elements':>8} {'navigate':>9} {'settle':>8} {'snapshot':>9} {'snap/(nav+settle)':>18}"
    print(head)
    print("-" * len(head))
    for r in rows:
        print(f"{r.page:40} {r.elements:>8} {r.navigate:>9.3f} {r.settle:>8.3f} {r.snapshot:>9.3f} {r.ratio:>18.0%}")
    gate = rows[0]  # generated 5k, default settings (JavaScript on)
    ok = gate.ratio <= TARGET_RATIO
    print(f"target: snapshot <= {TARGET_RATIO:.0%} of navigate+settle on the 5k page ({gate.page}): "
          f"{gate.ratio:.0%} -> {'met' if ok else 'MISSED'}")
    summary = {
        "runs": args.runs,
        "launch": round(launch, 4),
        "target_ratio": TARGET_RATIO,
        "ratio_5k": round(gate.ratio, 3),
        "target_met": ok,
        "rows": [{**asdict(r), "ratio": round(r.ratio, 3)} for r in rows],
    }
    harvests = harvest_rows(args.rows)
    shutdown()
    print_harvests(harvests)
    summary["harvest"] = harvests
    print(json.dumps(summary, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
