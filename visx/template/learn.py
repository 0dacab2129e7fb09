"""Learn a template from one unsupervised extraction (seed 001, learned instead of hand-written).

For the chosen region: a queue of record XPaths (id and class anchored,
structural, positional generalisations), each scored on the page it is
learned from and kept best first; per column a queue of XPaths relative to
the record, scored the same way, and the seed's search rules read from the
rendered page (label text, tag and its rarity, context label at a signed
distance, font colour and size, value type, place in the record's box).
"""

from __future__ import annotations

import statistics
from collections import Counter
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from lxml import etree

from visx.align.model import Item
from visx.errors import TemplateError
from visx.model import NodeTable, Record, Region
from visx.template import thresholds as th
from visx.template.items import Holders, piece_of, record_items
from visx.template.match import site_of
from visx.template.model import ColumnRule, ContextRule, Font, RecordRule, SearchRules, Template
from visx.template.paths import (
    Step,
    chain,
    classes_of,
    css_of,
    exact_steps,
    loose_steps,
    shared_classes,
    usable,
    xpath_of,
)
from visx.template.resolve import find_item, select_records
from visx.template.tree import PageTree, from_snapshot
from visx.version import __version__

if TYPE_CHECKING:
    from visx.pipeline import Extraction
    from visx.schema.table import Cell, Column, Table


def learn(ex: Extraction, region: int = 0, *, tree: PageTree | None = None) -> Template:
    """A template for ``ex.regions[region]`` (position in rank order; 0 is the main list).

    Raises :class:`TemplateError` when the page has no such region or it has no records.
    """
    if not ex.regions:
        raise TemplateError(f"{ex.source}: no list found on the page, so there is nothing to learn; "
                            "check the page with `visx report`", source=ex.source)
    if not 0 <= region < len(ex.regions):
        raise TemplateError(f"{ex.source}: no region at position {region + 1}; the page has "
                            f"{len(ex.regions)}", source=ex.source)
    rg = ex.regions[region]
    table = ex.tables[region] if region < len(ex.tables) else None
    if not rg.records or table is None:
        raise TemplateError(f"{ex.source}: region {rg.rank} has no records to learn from", source=ex.source)
    tree = tree or from_snapshot(ex.snapshot.nodes)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    records = learn_records(tree, rg)
    held = record_items(tree.nodes, rg.records)
    columns = learn_columns(tree, rg, table, held)
    return Template(
        site=site_of(ex.url), url=ex.url, title=ex.title, created=now, updated=now,
        javascript=ex.snapshot.javascript, records=records, columns=columns, visx=__version__,
    )


# ------------------------------------------------------------------ records

class _Candidate:
    __slots__ = ("css", "f1", "rank", "xpath")

    def __init__(self, xpath: str, css: str | None, rank: int, f1: float) -> None:
        self.xpath, self.css, self.rank, self.f1 = xpath, css, rank, f1


def learn_records(tree: PageTree, rg: Region) -> RecordRule:
    roots = [tree.elements[rec.parts[0]] for rec in rg.records]
    parents = Counter(r.getparent() for r in roots if r.getparent() is not None)
    if not parents:
        raise TemplateError("the records have no parent element to anchor a path on")
    parent: etree._Element = parents.most_common(1)[0][0]  # type: ignore[assignment]
    tags = {str(r.tag) for r in roots}
    tag = tags.pop() if len(tags) == 1 else "*"
    rec_steps = [Step(tag, cls=c) for c in shared_classes(roots, th.RECORD_CLASS_SHARE)[:2]] + [Step(tag)]
    anchors = _anchors(tree, parent)
    truth = {id(r) for r in roots}
    cands: list[_Candidate] = []
    seen: set[str] = set()

    def add(steps: list[Step], rank: int) -> None:
        xp = xpath_of(steps, absolute=True)
        if xp in seen:
            return
        seen.add(xp)
        got = select_records(tree, xp)
        tp = sum(1 for e in got if id(e) in truth)
        if not tp:
            return
        p, r = tp / len(got), tp / len(truth)
        cands.append(_Candidate(xp, css_of(steps, absolute=True), rank, 2 * p * r / (p + r)))

    for k, step in enumerate(rec_steps):
        cls_step = bool(step.cls)
        if cls_step:
            add([Step(step.tag, cls=step.cls, descendant=True)], 1)
        for a_rank, a_steps in anchors:
            add([*a_steps, step], a_rank * 2 + (0 if cls_step else 6) + k)
    good = sorted((c for c in cands if c.f1 >= th.RECORD_MIN_F1), key=lambda c: (-round(c.f1 / th.F1_BUCKET), c.rank))
    if not good:
        good = sorted(cands, key=lambda c: -c.f1)[:1]
    if not good:
        raise TemplateError("no XPath selects the records of this region")
    good = good[: th.QUEUE]
    return RecordRule(
        xpaths=[c.xpath for c in good],
        css=[c.css for c in good if c.css],
        parts=max(len(rec.parts) for rec in rg.records),
        counts=[len(rg.records)],
        kind=rg.kind,
    )


