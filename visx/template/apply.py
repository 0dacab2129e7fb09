"""Apply a template: records and columns by XPath alone, no mining.

Seed 001's extraction: each item's XPath queue is tried in order and the
first that yields data on the page wins (per page, not per record, so one
record's missing field does not switch paths). The items found go through
the schema stage as aligned columns, so typing, labels and tidying are those
of a full extraction, and the columns keep the template's names.

What is wrong is collected as :class:`Problem` s (records not found or
fewer than half the usual count, a column empty or mistyped) for
:mod:`visx.template.repair`; nothing here returns an empty result silently.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from lxml import etree

from visx.align.model import AlignedColumn, Alignment, Item
from visx.config import Config
from visx.model import Cleaned, PageSnapshot, Record, Region, union_bbox
from visx.template import thresholds as th
from visx.template.items import Holders, record_items
from visx.template.model import ColumnRule, Template
from visx.template.resolve import find_item, select_records
from visx.template.tree import PageTree, from_snapshot

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


@dataclass(slots=True)
class Run:
    """One application of a template to a page, before any repair."""

    tree: PageTree
    records: list[Record]
    roots: list[etree._Element]
    held: list[Holders]
    items: list[list[Item | None]]
    """``items[c][r]``: column ``c``'s item in record ``r``."""
    record_xpath: str = ""
    column_xpaths: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    dropped: int = 0
    """Selected elements left out because they fill too few of the template's core columns."""


def run_template(tree: PageTree, t: Template) -> Run:
    """Find the records and every column's items; list what does not hold up."""
    problems: list[Problem] = []
    roots, used = _find_roots(tree, t, problems)
    records = [_record(tree, el, t.records.parts) for el in roots]
    held = record_items(tree.nodes, records, lists=any(c.kind == "list" for c in t.columns))
    items, xps = _find_columns(tree, t, roots, held)
    run = Run(tree, records, roots, held, items, used, xps, problems)
    _drop_non_records(run, t)
    _check_columns(run, t)
    return run


def _find_roots(tree: PageTree, t: Template, problems: list[Problem]) -> tuple[list[etree._Element], str]:
    usual = statistics.median(t.records.counts) if t.records.counts else 0
    first: tuple[list[etree._Element], str] | None = None
    for xp in t.records.xpaths:
        got = select_records(tree, xp)
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


def _record(tree: PageTree, el: etree._Element, parts: int) -> Record:
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


def _find_columns(tree: PageTree, t: Template, roots: list[etree._Element],
                  held: list[Holders]) -> tuple[list[list[Item | None]], list[str]]:
    items: list[list[Item | None]] = []
    used: list[str] = []
    for col in t.columns:
        got, xp = column_items(tree, col, roots, held)
        items.append(got)
        used.append(xp)
    return items, used


def column_items(tree: PageTree, col: ColumnRule, roots: list[etree._Element],
                 held: list[Holders]) -> tuple[list[Item | None], str]:
    """The first XPath of the queue that fills enough records wins; else the one that fills most."""
    n = len(roots)
    expect = col.fill * n
    best: tuple[list[Item | None], str] = ([None] * n, "")
    best_k = 0
    for xp in col.xpaths:
        got = [find_item(tree, hs, el, xp, col.kind, col.piece) for el, hs in zip(roots, held, strict=True)]
        k = sum(it is not None for it in got)
        if k and k >= th.FILL_DROP * expect:
            return got, xp
        if k > best_k:
            best, best_k = (got, xp), k
    return best


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
    run.records = [run.records[r] for r in keep]
    run.roots = [run.roots[r] for r in keep]
    run.held = [run.held[r] for r in keep]
    run.items = [[col[r] for r in keep] for col in run.items]


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
                     timings: dict[str, float]) -> Extraction:
    """The run as an :class:`Extraction`: one region of the template's records, typed by the schema
    stage, columns named as the template names them."""
    from visx.pipeline import Extraction
    from visx.schema import build_table
    from visx.schema.table import Column

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
    table = build_table(nodes, region, alignment, cfg)
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
