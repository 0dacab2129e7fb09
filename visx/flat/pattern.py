"""Seed step 4: repeated patterns over the entities' type sequence.

The sequence A_list holds one label set per entity. The key type a_k is the
one the seed's ``sum(index) / count`` ranks first among the types that recur
at regular intervals: a type present once in every record at offset o has a
mean index of (mean record start + o), so the smallest mean names the
records' first field. The sequence is cut at each key occurrence; each cut is
a candidate pattern with a support count. Same-length patterns are
intersected slot by slot, multi-type slots split by information gain,
adjacent equal-support patterns merged, support-1 patterns dropped and the
rest kept above the support threshold.

Departures from the seed, each for a reason given where it is made:
- the key type must recur regularly (:func:`key_type`): the bare minimum of
  sum/count picks a type seen in the page header, before any record;
- a one-entity cut joins the *next* cut, not the previous one (:func:`cut`);
- adjacent equal-support patterns merge when they alternate through the list,
  without asking for a multi-type slot holding a_k (:func:`merge_alternating`).
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections import Counter
from collections.abc import Sequence

from visx.flat import thresholds as th
from visx.flat.model import Labels, Pattern

FALLBACK = "text"
"""The type of entities no precision rule fixed."""

CONSTANT = "="
"""Prefix of the label a text repeated word for word carries (``=Reply``): a field name only
through its type, never itself (:func:`visx.flat.records.field_types`)."""

Segment = tuple[int, int]
"""Entity index range [start, end) of one cut."""


def key_type(labels: Sequence[frozenset[str]], decided: Sequence[str] | None = None) -> str | None:
    """a_k: among the types recurring regularly and often enough, the smallest sum(index)/count."""
    cands = key_candidates(labels, decided)
    return cands[0][0] if cands else None


def _regular(idx: list[int]) -> bool:
    if len(idx) < th.MIN_RECORDS:
        return False
    gaps = [y - x for x, y in itertools.pairwise(idx)]
    if statistics.fmean(gaps) < th.KEY_MIN_GAP:
        return False
    med = statistics.median(gaps)
    return sum(med / 2 <= g <= med * 2 for g in gaps) >= th.KEY_REGULAR_SHARE * len(gaps)


def _run_starts(idx: list[int]) -> list[int]:
    """Occurrences that do not follow one right before: :func:`cut` joins two key entities in a
    row into one record start (two numbers opening each record recur regularly as a pair)."""
    return [i for k, i in enumerate(idx) if k == 0 or idx[k - 1] != i - 1]


def key_candidates(labels: Sequence[frozenset[str]],
                   decided: Sequence[str] | None = None) -> list[tuple[str, list[int]]]:
    """Types that may be a_k with the places they cut at, the seed's sum(index)/count first:
    those recurring regularly (:data:`KEY_MIN_GAP`, :data:`KEY_REGULAR_SHARE`) in nearly every
    record (:data:`KEY_COVERAGE`).

    A type whose label occurrences are irregular may still recur regularly counting a run of
    occurrences once (:func:`_run_starts`), or where a precision rule fixed it (``decided``):
    entities only proposed as titles (a line's first words) fall between the linked titles
    that start each record. Those places are then its cuts.
    """
    occ: dict[str, list[int]] = {}
    for i, ls in enumerate(labels):
        for a in ls:
            occ.setdefault(a, []).append(i)
    regular: dict[str, list[int]] = {}
    for a, idx in occ.items():
        tries = [idx, _run_starts(idx)]
        if decided is not None:
            fixed = [i for i, d in enumerate(decided) if d == a]
            tries += [fixed, _run_starts(fixed)]
        if found := next((t for t in tries if _regular(t)), None):
            regular[a] = found
    if not regular:
        return []
    # The number of records: counted by the typed fields rarely next to themselves (once a
    # record); the fallback type counts only when no typed field does (it may hold two
    # fields a record, apart: a description and a time).
    once = {a: len(idx) for a, idx in regular.items()
            if sum(y - x == 1 for x, y in itertools.pairwise(idx)) <= 0.1 * len(idx)}
    single = [n for a, n in once.items() if a != FALLBACK] or list(once.values())
    n_est = max(single) if single else max(len(idx) for idx in regular.values())
    # The fallback type says nothing about a field: it marks record starts only when no
    # typed field recurs (records of plain text alone). Types in fewer records than
    # KEY_COVERAGE come after the others: the miner tries a few and keeps the best.
    # A repeated text (``=x``) is tried after the typed fields: a type is the stronger sign.
    def order(a: str) -> tuple[bool, bool, bool, float, int, str]:
        idx = regular[a]
        return (a == FALLBACK, a.startswith(CONSTANT), len(idx) < th.KEY_COVERAGE * n_est,
                sum(idx) / len(idx), -len(idx), a)

    return [(a, regular[a]) for a in sorted(regular, key=order)]


def cut(labels: Sequence[frozenset[str]], key: str | None, at: Sequence[int] | None = None) -> list[Segment]:
    """Cut the sequence at each key occurrence (the first cut starts at the first one); ``at``:
    the key's places when they are not all its label occurrences (:func:`key_candidates`).

    A cut of one entity (two key entities in a row) joins the next cut: since the key is
    the records' first field, two in a row are a record's first two fields (a title and a
    subtitle both plain text). The seed adds it to the previous cut instead.

    ``key`` None: ``at`` are record starts the layout shows (after empty lines, or lines),
    cut there as they are, from the first entity (a departure from the seed, whose cuts
    follow types alone; see :func:`visx.flat.miner.cut_choices`).
    """
    if key is None:
        return list(itertools.pairwise([*sorted({0, *(at or ())}), len(labels)]))
    places = at if at is not None else [i for i, ls in enumerate(labels) if key in ls]
    kept: list[int] = []
    for s in places:
        if kept and s - kept[-1] == 1:
            continue  # the previous key entity was alone: this one continues its record
        kept.append(s)
    return list(itertools.pairwise([*kept, len(labels)])) if kept else []


def candidates(labels: Sequence[frozenset[str]], segments: Sequence[Segment]) -> dict[Labels, int]:
    """Each cut's label sequence with its support (occurrences)."""
    return dict(Counter(tuple(labels[s:e]) for s, e in segments))


def intersect(patterns: dict[Labels, int]) -> tuple[dict[Labels, int], dict[Labels, Labels]]:
    """Same-length patterns intersected slot by slot while no slot becomes empty.

    Returns the resulting patterns with summed supports, and where each input went."""
    where: dict[Labels, Labels] = {p: p for p in patterns}
    support = dict(patterns)
    changed = True
    while changed:
        changed = False
        by_len: dict[int, list[Labels]] = {}
        for p in support:
            by_len.setdefault(len(p), []).append(p)
        for group in by_len.values():
            for p1, p2 in itertools.combinations(group, 2):
                meet = tuple(a & b for a, b in zip(p1, p2, strict=True))
                if all(meet):
                    s = support.pop(p1) + support.pop(p2)
                    support[meet] = support.get(meet, 0) + s
                    for k, v in where.items():
                        if v in (p1, p2):
                            where[k] = meet
                    changed = True
                    break
            if changed:
                break
    return support, where


def _entropy(types: Sequence[str]) -> float:
    n = len(types)
    return -sum(c / n * math.log2(c / n) for c in Counter(types).values())


def split_slots(pattern: Labels) -> Labels:
    """Multi-type slots split by information gain: each takes the type that leaves the pattern
    with the most information (the most distinct types, the seed's principle); ties go to a
    type other than the fallback ``text``, then by name."""
    out = [set(s) for s in pattern]
    for i, slot in enumerate(pattern):
        if len(slot) < 2:
            continue

        def gain(a: str, i: int = i) -> tuple[float, bool, str]:
            trial = [next(iter(s)) if len(s) == 1 else "?" + str(k) for k, s in enumerate(out)]
            trial[i] = a
            return (_entropy(trial), a != "text", a)

        best = max(sorted(slot), key=gain)
        out[i] = {best}
    return tuple(frozenset(s) for s in out)


def merge_alternating(segments: list[Segment], assigned: list[Labels]) -> tuple[list[Segment], list[Labels]]:
    """Two adjacent patterns that alternate through the list become one pattern (the key
    occurs twice a record: ``<text price> <text date>`` is ``<text price text date>``).

    The seed merges adjacent patterns of equal support; one record missing a field makes
    supports differ by one, so supports within ``MERGE_SUPPORT_RATIO`` of each other and an
    alternation seen in most of their occurrences are asked for instead.
    """
    if len(segments) < 4:
        return segments, assigned
    pairs = Counter((x, y) for x, y in itertools.pairwise(assigned) if x != y)
    if not pairs:
        return segments, assigned
    (a, b), n = pairs.most_common(1)[0]
    sa, sb = assigned.count(a), assigned.count(b)
    if min(sa, sb) < th.MERGE_SUPPORT_RATIO * max(sa, sb) or n < th.MERGE_SUPPORT_RATIO * min(sa, sb):
        return segments, assigned
    merged = (*a, *b)
    segs: list[Segment] = []
    pats: list[Labels] = []
    k = 0
    while k < len(segments):
        if k + 1 < len(segments) and assigned[k] == a and assigned[k + 1] == b:
            segs.append((segments[k][0], segments[k + 1][1]))
            pats.append(merged)
            k += 2
        else:
            segs.append(segments[k])
            pats.append(assigned[k])
            k += 1
    return segs, pats


def mine_patterns(labels: Sequence[frozenset[str]], key: str | None,
                  at: Sequence[int] | None = None) -> tuple[list[Segment], list[Labels], list[Pattern]]:
    """The cuts (:func:`cut`), the pattern each cut follows, and the patterns kept
    (support >= threshold), in order of first appearance."""
    segments = cut(labels, key, at)
    if not segments:
        return [], [], []
    support, where = intersect(candidates(labels, segments))
    split = {p: split_slots(p) for p in support}
    final: dict[Labels, int] = {}
    for p, s in support.items():
        final[split[p]] = final.get(split[p], 0) + s
    assigned = [split[where[tuple(labels[s:e])]] for s, e in segments]
    segments, assigned = merge_alternating(segments, assigned)
    counts = Counter(assigned)
    order = list(dict.fromkeys(assigned))
    kept = [Pattern(p, counts[p]) for p in order if counts[p] >= th.SUPPORT_THRESHOLD and counts[p] > 1]
    return segments, assigned, kept
