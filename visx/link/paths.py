"""The K shortest loopless paths from the source to every page (edge weight 1).

Two ways, giving the same paths up to ties between paths of equal length:

- ``yen``: ``networkx.shortest_simple_paths`` per target (Yen's algorithm), stopped after K
  paths or at the first path longer than ``max_len``. Exact, but a search per target and a
  spur search per path: slow on thousands of pages (see ``scripts/bench_link.py``).
- ``layers`` (default): all targets at once, level by level. A loopless path of L edges to
  v is a loopless path of L-1 edges to a predecessor w that does not pass through v, plus
  (w, v); each page keeps its first K paths, shortest first, so a level costs at most K
  checks per edge. Paths are limited to ``max_len`` edges, the crawl depth: every crawled
  page has a path that short, and the paper's bags are dominated by the shortest paths.
  Where a page's kept paths of length L-1 all pass through v but a (K+1)-th one would not,
  v misses that path; such pages already have K shorter paths through other routes.
"""

from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx

Path = tuple[str, ...]

METHODS = ("layers", "yen")


def k_shortest_paths(g: nx.DiGraph, source: str, k: int, max_len: int, method: str = "layers",
                     targets: set[str] | None = None) -> dict[str, list[Path]]:
    """Up to ``k`` shortest loopless paths (as node tuples) from ``source`` to each reachable node."""
    if method == "yen":
        return _yen(g, source, k, max_len, targets)
    if method == "layers":
        paths = _layers(g, source, k, max_len)
        return paths if targets is None else {t: p for t, p in paths.items() if t in targets}
    raise ValueError(f"unknown path method {method!r}; use one of {', '.join(METHODS)}")


def _layers(g: nx.DiGraph, source: str, k: int, max_len: int) -> dict[str, list[Path]]:
    paths: dict[str, list[Path]] = {source: [(source,)]}
    last: dict[str, list[Path]] = {source: [(source,)]}
    succ = g.succ
    for _ in range(max_len):
        new: dict[str, list[Path]] = {}
        for w, ps in last.items():
            for v in succ[w]:
                if v == source:
                    continue
                have = paths.get(v)
                got = new.setdefault(v, [])
                room = k - (len(have) if have else 0) - len(got)
                if room <= 0:
                    continue
                for p in ps:
                    if v not in p:
                        got.append((*p, v))
                        room -= 1
                        if not room:
                            break
        for v, ps in new.items():
            if ps:
                paths.setdefault(v, []).extend(ps)
        last = {v: ps for v, ps in new.items() if ps}
        if not last:
            break
    return paths


def _yen(g: nx.DiGraph, source: str, k: int, max_len: int, targets: set[str] | None) -> dict[str, list[Path]]:
    import networkx as nx

    reach = nx.single_source_shortest_path_length(g, source, cutoff=max_len)
    out: dict[str, list[Path]] = {}
    for t in reach:
        if targets is not None and t not in targets:
            continue
        if t == source:
            out[t] = [(source,)]
            continue
        got: list[Path] = []
        for p in islice(nx.shortest_simple_paths(g, source, t), k):
            if len(p) - 1 > max_len:
                break
            got.append(tuple(p))
        out[t] = got
    return out
