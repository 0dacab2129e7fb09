"""The schema stage: an :class:`~visx.align.Alignment` -> a typed, named :class:`Table`."""

from __future__ import annotations

import operator
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from visx.align.model import Alignment, Item
from visx.align.thresholds import STAR_SCALE
from visx.config import Config, SchemaConfig
from visx.model import NodeTable, Region, union_bbox
from visx.schema import thresholds as th
from visx.schema.dates import numeric_fields, numeric_order
from visx.schema.entities import Context, Typed, parse_as, type_text
from visx.schema.names import ColumnFacts, name_columns
from visx.schema.numbers import text_counts, vote_of
from visx.schema.table import Cell, Column, Table
from visx.schema.tidy import tidy

# A Typed per cell: tuple.__new__ skips the NamedTuple constructor's default handling.
_new_typed = cast("Callable[[type[Typed], tuple[Any, ...]], Typed]", tuple.__new__)
_PREFIX_LABEL = re.compile(r"^([^\d:/]{1,40}):(?!//)\s*(\S.*)$")


@dataclass(slots=True)
class _Col:
    """Working state of one column while the table is built."""

    items: list[Item | None]
    kind: str
    label: str = ""
    prefix: str = ""
    flags: tuple[str, ...] = ()
    type: str = "text"
    values: list[Typed | None] | None = None
    votes: tuple[int, int] | None = None
    """Decimal separator votes of the column's numbers (``.``, ``,``), once counted."""


def build_table(nodes: NodeTable, region: Region, alignment: Alignment,
                config: Config | SchemaConfig | None = None) -> Table:
    """Type, name and flag the aligned columns of ``region``; inputs are not modified.

    A region without records gives an empty table with a warning.
    """
    return build_tables(nodes, [region], [alignment], config)[0]


def build_tables(nodes: NodeTable, regions: list[Region], alignments: list[Alignment],
                 config: Config | SchemaConfig | None = None) -> list[Table]:
    """:func:`build_table` for each region of a page (``alignments[k]`` aligns ``regions[k]``)."""
    cfg = config.table if isinstance(config, Config) else (config or SchemaConfig())
    return [_build_or_empty(nodes, rg, al, cfg) for rg, al in zip(regions, alignments, strict=True)]


def _build_or_empty(nodes: NodeTable, region: Region, alignment: Alignment, cfg: SchemaConfig) -> Table:
    n = len(region.records)
    if n == 0 or not alignment.columns:
        where = nodes[region.parent].xpath if 0 <= region.parent < len(nodes) else "?"
        why = "no records" if n == 0 else "no data items in its records"
        return Table(region.rank, [], [[] for _ in range(n)],
                     warnings=[f"region {where}: {why}; its table is empty"])
    return _build(nodes, region, alignment, cfg)


def _build(nodes: NodeTable, region: Region, alignment: Alignment, cfg: SchemaConfig) -> Table:
    n = len(region.records)
    cols = typed_columns(nodes, alignment, cfg, n)
    facts = [_facts(col, n) for col in cols]
    linked = [any(it is not None and it.href and it.kind == "text" for it in col.items) for col in cols]
    names = name_columns(nodes, region, facts, linked)
    columns = [Column(name, col.type, f.fill, col.flags, source)
               for col, f, (name, source) in zip(cols, facts, names, strict=True)]
    return assemble(nodes, region, alignment, cols, columns, cfg)


def assemble(nodes: NodeTable, region: Region, alignment: Alignment, cols: list[_Col], columns: list[Column],
             cfg: SchemaConfig) -> Table:
    """The table from its typed and named columns: cells by row, tidied, with the alignment's
    warnings; shared with the template's light build (:mod:`visx.template.build`)."""
    by_col = [_cells(nodes, col) for col in cols]
    rows: list[list[Cell | None]] = [list(row) for row in zip(*by_col, strict=True)]
    if cfg.tidy:
        tidy(columns, rows)
    warnings = []
    if alignment.forced:
        warnings.append(f"{alignment.forced} data item(s) placed at a guessed column")
    return Table(region.rank, columns, rows, warnings)


