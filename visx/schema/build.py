"""The schema stage: an :class:`~visx.align.Alignment` -> a typed, named :class:`Table`."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from visx.align.model import Alignment, Item
from visx.align.thresholds import STAR_SCALE
from visx.config import Config, SchemaConfig
from visx.model import NodeTable, Region, union_bbox
from visx.schema import thresholds as th
from visx.schema.dates import numeric_fields, numeric_order
from visx.schema.entities import Context, Typed, parse_as, type_text
from visx.schema.names import ColumnFacts, name_columns
from visx.schema.numbers import decimal_vote, tokens
from visx.schema.table import Cell, Column, Table

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


def build_table(nodes: NodeTable, region: Region, alignment: Alignment,
                config: Config | SchemaConfig | None = None) -> Table:
    """Type, name and flag the aligned columns of ``region``; inputs are not modified.

    A region without records gives an empty table with a warning.
    """
    cfg = config.table if isinstance(config, Config) else (config or SchemaConfig())
    n = len(region.records)
    if n == 0 or not alignment.columns:
        where = nodes[region.parent].xpath if 0 <= region.parent < len(nodes) else "?"
        why = "no records" if n == 0 else "no data items in its records"
        return Table(region.rank, [], [[] for _ in range(n)],
                     warnings=[f"region {where}: {why}; its table is empty"])
    cols = [_Col([row[c] for row in alignment.cells], col.kind)
            for c, col in enumerate(alignment.columns)]
    _find_labels(nodes, cols, n)
    fixed = None if cfg.decimal == "auto" else cfg.decimal
    table_vote: list[str | None] = []

    def decimal(col: _Col) -> str | None:
        """Configured, else the column's vote, else the whole table's vote."""
        if fixed or (got := decimal_vote(_number_tokens(col))):
            return fixed or got
        if not table_vote:
            table_vote.append(decimal_vote([t for c in cols for t in _number_tokens(c)]))
        return table_vote[0]

    for col in cols:
        _type_column(col, decimal, cfg.date_order)
        if _is_constant(col, n) and "label" not in col.flags:
            col.flags += ("constant",)
    facts = [_facts(col, n) for col in cols]
    linked = [any(it is not None and it.href and it.kind == "text" for it in col.items) for col in cols]
    names = name_columns(nodes, region, facts, linked)
    columns = [Column(name, col.type, f.fill, col.flags, source)
               for col, f, (name, source) in zip(cols, facts, names, strict=True)]
    rows: list[list[Cell | None]] = [[_cell(nodes, col, r) for col in cols] for r in range(n)]
    warnings = []
    if alignment.forced:
        warnings.append(f"{alignment.forced} data item(s) placed at a guessed column")
    return Table(region.rank, columns, rows, warnings)


def _text_of(col: _Col, it: Item) -> str:
    """The text to type: without the column's shared label prefix ("Price:", "Posted by")."""
    p = col.prefix
    if p and it.text.startswith(p) and len(it.text) > len(p) and (p.endswith(":") or it.text[len(p)] == " "):
        return it.text[len(p):].lstrip(" :")
    return it.text


def _number_tokens(col: _Col) -> list[str]:
    if col.kind in ("image", "link", "stars", "list"):
        return []
    return [t for it in col.items if it is not None for t in tokens(it.text)]


def _find_labels(nodes: NodeTable, cols: list[_Col], n: int) -> None:
    """Label columns ("Price:" before the value) and shared ``Label:`` prefixes."""
    for c, col in enumerate(cols):
        texts = [it.text for it in col.items if it is not None and it.kind == "text"]
        if len(texts) < th.CONSTANT_MIN_RECORDS:
            continue
        if len(set(texts)) == 1 and c + 1 < len(cols) and _label_like(texts[0]):
            nxt = cols[c + 1]
            if len(texts) >= 0.8 * n and _labels_next(nodes, col, nxt, colon=texts[0].endswith(":")):
                col.flags += ("label",)
                nxt.label = texts[0].rstrip(":").strip()
                continue
        if len(set(texts)) > 1:
            prefix = _shared_prefix(texts)
            if prefix:
                col.prefix = prefix
                col.label = prefix.rstrip(":").strip()
                col.flags += ("prefixed",)


def _shared_prefix(texts: list[str]) -> str:
    """A label most cells start with: ``Word(s):``, or words ending in "by", "in"... ("Posted by")."""
    need = th.COLUMN_TYPE_SHARE * len(texts)
    colon = Counter(m.group(1).strip() + ":" for t in texts if (m := _PREFIX_LABEL.match(t)))
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
        col.values = [Typed("text", _text_of(col, it)) if it else None for it in col.items]
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


def _column_type(decided: Counter[str], total: int) -> str:
    if total == 0:
        return "text"
    top, k = decided.most_common(1)[0]
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
    keys = {(it.text, it.href, it.src, it.values, it.fill) for it in col.items if it is not None}
    return len(keys) == 1


def _facts(col: _Col, n: int) -> ColumnFacts:
    present = [it for it in col.items if it is not None]
    texts = [it.text for it in present]
    distinct = len(set(texts)) / len(texts) if texts else 0.0
    return ColumnFacts(col.type, col.kind, col.label, [it.node for it in present],
                       bool({"constant", "label"} & set(col.flags)), distinct, len(present) / n,
                       col.flags, texts[0] if texts else "")


def _cell(nodes: NodeTable, col: _Col, r: int) -> Cell | None:
    it = col.items[r]
    if it is None:
        return None
    typed = col.values[r] if col.values is not None else None
    value = typed.value if typed is not None else None
    node = nodes[it.node]
    bbox = union_bbox([nodes[e].bbox for e in it.nodes]) if it.nodes else node.bbox
    return Cell(it.text, value, it.href or None, it.src or None, node.xpath, bbox,
                typed.flags if typed is not None else ())
