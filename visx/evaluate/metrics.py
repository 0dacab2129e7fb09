"""Record-level scores (ALGORITHMS.md, "Evaluation terms").

**Record match.** Texts are normalised (NFKC, rapidfuzz's ``default_process``:
lower case, punctuation to spaces) and split into a set of tokens; runs of
CJK or Thai script, written without spaces, become one token per character.
The similarity of a gold record G and a predicted record P is the share of
G's tokens found in P: ``|G ∩ P| / |G|``. They match when it is >= 0.8, and
matches are one-to-one (a maximum matching, so no record is counted twice).

Why containment and not a symmetric ratio: gold rows list the fields a person
chose, while a correct record also shows buttons, star widgets and labels
("Want to Read", "1 of 5 stars"); a symmetric measure (Dice) rejects ~14% of
correct records on the dev set. rapidfuzz's ``token_set_ratio`` is 1.0
whenever one token set holds the other, so a title-only fragment of a record
would score perfectly; containment of the gold in the prediction rejects it.
A prediction that swallows several gold records still matches only one of
them, so merged records cost recall.

**Main-region hit.** The top-ranked region is the gold region when its F1 is
>= 0.5, or when it holds more than half of the gold records that any region
matches (so a correct region whose records are badly cut still counts as the
right place; ranking and segmentation are reported separately).

**Perfect page.** The top-ranked region has P = R = 1.

Field-level scores are in :mod:`visx.evaluate.fields`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz.utils import default_process

from visx.evaluate import thresholds as th

_UNSPACED = re.compile(r"([\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff])")


def tokens(text: str) -> frozenset[str]:
    """The normalised token set of ``text``."""
    norm = default_process(unicodedata.normalize("NFKC", text))
    norm = _UNSPACED.sub(r" \1 ", norm)
    return frozenset(norm.split())


def containment(gold: frozenset[str], pred: frozenset[str]) -> float:
    """Share of the gold tokens present in the prediction (0 for an empty gold)."""
    if not gold:
        return 0.0
    return len(gold & pred) / len(gold)


def similarity(gold_text: str, pred_text: str) -> float:
    return containment(tokens(gold_text), tokens(pred_text))


def similarity_matrix(gold: Sequence[frozenset[str]], pred: Sequence[frozenset[str]]) -> list[list[float]]:
    """``m[g][p]``: similarity of gold record g and predicted record p."""
    return [[containment(g, p) for p in pred] for g in gold]


def match(sim: Sequence[Sequence[float]], threshold: float = th.MATCH_SIMILARITY) -> list[tuple[int, int]]:
    """A maximum one-to-one matching over the pairs with ``sim >= threshold``.

    Greedy on descending similarity first (so the pairs are the natural ones),
    then augmenting paths until no more pairs can be added: the count is the
    largest possible, which is what P and R need.
    """
    n_gold = len(sim)
    edges: list[list[int]] = []
    pairs: list[tuple[float, int, int]] = []
    for g, row in enumerate(sim):
        cand = [p for p, s in enumerate(row) if s >= threshold]
        cand.sort(key=lambda p: -row[p])
        edges.append(cand)
        pairs.extend((row[p], g, p) for p in cand)
    gold_of: dict[int, int] = {}
    pred_of: dict[int, int] = {}
    for _s, g, p in sorted(pairs, key=lambda t: (-t[0], t[1], t[2])):
        if g not in pred_of and p not in gold_of:
            pred_of[g], gold_of[p] = p, g
    for g0 in range(n_gold):
        if g0 not in pred_of and edges[g0]:
            _augment(g0, edges, pred_of, gold_of)
    return sorted(pred_of.items())


def _augment(g0: int, edges: list[list[int]], pred_of: dict[int, int], gold_of: dict[int, int]) -> bool:
    """Breadth-first search for an alternating path from free gold ``g0`` to a free prediction."""
    came_from: dict[int, int] = {}  # predicted -> gold node it was reached from
    queue = [g0]
    seen_gold = {g0}
    for g in queue:  # the list grows while it is walked: a BFS queue
        for p in edges[g]:
            if p in came_from:
                continue
            came_from[p] = g
            owner = gold_of.get(p)
            if owner is None:
                while True:  # flip the path back to g0
                    gg = came_from[p]
                    prev = pred_of.get(gg)
                    pred_of[gg], gold_of[p] = p, gg
                    if gg == g0 or prev is None:
                        return True
                    p = prev
            if owner not in seen_gold:
                seen_gold.add(owner)
                queue.append(owner)
    return False


@dataclass(slots=True, frozen=True)
class Score:
    """Matched / predicted / gold record counts and the figures they give."""

    matched: int = 0
    predicted: int = 0
    gold: int = 0

    @property
    def precision(self) -> float:
        return self.matched / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.matched / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def perfect(self) -> bool:
        return self.gold > 0 and self.matched == self.predicted == self.gold

    def __add__(self, other: Score) -> Score:
        return Score(self.matched + other.matched, self.predicted + other.predicted, self.gold + other.gold)


def micro(scores: Iterable[Score]) -> Score:
    """Micro-average: sum the counts, then take the ratios."""
    total = Score()
    for s in scores:
        total = total + s
    return total


@dataclass(slots=True)
class RegionScore:
    rank: int
    """1-based rank as the extraction ordered the regions."""
    score: Score
    matched_gold: frozenset[int]
    """Indices of the gold records this region matched."""
    merged: int = 0
    """Predicted records that each hold two or more gold records (under-split)."""
    split_gold: int = 0
    """Unmatched gold records spread over several predicted records (over-split)."""
    pairs: tuple[tuple[int, int], ...] = ()
    """The matched ``(gold record, predicted record)`` pairs; field scores are taken over them."""


@dataclass(slots=True)
class PageScore:
    """How one page's extraction compares with its gold records."""

    n_gold: int
    regions: list[RegionScore]
    top: Score
    best: Score
    best_rank: int
    """Rank of the region with the best F1 (0 when there is no region)."""
    hit: bool
    gold_matched_anywhere: int
    """Gold records matched by at least one region (each region matched on its own)."""
    gold_visible: int | None = None
    """Gold records whose tokens are in the page's visible text at all (None: not measured)."""
    gold_in_page: int | None = None
    """Gold records whose tokens are in the page's text, hidden elements included."""

    @property
    def perfect(self) -> bool:
        return self.top.perfect


