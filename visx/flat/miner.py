"""The flat miner: entities -> types -> patterns -> records, per container block.

Containers are the blocks that hold the entities directly (a ``<div>`` of text
and ``<br>``, a ``<pre>``, a ``<dl>``) or hold small blocks of one or two
entities each (bare ``<p>`` fields); each is mined on the entities of its
subtree, and the best non-overlapping regions are kept.
"""

from __future__ import annotations

import itertools
import statistics
from collections import Counter

from visx.config import Config
from visx.flat import thresholds as th
from visx.flat.entities import entities as find_entities
from visx.flat.entities import is_inline
from visx.flat.model import Entity, FlatRegion, Labels, Pattern, Typing
from visx.flat.pattern import CONSTANT, FALLBACK, Segment, key_candidates, mine_patterns
from visx.flat.records import make_record, record_run, simplify_patterns
from visx.flat.rules import load_rules
from visx.flat.typing_rules import type_entities
from visx.model import Cleaned, NodeTable, PageSnapshot, union_bbox


def _root(nodes: NodeTable) -> int:
    for n in nodes.nodes[:50]:
        if n.tag == "body":
            return n.index
    return 0


def _block(nodes: NodeTable, i: int) -> int:
    while i > 0 and is_inline(nodes, i):
        i = nodes[i].parent
    return i


def containers(nodes: NodeTable, ents: list[Entity], root: int) -> list[int]:
    """Blocks holding many entities directly, or through small blocks of one or two each."""
    blocks = [_block(nodes, e.node) for e in ents]
    per_block = Counter(blocks)
    direct: Counter[int] = Counter()
    for b, n in per_block.items():
        direct[b] += n
        p = nodes[b].parent
        if n <= 2 and p >= root:
            direct[p] += n  # a bare <p>/<dd>/<span> field: its parent holds the record run
            g = nodes[p].parent
            if g >= root and sum(1 for c in nodes[p].children if nodes[c].tag == nodes[b].tag) <= 2:
                direct[g] += n  # <div><p>..</p></div> wrappers of one field each
    out = [c for c, n in direct.most_common() if n >= th.MIN_ENTITIES]
    return out[: th.MAX_CONTAINERS]


def _span(nodes: NodeTable, ents: list[Entity], c: int) -> tuple[int, int]:
    """Entities of the subtree of ``c``: a contiguous range, entities being in document order."""
    inside = [k for k, e in enumerate(ents) if nodes.is_ancestor(c, e.start.node)]
    return (inside[0], inside[-1] + 1) if inside else (0, 0)


def agreement(labels: list[frozenset[str]], run: list[Segment]) -> float:
    """How alike the records' type sets are: the mean Jaccard similarity of each record's
    types to the types most records have. Records cut at the wrong key share few types."""
    sets = [frozenset().union(*labels[s:e]) for s, e in run]
    counts: Counter[str] = Counter(t for st in sets for t in st)
    common = frozenset(t for t, n in counts.items() if n >= len(sets) / 2)
    if not common:
        return 0.0
    return statistics.fmean(len(st & common) / len(st | common) for st in sets)


def with_lead(labels: list[frozenset[str]], run: list[Segment], key: str) -> list[Segment]:
    """Records moved back to start where the first one does when the key is not their first field.

    A container that starts with a few entities before the first key entity (none of the
    key's type, fewer than half a record) starts with the first record's head: each later
    record takes as many entities before its key, as far as their types match that head's.
    Departure from the seed, whose records start at the key: where each line is a record and
    the render has joined the lines, the fields before the key are the record's, not its
    predecessor's.
    """
    if not run:
        return run
    lead = labels[: run[0][0]]
    median = statistics.median(e - s for s, e in run)
    if not lead or len(lead) > th.LEAD_SHARE * median or any(key in ls for ls in lead):
        return run
    starts = [0]
    for (ps, _pe), (s, _e) in itertools.pairwise(run):
        back = 0
        while back < len(lead) and s - back - 1 > ps and labels[s - back - 1] & lead[len(lead) - 1 - back]:
            back += 1
        starts.append(s - back)
    ends = [*starts[1:], run[-1][1]]
    return list(zip(starts, ends, strict=True))


Choice = tuple[str | None, list[int]]
"""A way to cut: the key type and its places, or None and the record starts the layout shows."""


def cut_choices(ents: list[Entity], typings: list[Typing]) -> list[Choice]:
    """The ways to cut the entities into records, tried in this order (key None: at the starts
    the layout shows, from the first entity; else at the key type, the seed's way).

    Departure from the seed, whose cuts follow types alone: what the reader sees as record
    boundaries comes first when the layout shows them. Empty lines between groups of lines
    (:data:`BREAK_SHARE`), then lines themselves when most lines hold several fields (one
    record a line: ``<pre>`` rows, separator-joined lines). The type keys follow.
    """
    keys = key_candidates([t.labels for t in typings], [t.decided for t in typings])
    out: list[Choice] = list([c for c in keys if c[0] != FALLBACK][: th.MAX_KEYS] or keys[:1])
    starts = [k for k, e in enumerate(ents) if e.line_start and k > 0]
    if len(starts) + 1 >= th.MIN_RECORDS and len(ents) / (len(starts) + 1) >= th.MIN_FIELDS:
        out.insert(0, (None, starts))  # one record a line
    breaks = [k for k, e in enumerate(ents) if e.blank_before and k > 0]
    if th.MIN_RECORDS - 1 <= len(breaks) <= th.BREAK_SHARE * (len(starts) + 1):
        out.insert(0, (None, breaks))  # records set apart by empty lines, whatever their types
    return out


