"""Does cleaning remove gold records? Measured over cached dev snapshots.

For each cached snapshot (``.eval-cache/snapshots/<id with / as __>.json.gz``)
and each gold record of ``<dev>/<id>/records.csv``, find the elements whose
text holds the record's first non-empty cells (exact match with whitespace
ignored on own text, then on small subtrees, then rapidfuzz partial_ratio),
and report the records found only inside dropped subtrees. Also prints the
share of page area and of elements removed, and how many pages lose a
header band, a footer band or a side column.

    .venv/bin/python scripts/clean_check.py [--only SUBSTR] [--verbose]
"""

from __future__ import annotations

import argparse
import csv
import html
import io
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import shapely
from rapidfuzz import fuzz

from visx.clean import clean
from visx.clean.page import PageView
from visx.clean.reasons import family
from visx.model import Cleaned, NodeTable, PageSnapshot
from visx.render.snapshot_io import load_snapshot

ROOT = Path(__file__).resolve().parent.parent
KEY_CHARS = 40
"""Non-space characters of a cell used as its key: gold cells are sometimes
longer than the page text (truncated with an ellipsis on the page)."""
MIN_KEY = 4
"""Shorter cells ("New", "4.5") occur all over a page and locate nothing."""
SPECIFIC_KEY = 8
SMALL_SUBTREE = 80
"""Subtrees with more elements than this hold several records, not one."""
FUZZY_MIN = 90.0
ABSENT_SHARE = 0.5

_SPACE = re.compile(r"\s+")
_ELLIPSIS = re.compile(r"(\.\.\.|…)+$")


def squash(s: str) -> str:
    return _SPACE.sub("", s).casefold()


def record_keys(path: Path) -> list[list[str]]:
    """Per gold record, keys of two of its first three non-empty cells, specific first."""
    text = path.read_bytes().decode("utf-8", errors="replace")
    out = []
    for row in csv.reader(io.StringIO(text)):
        keys = []
        for cell in row:
            k = squash(_ELLIPSIS.sub("", html.unescape(cell).strip()))
            if len(k) >= MIN_KEY:
                keys.append(k[:KEY_CHARS])
            if len(keys) == 3:
                break
        if keys:
            # Short cells (a rank, a price) also occur elsewhere on the page:
            # the first specific cell leads.
            keys.sort(key=lambda k: len(k) < SPECIFIC_KEY)
            out.append(keys[:2])
    return out


class TextIndex:
    """Own texts and small-subtree texts of a page, whitespace removed."""

    def __init__(self, nodes: NodeTable) -> None:
        self.nodes = nodes
        self.own = [squash(nodes.own_text(i)) for i in range(len(nodes))]
        self.sub: dict[int, str] = {}
        for nd in nodes.nodes:
            if nd.end - nd.index <= SMALL_SUBTREE:
                self.sub[nd.index] = squash(nodes.text(nd.index, visible_only=False))

    def locate(self, key: str) -> list[int]:
        hits = [i for i, t in enumerate(self.own) if key in t]
        # A key split by inline markup (<b>, <a>) is only in a subtree's text.
        hits += [i for i, t in self.sub.items() if key in t]
        if hits:
            return _deepest(self.nodes, hits)
        best, found = FUZZY_MIN, []
        for i, t in self.sub.items():
            if len(t) < len(key) // 2:
                continue
            r = fuzz.partial_ratio(key, t, score_cutoff=best - 0.01)
            if r > best:
                best, found = r, [i]
            elif r == best:
                found.append(i)
        return _deepest(self.nodes, found)


def _deepest(nodes: NodeTable, hits: list[int]) -> list[int]:
    """Drop hits that are ancestors of other hits."""
    hs = sorted(hits)
    out = []
    for k, i in enumerate(hs):
        if k + 1 < len(hs) and nodes.is_ancestor(i, hs[k + 1]):
            continue
        out.append(i)
    return out


@dataclass
class PageResult:
    page: str
    n_gold: int = 0
    located: int = 0
    lost: list[tuple[int, str]] = field(default_factory=list)
    partial: list[int] = field(default_factory=list)
    hidden: list[int] = field(default_factory=list)
    area_share: float = 0.0
    node_share: float = 0.0
    reasons: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    n_nodes: int = 0


def covering_reason(cleaned: Cleaned, nodes: NodeTable, j: int) -> str:
    for r in cleaned.removed:
        if nodes.is_ancestor(r.node, j):
            return r.reason
    return "?"


