"""DRMining and Recordmining (Ren & Xue 2009, seed 003): a second region finder.

The page becomes the sequence of similarities between consecutive leaf
paths (see :mod:`visx.mine.leafpaths`: common-prefix length of element
paths, an integer).

**DRMining** tries every cut height h from min to max of the sequence.
Cutting at h splits the sequence into maximal runs of values >= h and of
values < h, alternating (this is what the source's pseudo-code does with
its ``maxtemp``/``mintemp`` vectors). Each clustering is scored by Ocq,
smaller is better, starting from 2; the data region is the largest run
(most values, the earliest on ties) of the best clustering. A run of
values ``s[a..b]`` covers leaves ``a..b+1``.

**Recordmining** takes the deepest common node T of the region's leaf
paths, walks down while the child holding the most elements holds more
than ``FACTOR`` of the current node's elements, and returns that node's
children as the records: the most frequent tag is kept, and a child with
another tag *and* fewer than avgsize/2 elements is dropped (avgsize = the
node's elements / its children).

Choices where the source is vague (it survives only partly):

- Ocq is He, Tan and Tan's overall cluster quality (the source cites it as
  [6]): ``Ocq = xi * Cmp + (1 - xi) * Sep`` with ``Cmp`` the mean of the
  clusters' deviations over the whole sequence's deviation and ``Sep`` the
  mean over ordered pairs of clusters of ``exp(-d^2 / 2 sigma^2)``, d the
  distance between cluster means. sigma is the deviation of the whole
  sequence so Ocq does not depend on page depth. The source's worked
  example prints only Sep values that we could not reproduce (its sigma is
  not given); it picks h = 9, as this implementation does (see the unit
  test). A clustering of one run has no Sep ("na" in the source) and is
  skipped; a sequence with no split at all is one region.
- Cluster means are binned to 1/``SEP_BINS_PER_UNIT`` before Sep, so Sep
  costs (distinct means)^2 instead of clusters^2; the error in d is
  below the bin width and the kernel is smooth at that scale.
- Several regions per page: after a region is mined, the leaves its
  records hold are taken out and DRMining runs again on the remaining
  segments of the leaf sequence (largest segment first), up to
  ``MAX_REGIONS`` candidates. When Recordmining finds fewer than two
  records the whole cluster is taken out so the loop always progresses.
- Children without any text or image are not records (the source keeps
  every child of the chosen tag; empty spacers would only cost precision).
- Node counts ("the number of t's nodes") are subtree sizes over shown,
  kept elements (``TagStrings.size``).
- Regions are scored and sorted by the shared ranker (``rank.rank``), so
  both miners are compared with the same ranking.

Additions beyond the source (each measured on the dev set; the source's
Recordmining alone is kept as ``record_mining(..., literal=True)``):

- Records must repeat: at least ``REPEAT_SHARE`` of them have a record
  within ``LIKENESS`` (normalized tag-string edit distance) among their
  ``REPEAT_WINDOW`` neighbours. Without it the largest cluster of a page
  is often the whole page and the "records" are its header, body and
  footer.
- The walk therefore stops at the first node whose children repeat (even
  when one record is big, e.g. one with a long sub-list), and while the
  children do not repeat it goes on into the largest child that holds
  some of the cluster's leaves, whatever its share. ``FACTOR`` only rules
  the literal walk.
- A cluster inside one record (a perfectly regular sequence makes Ocq pick
  the within-record runs) finds nothing below T; then the records are at
  the first ancestor of T whose children repeat.
- Grids: when the records are rows of side-by-side, record-like, repeating
  cells (a table row of four products), the cells are the records.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections import Counter
from dataclasses import dataclass

from visx.config import MineConfig
from visx.mine import leafpaths, tagstring
from visx.mine import stats as stats_mod
from visx.mine.mdr import distance
from visx.mine.rank import rank
from visx.mine.records import record_of
from visx.mine.stats import Stats
from visx.mine.tagstring import TagStrings
from visx.model import Cleaned, NodeTable, PageSnapshot, Region, union_bbox

# The source's Recordmining walks into the child holding more than this
# share of the current node's elements; the source leaves the value open.
# A records container is usually wrapped in near-single-child blocks (a
# results <div> holding the list plus a small heading or pager); at 0.6 the
# walk passes such wrappers but stops at a list whose largest record holds
# less than 60% of it. Used only by the literal walk (see the docstring).
FACTOR = 0.6

# Weight of compactness against separation in Ocq (0.5: an equal trade-off;
# the source's example reports Sep alone). 0, 0.25, 0.5 and 0.75 give the
# same dev figures, and 0..0.5 the source's h = 9 on its example.
OCQ_XI = 0.5

# Cluster means are binned to this resolution before Sep (see docstring).
SEP_BINS_PER_UNIT = 8

# A segment of fewer leaves cannot hold two records of more than one field.
MIN_SEGMENT_LEAVES = 4

# Candidate regions per page: the ranker needs a handful, and each round
# costs one DRMining pass over a segment.
MAX_REGIONS = 12
# DRMining rounds per page, successful or not: bounds the time on pages
# where many clusters yield no records (each round is one pass).
MAX_ROUNDS = 4 * MAX_REGIONS

# The additions above are on; LITERAL = True runs the source's Recordmining
# walk instead (for comparison), GRIDS = False keeps grid rows whole.
LITERAL = False
GRIDS = True

# Records must repeat (see ``record_mining``): two records count as alike at
# this normalized tag-string edit distance, looser than MDR's 0.3 because
# DRMining's records are whole children with their optional parts, and the
# blocks of a page layout (header, body, footer) are far beyond it.
LIKENESS = 0.5
# Share of the records that must have a like record near them. Above 2/3 so
# that a three-block layout whose header and footer look alike is not a
# list (0.6 lets it through and costs 0.08 F1 on the dev set; 0.7 to 0.8
# measure within 0.003 of each other).
REPEAT_SHARE = 0.7
# "Near": this many siblings ahead. Lists interleave ads or alternate two
# record kinds (a promoted block between plain ones); a window of 3 sees
# past an odd one out.
REPEAT_WINDOW = 3

# Grid rows (see ``grid_cells``): cells must hold this many elements to be
# records rather than table cells of one record (MDR uses the same floor).
MIN_CELL_ELEMENTS = 3
# Share of the records that must be grid rows for their cells to be the records.
GRID_ROW_SHARE = 0.5
# Pixels: cells whose tops differ by less than this are on one line.
ROW_TOP_TOLERANCE = 4.0

__all__ = ["DataRegion", "dr_mining", "mine_drmining", "ocq", "record_mining", "runs_at"]


@dataclass(frozen=True, slots=True)
class DataRegion:
    """The chosen run ``values[start:end]`` at cut height ``h`` with its Ocq."""

    start: int
    end: int
    h: int
    ocq: float


def runs_at(values: list[int], h: int) -> list[tuple[int, int]]:
    """Maximal runs of values >= h and < h, as ``(start, end)`` slices."""
    out: list[tuple[int, int]] = []
    if not values:
        return out
    start = 0
    high = values[0] >= h
    for i in range(1, len(values)):
        hi = values[i] >= h
        if hi != high:
            out.append((start, i))
            start, high = i, hi
    out.append((start, len(values)))
    return out


def _prefix(values: list[int]) -> tuple[list[float], list[float]]:
    s = [0.0]
    q = [0.0]
    for v in values:
        s.append(s[-1] + v)
        q.append(q[-1] + v * v)
    return s, q


def ocq(values: list[int], runs: list[tuple[int, int]], xi: float = OCQ_XI) -> float | None:
    """He et al.'s overall cluster quality of ``runs`` (smaller is better); None for one cluster."""
    return _ocq(values, runs, _prefix(values), xi)


