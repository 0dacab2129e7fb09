"""Evaluate a template's XPaths: records, and each column's item within a record.

Shared by learning (which scores candidate paths on the page they come
from) and applying, so a path is judged exactly as it will be used.
"""

from __future__ import annotations

from lxml import etree

from visx.align.model import Item
from visx.template.items import Holders, item_at
from visx.template.tree import PageTree, select


def find_item(tree: PageTree, held: Holders, record_el: etree._Element, xpath: str, kind: str,
              piece: int) -> Item | None:
    """The column's item in one record: the first selected element holding an item of ``kind``."""
    index = tree.index
    for el in select(record_el, xpath):
        node = index.get(el)
        if node is None:
            continue
        it = item_at(held, node, kind, piece)
        if it is not None:
            return it
    return None


def select_records(tree: PageTree, xpath: str) -> list[etree._Element]:
    """Elements a record XPath selects that are nodes of the page (not synthetic wrappers),
    outermost only: a record inside another selected record is part of it."""
    out: list[etree._Element] = []
    nodes = tree.nodes
    last_end = -1
    for el in tree.select(xpath):
        i = tree.index.get(el)
        if i is None:
            continue
        if i < last_end:
            continue
        out.append(el)
        last_end = nodes[i].end
    return out
