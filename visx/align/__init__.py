"""Alignment: the records of a region -> columns of data items.

``align_region(nodes, region, config)`` builds one small tree per record
(:mod:`.tree`), collapses nested lists of varying length into single items,
grows a seed tree by DEPTA's partial tree alignment (:mod:`.partial`) using
simple tree matching with style evidence (:mod:`.stm`), and returns an
:class:`Alignment`: per record, per column, the data item or None.
"""

from __future__ import annotations

from visx.align.api import align_region, align_regions
from visx.align.model import AlignedColumn, Alignment, Item

__all__ = ["AlignedColumn", "Alignment", "Item", "align_region", "align_regions"]
