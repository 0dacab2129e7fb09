"""Apply a template: records and columns by XPath alone, no mining.

Seed 001's extraction: each item's XPath queue is tried in order and the
first that yields data on the page wins (per page, not per record, so one
record's missing field does not switch paths). The items found go through
the schema stage as aligned columns, so typing, labels and tidying are those
of a full extraction, and the columns keep the template's names.

What is wrong is collected as :class:`Problem` s (records not found or
fewer than half the usual count, a column empty or mistyped) for
:mod:`visx.template.repair`; nothing here returns an empty result silently.

Applying is fast (:mod:`visx.template.native`): the XPaths run on the node
table, a column's path once for all records, and only the elements a column's
path selects have their items read, only those of the column's kind (every record tree is built only for a
template with a list column, or when repair asks for ``Run.held``).
``run_template(tree, t, reference=True)`` on ``from_snapshot(nodes,
native=False)`` is the first implementation (lxml XPath, whole record trees),
kept to check the fast one against: ``scripts/bench_templates.py --verify``
and ``tests/test_template_speed_equiv.py``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TypeVar

from lxml import etree

from visx.align.model import AlignedColumn, Alignment, Item
from visx.config import Config
from visx.model import Cleaned, NodeTable, PageSnapshot, Record, Region, union_bbox
from visx.template import thresholds as th
from visx.template.items import Holders, record_items
from visx.template.model import ColumnRule, Template
from visx.template.native import (
    HolderItems,
    RootsSelector,
    next_siblings,
    select_nodes,
    subtree_text,
)
from visx.template.resolve import find_item, select_records
from visx.template.tree import PageTree, from_snapshot

R = TypeVar("R")

if TYPE_CHECKING:
    from visx.pipeline import Extraction
    from visx.schema.table import Table


@dataclass(slots=True)
class Problem:
    """Something the template no longer finds (``item`` is ``records`` or a column name)."""

    item: str
    kind: str
    """``missing`` (nothing found), ``drift`` (too few records), ``empty``, ``sparse`` or ``mistyped``."""
    detail: str

    def __str__(self) -> str:
        return f"{self.item}: {self.detail}"


class Run:
    """One application of a template to a page, before any repair."""

    __slots__ = (
        "_held",
        "_keep",
        "_source",
        "column_xpaths",
        "dropped",
        "items",
        "problems",
        "record_xpath",
        "records",
        "roots",
        "tree",
    )

    def __init__(self, tree: PageTree, records: list[Record], roots: list[int], held: list[Holders] | Held,
                 items: list[list[Item | None]], record_xpath: str = "", column_xpaths: list[str] | None = None,
                 problems: list[Problem] | None = None, dropped: int = 0) -> None:
        self.tree = tree
        self.records = records
        self.roots = roots
        """The records' first elements (node indices)."""
        self._source = held if isinstance(held, Held) else None
        self._held = None if isinstance(held, Held) else held
        self._keep: list[int] | None = None
        self.items = items
        """``items[c][r]``: column ``c``'s item in record ``r``."""
        self.record_xpath = record_xpath
        self.column_xpaths = column_xpaths if column_xpaths is not None else []
        self.problems = problems if problems is not None else []
        self.dropped = dropped
        """Selected elements left out because they fill too few of the template's core columns."""

    @property
    def held(self) -> list[Holders]:
        """Per record, its items by holding element (every element's; read on first use)."""
        if self._held is None:
            assert self._source is not None
            self._held = self._source.holders(self._keep)
        return self._held

    @held.setter
    def held(self, value: list[Holders]) -> None:
        self._held = value

    def keep(self, rows: list[int]) -> None:
        """Keep only the records at ``rows`` (in that order)."""
        self.records = [self.records[r] for r in rows]
        self.roots = [self.roots[r] for r in rows]
        self.items = [[col[r] for r in rows] for col in self.items]
        if self._held is not None:
            self._held = [self._held[r] for r in rows]
        else:
            self._keep = [self._keep[r] for r in rows] if self._keep is not None else rows


