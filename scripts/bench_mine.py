"""Benchmark the stages after rendering (clean, mine, align, schema) on generated pages.

    .venv/bin/python scripts/bench_mine.py [--sizes 1000,5000,...] [--runs 5]

Pages of 1k..100k elements are generated (a header, a side column, a list of
product cards, a footer), rendered once with JS off and cached under
.eval-cache/bench/. Prints the median stage times per size and the targets:
the whole analysis (clean, mine, align, schema) of a 50k-element page under
1 s, and its cost linear in elements (the exponent fitted from 1k to 100k at
most 1.1); also clean + mine (<= 100 ms at 5k, <= 1.5 s at 50k). Then one JSON line.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from visx.config import Config, RenderConfig  # noqa: E402
from visx.model import PageSnapshot  # noqa: E402

CACHE = ROOT / ".eval-cache" / "bench"
PER_CARD = 12  # elements per generated card


def page_html(n_elements: int) -> str:
    cards = max(2, (n_elements - 60) // PER_CARD)
    out = [
        "<!doctype html><html><head><style>",
        "body{margin:0;font:14px sans-serif} header,footer{height:80px;background:#eee}",
        "#side{float:left;width:180px} main{margin-left:200px}",
        ".card{display:inline-block;width:220px;margin:6px;vertical-align:top}",
        "</style></head><body><header><nav>",
        *(f'<a href="/c{k}">Category {k}</a>' for k in range(8)),
        '</nav></header><div id="side"><ul>',
        *(f'<li><a href="/f{k}">Filter {k}</a></li>' for k in range(10)),
        "</ul></div><main><ul>",
    ]
    for k in range(cards):
        badge = '<span class="badge">Sale</span>' if k % 3 == 0 else ""
        out.append(
            f'<li class="card"><div class="img"><img src="data:," width="200" height="120" alt="p{k}"></div>'
            f'<div class="body"><h3><a href="/p/{k}">Product number {k}</a></h3>{badge}'
            f'<p class="desc">A short description of product {k}, with <b>bold</b> words.</p>'
            f'<div class="meta"><span class="price">${k % 97}.99</span><span class="rating">4.{k % 10} stars</span>'
            "</div></div></li>"
        )
    out.append("</ul></main><footer><p>About</p><p>Contact</p><p>Terms</p></footer></body></html>")
    return "\n".join(out)


def snapshot_for(n: int) -> PageSnapshot:
    from visx.render import load_snapshot, render

    path = CACHE / f"page-{n}.json.gz"
    if path.exists():
        return load_snapshot(path)
    html = CACHE / f"page-{n}.html"
    CACHE.mkdir(parents=True, exist_ok=True)
    html.write_text(page_html(n), encoding="utf-8")
    snap = render(html, Config(render=RenderConfig(javascript=False, timeout_s=300)))
    snap.save(path)
    return snap


def stage_times(snap: PageSnapshot, cfg: Config) -> dict[str, float]:
    from visx.pipeline import analyse

    t = time.perf_counter()
    ex = analyse(snap, cfg)
    total = time.perf_counter() - t
    out = {k: v for k, v in ex.timings.items() if k in ("clean", "mine", "align", "schema")}
    out["total"] = total
    return out


def exponent(rows: list[dict[str, float]], key: str) -> float:
    """Least-squares slope of log(time) against log(elements)."""
    xs = [math.log(r["elements"]) for r in rows]
    ys = [math.log(max(r[key], 1e-6)) for r in rows]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,2000,5000,10000,20000,50000,100000")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    cfg = Config()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    print(f"{'elements':>9} {'clean ms':>9} {'mine ms':>9} {'align ms':>9} {'schema ms':>10} {'clean+mine':>11}"
          f" {'analysis':>9}")
    for n in sizes:
        snap = snapshot_for(n)
        runs = [stage_times(snap, cfg) for _ in range(args.runs)]
        med = {k: statistics.median(r.get(k, 0.0) for r in runs) for k in runs[0]}
        cm = med.get("clean", 0.0) + med.get("mine", 0.0)
        rows.append({"elements": len(snap.nodes), **{k: round(v, 4) for k, v in med.items()}, "clean_mine": round(cm, 4)})
        print(
            f"{len(snap.nodes):>9} {med.get('clean', 0) * 1000:>9.1f} {med.get('mine', 0) * 1000:>9.1f} "
            f"{med.get('align', 0) * 1000:>9.1f} {med.get('schema', 0) * 1000:>10.1f} {cm * 1000:>11.1f}"
            f" {med['total'] * 1000:>9.1f}"
        )
    slope = exponent(rows, "total")
    print(f"fitted exponent of the whole analysis vs elements: {slope:.2f} (target <= 1.1)")
    print(f"fitted exponent of clean+mine vs elements: {exponent(rows, 'clean_mine'):.2f}")
    near = min(rows, key=lambda r: abs(r["elements"] - 50000))
    print(f"whole analysis at {near['elements']} elements: {near['total'] * 1000:.0f} ms (target < 1000 ms)")
    for target_n, limit in ((5000, 0.1), (50000, 1.5)):
        near = min(rows, key=lambda r: abs(r["elements"] - target_n))
        print(f"clean+mine at {near['elements']} elements: {near['clean_mine'] * 1000:.0f} ms (target <= {limit * 1000:.0f} ms)")
    print(json.dumps({"bench": "mine", "rows": rows, "exponent": round(slope, 3)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
