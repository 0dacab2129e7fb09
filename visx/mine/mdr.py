"""MDR: data regions as runs of similar generalized nodes under one parent.

For every element with two or more shown children, adjacent combinations of
1..K children (generalized nodes) are compared by normalized edit distance
of their tag strings (CombComp); runs of similar pairs are candidate
regions, and per parent the candidates that cover the most children win
(IdentDRs). Geometry is extra evidence: generalized nodes that line up on
screen may differ a little more in their tag strings.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from statistics import median

from rapidfuzz.distance import Levenshtein

from visx.mine.shape import leaf_shape
from visx.mine.stats import Stats
from visx.mine.thresholds import (
    LENGTH_RATIO_CUTOFF,
    MAX_SKIPPED_GAP,
    PERIOD_MARGIN,
    RELAXED_COVERAGE,
    TWIN_BOX_SLACK,
    TWO_ROW_ALIKE,
    TWO_ROW_UNLIKE,
    VISUAL_RELAX,
)
from visx.model import NodeTable


@dataclass(slots=True)
class Candidate:
    """A run of ``len(gns)`` generalized nodes of ``r`` children each."""

    parent: int
    r: int
    gns: list[list[int]]
    first: int
    """Position of the first covered child in the parent's kept children."""
    last: int
    """Position one past the last covered child."""
    mean_dist: float
    skipped: list[int]
    """Children skipped between GNs (ads, separators)."""
    periodic: bool = False
    """Two unlike rows repeating as pairs (see :func:`two_row`)."""

    @property
    def covered(self) -> int:
        """Children spanned, skipped ads and separators included: they sit inside the region."""
        return self.last - self.first


def distance(a: str, b: str, cutoff: float) -> float:
    """Normalized edit distance, 1.0 when above ``cutoff`` or too unequal in length."""
    la, lb = len(a), len(b)
    if not la or not lb or max(la, lb) > LENGTH_RATIO_CUTOFF * min(la, lb):
        return 1.0
    return float(Levenshtein.normalized_distance(a, b, score_cutoff=cutoff))


def lined_up(nodes: NodeTable, a: list[int], b: list[int]) -> bool:
    """Two generalized nodes with the same width and left edge, or the same height and top."""
    ax0 = min(nodes[i].x for i in a)
    bx0 = min(nodes[i].x for i in b)
    ay0 = min(nodes[i].y for i in a)
    by0 = min(nodes[i].y for i in b)
    aw = max(nodes[i].x + nodes[i].w for i in a) - ax0
    bw = max(nodes[i].x + nodes[i].w for i in b) - bx0
    ah = max(nodes[i].y + nodes[i].h for i in a) - ay0
    bh = max(nodes[i].y + nodes[i].h for i in b) - by0
    if aw <= 0 or bw <= 0 or ah <= 0 or bh <= 0:
        return False
    same_col = abs(ax0 - bx0) <= 2 and min(aw, bw) / max(aw, bw) >= 0.95
    same_row = abs(ay0 - by0) <= 2 and min(ah, bh) / max(ah, bh) >= 0.8 and min(aw, bw) / max(aw, bw) >= 0.9
    return same_col or same_row


def class_key(nodes: NodeTable, i: int) -> tuple[str, tuple[str, ...]]:
    nd = nodes[i]
    return (nd.tag, tuple(sorted(nd.classes)))


def _same_classes(nodes: NodeTable, a: list[int], b: list[int]) -> bool:
    """The same tags with the same, non-empty classes: one template rendered twice."""
    if len(a) != len(b):
        return False
    ka = [class_key(nodes, i) for i in a]
    return any(k[1] for k in ka) and ka == [class_key(nodes, i) for i in b]


def _twin_boxes(nodes: NodeTable, a: int, b: int) -> bool:
    """Two cards of one template in a regular grid: the same tag and non-empty classes and
    boxes of the same size, whatever varies inside (a list of 2 or 9 colour swatches)."""
    na, nb = nodes[a], nodes[b]
    if na.tag != nb.tag or not na.classes or set(na.classes) != set(nb.classes):
        return False
    if na.w <= 0 or na.h <= 0 or nb.w <= 0 or nb.h <= 0:
        return False
    return abs(na.w - nb.w) <= TWIN_BOX_SLACK * max(na.w, nb.w) and \
        abs(na.h - nb.h) <= TWIN_BOX_SLACK * max(na.h, nb.h)