def check_page(page: str, snap: PageSnapshot, gold: Path) -> PageResult:
    nodes = snap.nodes
    # CPU time: wall time on a shared machine measures the neighbours too.
    t0 = time.process_time()
    cleaned = clean(snap)
    res = PageResult(page, seconds=time.process_time() - t0, n_nodes=len(nodes))
    res.reasons.update(r.reason for r in cleaned.removed)
    index = TextIndex(nodes)
    keys_per_record = record_keys(gold)
    res.n_gold = len(keys_per_record)
    for k, keys in enumerate(keys_per_record):
        # The first key that is found decides; a later key found only in dropped
        # subtrees (a title kept, its price dropped) is reported as a partial loss.
        located = [h for h in (index.locate(key) for key in keys) if h]
        if not located:
            continue
        res.located += 1
        if all(nodes[j].vis for j in located[0]):
            # The browser does not show it: not a record a reader sees (the
            # testbed has pages whose records were never saved into the HTML).
            res.hidden.append(k)
        elif all(cleaned.dropped[j] for j in located[0]):
            res.lost.append((k, covering_reason(cleaned, nodes, located[0][0])))
        elif any(all(cleaned.dropped[j] for j in hits) for hits in located[1:]):
            res.partial.append(k)
    positional = [r for r in cleaned.removed if family(r.reason) != "invisible"]
    # Area by the extent of what each removed subtree shows, not by its box (a
    # footer element may be laid out as tall as the page while showing a strip).
    ext = PageView(snap).ext
    boxes = [shapely.box(*ext[r.node]) for r in positional if ext[r.node][0] < ext[r.node][2]]
    page_box = shapely.box(0, 0, snap.width, snap.height)
    if boxes:
        res.area_share = shapely.union_all(boxes).intersection(page_box).area / page_box.area
    res.node_share = sum(cleaned.dropped) / max(len(nodes), 1)
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=ROOT / ".eval-cache" / "snapshots")
    ap.add_argument("--dev", type=Path, default=ROOT.parent.parent / "shared" / "testbed" / "dev")
    ap.add_argument("--only", default="", help="check pages whose id contains this")
    ap.add_argument("--verbose", action="store_true", help="one line per page")
    args = ap.parse_args()
    if not args.dev.is_dir():
        args.dev = Path("/work/shared/testbed/dev")
    results: list[PageResult] = []
    for path in sorted(args.cache.glob("*.json.gz")):
        page = path.name[: -len(".json.gz")].replace("__", "/")
        if args.only not in page:
            continue
        gold = args.dev / page / "records.csv"
        if not gold.is_file():
            continue
        res = check_page(page, load_snapshot(path), gold)
        results.append(res)
        if args.verbose:
            fam = Counter(family(r) for r in res.reasons.elements() if family(r) != "invisible")
            print(
                f"{page:45s} gold {res.n_gold:3d} found {res.located:3d} lost {len(res.lost):3d}  "
                f"area {res.area_share:5.1%} nodes {res.node_share:5.1%}  {dict(fam)}"
            )
    report(results)
    return 0


def report(results: list[PageResult]) -> None:
    if not results:
        print("no cached snapshots with gold records found")
        return
    # When most gold records are not in the snapshot at all (the testbed has pages
    # whose records were never saved), the few "located" ones are chance matches.
    absent = [r for r in results if r.located < ABSENT_SHARE * r.n_gold]
    lossy = [r for r in results if r.lost and r not in absent]
    print(f"\npages checked: {len(results)}; gold records {sum(r.n_gold for r in results)}, "
          f"located {sum(r.located for r in results)}")
    print(f"pages with gold loss: {len(lossy)}  (records lost: {sum(len(r.lost) for r in lossy)})")
    for r in lossy:
        why = Counter(reason for _, reason in r.lost)
        print(f"  {r.page}: {len(r.lost)}/{r.located} located records lost  {dict(why)}")
    print(f"pages whose gold is mostly absent from the snapshot (not counted): {len(absent)}")
    for r in absent:
        why = Counter(reason for _, reason in r.lost)
        print(f"  {r.page}: {r.located}/{r.n_gold} located, of which {len(r.lost)} dropped {dict(why)}")
    hidden = [r for r in results if r.hidden]
    print(f"pages whose gold text is only in elements the browser does not show: {len(hidden)}")
    for r in hidden:
        print(f"  {r.page}: {len(r.hidden)}/{r.located} located records hidden")
    partial = [r for r in results if r.partial]
    print(f"pages with partial loss (a later cell only in dropped nodes): {len(partial)}")
    for r in partial:
        print(f"  {r.page}: records {r.partial[:8]}")
    unlocated = [r for r in results if r.located < r.n_gold]
    print(f"pages with unlocated gold records: {len(unlocated)}")
    for r in unlocated:
        print(f"  {r.page}: {r.n_gold - r.located}/{r.n_gold} not found in the snapshot")
    total: Counter[str] = Counter()
    pages_with: Counter[str] = Counter()
    for r in results:
        total.update(r.reasons)
        pages_with.update(set(r.reasons))
    print("\nremovals by reason (count, pages):")
    for reason, c in sorted(total.items()):
        print(f"  {reason:28s} {c:6d} {pages_with[reason]:4d}")
    cols = sum(1 for r in results if r.reasons["column:left"] or r.reasons["column:right"])
    print(f"pages with a header band {pages_with['band:header']}, footer band "
          f"{pages_with['band:footer']}, side column {cols} (of {len(results)})")
    areas = sorted(r.area_share for r in results)
    shares = sorted(r.node_share for r in results)
    print(f"page area removed by position: median {areas[len(areas) // 2]:.1%}, max {areas[-1]:.1%}")
    print(f"elements dropped (all reasons): median {shares[len(shares) // 2]:.1%}, max {shares[-1]:.1%}")
    secs = sorted(r.seconds for r in results)
    slowest = max(results, key=lambda r: r.seconds)
    print(f"clean CPU time: median {secs[len(secs) // 2] * 1000:.1f} ms, max {secs[-1] * 1000:.1f} ms "
          f"({slowest.page}, {slowest.n_nodes} elements)")


if __name__ == "__main__":
    sys.exit(main())
