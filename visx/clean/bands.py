"""Header and footer bands, left and right side columns.

Bands. The *blocks* of a zone (the top or bottom of the content, capped in
pixels and as a share of the content height) are the top-most subtrees whose
visible content lies entirely inside it. The header band is the run of
blocks stacked from the top without a vertical gap, plus the blocks above
the page's best list (the guard's likely main content). It counts when the
union of its blocks' horizontal extents spans most of the frame's width and it holds
what bands hold: links or a form control; ``<header>``/``<footer>`` and the
banner/contentinfo roles are hints that let a narrower band count. Its lower
edge never passes the top of the best list, and it is pulled up above any
element that begins inside the band and reaches well below the edge (a
column, the first block of the main column): the band must not swallow the
main content. The footer band is the same from the bottom up.

Side columns, two ways. In a layout row (an element spanning much of the
frame and of the page height), a child that is narrow, tall and entirely to
the left or right of the row's largest child (the main column). And, for
columns that are not siblings of the main column, a narrow, tall subtree (or
the union of stacked siblings) entirely to one side of the best list and
running beside it.

Every removal here is by position, so the guard may veto it; a vetoed
subtree is searched for smaller blocks instead.
"""

from __future__ import annotations

from collections.abc import Callable

from visx.clean.guard import Guard
from visx.clean.page import Marks, PageView
from visx.clean.reasons import BAND_FOOTER, BAND_HEADER, COLUMN_LEFT, COLUMN_RIGHT
from visx.clean.thresholds import (
    BAND_CHAIN_GAP_PX,
    BAND_CUT_MIN_PX,
    BAND_EDGE_TOL_PX,
    BAND_START_MAX_PX,
    BAND_WIDE_FRAC,
    FOOTER_ZONE_MAX_FRAC,
    FOOTER_ZONE_MAX_PX,
    HEADER_ZONE_MAX_FRAC,
    HEADER_ZONE_MAX_PX,
    SEMANTIC_BAND_MIN_FRAC,
    SIDE_ANCHOR_MIN_FRAC,
    SIDE_ANCHOR_MIN_OVERLAP_PX,
    SIDE_MAIN_RATIO,
    SIDE_MAX_FRAC,
    SIDE_MIN_HEIGHT_PX,
    SIDE_MIN_OVERLAP,
    SIDE_MIN_WIDTH_PX,
    SIDE_ROW_MIN_FRAC,
    SIDE_ROW_MIN_HEIGHT_FRAC,
)

Extent = tuple[float, float, float, float]

_PAGE_TAGS = frozenset({"html", "body"})
_CONTROL_TAGS = frozenset({"input", "button", "select", "form"})
_HEADER_HINTS = (("header",), ("banner",))
_FOOTER_HINTS = (("footer",), ("contentinfo",))


def remove_header(view: PageView, marks: Marks, guard: Guard) -> None:
    top = view.ext[0][1] if view.has_extent(0) else 0.0
    limit = min(top + HEADER_ZONE_MAX_PX, HEADER_ZONE_MAX_FRAC * view.content_bottom)
    _remove_band(view, marks, guard, top, limit, down=True)


def remove_footer(view: PageView, marks: Marks, guard: Guard) -> None:
    bottom = view.content_bottom
    limit = max(bottom - FOOTER_ZONE_MAX_PX, (1.0 - FOOTER_ZONE_MAX_FRAC) * bottom)
    _remove_band(view, marks, guard, bottom, limit, down=False)


def _remove_band(view: PageView, marks: Marks, guard: Guard, start: float, limit: float, *, down: bool) -> None:
    """The header band (``down``: from ``start`` at the top down to ``limit``) or the footer
    band (from the bottom up). Written for the header; the footer runs the same steps on
    negated y, where its bottom-up order reads top-down (negation is exact, so the two
    directions compare the same numbers)."""
    sign = 1.0 if down else -1.0
    tol = BAND_EDGE_TOL_PX
    ext = view.ext

    def near(b: int) -> float:
        """The block's edge met first along the direction of travel, in signed y."""
        return ext[b][1] if down else -ext[b][3]

    def far(b: int) -> float:
        return ext[b][3] if down else -ext[b][1]

    if down:  # the zone test stays in page y: _blocks reads raw extents
        blocks = _blocks(view, marks, guard, lambda e: e[3] <= limit + tol, lambda e: e[1] >= limit)
    else:
        blocks = _blocks(view, marks, guard, lambda e: e[1] >= limit - tol, lambda e: e[3] <= limit)
    blocks.sort(key=near)
    band: set[int] = set()
    reach = sign * start + BAND_START_MAX_PX - BAND_CHAIN_GAP_PX
    for b in blocks:
        if near(b) > reach + BAND_CHAIN_GAP_PX:
            break
        band.add(b)
        reach = max(reach, far(b))
    main_near = None
    if guard.main is not None:
        main_near = guard.main[1] if down else -guard.main[3]
        band.update(b for b in blocks if far(b) <= main_near + tol)
    if not _is_band(view, band, _HEADER_HINTS if down else _FOOTER_HINTS):
        return
    first = min(near(b) for b in band)
    reach = max(far(b) for b in band)
    if main_near is not None:
        reach = min(reach, main_near)
    edge = _clean_cut(view, marks, sign * first, sign * reach, down=down)
    reach = sign * edge
    reason, what = (BAND_HEADER, "band bottom") if down else (BAND_FOOTER, "band top")
    for b in blocks:
        if far(b) <= reach + tol:
            marks.drop(b, reason, f"{what} {edge:.0f}")