def _ocq(
    values: list[int], runs: list[tuple[int, int]], pre: tuple[list[float], list[float]], xi: float
) -> float | None:
    c = len(runs)
    if c < 2:
        return None
    s, q = pre
    n = len(values)
    mean_all = s[n] / n
    sd_all = math.sqrt(max(0.0, q[n] / n - mean_all * mean_all))
    if sd_all == 0.0:
        return None
    dev_sum = 0.0
    bins: Counter[int] = Counter()
    for a, b in runs:
        k = b - a
        m = (s[b] - s[a]) / k
        dev_sum += math.sqrt(max(0.0, (q[b] - q[a]) / k - m * m))
        bins[round(m * SEP_BINS_PER_UNIT)] += 1
    cmp_ = dev_sum / c / sd_all
    two_var = 2.0 * sd_all * sd_all * SEP_BINS_PER_UNIT * SEP_BINS_PER_UNIT
    items = list(bins.items())
    total = 0.0
    for i, (ka, na) in enumerate(items):
        total += na * na  # same bin: kernel 1
        for kb, nb in items[i + 1 :]:
            d = ka - kb
            total += 2.0 * na * nb * math.exp(-d * d / two_var)
    sep = (total - c) / (c * (c - 1))  # pairs i != j only
    return xi * cmp_ + (1.0 - xi) * sep


