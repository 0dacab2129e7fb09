"""Seed step 2: the page's text cut into entities.

Text is cut at every tag and at every separator (``FlatConfig.separators``);
then adjacent pieces are merged when only inline tags lie between them and
their text nodes differ by one depth level (``<b>Price:</b> $5``, ``<a>Title</a>
(2019)``), as the seed says. Departure: a block edge, a ``<br>`` or a separator
between two pieces always keeps them apart, whatever their depths; the seed
merges on depth alone, which joins a record's last field to the next record's
first when each field is a bare ``<p>``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from visx.flat import thresholds as th
from visx.flat.model import Entity, TextPos
from visx.model import NON_CONTENT_TAGS, VIS_DISPLAY_NONE, VIS_HIDDEN, BBox, Cleaned, NodeTable

_LINE_TAGS = frozenset({"br", "hr", "img", "input", "select", "textarea", "button", "svg", "video", "iframe"})
"""Elements that end a line or stand for content: never merged across."""
_PRE_TAGS = frozenset({"pre", "textarea", "listing", "xmp", "plaintext"})
_PRE_SEPARATORS = r"\n|\t| {2,}"
"""In preformatted text a line break ends a record's line and tabs or runs of spaces
separate aligned columns."""


def separator_pattern(separators: Sequence[str]) -> re.Pattern[str]:
    """One expression for the separators; a space in a separator matches any whitespace run."""
    alts = []
    for sep in sorted(separators, key=len, reverse=True):
        core = sep.strip()
        if not core:
            continue
        esc = re.escape(core)
        alts.append((r"\s+" if sep[:1].isspace() else "") + esc + (r"\s+" if sep[-1:].isspace() else ""))
    return re.compile("|".join(alts) if alts else r"(?!)")


@dataclass(slots=True)
class _Piece:
    text: str
    owner: int
    child: int
    start: int
    end: int
    hard: bool
    """A line/block edge or a separator lies between this piece and the one before."""
    line_start: bool
    line_end: int = -1
    """The element that ends the piece's line (a ``<br>``, a block edge), -1 if none."""
    blank: bool = False
    """An empty line lies between this piece and the one before (``\\n\\n`` in ``<pre>``)."""


def is_inline(nodes: NodeTable, i: int) -> bool:
    n = nodes[i]
    if n.tag in _LINE_TAGS:
        return False
    display = nodes.style(i, "display")
    return display.startswith("inline") or display == "contents" or (not display and n.tag in
                                                                         ("a", "b", "i", "em", "strong", "span"))


def _skip(nodes: NodeTable, cleaned: Cleaned | None, i: int) -> bool:
    n = nodes[i]
    if n.tag in _LINE_TAGS:
        # A <br> has no size (the cleaner drops it as such), yet it ends its line.
        return bool(n.vis & (VIS_DISPLAY_NONE | VIS_HIDDEN)) or (
            cleaned is not None and n.parent >= 0 and cleaned.is_dropped(n.parent))
    if cleaned is not None and cleaned.is_dropped(i):
        return True
    return n.tag in NON_CONTENT_TAGS or n.vis != 0


def _pieces(nodes: NodeTable, cleaned: Cleaned | None, root: int, seps: re.Pattern[str]) -> list[_Piece]:
    """Text pieces of the subtree of ``root`` in document order, with the boundaries between them."""
    out: list[_Piece] = []
    hard = [True]  # a boundary is pending since the last piece
    line = [True]
    newlines = [0]  # line breaks in preformatted text since the last piece (two: an empty line)

    def emit(raw: str, owner: int, child: int, pre: bool) -> None:
        pat = re.compile(seps.pattern + "|" + _PRE_SEPARATORS) if pre else seps
        pos = 0
        for m in [*pat.finditer(raw), None]:
            seg_end = m.start() if m else len(raw)
            seg = raw[pos:seg_end]
            stripped = seg.strip()
            if stripped:
                lead = len(seg) - len(seg.lstrip())
                s = pos + lead
                out.append(_Piece(" ".join(stripped.split()), owner, child, s, s + len(stripped),
                                  hard[0], line[0], blank=newlines[0] >= 2 and bool(out)))
                hard[0] = line[0] = False
                newlines[0] = 0
            if m is not None:
                hard[0] = True
                if pre and "\n" in m.group(0):
                    line[0] = True
                    newlines[0] += m.group(0).count("\n")
                pos = m.end()

    def close_line(i: int) -> None:
        hard[0] = line[0] = True
        k = len(out) - 1
        while k >= 0 and out[k].line_end == -1:  # the pieces of the line it ends
            out[k].line_end = i
            k -= 1

    stack: list[tuple[int, int, bool]] = [(root, 0, False)]  # (node, state, pre)
    while stack:
        i, state, pre = stack.pop()
        n = nodes[i]
        if state == 0:
            if i != root and _skip(nodes, cleaned, i):
                continue
            pre_here = pre or n.tag in _PRE_TAGS
            if i != root and not is_inline(nodes, i):
                close_line(i)
            stack.append((i, 1, pre_here))
            if n.text:
                emit(n.text, i, -1, pre_here)
            for c in reversed(n.children):
                stack.append((c, 2, pre_here))
                stack.append((c, 0, pre_here))
        elif state == 1:
            if i != root and not is_inline(nodes, i):
                close_line(i)
        else:  # after child i: its tail, in its parent's text
            if n.tag in _LINE_TAGS and not _skip(nodes, cleaned, i):
                close_line(i)
            if n.tail:
                emit(n.tail, n.parent, i, pre)
    return out