def typed_columns(nodes: NodeTable, alignment: Alignment, cfg: SchemaConfig, n: int) -> list[_Col]:
    """The aligned columns labelled, typed and flagged constant (the steps before naming);
    shared with the template's light build (:mod:`visx.template.build`)."""
    cols = [_Col([row[c] for row in alignment.cells], col.kind)
            for c, col in enumerate(alignment.columns)]
    _find_labels(nodes, cols, n)
    fixed = None if cfg.decimal == "auto" else cfg.decimal
    table_vote: list[str | None] = []

    def decimal(col: _Col) -> str | None:
        """Configured, else the column's vote, else the whole table's vote."""
        if fixed or (got := vote_of(_votes(col))):
            return fixed or got
        if not table_vote:
            counts = [_votes(c) for c in cols]
            table_vote.append(vote_of((sum(c[0] for c in counts), sum(c[1] for c in counts))))
        return table_vote[0]

    for col in cols:
        _type_column(col, decimal, cfg.date_order)
        if _is_constant(col, n) and "label" not in col.flags:
            col.flags += ("constant",)
    return cols


def _text_of(col: _Col, it: Item) -> str:
    """The text to type: without the column's shared label prefix ("Price:", "Posted by")."""
    p = col.prefix
    if p and it.text.startswith(p) and len(it.text) > len(p) and (p.endswith(":") or it.text[len(p)] == " "):
        return it.text[len(p):].lstrip(" :")
    return it.text


def _votes(col: _Col) -> tuple[int, int]:
    """Decimal separator votes of the numbers in the column's texts."""
    if col.votes is None:
        dots = commas = 0
        if col.kind not in ("image", "link", "stars", "list"):
            for it in col.items:
                if it is not None:
                    d, c = text_counts(it.text)
                    dots += d
                    commas += c
        col.votes = (dots, commas)
    return col.votes


def _find_labels(nodes: NodeTable, cols: list[_Col], n: int) -> None:
    """Label columns ("Price:" before the value) and shared ``Label:`` prefixes."""
    for c, col in enumerate(cols):
        texts = [it.text for it in col.items if it is not None and it.kind == "text"]
        if len(texts) < th.CONSTANT_MIN_RECORDS:
            continue
        distinct = len(set(texts))
        if distinct == 1 and c + 1 < len(cols) and _label_like(texts[0]):
            nxt = cols[c + 1]
            if len(texts) >= 0.8 * n and _labels_next(nodes, col, nxt, colon=texts[0].endswith(":")):
                col.flags += ("label",)
                nxt.label = texts[0].rstrip(":").strip()
                continue
        if distinct > 1:
            prefix = _shared_prefix(texts)
            if prefix:
                col.prefix = prefix
                col.label = prefix.rstrip(":").strip()
                col.flags += ("prefixed",)


def _shared_prefix(texts: list[str]) -> str:
    """A label most cells start with: ``Word(s):``, or words ending in "by", "in"... ("Posted by")."""
    need = th.COLUMN_TYPE_SHARE * len(texts)
    # The label's colon sits within the first 41 characters: test that before the expression.
    colon = Counter(m.group(1).strip() + ":" for t in texts if ":" in t[:41] and (m := _PREFIX_LABEL.match(t)))
    if colon:
        p, k = colon.most_common(1)[0]
        if k >= need and _label_like(p):
            return p
    words = texts[0].split()
    for n in range(min(th.LABEL_MAX_WORDS, len(words) - 1), 0, -1):
        if words[n - 1].lower() not in th.LABEL_END_WORDS:
            continue
        p = " ".join(words[:n])
        if _label_like(p) and sum(t.startswith(p + " ") for t in texts) >= need:
            return p
    return ""


def _label_like(text: str) -> bool:
    words = text.rstrip(":").split()
    return (0 < len(words) <= th.LABEL_MAX_WORDS and len(text) <= th.LABEL_MAX_CHARS
            and not any(ch.isdigit() for ch in text) and any(ch.isalpha() for ch in text))


def _labels_next(nodes: NodeTable, label: _Col, value: _Col, *, colon: bool) -> bool:
    """The label's element holds the value (``Posted by <a>``), or a ``Label:`` sits beside it."""
    both = [(a.node, b.node) for a, b in zip(label.items, value.items, strict=True)
            if a is not None and b is not None]
    if not both or len(set(b.text for b in value.items if b is not None)) < 2:
        return False
    hits = 0
    for a, b in both:
        holds = a != b and nodes.is_ancestor(a, b)
        beside = nodes[a].parent == nodes[b].parent or a == b
        hits += holds or (colon and beside)
    return hits * 2 >= len(both)


_NUMERIC = frozenset({"price", "number", "integer", "percent", "rating"})
"""Types whose values need the decimal separator."""


