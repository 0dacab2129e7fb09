"""Tables a person would keep: the columns of a built table tidied.

- One URL per record link: a column whose links are the same as an earlier
  column's in the same records (a title, its picture and "Read more" all
  pointing at the item) is flagged ``same-link`` and gives no URL field.
- A currency written apart from its amount ("$" then "14.98") is one price
  column; the currency column is flagged ``merged`` and leaves the table.
- Interface words repeated across records ("Follow", "Save job", "Add to cart",
  "Sponsored") are flagged ``interface``, not data, and leave the default table;
  when they are the only link to each record's own page ("Details"), the
  column becomes that ``url``.
- Sparse columns that are one field built two ways (the same type, flags and
  name, never both filled in a record, each in few records) are merged into
  the first, the other flagged ``merged``.

- A very wide table whose many partly filled text columns sit, record by
  record, in one block below the record (an expanded post with its own
  tables and lists) gets them as one ``body`` column; they are flagged
  ``merged``.

Every change is a flag or a merge in place; the cells of hidden columns stay
available with ``all_columns=True``.
"""

from __future__ import annotations

import re

from visx.schema import thresholds as th
from visx.schema.entities import CURRENCIES, currency_code
from visx.schema.table import Cell, Column

_CURRENCY_ONLY = re.compile(
    r"^\s*(" + "|".join(re.escape(k) for k in sorted(CURRENCIES, key=len, reverse=True)) + r")\s*$", re.I)
_WORDS = re.compile(r"[^\W\d_]+")


def tidy(columns: list[Column], rows: list[list[Cell | None]]) -> None:
    """Flag and merge ``columns`` (and their cells in ``rows``) in place."""
    _merge_currency(columns, rows)
    _flag_same_links(columns, rows)
    _flag_interface(columns, rows)
    _merge_sparse(columns, rows)
    _fold_body(columns, rows)


def _cells(rows: list[list[Cell | None]], c: int) -> list[Cell | None]:
    return [row[c] for row in rows]


def _flag(col: Column, flag: str) -> None:
    if flag not in col.flags:
        col.flags = (*col.flags, flag)


def _merge_currency(columns: list[Column], rows: list[list[Cell | None]]) -> None:
    """``$`` in one column and the amount in the next: the amount column becomes the price."""
    for c in range(len(columns) - 1):
        cur = [x for x in _cells(rows, c) if x is not None]
        if not cur or not all(_CURRENCY_ONLY.match(x.text) for x in cur):
            continue
        nxt = c + 1
        if columns[nxt].type not in ("number", "integer"):
            continue
        paired = [(row[c], row[nxt]) for row in rows if row[nxt] is not None]
        if not paired or sum(a is not None for a, _ in paired) < th.COLUMN_TYPE_SHARE * len(paired):
            continue
        for row in rows:
            a, b = row[c], row[nxt]
            if b is None or not isinstance(b.value, int | float):
                continue
            m = _CURRENCY_ONLY.match(a.text) if a is not None else None
            b.value = {"amount": float(b.value), "currency": currency_code(m.group(1)) if m else ""}
        columns[nxt].type = "price"
        _flag(columns[c], "merged")


def _interface_text(text: str) -> bool:
    words = " ".join(_WORDS.findall(text.lower()))
    return bool(words) and words in th.INTERFACE_WORDS


def _flag_interface(columns: list[Column], rows: list[list[Cell | None]]) -> None:
    """Columns whose texts are interface words (buttons, badges), not the records' data."""
    for c, col in enumerate(columns):
        if col.type not in ("text",) or "label" in col.flags:
            continue
        texts = [x.text for x in _cells(rows, c) if x is not None and x.text.strip()]
        if len(texts) < th.CONSTANT_MIN_RECORDS:
            continue
        if sum(_interface_text(t) for t in texts) < th.COLUMN_TYPE_SHARE * len(texts):
            continue
        linked = [x for x in _cells(rows, c) if x is not None and x.href]
        if linked and "same-link" not in col.flags and len(linked) >= th.COLUMN_TYPE_SHARE * len(texts):
            # "Details" leading to each record's own page: its words are interface, its link data.
            col.type, col.name, col.source = "url", _unique("url", columns), "role"
            for x in linked:
                x.value = x.href
        else:
            _flag(col, "interface")


