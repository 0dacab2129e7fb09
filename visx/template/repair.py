"""Repair a template on a changed page, loudly (seed 001, section 3.3).

Two levels:

- **Record list** (no record XPath finds anything, the count fell under half
  its usual, or most columns failed): the page is re-mined, a template is
  learned for each candidate region, and the old columns are mapped to the
  new ones by type, place in the record, font, tag and label (one to one,
  best total: the Hungarian method). The region whose columns agree best
  wins; the old names stay.
- **Column** (records found, a column empty, sparse or mistyped): the seed's
  bottom-up search scores every element of each record holding an item of
  the column's kind with the evaluation function D and takes the best above
  the search threshold.

New XPaths go to the *front* of their queues (the seed appends; visx tries
queues in order and the old path may still yield something wrong on the
changed page, so the path that worked comes first; the old ones stay behind
it for a site that changes back). The version is bumped and the repair
logged with what changed and a confidence.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from rapidfuzz import fuzz

from visx.align.model import Item
from visx.config import Config
from visx.errors import TemplateError
from visx.evaluate.assign import max_weight_assignment
from visx.model import NodeTable, PageSnapshot
from visx.schema.entities import Context, parse_as
from visx.template import thresholds as th
from visx.template.apply import Problem, Run, run_template
from visx.template.items import piece_of
from visx.template.learn import _column_paths, learn, px, tree_distance
from visx.template.model import ColumnRule, Repair, SearchRules, Template
from visx.template.tree import PageTree
from visx.template.verify import verify

if TYPE_CHECKING:
    from visx.pipeline import Extraction

_NUMERIC = frozenset({"integer", "number"})


@dataclass(slots=True)
class Repaired:
    template: Template
    run: Run
    changes: list[str] = field(default_factory=list)
    confidence: float = 0.0
    failed: list[str] = field(default_factory=list)
    """Columns still not found after the repair."""
    misses: list[str] = field(default_factory=list)
    """What the repair looked for and did not find, as readable lines."""


def needs_records(run: Run, t: Template) -> bool:
    """Repair the record list itself, not single columns."""
    if any(p.item == "records" for p in run.problems):
        return True
    core = [c for c in t.columns if not c.hidden and c.fill >= th.CORE_FILL]
    bad = {p.item for p in run.problems}
    return bool(core) and sum(c.name in bad for c in core) > len(core) / 2


def repair(snapshot: PageSnapshot, tree: PageTree, t: Template, run: Run, cfg: Config) -> Repaired:
    """A repaired copy of ``t`` and its run on the page (``failed`` names what is still missing)."""
    new = t.model_copy(deep=True)
    changes: list[str] = []
    misses: list[str] = []
    confidences: list[float] = []
    if needs_records(run, t):
        conf = _repair_records(snapshot, tree, new, run, cfg, changes)
        if conf is None:
            return Repaired(t, run, [], 0.0, ["records"], changes)
        confidences.append(conf)
        run = run_template(tree, new)
        verify(run, new)
    bad = [p.item for p in run.problems if p.item != "records"]
    for name in dict.fromkeys(bad):
        col = new.column(name)
        got = _search_column(tree, new, run, col)
        if got is None:
            misses.append(f"column {name!r}: not found again (no element scores {th.SEARCH_THRESHOLD} "
                          "on its search rules)")
            continue
        xps, css, score = got
        changes.append(f"column {name!r}: {_short(col.xpaths[0]) if col.xpaths else '-'} -> "
                       f"{_short(xps[0])} (found by its search rules, score {score:.2f})")
        col.xpaths = _front(xps, col.xpaths)
        col.css = _front(css, col.css)
        confidences.append(score)
    run = run_template(tree, new)
    verify(run, new)
    failed = sorted({p.item for p in run.problems if p.kind in ("missing", "empty", "mistyped", "clash")})
    if changes:
        new.version += 1
        new.updated = datetime.now(UTC).isoformat(timespec="seconds")
        conf = round(min(confidences), 3) if confidences else 0.0
        new.repairs.append(Repair(version=new.version, when=new.updated, url=snapshot.url, changes=changes,
                                  confidence=conf))
    if not changes:
        new = t  # nothing found again: the template stays as it was
    return Repaired(new, run, changes, round(min(confidences), 3) if confidences else 0.0, failed, misses)


def _front(first: list[str], rest: list[str]) -> list[str]:
    return list(dict.fromkeys([*first, *rest]))[: 2 * th.QUEUE]


def _short(xpath: str, n: int = 70) -> str:
    return xpath if len(xpath) <= n else xpath[: n - 1] + "…"


# ------------------------------------------------------------------ the record list

def _repair_records(snapshot: PageSnapshot, tree: PageTree, t: Template, run: Run, cfg: Config,
                    changes: list[str]) -> float | None:
    from visx.pipeline import analyse

    ex = analyse(snapshot, cfg)
    best: tuple[float, Template, list[tuple[int, int, float]], int] | None = None
    for k in _candidate_regions(ex):
        try:
            cand = learn(ex, k, tree=tree)
        except TemplateError:
            continue
        pairs = map_columns(t.columns, cand.columns)
        score = _region_score(t, cand, pairs)
        if best is None or score > best[0]:
            best = (score, cand, pairs, k)
    if best is None or best[0] <= 0:
        changes.append("records: the page was re-mined, but no list has the template's columns")
        return None
    score, cand, pairs, k = best
    old = run.record_xpath or (t.records.xpaths[0] if t.records.xpaths else "-")
    n_new = cand.records.counts[0] if cand.records.counts else 0
    changes.append(f"records: {_short(old)} -> {_short(cand.records.xpaths[0])} (re-mined: region "
                   f"{ex.regions[k].rank}, {n_new} record(s), was {len(run.records)}; columns agree "
                   f"{score:.2f})")
    t.records.xpaths = _front(cand.records.xpaths, t.records.xpaths)
    t.records.css = _front(cand.records.css, t.records.css)
    t.records.parts = cand.records.parts
    mapped = {a: (b, s) for a, b, s in pairs}
    for a, col in enumerate(t.columns):
        if a not in mapped:
            continue
        b, s = mapped[a]
        nc = cand.columns[b]
        if nc.xpaths[:1] != col.xpaths[:1]:
            changes.append(f"column {col.name!r}: {_short(col.xpaths[0]) if col.xpaths else '-'} -> "
                           f"{_short(nc.xpaths[0])} (mapped to the re-mined column {nc.name!r}, "
                           f"similarity {s:.2f})")
        col.xpaths = _front(nc.xpaths, col.xpaths)
        col.css = _front(nc.css, col.css)
        col.kind, col.piece = nc.kind, nc.piece
        col.rules = _merged_rules(col.rules, nc.rules)
    return round(score, 3)


def _candidate_regions(ex: Extraction) -> list[int]:
    """Positions of the regions worth trying: data lists first, at most a handful."""
    order = [k for k, rg in enumerate(ex.regions) if rg.data and rg.records]
    order += [k for k, rg in enumerate(ex.regions) if not rg.data and rg.records]
    return order[:th.REPAIR_REGIONS]


def _region_score(t: Template, cand: Template, pairs: list[tuple[int, int, float]]) -> float:
    """Agreement of the mapped visible columns, weighted by how often each was filled."""
    weights = {a: col.fill for a, col in enumerate(t.columns) if not col.hidden}
    total = sum(weights.values())
    if not total:
        return 0.0
    got = sum(weights[a] * s for a, _b, s in pairs if a in weights)
    usual = statistics.median(t.records.counts) if t.records.counts else 0
    n = cand.records.counts[0] if cand.records.counts else 0
    plausible = min(1.0, n / (th.DRIFT * usual)) if usual else 1.0
    return got / total * plausible


def map_columns(old: list[ColumnRule], new: list[ColumnRule]) -> list[tuple[int, int, float]]:
    """One-to-one mapping of old columns to new ones above :data:`MAP_THRESHOLD`: (old, new, similarity)."""
    sims = [[column_similarity(a, b) for b in new] for a in old]
    weights = [[int(s * 1000) if s >= th.MAP_THRESHOLD else 0 for s in row] for row in sims]
    return [(a, b, sims[a][b]) for a, b in max_weight_assignment(weights)]


def column_similarity(a: ColumnRule, b: ColumnRule) -> float:
    """How alike two columns are: type, kind, place in the record, font, tag, label and name (0..1)."""
    ra, rb = a.rules, b.rules
    parts: list[tuple[float, float]] = [
        (2.0, 1.0 if a.type == b.type or {a.type, b.type} <= _NUMERIC else 0.0),
        (1.0, 1.0 if a.kind == b.kind else 0.0),
        (1.0, 1.0 if ra.tag == rb.tag else 0.0),
    ]
    if ra.position and rb.position:
        dx, dy = ra.position[0] - rb.position[0], ra.position[1] - rb.position[1]
        parts.append((2.0, max(0.0, 1.0 - (dx * dx + dy * dy) ** 0.5 / th.POSITION_SCALE)))
    if ra.font.color or rb.font.color:
        parts.append((1.0, 1.0 if ra.font.color == rb.font.color else 0.0))
    if ra.font.size and rb.font.size:
        parts.append((1.0, min(ra.font.size, rb.font.size) / max(ra.font.size, rb.font.size)))
    if ra.context and rb.context:
        parts.append((1.0, fuzz.ratio(ra.context.text, rb.context.text) / 100))
    if ra.keyword or rb.keyword:
        parts.append((1.0, fuzz.ratio(ra.keyword, rb.keyword) / 100))
    if a.hidden != b.hidden:
        parts.append((1.0, 0.0))
    parts.append((0.5, 1.0 if a.name == b.name else 0.0))
    return sum(w * v for w, v in parts) / sum(w for w, _ in parts)


def _merged_rules(old: SearchRules, new: SearchRules) -> SearchRules:
    """The page's current look, with the old label and context when the new page shows none."""
    out = new.model_copy()
    if not out.keyword:
        out.keyword = old.keyword
    if out.context is None:
        out.context = old.context
    return out