def _type_column(col: _Col, decimal: Callable[[_Col], str | None], date_order: str) -> None:
    """Decide the column's type on a sample of its cells, then parse every cell as that type."""
    present = [it for it in col.items if it is not None]
    if col.kind == "image":
        col.type = "image"
        col.values = [Typed("image", it.src or None) if it else None for it in col.items]
        return
    if col.kind == "list":
        col.type = "text"
        col.flags += ("list",)
        col.values = [Typed("text", list(it.values)) if it else None for it in col.items]
        return
    if col.kind == "stars":
        col.type = "rating"
        col.values = [Typed("rating", round((it.fill or 0.0) * STAR_SCALE, 1)) if it else None
                      for it in col.items]
        return
    if col.kind == "link" and all(not it.text for it in present):
        col.type = "url"
        col.values = [Typed("url", it.href or None) if it else None for it in col.items]
        return
    filled = [it for it in present if it.text.strip()]
    sample = filled[::max(1, len(filled) // th.TYPE_SAMPLE)]
    decided = Counter(type_text(_text_of(col, it)).type for it in sample[:th.TYPE_FIRST])
    if len(decided) > 1 or len(sample) <= th.TYPE_FIRST:
        decided.update(type_text(_text_of(col, it)).type for it in sample[th.TYPE_FIRST:])
    col.type = _column_type(decided, sum(decided.values()))
    if col.type == "text":
        if col.prefix:
            col.values = [Typed("text", _text_of(col, it)) if it else None for it in col.items]
        else:
            col.values = [_new_typed(Typed, ("text", it.text, ())) if it else None for it in col.items]
        return
    order = date_order if date_order != "auto" or col.type != "date" else _date_order(col)
    ctx = Context(decimal=decimal(col) if col.type in _NUMERIC else None, date_order=order)
    col.values = [parse_as(col.type, _text_of(col, it), ctx) if it else None for it in col.items]
    if col.type in ("integer", "number"):
        # Integer or not is only known once the decimal separator is (12.345 = 12345 in de).
        whole = all(v.type == "integer" for v in col.values if v is not None)
        col.type = "integer" if whole else "number"
        if not whole:
            col.values = [v._replace(type="number", value=float(v.value)) if v is not None else None
                          for v in col.values]
    flags = {f for v in col.values if v is not None for f in v.flags if f in ("relative", "range", "unit")}
    col.flags += tuple(sorted(flags))


_count = operator.itemgetter(1)


def _column_type(decided: Counter[str], total: int) -> str:
    if total == 0:
        return "text"
    top, k = max(decided.items(), key=_count)  # the first of equals, as most_common(1)
    if k >= th.COLUMN_TYPE_SHARE * total:
        return top
    for group, name in ((("integer", "number"), "number"), (("time", "duration"), "")):
        k = sum(decided[g] for g in group)
        if k >= th.COLUMN_TYPE_SHARE * total:
            return name or max(group, key=lambda g: decided[g])
    return "text"


def _date_order(col: _Col) -> str:
    """dmy/mdy from any value whose first or second field is over 12."""
    fields = [f for it in col.items if it is not None and (f := numeric_fields(it.text))]
    for a, _sep, b, _c in fields:
        if len(a) <= 2 and int(a) > 12:
            return "dmy"
        if len(a) <= 2 and int(b) > 12:
            return "mdy"
    if fields:
        a, sep, b, c = fields[0]
        return numeric_order(a, b, c, sep)
    return "auto"


def _is_constant(col: _Col, n: int) -> bool:
    if n < th.CONSTANT_MIN_RECORDS or any(it is None for it in col.items):
        return False
    present = [it for it in col.items if it is not None]
    first = present[0]
    key = (first.text, first.href, first.src, first.values, first.fill)
    return all((it.text, it.href, it.src, it.values, it.fill) == key for it in present)


def _facts(col: _Col, n: int) -> ColumnFacts:
    present = [it for it in col.items if it is not None]
    texts = [it.text for it in present]
    distinct = len(set(texts)) / len(texts) if texts else 0.0
    return ColumnFacts(col.type, col.kind, col.label, [it.node for it in present],
                       bool({"constant", "label"} & set(col.flags)), distinct, len(present) / n,
                       col.flags, texts[0] if texts else "")


def _cells(nodes: NodeTable, col: _Col) -> list[Cell | None]:
    """The column's cells, record by record (None where a record has no value)."""
    nn = nodes.nodes
    values = col.values
    out: list[Cell | None] = []
    for r, it in enumerate(col.items):
        if it is None:
            out.append(None)
            continue
        typed = values[r] if values is not None else None
        node = nn[it.node]
        bbox = union_bbox([nn[e].bbox for e in it.nodes]) if it.nodes else (node.x, node.y, node.w, node.h)
        if typed is None:
            out.append(Cell(it.text, None, it.href or None, it.src or None, node.xpath, bbox, ()))
        else:
            out.append(Cell(it.text, typed.value, it.href or None, it.src or None, node.xpath, bbox, typed.flags))
    return out
