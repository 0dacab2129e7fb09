"""What alignment produces: per record, per column, the data item (if any)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

ITEM_KINDS = ("text", "image", "link", "attr", "stars", "list")
"""``text``: a visible text piece; ``image``: an ``img`` (src, alt as text);
``link``: an ``a`` without text or image (href only); ``attr``: an element whose
only content is its ``aria-label``/``title``; ``stars``: a star widget whose
filled width is the rating; ``list``: a nested list collapsed into one value."""


class Item(NamedTuple):
    """One data item of a record (a NamedTuple: records make many of them)."""

    kind: str
    text: str
    """Raw visible text (image: alt text; list: entries joined by ``"; "``)."""
    node: int
    """Element holding the item (a text piece's parent element)."""
    href: str = ""
    """Target of the nearest enclosing link inside the record."""
    src: str = ""
    values: tuple[str, ...] = ()
    """List entries, for ``kind == "list"``."""
    hrefs: tuple[str, ...] = ()
    """Per-entry link targets of a list ("" when an entry has none)."""
    nodes: tuple[int, ...] = ()
    """Per-entry elements of a list."""
    fill: float | None = None
    """Filled share (0..1) of a star widget, for ``kind == "stars"``."""


@dataclass(slots=True)
class AlignedColumn:
    """One column of the aligned region, as found in the seed tree."""

    kind: str
    """The item kind of the column (see :data:`ITEM_KINDS`)."""
    path: str
    """Tag path from the record root in the seed, e.g. ``li/a/#text``."""
    seed_node: int
    """Element of the first record that fills the column (for names and debugging)."""


@dataclass(slots=True)
class Alignment:
    """Records x columns of data items; columns in the seed's reading order."""

    columns: list[AlignedColumn]
    cells: list[list[Item | None]]
    """``cells[r][c]``: the item of record ``r`` in column ``c``, or None."""
    seed: int = -1
    """Index of the seed record (-1 when the region has no records)."""
    forced: int = 0
    """Items placed at a guessed position after the DEPTA rounds ran out."""
    stats: dict[str, float] = field(default_factory=dict)

    @property
    def n_records(self) -> int:
        return len(self.cells)
