"""Crawl and link a large generated site: pages/s, peak memory, time per stage, P/R/F1.

The site (``tests/link_sites.py``) is served by ``python -m http.server`` in a process of its
own on 127.0.0.1, so that the server does not share the crawler's interpreter; the crawl keeps
its polite defaults (4 requests in flight per host, robots.txt read) unless told otherwise.

    .venv/bin/python scripts/bench_link.py                        # shop, ~2,000 pages
    .venv/bin/python scripts/bench_link.py --kind dept --size 1500 --yen
"""

from __future__ import annotations

import argparse
import json
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import link_sites

from visx.link.api import LinkOptions, crawl_site, link_crawl, page_bags
from visx.link.table_io import read_table


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kind", default="shop", choices=link_sites.KINDS)
    ap.add_argument("--size", type=int, default=1900, help="rows (products, films, faculty/3); default 1900")
    ap.add_argument("--seed", type=int, default=200)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--per-host", type=int, default=4)
    ap.add_argument("--yen", action="store_true", help="also time networkx's Yen per page (slow)")
    ap.add_argument("--json", type=Path, help="also write the figures as JSON")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        site = link_sites.build(args.kind, args.seed, folder, size=args.size)
        port = _free_port()
        server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                                   "--directory", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    urllib.request.urlopen(base + "/robots.txt", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.05)
            rss0 = _rss_mb()
            opt = LinkOptions(depth=args.depth, per_host=args.per_host)
            crawl = crawl_site(base + "/index.html", opt)
            rss_crawl = _rss_mb()
            cols, rows = read_table(folder / "table.csv")
            t = time.perf_counter()
            bags = page_bags(crawl, opt)
            t_bags = time.perf_counter() - t
            res = link_crawl(crawl, cols, rows, site.key, opt)
            figures: dict[str, object] = {
                "kind": args.kind, "site_pages": len(site.pages), "rows": len(rows),
                "pages_crawled": len(crawl.pages), "requests": crawl.requests, "failed": len(crawl.failed),
                "per_host": args.per_host, "crawl_s": round(crawl.elapsed_s, 2),
                "pages_per_s": round(len(crawl.pages) / crawl.elapsed_s, 1),
                "paths_and_bags_s": round(t_bags, 2), "link_s (bags + match)": round(res.link_s, 2),
                "rss_before_mb": round(rss0, 1), "rss_after_crawl_mb": round(rss_crawl, 1),
                "peak_rss_mb": round(_rss_mb(), 1),
                "bag_elements": sum(len(b) for b in bags.values()),
            }
            gold = json.loads((folder / "gold.json").read_text())["answers"]
            got = [r["page_url"] for r in res.rows]
            correct = sum(1 for g, w in zip(got, gold, strict=True) if g and w and g == base + w)
            p = correct / max(1, sum(1 for g in got if g))
            r = correct / max(1, sum(1 for w in gold if w))
            figures.update(P=round(p, 4), R=round(r, 4), F1=round(2 * p * r / (p + r) if p + r else 0, 4))
            if args.yen:
                t = time.perf_counter()
                page_bags(crawl, LinkOptions(depth=args.depth, paths="yen"))
                figures["paths_and_bags_yen_s"] = round(time.perf_counter() - t, 2)
                figures["peak_rss_after_yen_mb"] = round(_rss_mb(), 1)
        finally:
            server.terminate()
            server.wait()
    for k, v in figures.items():
        print(f"{k:28} {v}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