def candidates_for(
    parent: int,
    children: list[int],
    strings: list[str],
    nodes: NodeTable,
    stats: Stats,
    k: int,
    threshold: float,
    visual: bool,
) -> list[Candidate]:
    """CombComp + IdentDRs for one parent."""
    c = len(children)
    if c < 2:
        return []
    relaxed = threshold + VISUAL_RELAX if visual else threshold
    found: list[Candidate] = []
    pos = {x: i for i, x in enumerate(children)}
    for r in range(1, min(k, c // 2) + 1):
        for s in range(r):
            runs: list[Candidate] = []
            run: list[list[int]] = []
            dists: list[float] = []
            j = s
            prev = strings[children[j]] if r == 1 else "".join(strings[x] for x in children[j : j + r])
            while j + 2 * r <= c:
                a_nodes = children[j : j + r]
                b_nodes = children[j + r : j + 2 * r]
                cur = strings[b_nodes[0]] if r == 1 else "".join(strings[x] for x in b_nodes)
                d = distance(prev, cur, relaxed)
                ok = d <= threshold or (
                    d <= relaxed and (_same_classes(nodes, a_nodes, b_nodes) or lined_up(nodes, a_nodes, b_nodes))
                ) or (visual and r == 1 and _twin_boxes(nodes, a_nodes[0], b_nodes[0]))
                if ok and d > relaxed:
                    d = relaxed  # alike by what the reader sees, however far the tag strings
                if ok:
                    if not run:
                        run.append(a_nodes)
                    run.append(b_nodes)
                    dists.append(d)
                else:
                    _close(runs, parent, r, run, dists, pos, stats, strings, nodes)
                    run, dists = [], []
                prev = cur
                j += r
            _close(runs, parent, r, run, dists, pos, stats, strings, nodes)
            found.extend(_join_across_gaps(runs, children, strings, threshold))
    return _select(found, children, strings, threshold)


def _close(
    found: list[Candidate],
    parent: int,
    r: int,
    run: list[list[int]],
    dists: list[float],
    pos: dict[int, int],
    stats: Stats,
    strings: list[str],
    nodes: NodeTable,
) -> None:
    if len(run) < 2:
        return
    # Generalized nodes without any text or image are spacing, not data.
    if not any(stats.has_content(g) for g in run):
        return
    first = pos[run[0][0]]
    last = pos[run[-1][-1]] + 1
    found.append(Candidate(parent, r, run, first, last, sum(dists) / len(dists), [],
                           r == 2 and two_row(strings, run) and _two_shapes(nodes, run)))


def _select(found: list[Candidate], children: list[int], strings: list[str], threshold: float) -> list[Candidate]:
    """IdentDRs: most children covered first, then the shorter combination, then the earlier start.

    A run alike only with the visual relaxation counts half its coverage, so a
    longer combination whose members match strictly wins over it (a title row
    plus a subtext row, rather than every table row on its own). Between runs
    that cover as much, pairs of unlike rows that repeat (row 1 like row 3, row
    2 like row 4, row 1 unlike row 2) win over single rows.
    """
    found.sort(key=lambda cd: (-cd.covered * (RELAXED_COVERAGE if cd.mean_dist > threshold else 1.0),
                               not cd.periodic, cd.r, cd.first))
    chosen: list[Candidate] = []
    for cd in found:
        if all(cd.last <= o.first or cd.first >= o.last for o in chosen):
            chosen.append(cd)
    chosen.sort(key=lambda cd: cd.first)
    return chosen


def _join_across_gaps(chosen: list[Candidate], children: list[int], strings: list[str], threshold: float) -> list[Candidate]:
    """Join runs of the same length separated by an ad or separator they resemble across."""
    out: list[Candidate] = []
    for cd in chosen:
        if out:
            prev = out[-1]
            gap = cd.first - prev.last
            if prev.r == cd.r and 0 < gap <= MAX_SKIPPED_GAP:
                a = "".join(strings[x] for x in prev.gns[-1])
                b = "".join(strings[x] for x in cd.gns[0])
                if distance(a, b, threshold) <= threshold:
                    skipped = prev.skipped + children[prev.last : cd.first] + cd.skipped
                    n_prev, n_cd = len(prev.gns) - 1, len(cd.gns) - 1
                    mean = (prev.mean_dist * n_prev + cd.mean_dist * n_cd) / max(1, n_prev + n_cd)
                    out[-1] = Candidate(prev.parent, prev.r, prev.gns + cd.gns, prev.first, cd.last, mean, skipped,
                                        prev.periodic and cd.periodic)
                    continue
        out.append(cd)
    return out


def periodic(strings: list[str], groups: list[list[int]]) -> bool:
    """Members at the same place in consecutive groups are closer than neighbours in a group
    (a title row, then its details row, again and again)."""
    within = [distance(strings[a], strings[b], 1.0) for g in groups for a, b in itertools.pairwise(g)]
    across = [
        distance(strings[g[k]], strings[h[k]], 1.0)
        for g, h in itertools.pairwise(groups)
        for k in range(min(len(g), len(h)))
    ]
    if len(groups) < 3 or not within or not across:  # two groups show no period
        return False
    # Medians: a few odd members (an ad, a separator) must not make a period.
    return median(across) + PERIOD_MARGIN < median(within)


def two_row(strings: list[str], pairs: list[list[int]]) -> bool:
    """Pairs of unlike rows repeating: each first row (nearly) the same as the other first
    rows, each second as the other seconds, and a first clearly further from its second, as
    a title row and its details row. Like rows paired by chance are as close within a pair
    as across pairs."""
    if len(pairs) < 3 or any(len(p) != 2 for p in pairs):
        return False
    within = median(distance(strings[a], strings[b], 1.0) for a, b in pairs)
    across = median(distance(strings[g[k]], strings[h[k]], 1.0)
                    for g, h in itertools.pairwise(pairs) for k in (0, 1))
    return across <= TWO_ROW_ALIKE and within >= across + TWO_ROW_UNLIKE


def _two_shapes(nodes: NodeTable, pairs: list[list[int]]) -> bool:
    """The two rows of a pair read differently (a title row, a details row) and every pair
    reads alike: one shape for the first rows, another for the seconds, on most pairs."""
    firsts = [leaf_shape(nodes, [a]) for a, _ in pairs]
    seconds = [leaf_shape(nodes, [b]) for _, b in pairs]
    top1 = max(set(firsts), key=firsts.count)
    top2 = max(set(seconds), key=seconds.count)
    n = len(pairs)
    return top1 != top2 and firsts.count(top1) >= 0.8 * n and seconds.count(top2) >= 0.8 * n
