"""The table of one region: typed, named columns and rows of cells.

``Table.columns`` holds every aligned column; those flagged ``constant`` or
``label`` are left out of the default view (:meth:`Table.default_columns`,
:meth:`Table.to_records`) but stay available with ``all_columns=True``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from visx.model import BBox

if TYPE_CHECKING:
    import pandas

HIDDEN_FLAGS = frozenset({"constant", "label", "interface", "merged"})
"""Columns with one of these flags are not in the default table."""


@dataclass(slots=True)
class Column:
    """One field of the records: its name, type, fill rate and flags."""

    name: str
    type: str
    """One of :data:`visx.schema.entities.TYPES`."""
    fill: float
    """Share of records with a value in this column."""
    flags: tuple[str, ...] = ()
    """``constant`` (same value everywhere), ``label`` (names another column),
    ``interface`` (button and badge words), ``merged`` (its values moved to another
    column), ``same-link`` (its links repeat an earlier column's: no URL field),
    ``list`` (list-valued cells), ``relative`` (relative dates kept raw), ..."""
    source: str = ""
    """Where the name comes from: ``header``, ``label``, ``class``, ``role``, ``type``
    or ``text`` (a constant column is named after its own text)."""

    @property
    def hidden(self) -> bool:
        return not HIDDEN_FLAGS.isdisjoint(self.flags)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.type, "fill": round(self.fill, 4),
                "flags": list(self.flags), "source": self.source}


@dataclass(slots=True)
class Cell:
    """One value: raw text as shown, typed value, link or image, and where it is."""

    text: str
    value: Any
    """JSON-ready typed value: float/int, ISO date string, ``{"amount", "currency"}``
    for prices, a list of strings for list cells; None when the text does not parse."""
    href: str | None = None
    src: str | None = None
    xpath: str = ""
    bbox: BBox = (0.0, 0.0, 0.0, 0.0)
    flags: tuple[str, ...] = ()

    def to_dict(self, column: int) -> dict[str, Any]:
        return {"column": column, "text": self.text, "value": self.value, "href": self.href,
                "src": self.src, "xpath": self.xpath, "bbox": list(self.bbox)}


@dataclass(slots=True)
class Table:
    """The table of one region; ``rows[r]`` belongs to the region's record ``r``."""

    rank: int
    columns: list[Column]
    rows: list[list[Cell | None]]
    warnings: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.rows)

    def default_columns(self) -> list[int]:
        """Indices of the columns of the default table (not constant, not labels)."""
        return [i for i, c in enumerate(self.columns) if not c.hidden]

    def field_names(self, *, all_columns: bool = False) -> list[str]:
        """The keys :meth:`to_records` produces, in order."""
        names: list[str] = []
        for i in self._picked(all_columns):
            names.extend(self._keys(i))
        return names

    def to_records(self, *, all_columns: bool = False, raw: bool = False) -> list[dict[str, Any]]:
        """One flat dict per record: ``name`` -> typed value (raw text when ``raw``
        or when the text did not parse; the ``src`` for images), plus
        ``name_currency`` for prices and ``name_url`` for linked values.
        Missing values are None."""
        keys = {i: self._keys(i) for i in self._picked(all_columns)}
        out = []
        for row in self.rows:
            rec: dict[str, Any] = {}
            for i, ks in keys.items():
                rec.update(self._flat(i, ks, row[i], raw=raw))
            out.append(rec)
        return out

    def to_pandas(self, *, all_columns: bool = False, raw: bool = False) -> pandas.DataFrame:
        """The records as a DataFrame (needs the ``pandas`` extra)."""
        try:
            import pandas as pd
        except ImportError as e:  # pragma: no cover - depends on the environment
            from visx.errors import ExportError

            raise ExportError(
                "Table.to_pandas needs pandas: install it with `pip install 'visx[pandas]'`"
            ) from e
        return pd.DataFrame(self.to_records(all_columns=all_columns, raw=raw),
                            columns=self.field_names(all_columns=all_columns))

    def _picked(self, all_columns: bool) -> list[int]:
        return list(range(len(self.columns))) if all_columns else self.default_columns()

    def _keys(self, i: int) -> list[str]:
        c = self.columns[i]
        keys = [c.name]
        if c.type == "price":
            keys.append(f"{c.name}_currency")
        if "range" in c.flags:
            keys.append(f"{c.name}_max")
        if c.type != "url" and "same-link" not in c.flags \
                and any(r[i] is not None and r[i].href for r in self.rows):  # type: ignore[union-attr]
            keys.append(f"{c.name}_url")
        return keys

    def _flat(self, i: int, keys: list[str], cell: Cell | None, *, raw: bool) -> dict[str, Any]:
        c = self.columns[i]
        out: dict[str, Any] = dict.fromkeys(keys)
        if cell is None:
            return out
        value = cell.value
        if c.type == "image":
            out[c.name] = cell.src
        elif raw or value is None:
            out[c.name] = cell.text
        elif c.type == "price" and isinstance(value, dict):
            out[c.name] = value.get("amount")
            out[f"{c.name}_currency"] = value.get("currency")
            if f"{c.name}_max" in out:
                out[f"{c.name}_max"] = value.get("max")
        else:
            out[c.name] = value
        if keys[-1] == f"{c.name}_url":
            out[keys[-1]] = cell.href
        return out

    def to_dict(self) -> dict[str, Any]:
        """Columns and rows in the JSON form of the export contract."""
        return {
            "rank": self.rank,
            "columns": [c.to_dict() for c in self.columns],
            "rows": [[cell.to_dict(i) if cell else None for i, cell in enumerate(row)]
                     for row in self.rows],
            "warnings": list(self.warnings),
        }
