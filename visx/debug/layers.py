"""What the debug outputs draw: one flat list of boxes per layer, in page px.

The PNG painter and the HTML report read the same :class:`Layers`, so the
image and the clickable boxes always agree. Keys are stable ids shared by a
box and its row in the report: ``rm3`` (removal 3), ``g1`` (region of rank
1), ``g1r3`` (its record 3), ``g1r3c2`` (that record's cell in column 2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from visx.clean.reasons import family
from visx.debug.palette import column_colour, family_colour, region_colour
from visx.model import BBox

if TYPE_CHECKING:
    from visx.pipeline import Extraction
    from visx.schema.table import Table


@dataclass(slots=True, frozen=True)
class Box:
    """One rectangle to draw, and what it stands for."""

    key: str
    kind: str
    """``removed``, ``region``, ``record`` or ``cell``."""
    bbox: BBox
    colour: str
    label: str
    """Short text drawn on the image: ``#1``, ``3``, ``band:header``."""
    region: int = 0
    """Rank of the region the box belongs to (0 for removals)."""
    record: int = 0
    """1-based record number inside its region (0 when not a record or cell)."""
    column: int = -1


@dataclass(slots=True)
class Layers:
    """The boxes of every layer, bottom to top, and the canvas they fit."""

    width: int
    """Canvas size in page px: the page, cropped at the configured limits."""
    height: int
    page_width: float
    page_height: float
    removed: list[Box] = field(default_factory=list)
    cells: list[Box] = field(default_factory=list)
    records: list[Box] = field(default_factory=list)
    regions: list[Box] = field(default_factory=list)

    def beyond(self, box: Box) -> bool:
        """True when the box starts below or right of the canvas (cut off)."""
        return box.bbox[1] >= self.height or box.bbox[0] >= self.width


def table_for(ex: Extraction, k: int) -> Table | None:
    """The table of region ``k`` (rank order), or None when the table stages did not run."""
    return ex.tables[k] if k < len(ex.tables) else None


def build_layers(ex: Extraction, width: int, height: int) -> Layers:
    """The boxes of ``ex`` on a ``width`` x ``height`` canvas."""
    nodes = ex.snapshot.nodes
    out = Layers(width, height, ex.snapshot.width, ex.snapshot.height)
    for i, rm in enumerate(ex.cleaned.removed):
        if not 0 <= rm.node < len(nodes):
            continue
        bbox = nodes[rm.node].bbox
        if bbox[2] <= 0 or bbox[3] <= 0:  # display:none, <head>, <script>: nothing to shade
            continue
        out.removed.append(Box(f"rm{i}", "removed", bbox, family_colour(family(rm.reason)), rm.reason))
    for k, rg in enumerate(ex.regions):
        colour = region_colour(rg.rank)
        out.regions.append(Box(f"g{rg.rank}", "region", rg.bbox, colour, f"#{rg.rank}", region=rg.rank))
        table = table_for(ex, k)
        shown = set(table.default_columns()) if table is not None else set()
        for r, rec in enumerate(rg.records, 1):
            key = f"g{rg.rank}r{r}"
            out.records.append(Box(key, "record", rec.bbox, colour, str(r), region=rg.rank, record=r))
            if table is None or r > len(table.rows):
                continue
            for c, cell in enumerate(table.rows[r - 1]):
                if cell is None or c not in shown or cell.bbox[2] <= 0 or cell.bbox[3] <= 0:
                    continue
                out.cells.append(Box(f"{key}c{c}", "cell", cell.bbox, column_colour(c),
                                     table.columns[c].name, region=rg.rank, record=r, column=c))
    return out
