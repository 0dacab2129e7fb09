"""Anchor-text bags: what the site calls a page on the way to it, plus what the page calls itself.

A(u, v) counts each anchor text on the K shortest paths from u to v (an edge's distinct texts
once per path); the extended bag adds v's ``<title>`` (and its first heading, see
``thresholds.HEADING_WEIGHT``) with weight +1; weights are then divided by their sum and the
elements sorted by weight, descending (EA(u, v) in the paper). Elements are normalised (case,
spacing) so that "Jane Doe" and "JANE  DOE" are one element.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from visx.link import thresholds as T
from visx.link.paths import Path

if TYPE_CHECKING:
    import networkx as nx


@dataclass(frozen=True, slots=True)
class BagSettings:
    """What goes into a bag: anchors always; the title (the paper's IULP) and the first heading
    optional, so that the older anchors-only method (W2DR) can be measured against them."""

    titles: bool = True
    headings: bool = True


class Element(NamedTuple):
    text: str
    weight: float
    """Share of the bag's counts (the paper's normalised weight)."""
    specific: float
    """How exclusively the text names this page: of the site's links with this anchor text, the
    share that point here (1 for the page's own title or heading). "Web page", "More" or a
    colleague's name in the bag are on the path but name other pages, or every page."""


Bag = list[Element]


def anchor_targets(g: nx.DiGraph) -> dict[str, Counter[str]]:
    """For each normalised anchor text, how many links with it point to each page."""
    out: dict[str, Counter[str]] = {}
    for _, b, texts in g.edges(data="anchors"):
        for t in texts:
            out.setdefault(normal_element(t), Counter())[b] += 1
    return out


def normal_element(text: str) -> str:
    """Case folded and spaces collapsed; separators (" | ", " - ") are kept so that a title can
    still be split into its parts when matched (accents and punctuation are folded there)."""
    return " ".join(text.replace("\u00a0", " ").split()).casefold()


def bag_of(url: str, paths: list[Path], g: nx.DiGraph, title: str, heading: str,
           targets: dict[str, Counter[str]], settings: BagSettings = BagSettings()) -> Bag:
    """EA(u, v) for one page: (element, normalised weight), heaviest first."""
    counts: Counter[str] = Counter()
    edges = g.edges
    for p in paths:
        for a, b in itertools.pairwise(p):
            for text in edges[a, b]["anchors"]:
                counts[normal_element(text)] += 1
    own: set[str] = set()
    if settings.titles and title:
        counts[normal_element(title)] += T.TITLE_WEIGHT
        own.add(normal_element(title))
    if settings.headings and heading:
        counts[normal_element(heading)] += T.HEADING_WEIGHT
        own.add(normal_element(heading))
    counts.pop("", None)
    total = sum(counts.values())
    if not total:
        return []

    def specific(e: str) -> float:
        if e in own:
            return 1.0
        to = targets.get(e)
        return to[url] / to.total() if to else 0.0

    return sorted((Element(e, c / total, specific(e)) for e, c in counts.items()),
                  key=lambda x: (-x.weight, x.text))