def dr_mining(values: list[int], xi: float = OCQ_XI) -> DataRegion | None:
    """The largest run of the best cut height; None for an empty sequence."""
    if not values:
        return None
    pre = _prefix(values)
    best_q = 2.0  # the source's initial Ocq
    best: DataRegion | None = None
    for h in range(min(values), max(values) + 1):
        runs = runs_at(values, h)
        q = _ocq(values, runs, pre, xi)
        if q is None or q >= best_q:
            continue
        a, b = max(runs, key=lambda r: (r[1] - r[0], -r[0]))
        best_q, best = q, DataRegion(a, b, h, q)
    if best is None:  # no cut splits the sequence: it is one region
        return DataRegion(0, len(values), min(values), 0.0)
    return best


def record_mining(
    nodes: NodeTable,
    ts: TagStrings,
    stats: Stats,
    first_leaf: int,
    last_leaf: int,
    *,
    literal: bool = False,
) -> tuple[int, list[int]]:
    """Recordmining over the leaves ``first_leaf..last_leaf``: (records' parent, record elements).

    ``literal=True`` is the source's walk: into the child holding more than
    ``FACTOR`` of the elements while there is one. The default adds a
    repetition test (see the module docstring): the walk stops at the first
    node whose children repeat, and goes on into the largest child while
    they do not.
    """
    top = t = leafpaths.common_ancestor(nodes, first_leaf, last_leaf)
    size = ts.size
    while True:
        recs = _filter(nodes, ts, stats, t)
        if not ts.children[t]:
            return t, recs
        if not literal and len(recs) >= 2 and _repeats(ts, recs):
            return t, recs
        big = max(ts.children[t], key=lambda c: size[c])
        if literal and size[big] <= FACTOR * size[t]:
            return t, recs
        if not literal:
            # Stay over the cluster: the largest child that holds some of its leaves.
            inside = [c for c in ts.children[t] if c <= last_leaf and nodes[c].end > first_leaf]
            big = max(inside or ts.children[t], key=lambda c: size[c])
        if not literal and not ts.children[big]:
            return _walk_up(nodes, ts, stats, top)
        t = big


def _walk_up(nodes: NodeTable, ts: TagStrings, stats: Stats, t: int) -> tuple[int, list[int]]:
    """Records above a cluster that lies inside one record: the first ancestor whose children repeat.

    When that ancestor is one row of a grid (its parent's rows qualify for
    ``grid_cells``), the parent and its rows are returned instead.
    """
    a = nodes[t].parent
    while a >= 0:
        recs = _filter(nodes, ts, stats, a)
        if len(recs) >= 2 and _repeats(ts, recs):
            p = nodes[a].parent
            if p >= 0:
                rows = _filter(nodes, ts, stats, p)
                if (
                    len(rows) >= 2
                    and a in rows
                    and _repeats(ts, rows)
                    and grid_cells(nodes, ts, stats, rows)
                ):
                    return p, rows
            return a, recs
        a = nodes[a].parent
    return t, []


def _filter(nodes: NodeTable, ts: TagStrings, stats: Stats, t: int) -> list[int]:
    """The most frequent tag stays; another tag stays only at avgsize/2 or more."""
    recs = ts.children[t]
    if not recs:
        return []
    tag = Counter(nodes[c].tag for c in recs).most_common(1)[0][0]
    avgsize = (ts.size[t] - 1) / len(recs)
    keep = [c for c in recs if not (nodes[c].tag != tag and ts.size[c] < avgsize / 2)]
    return [c for c in keep if stats.has_content([c])]


def _repeats(ts: TagStrings, recs: list[int]) -> bool:
    """At least REPEAT_SHARE of the records have a like one among their REPEAT_WINDOW next siblings or previous ones."""
    n = len(recs)
    alike = [False] * n
    strings = ts.strings
    for i in range(n):
        for j in range(i + 1, min(n, i + 1 + REPEAT_WINDOW)):
            if alike[i] and alike[j]:
                continue
            if distance(strings[recs[i]], strings[recs[j]], LIKENESS) <= LIKENESS:
                alike[i] = alike[j] = True
    return sum(alike) >= REPEAT_SHARE * n


