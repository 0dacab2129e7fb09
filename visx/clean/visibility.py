"""Invisible subtrees: non-content elements and what the browser does not show.

Always allowed, never subject to the guard: what is not shown is not a record.
An element that is hidden or off the page but holds a visible descendant
(``visibility: visible`` inside ``hidden``, a child positioned back on the
page) is descended into instead of removed.
"""

from __future__ import annotations

from visx.clean.page import Marks, PageView
from visx.clean.reasons import INVISIBLE_NON_CONTENT, VIS_FLAG_REASONS
from visx.clean.thresholds import NON_CONTENT_TAGS
from visx.model import VIS_DISPLAY_NONE, VIS_TRANSPARENT

_INHERITED = VIS_DISPLAY_NONE | VIS_TRANSPARENT
"""Flags the snapshot already propagates to every descendant."""


def remove_invisible(view: PageView, marks: Marks) -> None:
    nodes = view.nodes.nodes
    vis, end, parent = view.vis, view.end, view.parent
    n = len(nodes)
    shown = bytearray(n)
    for i in range(n - 1, 0, -1):
        if shown[i] or (vis[i] == 0 and nodes[i].w > 0 and nodes[i].h > 0):
            shown[parent[i]] = 1
    dropped = marks.dropped
    i = 0
    while i < n:
        if dropped[i]:
            i = end[i]
            continue
        if nodes[i].tag in NON_CONTENT_TAGS:
            marks.drop(i, INVISIBLE_NON_CONTENT, nodes[i].tag)
            i = end[i]
            continue
        f = vis[i]
        if f and (f & _INHERITED or not shown[i]):
            marks.drop(i, _reason(f), f"flags={f}")
            i = end[i]
            continue
        i += 1


def _reason(flags: int) -> str:
    # The snapshot only sets the known bits; the last one is the weakest claim.
    return next((reason for bit, reason in VIS_FLAG_REASONS if flags & bit), VIS_FLAG_REASONS[-1][1])