def score_region(gold: Sequence[frozenset[str]], records: Sequence[str], rank: int = 1) -> RegionScore:
    pred = [tokens(t) for t in records]
    sim = similarity_matrix(gold, pred)
    pairs = match(sim)
    matched = frozenset(g for g, _ in pairs)
    cut = th.MATCH_SIMILARITY
    merged = sum(1 for p in range(len(pred)) if _holds_several(gold, sim, pred[p], p))
    split = 0
    for g, row in enumerate(sim):
        if g in matched or max(row, default=0.0) >= cut:  # whole in one record: merged, not split
            continue
        parts = [pred[p] for p, v in enumerate(row) if v >= th.FRAGMENT_SHARE]
        if len(parts) >= 2 and containment(gold[g], frozenset().union(*parts)) >= cut:
            split += 1
    return RegionScore(rank, Score(len(pairs), len(records), len(gold)), matched, merged, split,
                       tuple(pairs))


def _holds_several(gold: Sequence[frozenset[str]], sim: list[list[float]], pred: frozenset[str], p: int) -> bool:
    """True when ``pred`` holds two or more distinct gold records (it was under-split).

    Near-duplicate gold records (threads with the same title) each reach the match
    threshold against one record; only a prediction that also covers their union,
    clearly larger than any one of them, holds several.
    """
    inside = [gold[g] for g, row in enumerate(sim) if row[p] >= th.MATCH_SIMILARITY]
    if len(inside) < 2:
        return False
    union = frozenset().union(*inside)
    return (len(union) >= th.MERGED_GROWTH * max(len(g) for g in inside)
            and containment(union, pred) >= th.MATCH_SIMILARITY)


