"""The data items of records, found the way alignment finds them.

Learning and applying read a record's items with the alignment stage's own
record-tree builder, so a template's cell is the very text, link or image
extraction would give, not a second reading of the page.
"""

from __future__ import annotations

from visx.align.model import Item
from visx.align.tree import PageCache, TreeBuilder, collapse_lists, find_lists
from visx.model import NodeTable, Record

Holders = dict[int, list[Item]]
"""Element -> the items it holds, in reading order."""


def record_items(nodes: NodeTable, records: list[Record], *, lists: bool = True) -> list[Holders]:
    """Per record, its items grouped by the element holding them (lists collapsed as alignment does)."""
    pc = PageCache(nodes)
    builder = TreeBuilder(pc)
    trees = [builder.build(rec) for rec in records]
    if lists and builder.alike:
        for tree, rec in zip(trees, records, strict=True):
            builder.index(tree, rec)
        for tree, runs in zip(trees, find_lists(pc, trees), strict=True):
            if runs:
                collapse_lists(pc, tree, runs)
    out: list[Holders] = []
    for tree in trees:
        held: Holders = {}
        items = tree.item
        for t in tree.preorder():
            it = items[t]
            if it is not None:
                held.setdefault(it.node, []).append(it)
        out.append(held)
    return out


def piece_of(held: Holders, item: Item) -> int:
    """Which item of its kind ``item`` is among its element's items."""
    k = 0
    for it in held.get(item.node, ()):
        if it is item:
            return k
        if it.kind == item.kind:
            k += 1
    return 0


def item_at(held: Holders, node: int, kind: str, piece: int) -> Item | None:
    """The ``piece``-th item of ``kind`` held by ``node``; the last one when it holds fewer
    (a text run that lost a neighbour on a changed page still counts)."""
    got = [it for it in held.get(node, ()) if it.kind == kind]
    if not got:
        return None
    return got[piece] if piece < len(got) else got[-1]
