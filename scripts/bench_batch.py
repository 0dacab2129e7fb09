"""Wall time of ``visx.extract_many`` over a batch of pages, one render at a time against several.

    .venv/bin/python scripts/bench_batch.py [--pages 12] [--delay 0.5] [--jobs 1 2 3]

Serves the demo page from a real local HTTP server that waits ``--delay``
seconds before each answer (a remote server's latency: 0 measures the local
machine alone), extracts it ``--pages`` times under distinct URLs, and prints
the wall time per job count with the speed-up over one job, then one JSON line.
Rendering is done by Chromium's processes and waiting on the network, so a
second worker pays off when pages wait on the network; on a 2-core machine
with no latency the renders compete for the same cores.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import visx  # noqa: E402
from visx.config import Config, RenderConfig  # noqa: E402


def serve(delay: float) -> ThreadingHTTPServer:
    class Handler(SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(ROOT / "fixtures"), **kwargs)

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            if self.path.split("?")[0].endswith(".html"):
                time.sleep(delay)
            self.path = self.path.split("?")[0]
            super().do_GET()

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=12)
    ap.add_argument("--delay", type=float, default=0.5, help="seconds the server waits before each HTML answer")
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2, 3])
    args = ap.parse_args()
    httpd = serve(args.delay)
    base = f"http://127.0.0.1:{httpd.server_address[1]}/demo/index.html"
    cfg = Config(render=RenderConfig(javascript=False))
    visx.extract(base + "?warm", cfg)  # launch the browser outside the timings
    walls: dict[int, float] = {}
    for jobs in args.jobs:
        sources = [f"{base}?j={jobs}&p={i}" for i in range(args.pages)]
        t = time.perf_counter()
        ok = sum(r.ok for r in visx.extract_many(sources, cfg, workers=jobs))
        walls[jobs] = time.perf_counter() - t
        one = walls.get(args.jobs[0], walls[jobs])
        print(f"jobs {jobs}: {args.pages} pages ({ok} ok) in {walls[jobs]:.2f} s, "
              f"{walls[jobs] / args.pages:.2f} s a page, {one / walls[jobs]:.2f}x jobs {args.jobs[0]}")
    httpd.shutdown()
    print(json.dumps({"bench": "batch", "pages": args.pages, "delay_s": args.delay,
                      "wall_s": {str(k): round(v, 3) for k, v in walls.items()}}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
