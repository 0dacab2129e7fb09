"""Records from the patterns: runs of cuts that fill a kept pattern, fields named by type."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from visx.flat import thresholds as th
from visx.flat.automaton import Automaton, simplify
from visx.flat.model import Entity, FlatRecord, Labels, Pattern, Typing
from visx.flat.pattern import CONSTANT, Segment
from visx.model import union_bbox


def simplify_patterns(kept: list[Pattern]) -> list[Pattern]:
    """Each kept pattern's automaton path; patterns with the same path are one (supports added)."""
    out: dict[tuple[str, ...], Pattern] = {}
    for p in kept:
        simple = simplify([min(s) for s in p.slots])
        if simple in out:
            out[simple].support += p.support
        else:
            out[simple] = Pattern(p.slots, p.support, simple)
    return list(out.values())


def record_run(labels: Sequence[frozenset[str]], segments: list[Segment], assigned: list[Labels],
               kept: list[Pattern]) -> list[Segment]:
    """The longest run of consecutive cuts that are records, the last one trimmed.

    A cut is a record when it follows a kept pattern, or when it is no longer than
    ``MAX_RECORD_FACTOR`` times the kept ones and a kept pattern's automaton walks over
    its first entities (a record with an optional field more or less). A longer cut ends
    the run: it is text between lists.
    """
    if not kept:
        return []
    keep = {p.slots for p in kept}
    automata = [Automaton([min(s) for s in p.slots]) for p in kept]
    lens = [e - s for (s, e), a in zip(segments, assigned, strict=True) if a in keep]
    limit = th.MAX_RECORD_FACTOR * statistics.median(lens)
    longest = max(len(p.slots) for p in kept)

    def walk(seg: Segment) -> int:
        return max(a.walk(labels[seg[0]:seg[1]]) for a in automata)

    runs: list[list[Segment]] = [[]]
    for seg, pat in zip(segments, assigned, strict=True):
        n = seg[1] - seg[0]
        if (pat in keep and n <= limit) or (n <= limit and walk(seg) >= min(2, n)):
            runs[-1].append(seg)
            continue
        # Too long, or unlike every pattern: its head may still be the run's last record.
        head = min(walk(seg), longest)
        if runs[-1] and head >= 2:
            runs[-1].append((seg[0], seg[0] + head))
        runs.append([])
    best = max(runs, key=len)
    if best and best[-1] == segments[-1] and best[-1][1] - best[-1][0] > longest:
        # The list's last cut runs to the container's end: keep what a pattern walks over.
        s, e = best[-1]
        best[-1] = (s, s + max(1, min(walk((s, e)), e - s)))
    return best


def field_types(typings: Sequence[Typing], pattern: Labels | None) -> list[str]:
    """One type per entity: its decided type, else the pattern's at that slot, else its first label."""
    out: list[str] = []
    for k, t in enumerate(typings):
        if t.decided:
            out.append(t.decided)
        elif (pattern is not None and len(pattern) == len(typings) and len(pattern[k]) == 1
              and not next(iter(pattern[k])).startswith(CONSTANT)):
            out.append(next(iter(pattern[k])))
        else:
            named = sorted(a for a in t.labels if not a.startswith(CONSTANT))
            out.append("text" if "text" in named or not named else named[0])
    return out


def make_record(entities: Sequence[Entity], typings: Sequence[Typing], pattern: Labels | None) -> FlatRecord:
    ents = list(entities)
    return FlatRecord(
        parts=sorted({e.node for e in ents}),
        bbox=union_bbox([e.bbox for e in ents]),
        text=" ".join(e.text for e in ents),
        entities=ents,
        types=field_types(typings, pattern),
    )