def _blocks(
    view: PageView,
    marks: Marks,
    guard: Guard,
    inside: Callable[[Extent], bool],
    outside: Callable[[Extent], bool],
) -> list[int]:
    """Top-most subtrees whose extent is inside the zone and that the guard allows."""
    nodes = view.nodes.nodes
    dropped, end, ext = marks.dropped, view.end, view.ext
    out: list[int] = []
    n = len(nodes)
    i = 0
    while i < n:
        e = ext[i]
        if dropped[i] or e[0] == float("inf") or outside(e):
            i = end[i]
            continue
        if inside(e) and nodes[i].tag not in _PAGE_TAGS and not guard.vetoes(i):
            out.append(i)
            i = end[i]
            continue
        i += 1
    return out


def _clean_cut(view: PageView, marks: Marks, start: float, edge: float, *, down: bool) -> float:
    """Move a band's inner edge (``down``: the header's lower edge, else the footer's
    upper edge) back so that it does not run through an element that begins inside
    the band, after its first row, and reaches well past the edge: a column or the
    main column's first block. The band then ends where that element begins."""
    nodes, dropped, end, ext = view.nodes.nodes, marks.dropped, view.end, view.ext
    tol, cut = BAND_EDGE_TOL_PX, BAND_CUT_MIN_PX
    n = len(nodes)
    i = 0
    while i < n:
        e = ext[i]
        # An element's parts lie inside its extent: when it does not straddle the
        # edge by enough, neither does any of its parts.
        lo, hi = (e[1], e[3]) if down else (-e[3], -e[1])
        edge_s = edge if down else -edge
        if dropped[i] or e[0] == float("inf") or lo >= edge_s or hi <= edge_s + cut:
            i = end[i]
            continue
        if nodes[i].tag not in _PAGE_TAGS and lo > (start if down else -start) + tol:
            edge_s = lo
            edge = edge_s if down else -edge_s
        i += 1
    return edge


def _is_band(view: PageView, band: set[int], hints: tuple[tuple[str], tuple[str]]) -> bool:
    """Does the union of the blocks span most of the frame's width, and does it
    hold what bands hold (links, a form control, a header/footer element)? A page
    title or a note alone is not a band."""
    if not band:
        return False
    ext = view.ext
    fx0, fx1 = view.frame
    covered = covered_length([(ext[b][0], ext[b][2]) for b in band], fx0, fx1)
    hinted = any(_has_hint(view, b, hints) for b in band)
    need = SEMANTIC_BAND_MIN_FRAC if hinted else BAND_WIDE_FRAC
    if covered < need * view.frame_w:
        return False
    nodes = view.nodes.nodes
    return hinted or any(
        view.ltext[b] or any(nodes[j].tag in _CONTROL_TAGS for j in range(b, view.end[b])) for b in band
    )


def _has_hint(view: PageView, i: int, hints: tuple[tuple[str], tuple[str]]) -> bool:
    """The block or one of its first few descendants is a header/footer element."""
    tags, roles = hints
    nodes = view.nodes.nodes
    for j in range(i, min(view.end[i], i + 8)):
        nd = nodes[j]
        if nd.tag in tags or nd.attrs.get("role", "") in roles:
            return True
    return False


def remove_side_columns(view: PageView, marks: Marks, guard: Guard) -> None:
    nodes = view.nodes.nodes
    dropped, end, ext = marks.dropped, view.end, view.ext
    min_row_w = SIDE_ROW_MIN_FRAC * view.frame_w
    min_row_h = SIDE_ROW_MIN_HEIGHT_FRAC * view.content_bottom
    n = len(nodes)
    i = 0
    while i < n:
        e = ext[i]
        # Rows nest inside rows: a subtree too narrow or too short holds none.
        if dropped[i] or e[0] == float("inf") or e[3] - e[1] < min_row_h or view.ext_width(i) < min_row_w:
            i = end[i]
            continue
        _split_row(view, marks, guard, i)
        i += 1


