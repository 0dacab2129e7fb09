"""Per-element content counts over the shown subtree, computed once bottom-up."""

from __future__ import annotations

from dataclasses import dataclass

from visx.mine.tagstring import TagStrings
from visx.model import NodeTable

MEDIA_TAGS = frozenset({"img", "picture", "svg", "video", "canvas", "image"})


@dataclass(slots=True)
class Stats:
    text_chars: list[int]
    """Characters of shown text in the subtree."""
    text_leaves: list[int]
    """Elements in the subtree with text of their own."""
    links: list[int]
    media: list[int]

    def has_content(self, group: list[int]) -> bool:
        return any(self.text_chars[i] or self.media[i] for i in group)

    def chars(self, group: list[int]) -> int:
        return sum(self.text_chars[i] for i in group)


def build(nodes: NodeTable, ts: TagStrings) -> Stats:
    n = len(nodes)
    chars = [0] * n
    leaves = [0] * n
    links = [0] * n
    media = [0] * n
    table = nodes.nodes
    kept = ts.kept
    for i in range(n - 1, -1, -1):
        if not kept[i]:
            continue
        nd = table[i]
        own = len(nd.text.strip())
        for c in nd.children:
            t = table[c].tail
            if t:
                own += len(t.strip())
        ch = ts.children[i]
        chars[i] = own + sum(chars[c] for c in ch)
        leaves[i] = (1 if own else 0) + sum(leaves[c] for c in ch)
        links[i] = (1 if nd.tag == "a" and "href" in nd.attrs else 0) + sum(links[c] for c in ch)
        media[i] = (1 if nd.tag in MEDIA_TAGS else 0) + sum(media[c] for c in ch)
    return Stats(chars, leaves, links, media)
