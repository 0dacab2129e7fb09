"""A record's shape: what a reader sees in it, leaf by leaf."""

from __future__ import annotations

from visx.mine.stats import MEDIA_TAGS
from visx.model import NodeTable

SHAPE_MAX = 60
"""Shapes are cut at this many leaves: enough to tell records apart, cheap to compare."""


def leaf_shape(nodes: NodeTable, roots: list[int]) -> str:
    """The shown text and picture leaves under ``roots`` in reading order, a letter each:
    ``l`` linked text, ``t`` other text, ``m`` a picture."""
    out: list[str] = []
    for p in roots:
        link = -1
        for i in range(p, nodes[p].end):
            nd = nodes[i]
            if nd.vis:
                continue
            if link >= 0 and i >= nodes[link].end:
                link = -1
            if nd.tag == "a" and "href" in nd.attrs:
                link = i
            if nd.tag in MEDIA_TAGS:
                out.append("m")
            elif nd.text.strip() or any(nodes[c].tail.strip() for c in nd.children):
                out.append("l" if link >= 0 else "t")
            if len(out) >= SHAPE_MAX:
                return "".join(out)
    return "".join(out)