def _anchors(tree: PageTree, parent: etree._Element) -> list[tuple[int, list[Step]]]:
    """Paths to the records' parent, most robust first: from an element with an id, from a
    class unique on the page, from the root with positions, and without them."""
    out: list[tuple[int, list[Step]]] = []
    path = chain(parent, None) or [parent]
    for depth in range(len(path) - 1, -1, -1):
        el = path[depth]
        el_id = el.get("id") or ""
        if usable(el_id) and len(tree.select(f"//*[@id='{el_id}']")) == 1 and "'" not in el_id:
            below = path[depth + 1:]
            out.append((0, [Step("*", id=el_id, descendant=True), *exact_steps(below)]))
            out.append((2, [Step("*", id=el_id, descendant=True), *loose_steps(below)]))
            break
    for depth in range(len(path) - 1, -1, -1):
        el = path[depth]
        hit = next((c for c in classes_of(el) if len(tree.select(
            Step(str(el.tag), cls=c, descendant=True).xpath())) == 1), None)
        if hit:
            out.append((1, [Step(str(el.tag), cls=hit, descendant=True), *exact_steps(path[depth + 1:])]))
            break
    out.append((3, exact_steps(path)))
    out.append((4, loose_steps(path)))
    return out


# ------------------------------------------------------------------ columns

def learn_columns(tree: PageTree, rg: Region, table: Table, held: list[Holders]) -> list[ColumnRule]:
    nodes = tree.nodes
    records = rg.records
    # Per column, per record: the item behind the cell (None where the cell is empty).
    items: list[list[Item | None]] = [[None] * len(records) for _ in table.columns]
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row):
            if cell is None:
                continue
            items[c][r] = _item_of(nodes, held[r], cell, table.columns[c])
    out: list[ColumnRule] = []
    for c, col in enumerate(table.columns):
        its = items[c]
        present = [it for it in its if it is not None]
        if not present:
            continue
        kind = Counter(it.kind for it in present).most_common(1)[0][0]
        pieces = Counter(piece_of(held[r], it) for r, it in enumerate(its) if it is not None and it.kind == kind)
        piece = pieces.most_common(1)[0][0]
        truth = [it.node if it is not None and it.kind == kind else None for it in its]
        xpaths, css = _column_paths(tree, records, held, truth, kind, piece)
        out.append(ColumnRule(
            name=col.name, type=col.type, kind=kind, piece=piece, xpaths=xpaths, css=css,
            rules=_rules(tree, rg, table, items, c, truth), fill=round(col.fill, 4), flags=list(col.flags),
            hidden=col.hidden,
        ))
    return out


def _item_of(nodes: NodeTable, held: Holders, cell: Cell, col: Column) -> Item | None:
    """The record item a table cell comes from (the table may have dropped a label prefix)."""
    node = nodes.find_xpath(cell.xpath) if cell.xpath else None
    if node is None:
        return None
    its = held.get(node, [])
    if not its:
        return None
    for it in its:
        if it.text == cell.text and (col.type != "image" or it.kind == "image"):
            return it
    if col.type == "image":
        return next((it for it in its if it.kind == "image"), its[0])
    return next((it for it in its if cell.text and cell.text in it.text), its[0])


def _column_paths(tree: PageTree, records: list[Record], held: list[Holders], truth: list[int | None],
                  kind: str, piece: int) -> tuple[list[str], list[str]]:
    """A column's XPath queue (and CSS twins): candidates from every record, scored on all."""
    nodes = tree.nodes
    els = tree.elements
    cand_steps: dict[str, tuple[list[Step], int]] = {}
    holders_last: list[etree._Element] = []
    variants: Counter[str] = Counter()

    def add(steps: list[Step], rank: int) -> None:
        xp = xpath_of(steps, absolute=False)
        if xp not in cand_steps or cand_steps[xp][1] > rank:
            cand_steps[xp] = (steps, rank)
        variants[xp] += 1

    for rec, h in zip(records, truth, strict=True):
        if h is None:
            continue
        part_k = next((k for k, p in enumerate(rec.parts) if nodes.is_ancestor(p, h)), None)
        if part_k is None:
            continue
        prefix: list[Step] = []
        if part_k:
            sib = _sibling_distance(els[rec.parts[0]], els[rec.parts[part_k]])
            if sib is None:
                continue
            prefix = [Step("*", sib=sib)]
        path = chain(els[h], els[rec.parts[part_k]])
        if path is None:
            continue
        add([*prefix, *exact_steps(path)], 1)
        add([*prefix, *loose_steps(path)], 3)
        if path:
            holders_last.append(path[-1])
            add([*prefix, Step(str(path[-1].tag), descendant=True)], 4)
    if holders_last:
        tag_counts = Counter(str(e.tag) for e in holders_last)
        top_tag = tag_counts.most_common(1)[0][0]
        for cls in shared_classes(holders_last, th.COLUMN_CLASS_SHARE)[:2]:
            add([Step(top_tag, cls=cls, descendant=True)], 0)
            add([Step("*", cls=cls, descendant=True)], 2)
    scored: list[tuple[float, int, int, str]] = []
    for xp, (_steps, rank) in cand_steps.items():
        acc = _accuracy(tree, records, held, truth, xp, kind, piece)
        if acc > 0:
            scored.append((acc, rank, -variants[xp], xp))
    scored.sort(key=lambda s: (-round(s[0] / th.F1_BUCKET), s[1], s[2]))
    keep = [s for s in scored if s[0] >= th.COLUMN_MIN_ACCURACY][: th.QUEUE] or scored[:1]
    xps = [s[3] for s in keep]
    css = [c for c in (css_of(cand_steps[x][0], absolute=False) for x in xps) if c]
    return xps, css