def with_constants(ents: list[Entity], typings: list[Typing]) -> list[Typing]:
    """Typings where a plain text that recurs word for word in the container (``View profile``,
    ``Current``, ``Reply``) also carries its own label ``=text``.

    Departure from the seed, whose types come from the rules alone: where records are plain
    text, the rules give every field ``text`` and the type sequence cannot show where records
    start; a text repeated once a record (a button, a caption) marks the records as a type
    would. Only short texts undecided by the precision rules count (:data:`MAX_CONSTANT_WORDS`).
    """
    seen = Counter(e.text for e, t in zip(ents, typings, strict=True)
                   if not t.decided and len(e.text.split()) <= th.MAX_CONSTANT_WORDS)
    consts = {text for text, n in seen.items() if n >= th.MIN_RECORDS}
    if not consts:
        return typings
    return [t._replace(candidates=t.candidates | {CONSTANT + e.text}) if not t.decided and e.text in consts else t
            for e, t in zip(ents, typings, strict=True)]


def mine_container(nodes: NodeTable, c: int, ents: list[Entity], typings: list[Typing]) -> FlatRegion | None:
    # Records are judged by their fields' types alone: a constant missing from a record (an
    # optional button) must not make the records look less alike than they are.
    types = [t.labels for t in typings]
    typings = with_constants(ents, typings)
    labels = [t.labels for t in typings]
    best: tuple[float, str | None, list[Segment], list[Labels], list[Pattern], list[Segment]] | None = None
    for key, at in cut_choices(ents, typings):
        segments, assigned, kept = mine_patterns(labels, key, at)
        run = record_run(labels, segments, assigned, kept)
        if len(run) < th.MIN_RECORDS or sum(e - s for s, e in run) < th.MIN_FIELDS * len(run):
            continue
        fit = agreement(types, run) * sum(e - s for s, e in run) / len(labels)
        if best is None or fit > best[0] + th.KEY_FIT_MARGIN:
            best = (fit, key, segments, assigned, kept, run)
    if best is None:
        return None
    _fit, cut_key, segments, assigned, kept, run = best
    key = cut_key if cut_key is not None else _first_type(typings, run)
    if cut_key is not None:
        run = with_lead(labels, run, key)
    pattern_of = dict(zip(segments, assigned, strict=True))
    records = [make_record(ents[s:e], typings[s:e], pattern_of.get((s, e))) for s, e in run]
    fields = statistics.fmean(len(r.entities) for r in records)
    if fields < th.MIN_FIELDS:
        return None
    covered = sum(len(r.entities) for r in records) / len(ents)
    score = len(records) * min(fields, 4.0) * (0.5 + 0.5 * covered)
    return FlatRegion(
        parent=c, records=list(records), score=round(score, 3), bbox=union_bbox([r.bbox for r in records]),
        kind="flat", gn_size=1, miner="flat",
        evidence={"records": float(len(records)), "fields": round(fields, 2), "coverage": round(covered, 3),
                  "patterns": float(len(kept))},
        entities=ents, typings=typings, key=key, patterns=simplify_patterns(kept),
    )


def _first_type(typings: list[Typing], run: list[Segment]) -> str:
    """The records' most common first-field type: the key of records cut at empty lines."""
    firsts = Counter(typings[s].decided or min(typings[s].labels) for s, _e in run)  # '=x' is a type too
    return firsts.most_common(1)[0][0]


def mine_flat(snapshot: PageSnapshot, cleaned: Cleaned | None, config: Config | None = None) -> list[FlatRegion]:
    """Flat regions of the page, best first (not yet ranked against the DOM's)."""
    cfg = config or Config()
    nodes = snapshot.nodes
    root = _root(nodes)
    rules = load_rules(cfg.flat.rules)
    ents = find_entities(nodes, cleaned, root, cfg.flat.separators)
    if len(ents) < th.MIN_ENTITIES:
        return []
    typings = type_entities(ents, rules)
    found: list[FlatRegion] = []
    for c in containers(nodes, ents, root):
        a, b = _span(nodes, ents, c)
        rg = mine_container(nodes, c, ents[a:b], typings[a:b])
        if rg is not None:
            found.append(rg)
    # Nested containers find the same records: keep the best, then the regions beside it.
    found.sort(key=lambda rg: (-rg.score, -nodes[rg.parent].depth))
    out: list[FlatRegion] = []
    for rg in found:
        if all(not _overlap(nodes, rg, o) for o in out):
            out.append(rg)
    return out


def _overlap(nodes: NodeTable, a: FlatRegion, b: FlatRegion) -> bool:
    return nodes.is_ancestor(a.parent, b.parent) or nodes.is_ancestor(b.parent, a.parent)
