"""Precision, recall and F1 of link paths on generated sites, by method and crawl depth.

Methods: ``anchors`` (the anchor-text bags alone: W2DR, the method the seed improves on),
``titles`` (anchors plus each page's <title>: the seed's IULP) and ``titles+h1`` (plus the
page's first heading: visx's default). Each site is built by ``tests/link_sites.py``, served
over real HTTP on 127.0.0.1 and crawled once to the largest depth; each depth then uses the
pages within it. P = correct / predicted, R = correct / rows that have a page, micro-averaged.

    .venv/bin/python scripts/eval_link.py                       # held-out seeds 100-104
    .venv/bin/python scripts/eval_link.py --seeds 0 1 2 --json out/link_eval.json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import link_sites

from visx.link.api import LinkOptions, crawl_site, link_crawl
from visx.link.table_io import read_table

METHODS = {"anchors": (False, False), "titles": (True, False), "titles+h1": (True, True)}


@dataclass
class Count:
    correct: int = 0
    predicted: int = 0
    gold: int = 0

    def add(self, other: Count) -> None:
        self.correct += other.correct
        self.predicted += other.predicted
        self.gold += other.gold

    def prf(self) -> tuple[float, float, float]:
        p = self.correct / self.predicted if self.predicted else 0.0
        r = self.correct / self.gold if self.gold else 0.0
        return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def score(pred: list[str | None], gold: list[str | None], base: str) -> Count:
    c = Count(gold=sum(g is not None for g in gold))
    for p, g in zip(pred, gold, strict=True):
        if p is None:
            continue
        c.predicted += 1
        c.correct += g is not None and p == base + g
    return c


def evaluate(kinds: list[str], seeds: list[int], size: int, depths: list[int], k: int,
             verbose: bool) -> dict[str, dict[str, dict[int, Count]]]:
    table: dict[str, dict[str, dict[int, Count]]] = {
        kind: {m: {d: Count() for d in depths} for m in METHODS} for kind in [*kinds, "all"]}
    with tempfile.TemporaryDirectory() as tmp:
        for kind in kinds:
            for seed in seeds:
                folder = Path(tmp) / f"{kind}-{seed}"
                link_sites.build(kind, seed, folder, size=size)
                gold = json.loads((folder / "gold.json").read_text())
                cols, rows = read_table(folder / "table.csv")
                with link_sites.serve(folder) as srv:
                    crawl = crawl_site(srv.url("index.html"), LinkOptions(depth=max(depths)))
                    for m, (titles, headings) in METHODS.items():
                        for d in depths:
                            res = link_crawl(crawl, cols, rows, gold["key"],
                                             LinkOptions(depth=d, k=k, titles=titles, headings=headings))
                            c = score([r["page_url"] for r in res.rows], gold["answers"], srv.base)
                            table[kind][m][d].add(c)
                            table["all"][m][d].add(c)
                            if verbose and d == max(depths) and m == "titles+h1":
                                _show_errors(res, gold["answers"], srv.base, kind, seed)
    return table


def _show_errors(res: object, gold: list[str | None], base: str, kind: str, seed: int) -> None:
    for i, (r, g) in enumerate(zip(res.rows, gold, strict=True)):  # type: ignore[attr-defined]
        want = base + g if g else None
        if r["page_url"] != want:
            print(f"  {kind}-{seed} row {i} {r[res.key]!r}: got {r['page_url']} want {want} "  # type: ignore[attr-defined]
                  f"(score {r['link_score']})", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kinds", nargs="+", default=list(link_sites.KINDS), choices=link_sites.KINDS)
    ap.add_argument("--seeds", nargs="+", type=int, default=[100, 101, 102, 103, 104],
                    help="site seeds (default: 100-104, never used for tuning; 0-2 were)")
    ap.add_argument("--size", type=int, default=40, help="rows per site (default 40)")
    ap.add_argument("--depths", nargs="+", type=int, default=[1, 2, 3, 4])
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--json", type=Path, help="also write the figures as JSON")
    ap.add_argument("-v", "--verbose", action="store_true", help="list the rows got wrong (titles+h1, deepest)")
    args = ap.parse_args()
    table = evaluate(args.kinds, args.seeds, args.size, args.depths, args.k, args.verbose)
    print(f"seeds {args.seeds}, size {args.size}, K={args.k}")
    print(f"{'site':6} {'method':10} " + " ".join(f"{'depth ' + str(d) + ' P/R/F1':>20}" for d in args.depths))
    out: dict[str, object] = {}
    for kind, by_method in table.items():
        for m, by_depth in by_method.items():
            cells = []
            for d, c in by_depth.items():
                p, r, f = c.prf()
                cells.append(f"{p:.3f}/{r:.3f}/{f:.3f}".rjust(20))
                out[f"{kind}/{m}/{d}"] = {"P": round(p, 4), "R": round(r, 4), "F1": round(f, 4),
                                          "correct": c.correct, "predicted": c.predicted, "gold": c.gold}
            print(f"{kind:6} {m:10} " + " ".join(cells))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