def _depth(nodes: NodeTable, p: _Piece) -> int:
    return nodes[p.owner].depth


def _common(nodes: NodeTable, a: int, b: int) -> int:
    while not nodes.is_ancestor(a, b):
        a = nodes[a].parent
    return a


def _inline_tags(nodes: NodeTable, node: int, root: int) -> tuple[str, ...]:
    out: list[str] = []
    i = node
    while i > root and i >= 0:
        if is_inline(nodes, i):
            out.append(nodes[i].tag)
        i = nodes[i].parent
    return tuple(out)


def _href(nodes: NodeTable, node: int, root: int) -> str:
    i = node
    while i >= root and i >= 0:
        if nodes[i].tag == "a":
            return nodes[i].attrs.get("href", "") or "#"
        i = nodes[i].parent
    return ""


def _bold(nodes: NodeTable, node: int) -> bool:
    w = nodes.style(node, "font-weight")
    return w == "bold" or (w.isdigit() and int(w) >= 600)


def _box(nodes: NodeTable, group: list[_Piece], node: int, own_pieces: int, root: int) -> BBox:
    n = nodes[node]
    if own_pieces == len(group) and n.w > 0 and n.h > 0:
        return n.bbox
    # Text nodes have no boxes in a snapshot: the line's end marker (<br>) gives the line.
    box_of = nodes[root] if nodes[node].w <= 0 else n
    # The element ending the line, also for a piece cut from the line's rest at a separator.
    marker = group[-1].line_end
    if marker >= 0 and nodes[marker].h > 0 and nodes[marker].tag in _LINE_TAGS:
        m = nodes[marker]
        return (box_of.x, m.y, box_of.w, m.h)
    return box_of.bbox


def _entity(nodes: NodeTable, group: list[_Piece], root: int, counts: dict[int, int]) -> Entity:
    first, last = group[0], group[-1]
    node = first.owner
    for p in group[1:]:
        node = _common(nodes, node, p.owner)
    own = counts.get(node, 0) if len(group) == 1 else -1
    return Entity(
        text=" ".join(p.text for p in group),
        node=node,
        start=TextPos(first.owner, first.child, first.start),
        end=TextPos(last.owner, last.child, last.end),
        depth=_depth(nodes, first),
        bbox=_box(nodes, group, node, own, root),
        href=_href(nodes, first.owner, root),
        inline=_inline_tags(nodes, first.owner, root),
        bold=_bold(nodes, first.owner),
        line_start=first.line_start,
        blank_before=first.blank,
    )


def entities(nodes: NodeTable, cleaned: Cleaned | None, root: int, separators: Sequence[str]) -> list[Entity]:
    """The entities of the subtree of ``root``, in document order."""
    pieces = _pieces(nodes, cleaned, root, separator_pattern(separators))
    counts: dict[int, int] = {}
    for p in pieces:
        # How many pieces an element's subtree holds: an entity that is the only one owns the box.
        i = p.owner
        while i >= root and i >= 0:
            counts[i] = counts.get(i, 0) + 1
            i = nodes[i].parent
    out = [_entity(nodes, g, root, counts) for g in _groups(nodes, pieces)]
    starts = [k for k, e in enumerate(out) if e.line_start or k == 0] + [len(out)]
    for s, t in itertools.pairwise(starts):
        for k in range(s, t):
            out[k] = out[k]._replace(alone=t - s == 1, line_size=t - s)
    for k in _gaps(out, starts[:-1]):
        out[k] = out[k]._replace(blank_before=True)
    return out


def _gaps(ents: list[Entity], starts: list[int]) -> list[int]:
    """Line starts below a vertical gap of over ``BLANK_GAP`` line heights after the line before.

    Only lines whose boxes are lines (no taller than ``LINE_BOX`` times the median entity
    height) are compared: an entity boxed by its whole container says nothing of its line.
    """
    heights = sorted(e.bbox[3] for e in ents if e.bbox[3] > 0)
    if not heights:
        return []
    line_h = heights[len(heights) // 2]
    out: list[int] = []
    prev_bottom: float | None = None
    for k in starts:
        e = ents[k]
        _x, y, _w, h = e.bbox
        if h <= 0 or h > th.LINE_BOX * line_h:
            prev_bottom = None
            continue
        if prev_bottom is not None and y - prev_bottom > th.BLANK_GAP * line_h:
            out.append(k)
        prev_bottom = y + h
    return out


def _groups(nodes: NodeTable, pieces: list[_Piece]) -> Iterator[list[_Piece]]:
    group: list[_Piece] = []
    for p in pieces:
        if group and not p.hard and abs(_depth(nodes, p) - _depth(nodes, group[-1])) == 1:
            group.append(p)
            continue
        if group:
            yield group
        group = [p]
    if group:
        yield group