def _sibling_distance(first: etree._Element, other: etree._Element) -> int | None:
    d = 0
    cur = first.getnext()
    while cur is not None:
        if isinstance(cur.tag, str):
            d += 1
            if cur is other:
                return d
        cur = cur.getnext()
    return None


def _accuracy(tree: PageTree, records: list[Record], held: list[Holders], truth: list[int | None],
              xpath: str, kind: str, piece: int) -> float:
    right = wrong = 0
    els = tree.elements
    for rec, hs, h in zip(records, held, truth, strict=True):
        it = find_item(tree, hs, els[rec.parts[0]], xpath, kind, piece)
        got = it.node if it is not None else None
        if got == h:
            right += h is not None
        else:
            wrong += 1
    return right / (right + wrong) if right + wrong else 0.0


# ------------------------------------------------------------------ search rules

def _rules(tree: PageTree, rg: Region, table: Table, items: list[list[Item | None]], c: int,
           truth: list[int | None]) -> SearchRules:
    nodes = tree.nodes
    col = table.columns[c]
    holders = [h for h in truth if h is not None]
    tag = _most(nodes[h].tag for h in holders)
    rarity = []
    for rec, h in zip(rg.records, truth, strict=True):
        if h is None:
            continue
        n = sum(1 for p in rec.parts for i in range(p, nodes[p].end) if nodes[i].tag == tag)
        rarity.append(1.0 / max(1, n))
    colors = _most(nodes.style(h, "color") for h in holders)
    size = _most(nodes.style(h, "font-size") for h in holders)
    keyword = ""
    if col.hidden and {"constant", "label"} & set(col.flags):
        keyword = _most(it.text for it in items[c] if it is not None)
    return SearchRules(
        keyword=keyword, tag=tag, tag_rarity=round(statistics.median(rarity), 4) if rarity else 0.0,
        context=_context(nodes, table, items, c, truth), font=Font(color=colors, size=px(size)),
        value_type=col.type, position=_position(nodes, rg, truth),
    )


def _most(values: object) -> str:
    got = Counter(values)  # type: ignore[call-overload]
    return str(got.most_common(1)[0][0]) if got else ""


def px(size: str) -> float:
    try:
        return round(float(size.removesuffix("px")), 2)
    except ValueError:
        return 0.0


def tree_distance(nodes: NodeTable, a: int, b: int) -> int:
    """Seed 001's distance: sibling and ancestor steps between two elements, positive when
    ``a`` (the context) comes first."""
    up_a = [a, *nodes.ancestors(a)]
    up_b = {x: k for k, x in enumerate([b, *nodes.ancestors(b)])}
    for k, x in enumerate(up_a):
        if x in up_b:
            d = k + up_b[x]
            return d if a <= b else -d
    return 0


def _context(nodes: NodeTable, table: Table, items: list[list[Item | None]], c: int,
             truth: list[int | None]) -> ContextRule | None:
    """The nearest fixed text (a constant or label column) to the value, as the seed's context."""
    fixed = [k for k, col in enumerate(table.columns)
             if k != c and {"constant", "label"} & set(col.flags) and any(items[k])]
    best: Counter[tuple[str, int]] = Counter()
    for r, h in enumerate(truth):
        if h is None:
            continue
        near: tuple[int, str, int] | None = None
        for k in fixed:
            it = items[k][r]
            if it is None:
                continue
            d = tree_distance(nodes, it.node, h)
            if near is None or abs(d) < near[0]:
                near = (abs(d), it.text, d)
        if near is not None:
            best[(near[1], near[2])] += 1
    if not best:
        return None
    (text, dist), _ = best.most_common(1)[0]
    return ContextRule(text=text, distance=dist)


def _position(nodes: NodeTable, rg: Region, truth: list[int | None]) -> tuple[float, float] | None:
    xs, ys = [], []
    for rec, h in zip(rg.records, truth, strict=True):
        if h is None:
            continue
        x, y, w, hh = rec.bbox
        n = nodes[h]
        if w <= 0 or hh <= 0 or n.w <= 0:
            continue
        xs.append(min(1.0, max(0.0, (n.x + n.w / 2 - x) / w)))
        ys.append(min(1.0, max(0.0, (n.y + n.h / 2 - y) / hh)))
    if not xs:
        return None
    return (round(statistics.median(xs), 3), round(statistics.median(ys), 3))
