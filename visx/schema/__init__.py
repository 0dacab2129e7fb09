"""Schema: typed, named columns for an aligned region, and the :class:`Table` type.

``build_table(nodes, region, alignment, config)`` types every column by
entity rules (:mod:`.entities`: recall rules propose, precision rules decide),
names it (:mod:`.names`: header cell, label, class word, role or type), flags
constant and label columns, and returns a :class:`Table`.

The names below load on first use: ``import visx`` needs only :mod:`.table`, and
the typing rules (many compiled patterns) are imported while the browser works
(:mod:`visx.prewarm`) or when a table is first built.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from visx.schema.build import build_table, build_tables
    from visx.schema.entities import TYPES, Typed, type_text
    from visx.schema.table import Cell, Column, Table

_HOME = {
    "build_table": "build", "build_tables": "build",
    "TYPES": "entities", "Typed": "entities", "type_text": "entities",
    "Cell": "table", "Column": "table", "Table": "table",
}

__all__ = ["TYPES", "Cell", "Column", "Table", "Typed", "build_table", "build_tables", "type_text"]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'visx.schema' has no attribute {name!r}")
    return getattr(importlib.import_module(f"visx.schema.{home}"), name)