class Held:
    """The items of a run's records, read per element as columns ask for them.

    Without list columns each element's items are read alone (:class:`HolderItems`);
    with them every record tree is built, lists found across records and collapsed
    (:func:`record_items`), as learning read them.
    """

    __slots__ = ("_full", "_reader", "lists", "nodes", "records")

    def __init__(self, nodes: NodeTable, records: list[Record], *, lists: bool) -> None:
        self.nodes = nodes
        self.records = records
        self.lists = lists
        self._full: list[Holders] | None = record_items(nodes, records, lists=True) if lists else None
        self._reader: HolderItems | None = None

    def of_kind(self, r: int, node: int, kind: str) -> list[Item]:
        """The items of ``kind`` node ``node`` holds in record ``r``, in order."""
        if self._full is not None:
            return [it for it in self._full[r].get(node, ()) if it.kind == kind]
        if self._reader is None:
            self._reader = HolderItems(self.nodes)
        return self._reader.of_kind(self.records[r], node, kind)

    def holders(self, keep: list[int] | None) -> list[Holders]:
        """Every record's holders (of the records at ``keep``, when given)."""
        if self._full is not None:
            return self._full if keep is None else [self._full[r] for r in keep]
        records = self.records if keep is None else [self.records[r] for r in keep]
        return record_items(self.nodes, records, lists=False)  # records are independent without lists


def run_template(tree: PageTree, t: Template, *, reference: bool = False) -> Run:
    """Find the records and every column's items; list what does not hold up.

    ``reference``: the first implementation (lxml XPath on the whole element tree, every
    record's tree built), kept to check the fast path against (its results are the same).
    """
    if reference:
        return _run_reference(tree, t)
    problems: list[Problem] = []
    roots, used = _find_roots(lambda xp: _select_records(tree, xp), t, problems)
    records = [_record(tree, i, t.records.parts) for i in roots]
    held = Held(tree.nodes, records, lists=any(c.kind == "list" for c in t.columns))
    items: list[list[Item | None]] = []
    xps: list[str] = []
    select = RootsSelector(tree, roots)
    for col in t.columns:
        got, xp = _column(select, col, held)
        items.append(got)
        xps.append(xp)
    run = Run(tree, records, roots, held, items, used, xps, problems)
    _drop_non_records(run, t)
    _check_columns(run, t)
    return run


def _find_roots(select: Callable[[str], list[R]], t: Template, problems: list[Problem]) -> tuple[list[R], str]:
    """The first record XPath that finds enough records (``select`` runs one); else the first
    that finds any, as drift."""
    usual = statistics.median(t.records.counts) if t.records.counts else 0
    first: tuple[list[R], str] | None = None
    for xp in t.records.xpaths:
        got = select(xp)
        if not got:
            continue
        if len(got) >= th.DRIFT * usual:
            return got, xp
        first = first or (got, xp)
    if first is None:
        problems.append(Problem("records", "missing", "no record XPath finds anything"))
        return [], ""
    problems.append(Problem("records", "drift", f"{len(first[0])} record(s), under half the usual "
                                                f"{usual:g}"))
    return first


def _select_records(tree: PageTree, xpath: str) -> list[int]:
    """:func:`select_records` as node indices."""
    out: list[int] = []
    nodes = tree.nodes
    last_end = -1
    for i in select_nodes(tree, xpath, None):
        if i < last_end:
            continue
        out.append(i)
        last_end = nodes[i].end
    return out


def _record(tree: PageTree, i: int, parts: int) -> Record:
    out = [i]
    if parts > 1:
        out.extend(next_siblings(tree, i)[:parts - 1])
    nodes = tree.nodes
    if parts == 1:
        n = nodes.nodes[i]
        x, y, w, h = n.x, n.y, n.w, n.h
        # union_bbox([n.bbox]), to the last bit: the width and height are (x + w) - x and (y + h) - y
        box = (x, y, (x + w) - x, (y + h) - y) if w > 0 and h > 0 else _NO_BOX
        return LazyRecord(out, box, nodes=nodes)
    return LazyRecord(out, union_bbox([nodes[p].bbox for p in out]), nodes=nodes)


_NO_BOX = (0.0, 0.0, 0.0, 0.0)
_TEXT = Record.__dict__["text"]
"""The slot :class:`Record` keeps its text in."""


