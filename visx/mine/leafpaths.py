"""Leaf paths: the root-to-leaf paths of the shown, kept leaves, in document order.

A leaf is a kept element with text of its own (its ``.text`` or a child's
tail) or an image-like element (see ``stats.MEDIA_TAGS``). The similarity of
two consecutive leaf paths is the length of their common prefix. Paths are
compared as paths of *elements*, not of tag names, so the prefix ends at
the leaves' lowest common ancestor and its length is that ancestor's depth
plus one. Two leaves of one record share the record element; the last leaf
of a record and the first of the next share only the list container, one
level up, and a leaf outside the list shares less still. Tag-name paths
would let two neighbouring lists built from the same tags, or a list and
the block after it, look like one run.
"""

from __future__ import annotations

import itertools

from visx.mine.stats import MEDIA_TAGS
from visx.mine.tagstring import TagStrings
from visx.model import NodeTable


def leaves(nodes: NodeTable, ts: TagStrings) -> list[int]:
    """Kept elements with own text or an image, in document order."""
    table = nodes.nodes
    kept = ts.kept
    out: list[int] = []
    for i, nd in enumerate(table):
        if not kept[i]:
            continue
        if nd.tag in MEDIA_TAGS or (nd.text and not nd.text.isspace()):
            out.append(i)
            continue
        for c in nd.children:
            t = table[c].tail
            if t and not t.isspace():
                out.append(i)
                break
    return out


def similarities(nodes: NodeTable, leaf_ids: list[int]) -> list[int]:
    """Common-prefix length of each pair of consecutive leaf paths (n - 1 values)."""
    table = nodes.nodes
    out: list[int] = []
    for a, b in itertools.pairwise(leaf_ids):
        x = a
        # Pre-order: the ancestor of ``a`` whose subtree reaches ``b`` is their LCA.
        while x >= 0 and not (x <= b < table[x].end):
            x = table[x].parent
        out.append(table[x].depth + 1 if x >= 0 else 0)
    return out


def common_ancestor(nodes: NodeTable, first: int, last: int) -> int:
    """The deepest element whose subtree holds both leaves (pre-order: and all between)."""
    table = nodes.nodes
    x = first
    while x > 0 and not (x <= last < table[x].end):
        x = table[x].parent
    return max(x, 0)