# ------------------------------------------------------------------ one column (the seed's search)

def _search_column(tree: PageTree, t: Template, run: Run,
                   col: ColumnRule) -> tuple[list[str], list[str], float] | None:
    """Score each record's elements with D; a path to the best ones when they clear the threshold."""
    nodes = tree.nodes
    c = t.columns.index(col)
    taken: list[set[int]] = [set() for _ in run.records]
    for k, its in enumerate(run.items):
        if k == c or t.columns[k].name in {p.item for p in run.problems}:
            continue
        for r, it in enumerate(its):
            if it is not None:
                taken[r].add(it.node)
    truth: list[int | None] = []
    pieces: list[int] = []
    scores: list[float] = []
    for r, rec in enumerate(run.records):
        held = run.held[r]
        best: tuple[float, Item] | None = None
        for node, candidates in held.items():
            if node in taken[r]:
                continue
            for it in candidates:
                if it.kind != col.kind:
                    continue
                d = evaluate(nodes, rec.bbox, held, it, col.rules)
                if best is None or d > best[0]:
                    best = (d, it)
        if best is not None and best[0] >= th.SEARCH_THRESHOLD:
            truth.append(best[1].node)
            pieces.append(piece_of(held, best[1]))
            scores.append(best[0])
        else:
            truth.append(None)
    found = sum(h is not None for h in truth)
    if not found or found < th.FILL_DROP * col.fill * len(run.records):
        return None
    piece = statistics.mode(pieces)
    xps, css = _column_paths(tree, run.records, run.held, truth, col.kind, piece)
    if not xps:
        return None
    col.piece = piece
    return xps, css, statistics.mean(scores)