class LazyRecord(Record):
    """A :class:`Record` whose text (``nodes.text`` of its parts, joined by spaces) is read off
    the node table on first use: applying a template never reads it, a report or an export may.
    Everything else is a :class:`Record`'s (fields, ``asdict``, ``replace``, copies)."""

    __slots__ = ("_nodes",)

    def __init__(self, parts: list[int], bbox: tuple[float, float, float, float] = _NO_BOX, text: str = "",
                 step: int = 0, *, nodes: NodeTable | None = None) -> None:
        Record.__init__(self, parts, bbox, text, step)
        self._nodes = nodes

    @property  # type: ignore[override]
    def text(self) -> str:
        nodes = self._nodes
        if nodes is not None:
            parts = self.parts
            _TEXT.__set__(self, subtree_text(nodes, parts[0]) if len(parts) == 1
                          else " ".join([subtree_text(nodes, p) for p in parts]))
            self._nodes = None
        return _TEXT.__get__(self, Record)  # type: ignore[no-any-return]

    @text.setter
    def text(self, value: str) -> None:
        _TEXT.__set__(self, value)
        self._nodes = None

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Record):
            return (self.parts, self.bbox, self.text, self.step) == (other.parts, other.bbox, other.text, other.step)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


def _column(select: RootsSelector, col: ColumnRule, held: Held) -> tuple[list[Item | None], str]:
    """:func:`column_items` on node indices, every record at once, items read per element."""
    kind, piece = col.kind, col.piece
    of_kind = held.of_kind

    def read(xp: str) -> list[Item | None]:
        got: list[Item | None] = []
        for r, nodes in enumerate(select(xp)):
            found = None
            for node in nodes:
                its = of_kind(r, node, kind)
                if its:
                    found = its[piece] if piece < len(its) else its[-1]
                    break
            got.append(found)
        return got

    return first_filling(col, len(select.roots), read)


def first_filling(col: ColumnRule, n: int,
                  read: Callable[[str], list[Item | None]]) -> tuple[list[Item | None], str]:
    """Seed 001's queue rule for one page: the first XPath of the column's queue that fills
    enough of the ``n`` records wins; else the one that fills most (``read(xpath)`` gives its
    item per record)."""
    expect = col.fill * n
    best: tuple[list[Item | None], str] = ([None] * n, "")
    best_k = 0
    for xp in col.xpaths:
        got = read(xp)
        k = sum(it is not None for it in got)
        if k and k >= th.FILL_DROP * expect:
            return got, xp
        if k > best_k:
            best, best_k = (got, xp), k
    return best


# ------------------------------------------------------------------ the reference implementation

def _run_reference(tree: PageTree, t: Template) -> Run:
    problems: list[Problem] = []
    roots, used = _find_roots(lambda xp: select_records(tree, xp), t, problems)
    records = [_record_reference(tree, el, t.records.parts) for el in roots]
    held = record_items(tree.nodes, records, lists=any(c.kind == "list" for c in t.columns))
    items: list[list[Item | None]] = []
    xps: list[str] = []
    for col in t.columns:
        got, xp = column_items(tree, col, roots, held)
        items.append(got)
        xps.append(xp)
    run = Run(tree, records, [tree.index[el] for el in roots], held, items, used, xps, problems)
    _drop_non_records(run, t)
    _check_columns(run, t)
    return run


def _record_reference(tree: PageTree, el: etree._Element, parts: int) -> Record:
    i = tree.index[el]
    out = [i]
    sib = el.getnext()
    while sib is not None and len(out) < parts:
        j = tree.index.get(sib)
        if j is not None:
            out.append(j)
        sib = sib.getnext()
    nodes = tree.nodes
    return Record(out, union_bbox([nodes[p].bbox for p in out]), " ".join(nodes.text(p) for p in out))


def column_items(tree: PageTree, col: ColumnRule, roots: list[etree._Element],
                 held: list[Holders]) -> tuple[list[Item | None], str]:
    """The first XPath of the queue that fills enough records wins; else the one that fills most."""
    return first_filling(col, len(roots), lambda xp: [find_item(tree, hs, el, xp, col.kind, col.piece)
                                                      for el, hs in zip(roots, held, strict=True)])


def _drop_non_records(run: Run, t: Template) -> None:
    """Leave out selected elements that fill too few core columns (an inserted ad or banner)."""
    core = [c for c, col in enumerate(t.columns) if not col.hidden and col.fill >= th.CORE_FILL]
    if not core or not run.records:
        return
    need = th.RECORD_MIN_CORE * len(core)
    keep = [r for r in range(len(run.records)) if sum(run.items[c][r] is not None for c in core) >= need]
    if len(keep) == len(run.records) or not keep:
        return
    run.dropped = len(run.records) - len(keep)
    run.keep(keep)