def grid_cells(nodes: NodeTable, ts: TagStrings, stats: Stats, recs: list[int]) -> list[int] | None:
    """The cells of the records, when the records are rows of a grid of record-like cells.

    A row qualifies when its content children repeat, each looks like a
    record (``MIN_CELL_ELEMENTS`` elements, two texts or images) and two of
    them sit side by side. Rows that do not qualify (a heading above the
    grid) are dropped; at least ``GRID_ROW_SHARE`` of the records must be
    grid rows.
    """
    out: list[int] = []
    rows = 0
    for r in recs:
        cs = _filter(nodes, ts, stats, r)
        if not cs or not all(_record_like(ts, stats, c) for c in cs):
            continue
        if len(cs) == 1:
            out.extend(cs)  # an incomplete last row
            continue
        if _repeats(ts, cs) and _side_by_side(nodes, cs):
            rows += 1
            out.extend(cs)
    if rows == 0 or rows < GRID_ROW_SHARE * len(recs):
        return None
    return out


def _record_like(ts: TagStrings, stats: Stats, c: int) -> bool:
    return ts.size[c] >= MIN_CELL_ELEMENTS and stats.text_leaves[c] + stats.media[c] >= 2


def _side_by_side(nodes: NodeTable, cs: list[int]) -> bool:
    """Two consecutive cells on one line: the same top, the second right of the first."""
    for a, b in itertools.pairwise(cs):
        na, nb = nodes[a], nodes[b]
        if abs(na.y - nb.y) <= ROW_TOP_TOLERANCE and nb.x >= na.x + na.w - ROW_TOP_TOLERANCE:
            return True
    return False


def mine_drmining(snapshot: PageSnapshot, cleaned: Cleaned | None, cfg: MineConfig) -> list[Region]:
    """Regions found by DRMining + Recordmining, ranked by the shared ranker."""
    nodes = snapshot.nodes
    ts = tagstring.build(nodes, cleaned)
    st = stats_mod.build(nodes, ts)
    leaf_ids = leafpaths.leaves(nodes, ts)
    sims = leafpaths.similarities(nodes, leaf_ids)
    regions: list[Region] = []
    seen: set[int] = set()
    # Segments of the leaf sequence still to mine, largest first: (-size, lo, hi).
    todo: list[tuple[int, int, int]] = [(-len(leaf_ids), 0, len(leaf_ids))]
    rounds = 0
    while todo and len(regions) < MAX_REGIONS and rounds < MAX_ROUNDS:
        rounds += 1
        _, lo, hi = heapq.heappop(todo)
        if hi - lo < MIN_SEGMENT_LEAVES:
            continue
        dr = dr_mining(sims[lo : hi - 1])
        if dr is None:
            continue
        first, last = lo + dr.start, lo + dr.end  # leaves covered by the run, inclusive
        parent, parts = record_mining(
            nodes, ts, st, leaf_ids[first], leaf_ids[last], literal=LITERAL
        )
        cells = grid_cells(nodes, ts, st, parts) if GRIDS and len(parts) >= 2 else None
        kind = "list"
        if cells is not None and len(cells) > len(parts):
            parts, kind = cells, "grid"
        taken = (first, last)
        if len(parts) >= 2:
            span = _leaf_span(nodes, leaf_ids, lo, hi, parts)
            if span is not None:
                taken = span
            if parent not in seen:
                seen.add(parent)
                regions.append(_region(nodes, parent, parts, dr, last - first + 1, kind))
        for a, b in ((lo, taken[0]), (taken[1] + 1, hi)):
            if b - a >= MIN_SEGMENT_LEAVES:
                heapq.heappush(todo, (a - b, a, b))
    return rank(nodes, st, regions, snapshot.width, snapshot.height)


def _leaf_span(
    nodes: NodeTable, leaf_ids: list[int], lo: int, hi: int, parts: list[int]
) -> tuple[int, int] | None:
    """First and last leaf (positions in ``lo..hi``) inside the records."""
    start, stop = min(parts), nodes[max(parts)].end
    inside = [k for k in range(lo, hi) if start <= leaf_ids[k] < stop]
    return (inside[0], inside[-1]) if inside else None


def _region(
    nodes: NodeTable, parent: int, parts: list[int], dr: DataRegion, n_leaves: int, kind: str
) -> Region:
    records = [record_of(nodes, [p]) for p in parts]
    return Region(
        parent=parent,
        records=records,
        bbox=union_bbox([r.bbox for r in records]),
        kind=kind,
        gn_size=1,
        evidence={"dr_h": float(dr.h), "dr_ocq": round(dr.ocq, 4), "dr_leaves": float(n_leaves)},
        miner="drmining",
    )
