"""The crawled site as a networkx graph: pages are nodes, hyperlinks edges of weight 1.

An edge keeps the distinct anchor texts of every link from one page to the other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from visx.link.crawl import Crawl

if TYPE_CHECKING:
    import networkx as nx


def site_graph(crawl: Crawl, max_depth: int | None = None) -> nx.DiGraph:
    """Nodes: the URLs crawled within ``max_depth`` hops (all when None); edge attribute
    ``anchors``: tuple of anchor texts. Self-links are dropped (no loopless path uses them)."""
    import networkx as nx

    g = nx.DiGraph()
    keep = {u for u, d in crawl.depth.items() if max_depth is None or d <= max_depth}
    for url, d in crawl.depth.items():
        if url in keep:
            g.add_node(url, depth=d)
    for url in g.nodes:
        texts: dict[str, dict[str, None]] = {}
        for target, text in crawl.pages[url].links:
            t = crawl.resolve(target)
            if t != url and t in keep:
                texts.setdefault(t, {})[text] = None  # ordered set
        for t, ts in texts.items():
            g.add_edge(url, t, anchors=tuple(x for x in ts if x))
    return g
