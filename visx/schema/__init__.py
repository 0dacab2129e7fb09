"""Schema: typed, named columns for an aligned region, and the :class:`Table` type.

``build_table(nodes, region, alignment, config)`` types every column by
entity rules (:mod:`.entities`: recall rules propose, precision rules decide),
names it (:mod:`.names`: header cell, label, class word, role or type), flags
constant and label columns, and returns a :class:`Table`.
"""

from __future__ import annotations

from visx.schema.build import build_table, build_tables
from visx.schema.entities import TYPES, Typed, type_text
from visx.schema.table import Cell, Column, Table

__all__ = ["TYPES", "Cell", "Column", "Table", "Typed", "build_table", "build_tables", "type_text"]
