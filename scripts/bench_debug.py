"""Pillow drawing vs overlays injected before the screenshot: what each costs.

    .venv/bin/python scripts/bench_debug.py [PAGE.html ...]

For each page (default: the demo page and a few testbed pages of different
heights), rendered with JavaScript off:

- ``shot``: the plain full-page screenshot the renderer takes anyway;
- ``pillow``: decoding it, painting every overlay and the legend, encoding
  ``page.png`` (what ``visx.debug`` does), median of 5;
- ``inject``: adding the same boxes as absolutely positioned elements to the
  live page, and ``shot2``: the second full-page screenshot that then
  carries them. Injection needs the page still open after analysis, and the
  report still needs the plain screenshot under its clickable boxes.
- ``report``: the whole ``build_report`` (page.png, report.html, stages.json), median of 5.

Prints one line per page and the medians; needs Chromium.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from visx.config import Config, RenderConfig
from visx.debug import build_report
from visx.debug.canvas import make_canvas
from visx.debug.draw import annotate, encode_png
from visx.debug.layers import build_layers
from visx.pipeline import analyse
from visx.render import render

ROOT = Path(__file__).resolve().parent.parent
TESTBED = ROOT.parent / "shared" / "testbed" / "dev"
TESTBED_PAGES = ("etsy.com/christmas-shopping", "nature.com/physical-science", "ebay.co.uk/world-games",
                 "reddit.com/election-news")

# Boxes as elements over the page: one container at the document origin.
_INJECT_JS = """(boxes) => {
  const root = document.createElement('div');
  root.style.cssText = 'position:absolute;left:0;top:0;width:0;height:0;z-index:2147483647;pointer-events:none';
  for (const b of boxes) {
    const d = document.createElement('div');
    d.style.cssText = `position:absolute;left:${b.x}px;top:${b.y}px;width:${b.w}px;height:${b.h}px;` +
      `box-sizing:border-box;border:${b.border}px solid ${b.colour};background:${b.fill}`;
    if (b.label) {
      const s = document.createElement('span');
      s.textContent = b.label;
      s.style.cssText = `position:absolute;left:0;top:0;background:${b.colour};color:#fff;font:11px sans-serif`;
      d.appendChild(s);
    }
    root.appendChild(d);
  }
  document.body.appendChild(root);
  return boxes.length;
}"""


def _median(f: Any, n: int = 5) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def bench(page: Path) -> dict[str, float]:
    cfg = Config(render=RenderConfig(javascript=False, screenshot=True))
    snap = render(page, cfg)
    ex = analyse(snap, cfg)
    canvas = make_canvas(snap, cfg.debug.max_height)
    layers = build_layers(ex, canvas.image.width, canvas.image.height)

    def pillow() -> None:
        c = make_canvas(snap, cfg.debug.max_height)
        encode_png(annotate(ex, c, layers))

    boxes = [{"x": b.bbox[0], "y": b.bbox[1], "w": b.bbox[2], "h": b.bbox[3], "colour": b.colour,
              "border": 0 if b.kind in ("cell", "removed") else (4 if b.kind == "region" else 2),
              "fill": "rgba(0,0,0,0.25)" if b.kind in ("cell", "removed") else "transparent",
              "label": b.label if b.kind in ("record", "region") else ""}
             for b in [*layers.removed, *layers.cells, *layers.records, *layers.regions]]
    inject_s: list[float] = []

    async def inject(p: Any) -> None:
        t = time.perf_counter()
        await p.evaluate(_INJECT_JS, boxes)
        inject_s.append(time.perf_counter() - t)

    snap2 = render(page, cfg, action=inject)
    return {
        "elements": float(len(snap.nodes)), "height": snap.height, "boxes": float(len(boxes)),
        "shot": snap.timings.get("screenshot", 0.0), "pillow": _median(pillow),
        "inject": inject_s[0], "shot2": snap2.timings.get("screenshot", 0.0),
        "report": _median(lambda: build_report(ex, cfg)),
        "png_bytes": float(len(encode_png(annotate(ex, canvas, layers)))),
    }


def default_pages() -> list[Path]:
    pages = [ROOT / "fixtures" / "demo" / "index.html"]
    for page_id in TESTBED_PAGES:
        meta = TESTBED / page_id / "meta.json"
        if meta.is_file():
            pages.append(meta.parent / json.loads(meta.read_text())["page"])
    return pages


def main(argv: list[str]) -> int:
    pages = [Path(a) for a in argv] or default_pages()
    rows = []
    print(f"{'page':48} {'elems':>6} {'height':>6} {'boxes':>5} {'shot':>6} {'pillow':>6} "
          f"{'inject':>6} {'shot2':>6} {'report':>6} {'png KB':>7}")
    for page in pages:
        r = bench(page)
        rows.append(r)
        name = str(page.relative_to(ROOT.parent)) if page.is_relative_to(ROOT.parent) else str(page)
        print(f"{name[-48:]:48} {r['elements']:6.0f} {r['height']:6.0f} {r['boxes']:5.0f} "
              f"{r['shot'] * 1000:6.0f} {r['pillow'] * 1000:6.0f} {r['inject'] * 1000:6.0f} "
              f"{r['shot2'] * 1000:6.0f} {r['report'] * 1000:6.0f} {r['png_bytes'] / 1024:7.0f}")
    if rows:
        med = {k: statistics.median(r[k] for r in rows) for k in ("shot", "pillow", "inject", "shot2", "report")}
        print("median ms: " + ", ".join(f"{k} {v * 1000:.0f}" for k, v in med.items()))
        print(f"Pillow overlays: {med['pillow'] * 1000:.0f} ms after the screenshot; injection: "
              f"{(med['inject'] + med['shot2']) * 1000:.0f} ms (inject + a second screenshot), and only "
              "while the page is still open")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