def _check_columns(run: Run, t: Template) -> None:
    n = len(run.records)
    if not n:
        return
    for col, its in zip(t.columns, run.items, strict=True):
        if col.hidden or col.fill < th.CHECK_MIN_FILL:
            continue
        fill = sum(it is not None for it in its) / n
        if fill == 0:
            run.problems.append(Problem(col.name, "empty", f"no value in any of {n} record(s) "
                                                           f"(was {col.fill:.0%} filled)"))
        elif fill < th.FILL_DROP * col.fill:
            run.problems.append(Problem(col.name, "sparse", f"filled in {fill:.0%} of the records "
                                                            f"(was {col.fill:.0%})"))


def check_types(table: Table, t: Template, problems: list[Problem]) -> None:
    """A typed column whose values no longer parse as its type holds another field."""
    for k, col in enumerate(t.columns):
        if col.hidden or col.type in ("text", "image") or col.fill < th.CHECK_MIN_FILL:
            continue
        cells = [row[k] for row in table.rows if row[k] is not None]
        if not cells:
            continue
        ok = sum(1 for c in cells if c is not None and c.value is not None) / len(cells)
        built = table.columns[k].type
        if ok < th.MISTYPED or (built != col.type and not _compatible(built, col.type)):
            table_words = f"reads as {built}" if built != col.type else f"{ok:.0%} parse as {col.type}"
            problems.append(Problem(col.name, "mistyped", f"its values are no longer {col.type} ({table_words})"))


def _compatible(a: str, b: str) -> bool:
    return {a, b} <= {"integer", "number"}


def build_extraction(snapshot: PageSnapshot, t: Template, run: Run, cfg: Config,
                     timings: dict[str, float], *, full: bool = False) -> Extraction:
    """The run as an :class:`Extraction`: one region of the template's records, typed by the schema
    stage, columns named as the template names them (``full``: with the schema stage's whole
    ``build_table``, names included, the reference :func:`visx.template.build.build_light` is
    checked against)."""
    from visx.pipeline import Extraction
    from visx.schema import build_table
    from visx.schema.table import Column
    from visx.template.build import build_light

    nodes = snapshot.nodes
    parent = nodes[run.records[0].parts[0]].parent if run.records else 0
    region = Region(parent=max(parent, 0), records=run.records, score=1.0, rank=1,
                    bbox=union_bbox([r.bbox for r in run.records]), kind=t.records.kind, miner="template",
                    evidence={"template_version": float(t.version)})
    alignment = Alignment(
        columns=[AlignedColumn(col.kind, xp, _seed(its)) for col, its, xp in
                 zip(t.columns, run.items, run.column_xpaths, strict=True)],
        cells=[list(row) for row in zip(*run.items, strict=True)] if run.items else [[] for _ in run.records],
    )
    table = build_table(nodes, region, alignment, cfg) if full else build_light(nodes, region, alignment, cfg)
    if table.columns:
        table.columns = [Column(col.name, built.type, built.fill, _flags(built.flags, col), "template")
                         for col, built in zip(t.columns, table.columns, strict=True)]
    region.table = table
    ex = Extraction(snapshot=snapshot, cleaned=Cleaned(removed=[], dropped=bytearray(len(nodes))),
                    regions=[region], tables=[table], timings=timings,
                    created=datetime.now(UTC).isoformat(timespec="seconds"))
    if run.dropped:
        table.warnings.append(f"{run.dropped} selected element(s) were not records (they fill too few "
                              "of the template's columns) and were left out")
    return ex


def _seed(its: list[Item | None]) -> int:
    return next((it.node for it in its if it is not None), -1)


def _flags(built: tuple[str, ...], col: ColumnRule) -> tuple[str, ...]:
    """The built flags, with the template's verdict on showing the column."""
    hide = ("constant", "label", "interface", "merged")
    flags = tuple(f for f in built if f not in hide)
    return flags + tuple(f for f in col.flags if f in hide) if col.hidden else flags


def tree_of(snapshot: PageSnapshot) -> PageTree:
    t0 = time.perf_counter()
    tree = from_snapshot(snapshot.nodes)
    snapshot.timings.setdefault("tree", round(time.perf_counter() - t0, 4))
    return tree
