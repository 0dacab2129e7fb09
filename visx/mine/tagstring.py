"""Tag strings: each element's subtree as a string of one-character tokens.

A token stands for (tag, coarse display type), so two subtrees compare by
edit distance on plain ``str`` (rapidfuzz's fastest path). Only elements
that are shown and were not cleaned away take part.
"""

from __future__ import annotations

from dataclasses import dataclass

from visx.mine.thresholds import TAG_STRING_CAP
from visx.model import NON_CONTENT_TAGS, STYLE_INDEX, Cleaned, NodeTable

_DISPLAY = STYLE_INDEX["display"]


def display_class(display: str) -> str:
    """Coarse display type: block, inline, flex, grid, table, list-item."""
    if display.startswith("table"):
        return "t"
    if "flex" in display:
        return "f"
    if "grid" in display:
        return "g"
    if display == "list-item":
        return "l"
    if display.startswith("inline"):
        return "i"
    return "b"


@dataclass(slots=True)
class TagStrings:
    """Per element: kept flag, kept children, tag string and kept size."""

    kept: bytearray
    children: list[list[int]]
    strings: list[str]
    size: list[int]


def build(nodes: NodeTable, cleaned: Cleaned | None) -> TagStrings:
    n = len(nodes)
    kept = bytearray(n)
    table = nodes.nodes
    styles = nodes.styles
    codes: dict[tuple[str, str], str] = {}
    tok: list[str] = [""] * n
    for i, nd in enumerate(table):
        p = nd.parent
        if (p >= 0 and not kept[p]) or nd.vis or nd.tag in NON_CONTENT_TAGS:
            continue
        if cleaned is not None and cleaned.dropped[i]:
            continue
        kept[i] = 1
        key = (nd.tag, display_class(styles[nd.style][_DISPLAY]))
        c = codes.get(key)
        if c is None:
            c = chr(0x100 + len(codes))
            codes[key] = c
        tok[i] = c
    # The root itself is always walked so that mining has somewhere to start.
    if n and not kept[0]:
        kept[0] = 1
    children: list[list[int]] = [[] for _ in range(n)]
    for i in range(1, n):
        if kept[i]:
            children[table[i].parent].append(i)
    strings = [""] * n
    size = [0] * n
    for i in range(n - 1, -1, -1):
        if not kept[i]:
            continue
        ch = children[i]
        if ch:
            s = tok[i] + "".join(strings[c] for c in ch)
            strings[i] = s[:TAG_STRING_CAP]
            size[i] = 1 + sum(size[c] for c in ch)
        else:
            strings[i] = tok[i]
            size[i] = 1
    return TagStrings(kept, children, strings, size)