def evaluate(nodes: NodeTable, box: tuple[float, float, float, float], held: dict[int, list[Item]],
             it: Item, rules: SearchRules) -> float:
    """Seed 001's evaluation function D for one candidate item (0..1).

    D = (d_key + mean of the non-zero d_tag, d_cont, d_font, d_pos) / 2, where d_key is the
    keyword rule when the column has a label, else the value-type rule (the value parses as
    the column's type): a list's values vary, so their type is the keyword they share.
    d_pos, the place in the record's box, is visx's addition (the seed has no boxes).
    """
    n = nodes[it.node]
    if rules.keyword:
        d_key = fuzz.partial_ratio(rules.keyword.lower(), it.text.lower()) / 100
    elif rules.value_type in ("text", "image"):
        d_key = 0.5 if it.text or it.kind == "image" else 0.0  # any text may be text: no evidence
    else:
        d_key = 1.0 if parse_as(rules.value_type, it.text, Context()) is not None else 0.0
    d_tag = (0.5 + 0.5 * rules.tag_rarity) if rules.tag and n.tag == rules.tag else 0.0
    d_cont = 0.0
    if rules.context is not None:
        ctx = next((k for k, its in held.items() for x in its if x.text == rules.context.text), None)
        if ctx is not None:
            d_cont = 1.0 / (1.0 + abs(tree_distance(nodes, ctx, it.node) - rules.context.distance))
    d_font = 0.0
    if rules.font.color or rules.font.size:
        colour = 1.0 if nodes.style(it.node, "color") == rules.font.color else 0.0
        size = px(nodes.style(it.node, "font-size"))
        closeness = min(size, rules.font.size) / max(size, rules.font.size) if size and rules.font.size else 0.0
        d_font = (colour + closeness) / 2
    d_pos = 0.0
    if rules.position is not None and box[2] > 0 and box[3] > 0 and n.w > 0:
        x = (n.x + n.w / 2 - box[0]) / box[2]
        y = (n.y + n.h / 2 - box[1]) / box[3]
        dist = ((x - rules.position[0]) ** 2 + (y - rules.position[1]) ** 2) ** 0.5
        d_pos = max(0.0, 1.0 - dist / th.POSITION_SCALE)
    rest = [d for d in (d_tag, d_cont, d_font, d_pos) if d > 0]
    return (d_key + (sum(rest) / len(rest) if rest else 0.0)) / 2


def describe(problems: list[Problem]) -> str:
    return "; ".join(str(p) for p in problems)