def _flag_same_links(columns: list[Column], rows: list[list[Cell | None]]) -> None:
    """A column whose links repeat an earlier column's in the same records gives no URL of its own."""
    links = [[cell.href if cell is not None else None for cell in row] for row in rows]
    for c in range(1, len(columns)):
        mine = [row for row in links if row[c]]
        if not mine:
            continue
        same = sum(1 for row in mine if row[c] in row[:c])
        if same >= th.SAME_LINK_SHARE * len(mine):
            _flag(columns[c], "same-link")


def _base(name: str) -> str:
    """A column's name without the number that tells equal names apart ("text_3" -> "text")."""
    return re.sub(r"_\d+$", "", name)


def _merge_sparse(columns: list[Column], rows: list[list[Cell | None]]) -> None:
    """Few-filled columns of one type and kind that never share a record: one field."""
    n = len(rows)
    if n < th.SPARSE_MIN_RECORDS:
        return
    live = [c for c, col in enumerate(columns) if not col.hidden and col.fill <= th.SPARSE_MAX_FILL]
    for k, a in enumerate(live):
        if columns[a].hidden:
            continue
        for b in live[k + 1:]:
            ca, cb = columns[a], columns[b]
            # One role: the same name, and a name that says a role (a class, a label, a header),
            # not one made from the type alone ("text", "number"), which any two fields share.
            if cb.hidden or ca.type != cb.type or set(ca.flags) != set(cb.flags) \
                    or _base(ca.name) != _base(cb.name) or ca.source in th.TYPE_NAME_SOURCES:
                continue
            if any(row[a] is not None and row[b] is not None for row in rows):
                continue
            if ca.fill + cb.fill > th.SPARSE_MAX_FILL * 2:
                continue
            for row in rows:
                if row[a] is None and row[b] is not None:
                    row[a] = row[b]
            ca.fill = sum(row[a] is not None for row in rows) / n
            _flag(cb, "merged")


def _steps(xpath: str) -> list[str]:
    return xpath.split("/")[1:]


def _common(paths: list[list[str]]) -> list[str]:
    out: list[str] = []
    for parts in zip(*paths, strict=False):
        if any(p != parts[0] for p in parts):
            break
        out.append(parts[0])
    return out


def _fold_body(columns: list[Column], rows: list[list[Cell | None]]) -> None:
    """Fold a record's body of many fields into one text column (tables of many columns only)."""
    shown = [c for c, col in enumerate(columns) if not col.hidden]
    if len(shown) < th.FOLD_MIN_COLUMNS:
        return
    sparse = [c for c in shown if columns[c].type == "text" and columns[c].fill < th.FOLD_MAX_FILL]
    if len(sparse) < th.FOLD_MIN_COLUMNS // 2:
        return
    # Per record, the block holding its sparse cells must hold none of its full columns' cells.
    full = [c for c in shown if c not in sparse]
    folded: list[str | None] = []
    for row in rows:
        cells = [x for c in sparse if (x := row[c]) is not None]
        if len(cells) < 2:
            folded.append(" ".join(x.text for x in cells) or None)
            continue
        block = _common([_steps(x.xpath) for x in cells])
        head = _common([_steps(x.xpath) for x in cells] + [_steps(y.xpath) for c in full if (y := row[c]) is not None])
        if len(block) <= len(head):
            return  # the fields are spread over the record, not gathered in a body
        folded.append(" ".join(x.text for x in cells))
    first = sparse[0]
    for row, text in zip(rows, folded, strict=True):
        if text is not None:
            base = row[first] if row[first] is not None else next(row[c] for c in sparse if row[c] is not None)
            assert base is not None
            row[first] = Cell(text, text, base.href, None, base.xpath, base.bbox, ())
        else:
            row[first] = None
    col = columns[first]
    col.name, col.source = _unique("body", columns), "role"
    col.fill = sum(text is not None for text in folded) / max(1, len(rows))
    for c in sparse[1:]:
        _flag(columns[c], "merged")


def _unique(name: str, columns: list[Column]) -> str:
    taken = {c.name for c in columns}
    if name not in taken:
        return name
    k = 2
    while f"{name}_{k}" in taken:
        k += 1
    return f"{name}_{k}"
