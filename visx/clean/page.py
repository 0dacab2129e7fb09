"""Flat per-node arrays and the removal marks the cleaning passes share.

Every pass walks the tree in document order and skips whole subtrees with
``i = end[i]``, so each pass is linear in the number of elements.
"""

from __future__ import annotations

from visx.model import STYLE_INDEX, NodeTable, PageSnapshot, Removal

_CONTENT_TAGS = frozenset(
    {"img", "svg", "video", "canvas", "input", "button", "select", "textarea", "iframe", "picture"}
)

_UNCLIPPED = frozenset({"visible", ""})
_VIEWPORT_TAGS = frozenset({"html", "body"})


def _painted_styles(table: NodeTable) -> set[int]:
    """Styles whose background stands out from the page's: such a box (a header
    bar, a card) is seen whole, not only where its text is."""
    bg = STYLE_INDEX["background-color"]
    page = _WHITE
    body = next((c for c in table[0].children if table[c].tag == "body"), None)
    for i in (body, 0):
        if i is not None and _opaque(table.style(i, "background-color")):
            page = table.style(i, "background-color")
            break
    return {k for k, st in enumerate(table.styles) if _opaque(st[bg]) and st[bg] != page}


def _opaque(color: str) -> bool:
    if color.startswith("rgba("):
        return not color.rstrip(")").endswith(" 0")
    return color not in ("transparent", "")


_WHITE = "rgb(255, 255, 255)"


class PageView:
    """Read-only columns of one snapshot, computed once per clean."""

    __slots__ = (
        "content_bottom",
        "end",
        "ext",
        "frame",
        "ltext",
        "nodes",
        "page_area",
        "page_h",
        "page_w",
        "parent",
        "tlen",
        "vis",
        "vw_vh",
    )

    def __init__(self, snap: PageSnapshot) -> None:
        table: NodeTable = snap.nodes
        nodes = table.nodes
        self.nodes = table
        n = len(nodes)
        self.parent = parent = [nd.parent for nd in nodes]
        self.end = [nd.end for nd in nodes]
        self.vis = vis = [nd.vis for nd in nodes]
        self.page_w = max(float(snap.width), 1.0)
        self.page_h = max(float(snap.height), 1.0)
        self.page_area = self.page_w * self.page_h
        self.vw_vh = (float(snap.viewport[0]), float(snap.viewport[1]))
        # Visible text length: own text (text plus the tails of children), then
        # summed per subtree; the part inside links likewise.
        own = [0] * n
        for nd in nodes:
            if nd.text and not nd.vis:
                own[nd.index] += len(nd.text)
            if nd.tail and nd.parent >= 0 and not vis[nd.parent]:
                own[nd.parent] += len(nd.tail)
        tlen = own[:]
        ltext = [0] * n
        # Extent of the visible content of each subtree (x0, y0, x1, y1): boxes of
        # collapsed wrappers (floats, absolute children) understate what they hold,
        # and full-width wrappers overstate it. Kept as four columns while summing.
        painted = _painted_styles(table)
        ov = STYLE_INDEX["overflow"]
        clipping = {k for k, st in enumerate(table.styles) if st[ov] not in _UNCLIPPED}
        inf = float("inf")
        x0 = [inf] * n
        y0 = [inf] * n
        x1 = [-inf] * n
        y1 = [-inf] * n
        for i in range(n - 1, -1, -1):
            nd = nodes[i]
            if nd.vis:
                continue
            if nd.w > 0 and nd.h > 0 and (
                not nd.children or own[i] or nd.tag in _CONTENT_TAGS or nd.style in painted
            ):
                a, b, c, d = nd.x, nd.y, nd.x + nd.w, nd.y + nd.h
                if a < x0[i]:
                    x0[i] = a
                if b < y0[i]:
                    y0[i] = b
                if c > x1[i]:
                    x1[i] = c
                if d > y1[i]:
                    y1[i] = d
            if nd.tag == "a":
                ltext[i] = tlen[i]
            p = parent[i]
            if p < 0:
                continue
            tlen[p] += tlen[i]
            ltext[p] += ltext[i]
            if x0[i] < inf and nodes[p].style in clipping and nodes[p].tag not in _VIEWPORT_TAGS:
                # Content overflowing a clipping box (map tiles, carousels) is not
                # shown. (html and body hand their overflow to the viewport.)
                pn = nodes[p]
                x0[i], y0[i] = max(x0[i], pn.x), max(y0[i], pn.y)
                x1[i], y1[i] = min(x1[i], pn.x + pn.w), min(y1[i], pn.y + pn.h)
                if x0[i] >= x1[i] or y0[i] >= y1[i]:
                    x0[i], y0[i], x1[i], y1[i] = inf, inf, -inf, -inf
                    continue
            if x0[i] < inf:
                if x0[i] < x0[p]:
                    x0[p] = x0[i]
                if y0[i] < y0[p]:
                    y0[p] = y0[i]
                if x1[i] > x1[p]:
                    x1[p] = x1[i]
                if y1[i] > y1[p]:
                    y1[p] = y1[i]
        self.tlen = tlen
        self.ltext = ltext
        self.ext: list[tuple[float, float, float, float]] = list(zip(x0, y0, x1, y1, strict=True))
        if n and x0[0] < inf:
            left, right = max(x0[0], 0.0), min(x1[0], self.page_w)
            self.frame = (left, max(right, left + 1.0))
            self.content_bottom = max(min(y1[0], self.page_h), 1.0)
        else:
            self.frame = (0.0, self.page_w)
            self.content_bottom = self.page_h

    @property
    def frame_w(self) -> float:
        return self.frame[1] - self.frame[0]

    def has_extent(self, i: int) -> bool:
        return self.ext[i][0] < float("inf")

    def ext_width(self, i: int) -> float:
        """Width of the subtree's visible extent, clipped to the frame."""
        e = self.ext[i]
        return max(0.0, min(e[2], self.frame[1]) - max(e[0], self.frame[0]))


class Marks:
    """Removals made so far; ``dropped`` marks whole subtrees."""

    __slots__ = ("dropped", "end", "removed")

    def __init__(self, end: list[int]) -> None:
        self.end = end
        self.dropped = bytearray(len(end))
        self.removed: list[Removal] = []

    def drop(self, i: int, reason: str, detail: str = "") -> None:
        e = self.end[i]
        self.dropped[i:e] = b"\x01" * (e - i)
        self.removed.append(Removal(i, reason, detail))

    def top_most(self) -> list[Removal]:
        """Removals in document order, without those inside another removal."""
        out: list[Removal] = []
        stop = -1
        for r in sorted(self.removed, key=lambda r: r.node):
            if r.node < stop:
                continue
            out.append(r)
            stop = self.end[r.node]
        return out
