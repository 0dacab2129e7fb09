"""Rows to pages: each row's key against the top elements of each page's bag, then a
one-to-one assignment (each row at most one page, each page at most one row).

Greedy would not do: with two rows "Wei Zhang" (Systems, Theory) and two such pages, the
first row would take whichever page scores a hair higher and leave the second row the wrong
one. The pairs that pass ``MIN_SCORE`` fall into small groups (rows and pages linked by a
candidate pair); each group is solved exactly with the Hungarian method
(:func:`visx.evaluate.assign.max_weight_assignment`).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from visx.evaluate.assign import max_weight_assignment
from visx.link import thresholds as T
from visx.link.bags import Bag
from visx.link.similarity import best, covered, fold, tokens

SCALE = 10_000
"""Scores are assigned as integers (the Hungarian code works on ints)."""


@dataclass(slots=True)
class RowMatch:
    page: str | None
    score: float
    element: str = ""
    """The bag element the key matched."""
    best_miss: tuple[str, float] | None = None
    """For a row left empty: the closest page and its score, when one was found."""


def top_elements(bags: Mapping[str, Bag]) -> dict[str, list[tuple[str, float]]]:
    """The ``TOP_ELEMENTS`` elements of each bag that name the page best (weight times
    specificity, see :class:`~visx.link.bags.Element`), each with that rank weight relative
    to the first's (1.0 for the first)."""
    out: dict[str, list[tuple[str, float]]] = {}
    for url, bag in bags.items():
        ranked = sorted(((e.weight * e.specific, e.text) for e in bag), key=lambda x: (-x[0], x[1]))
        top = [(t, w) for w, t in ranked[: T.TOP_ELEMENTS] if w > 0]
        heaviest = top[0][1] if top else 1.0
        out[url] = [(t, w / heaviest) for t, w in top]
    return out


def match_rows(keys: Sequence[str], contexts: Sequence[Sequence[str]], bags: Mapping[str, Bag]) -> list[RowMatch]:
    """One :class:`RowMatch` per key; ``contexts[r]`` are row r's other cells (see ``CONTEXT_BONUS``)."""
    tops = top_elements(bags)
    index: dict[str, set[str]] = defaultdict(set)
    for url, els in tops.items():
        for e, _ in els:
            for w in fold(e).split():
                if len(w) > 1:
                    index[w].add(url)
    words_of: dict[str, set[str]] = {}
    scores: dict[tuple[int, str], tuple[float, float, str]] = {}
    misses: dict[int, tuple[str, float]] = {}
    for r, key in enumerate(keys):
        kt = tokens(key)
        for url in _candidates(kt.words + kt.years, index):
            sims = [(best(kt, e), rel, e) for e, rel in tops[url]]
            s = max((x[0] for x in sims), default=0.0)
            if s < T.MIN_SCORE:
                if s > misses.get(r, ("", 0.0))[1]:
                    misses[r] = (url, s)
                continue
            # Among the elements that name the row well enough, the heaviest counts: a page's
            # own name rides on every path to it, a neighbour's only on the paths through it.
            rank, sim, el = max((sim * (1 + rel) / 2, sim, e) for sim, rel, e in sims if sim >= T.MIN_SCORE)
            if url not in words_of:
                words_of[url] = {w for e in bags[url] for w in fold(e.text).split()}
            bonus = min(T.CONTEXT_MAX, sum(T.CONTEXT_BONUS for c in contexts[r]
                                           if c and len(c) <= T.CONTEXT_MAX_CHARS and covered(c, words_of[url])))
            # Assigned by rank + bonus; reported as how well the key names the page.
            scores[r, url] = (rank + bonus, min(1.0, sim + bonus), el)
    out = [RowMatch(None, 0.0, best_miss=misses.get(r)) for r in range(len(keys))]
    pairs = _assign(scores)
    unsure = _interchangeable(pairs, scores)
    for r, url in pairs:
        _, s, el = scores[r, url]
        if r in unsure:  # a coin toss would be right half the time: say so instead
            out[r].best_miss = (url, s)
            continue
        out[r] = RowMatch(url, s, el)
    return out


def _interchangeable(pairs: list[tuple[int, str]],
                     scores: Mapping[tuple[int, str], tuple[float, float, str]]) -> set[int]:
    """Rows whose page could be swapped with another row's at no cost (two rows "Last Mirror",
    two such pages, nothing in the bags to tell the years apart): no evidence for either way."""
    q = {k: round(v[0] * SCALE) for k, v in scores.items()}
    rows_of: dict[str, list[int]] = defaultdict(list)
    for r, u in scores:
        rows_of[u].append(r)
    page_of = dict(pairs)
    out: set[int] = set()
    for r1, u1 in pairs:
        for r2 in rows_of[u1]:
            u2 = page_of.get(r2)
            if r2 != r1 and u2 is not None and q[r1, u1] == q[r2, u2] \
                    and q.get((r1, u2)) == q[r1, u1] and q.get((r2, u1)) == q[r2, u2]:
                out.update((r1, r2))
    return out


def _candidates(words: Sequence[str], index: Mapping[str, set[str]]) -> list[str]:
    """Pages whose top elements share enough words with the key to possibly reach ``MIN_SCORE``:
    that needs about two thirds of the key's words (recall 2/3 at best precision), so a page
    must share that many, or, when no page does (a typo), as many as the best page shares."""
    found = [w for w in set(words) if w in index]
    if not found:
        return []
    hits: Counter[str] = Counter()
    for w in found:
        hits.update(index[w])
    need = min(max(hits.values()), math.ceil(2 * len(set(words)) / 3))
    return [u for u, n in hits.items() if n >= need]


def _assign(scores: Mapping[tuple[int, str], tuple[float, float, str]]) -> list[tuple[int, str]]:
    """Maximum-weight one-to-one pairs, solved per connected group of candidate pairs."""
    parent: dict[object, object] = {}

    def find(x: object) -> object:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]  # type: ignore[index]
            x = parent[x]
        return x

    for r, url in scores:
        parent[find(("r", r))] = find(("p", url))
    groups: dict[object, list[tuple[int, str]]] = defaultdict(list)
    for r, url in scores:
        groups[find(("r", r))].append((r, url))
    pairs: list[tuple[int, str]] = []
    for members in groups.values():
        rows = sorted({r for r, _ in members})
        urls = sorted({u for _, u in members})
        w = [[round(scores[r, u][0] * SCALE) if (r, u) in scores else 0 for u in urls] for r in rows]
        pairs.extend((rows[i], urls[j]) for i, j in max_weight_assignment(w))
    return sorted(pairs)