def remove_columns_beside_main(view: PageView, marks: Marks, guard: Guard) -> None:
    """Columns that are not siblings of the main column (absolutely placed panels,
    columns nested in wrappers that also hold the header): narrow, tall subtrees
    entirely to one side of the best list and running beside it."""
    main = guard.main
    if main is None or main[2] - main[0] < SIDE_ANCHOR_MIN_FRAC * view.frame_w:
        return
    ext, end, dropped = view.ext, view.end, marks.dropped
    nodes = view.nodes.nodes
    max_w = SIDE_MAX_FRAC * view.frame_w

    def is_column(e: Extent) -> bool:
        w = min(e[2], view.frame[1]) - max(e[0], view.frame[0])
        h = e[3] - e[1]
        overlap = min(e[3], main[3]) - max(e[1], main[1])
        return SIDE_MIN_WIDTH_PX <= w <= max_w and h >= SIDE_MIN_HEIGHT_PX and overlap >= SIDE_ANCHOR_MIN_OVERLAP_PX

    tol = BAND_EDGE_TOL_PX
    n = len(nodes)
    i = 0
    while i < n:
        e = ext[i]
        # A subtree's content lies inside its extent: when the extent is too short,
        # too far above or below the list, or within the list's span, so is every
        # part of it.
        if (
            dropped[i]
            or e[0] == float("inf")
            or e[3] - e[1] < SIDE_MIN_HEIGHT_PX
            or min(e[3], main[3]) - max(e[1], main[1]) < SIDE_ANCHOR_MIN_OVERLAP_PX
            or (e[0] >= main[0] - tol and e[2] <= main[2] + tol)
        ):
            i = end[i]
            continue
        side = _side_of(e, main, tol)
        if side and nodes[i].tag not in _PAGE_TAGS and is_column(e) and not guard.vetoes(i):
            marks.drop(i, side, f"{view.ext_width(i):.0f}px beside the main list")
            i = end[i]
            continue
        if len(nodes[i].children) >= 2:
            _stacked_column(view, marks, guard, i, main, is_column)
        i += 1


def _stacked_column(
    view: PageView, marks: Marks, guard: Guard, i: int, main: Extent, is_column: Callable[[Extent], bool]
) -> None:
    """A column made of stacked siblings (portlets, widgets): judged by their union."""
    ext, dropped = view.ext, marks.dropped
    by_side: dict[str, list[int]] = {}
    for c in view.nodes[i].children:
        if not dropped[c] and ext[c][0] != float("inf"):
            side = _side_of(ext[c], main, BAND_EDGE_TOL_PX)
            if side:
                by_side.setdefault(side, []).append(c)
    for side, kids in by_side.items():
        if len(kids) < 2:
            continue
        union = union_extent([ext[c] for c in kids])
        if is_column(union):
            for c in kids:
                if not guard.vetoes(c):
                    marks.drop(c, side, f"part of a {union[2] - union[0]:.0f}px column")


def covered_length(spans: list[tuple[float, float]], lo: float, hi: float) -> float:
    """Length of ``[lo, hi]`` covered by the union of ``spans`` (overlaps counted once)."""
    total, reach = 0.0, lo
    clipped = ((max(min(a, b), lo), min(max(a, b), hi)) for a, b in spans)
    for a, b in sorted(c for c in clipped if c[0] < c[1]):
        if b > reach:
            total += b - max(a, reach)
            reach = b
    return total


def union_extent(extents: list[Extent]) -> Extent:
    """The smallest extent holding all of ``extents``."""
    return (min(min(e[0], e[2]) for e in extents), min(min(e[1], e[3]) for e in extents),
            max(max(e[0], e[2]) for e in extents), max(max(e[1], e[3]) for e in extents))


def _side_of(e: Extent, main: Extent, tol: float) -> str:
    if e[2] <= main[0] + tol:
        return COLUMN_LEFT
    if e[0] >= main[2] - tol:
        return COLUMN_RIGHT
    return ""


def _split_row(view: PageView, marks: Marks, guard: Guard, row: int) -> None:
    ext, dropped = view.ext, marks.dropped
    kids = [c for c in view.nodes[row].children if not dropped[c] and ext[c][0] != float("inf")]
    if len(kids) < 2:
        return
    main = max(kids, key=lambda c: view.ext_width(c) * (ext[c][3] - ext[c][1]))
    m = ext[main]
    mw, mh = view.ext_width(main), m[3] - m[1]
    row_w = view.ext_width(row)
    tol = BAND_EDGE_TOL_PX
    for c in kids:
        if c == main:
            continue
        e = ext[c]
        cw, ch = view.ext_width(c), e[3] - e[1]
        if not (SIDE_MIN_WIDTH_PX <= cw <= SIDE_MAX_FRAC * row_w and mw >= SIDE_MAIN_RATIO * cw):
            continue
        if ch < SIDE_MIN_HEIGHT_PX:
            continue
        overlap = min(e[3], m[3]) - max(e[1], m[1])
        if overlap < SIDE_MIN_OVERLAP * min(ch, mh):
            continue
        if e[2] <= m[0] + tol:
            reason = COLUMN_LEFT
        elif e[0] >= m[2] - tol:
            reason = COLUMN_RIGHT
        else:
            continue
        if not guard.vetoes(c):
            marks.drop(c, reason, f"{cw:.0f}px of {row_w:.0f}px")