def score_page(
    gold_texts: Sequence[str],
    regions: Sequence[Sequence[str]],
    page_text: str | None = None,
    hidden_text: str | None = None,
) -> PageScore:
    """Score ``regions`` (record texts per region, in rank order) against the gold records.

    ``page_text`` is the page's visible text and ``hidden_text`` all its text, hidden
    elements included; given, they tell a page whose gold records are not in the
    rendered page (or not visible) from one where visx missed them.
    """
    gold = [tokens(t) for t in gold_texts]
    n_gold = len(gold)
    scored: list[RegionScore] = []
    for rank, records in enumerate(regions, start=1):
        scored.append(score_region(gold, records, rank))
    anywhere: set[int] = set()
    for rs in scored:
        anywhere |= rs.matched_gold
    if scored:
        top = scored[0].score
        best_rs = max(scored, key=lambda rs: (rs.score.f1, rs.score.matched, -rs.rank))
        best, best_rank = best_rs.score, best_rs.rank
    else:
        top = best = Score(0, 0, n_gold)
        best_rank = 0
    m_top = top.matched
    hit = bool(scored) and (top.f1 >= th.HIT_F1 or (m_top > 0 and 2 * m_top > len(anywhere)))
    return PageScore(n_gold, scored, top, best, best_rank, hit, len(anywhere),
                     _findable(gold, page_text), _findable(gold, hidden_text))


def _findable(gold: Sequence[frozenset[str]], text: str | None) -> int | None:
    if text is None:
        return None
    page_tokens = tokens(text)
    return sum(1 for g in gold if containment(g, page_tokens) >= th.MATCH_SIMILARITY)


def failure_reason(ps: PageScore) -> str:
    """A short label for why a page scores below perfect, most basic cause first."""
    if ps.n_gold == 0:
        return "no gold records"
    if ps.gold_in_page is not None and ps.gold_in_page < th.GOLD_PRESENT * ps.n_gold:
        return f"gold records absent from the rendered page ({ps.gold_in_page}/{ps.n_gold} findable)"
    if ps.gold_visible is not None and ps.gold_visible < th.GOLD_PRESENT * ps.n_gold:
        return f"gold text hidden in the render ({ps.gold_visible}/{ps.n_gold} records visible)"
    if not ps.regions:
        return "no region found"
    top, best = ps.top, ps.best
    if not ps.hit and best.f1 >= th.HIT_F1:
        return f"wrong region ranked first (best region is rank {ps.best_rank}, F1 {best.f1:.2f})"
    if top.perfect:
        return "perfect"
    # Explain the top region when it is the right one, else the closest region.
    rs = ps.regions[0] if ps.hit else ps.regions[ps.best_rank - 1]
    where = "" if rs.rank == 1 else f" (in rank {rs.rank})"
    if not ps.hit and rs.score.matched == 0 and not rs.merged and not rs.split_gold:
        return "no region holds the gold records"
    missing = ps.n_gold - rs.score.matched
    if rs.merged and rs.merged >= rs.split_gold and rs.merged * 2 >= missing:
        return f"records under-split ({rs.merged} predicted records hold several gold records){where}"
    if rs.split_gold and rs.split_gold * 2 >= missing:
        return f"records over-split ({rs.split_gold} gold records cut into parts){where}"
    if not ps.hit:
        if best.matched:
            return f"no region holds most gold records (best: rank {ps.best_rank}, F1 {best.f1:.2f})"
        return "no region holds the gold records"
    s = rs.score
    if s.recall < s.precision:
        return f"low recall ({s.matched}/{ps.n_gold} gold records found)"
    return f"low precision ({s.predicted - s.matched} of {s.predicted} records are not gold)"
