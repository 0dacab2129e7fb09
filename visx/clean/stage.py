"""The cleaning stage: invisible first, then overlays, ads, bands and columns."""

from __future__ import annotations

from visx.clean.ads import remove_ads
from visx.clean.bands import (
    remove_columns_beside_main,
    remove_footer,
    remove_header,
    remove_side_columns,
)
from visx.clean.guard import Guard
from visx.clean.overlays import remove_overlays
from visx.clean.page import Marks, PageView
from visx.clean.visibility import remove_invisible
from visx.config import CleanConfig
from visx.model import Cleaned, PageSnapshot


def clean(snapshot: PageSnapshot, config: CleanConfig | None = None) -> Cleaned:
    """Mark noise subtrees as removed, each with a reason; the snapshot is not changed.

    Passes run in order and skip what an earlier pass removed; ``removed``
    lists only top-most removals, ``dropped`` marks every removed node.
    """
    config = config or CleanConfig()
    if not config.enabled or not len(snapshot.nodes):
        return Cleaned(removed=[], dropped=bytearray(len(snapshot.nodes)))
    view = PageView(snapshot)
    marks = Marks(view.end)
    remove_invisible(view, marks)
    # The guard sees the page without its invisible parts, as a reader would.
    guard = Guard(view, marks.dropped)
    if config.overlays:
        remove_overlays(view, marks, guard)
    if config.ads:
        remove_ads(view, marks, guard)
    if config.bands:
        remove_header(view, marks, guard)
        remove_footer(view, marks, guard)
    if config.side_columns:
        remove_side_columns(view, marks, guard)
        remove_columns_beside_main(view, marks, guard)
    return Cleaned(removed=marks.top_most(), dropped=marks.dropped)
