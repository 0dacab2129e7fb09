"""Link paths: fill a table's URL column from a site's link structure.

After Ma, Hu & Wu (IULP), who extend Weninger et al.'s W2DR (CIKM 2010): crawl breadth first
from a source page (:mod:`~visx.link.crawl`), take the K shortest loopless paths to every page
(:mod:`~visx.link.paths`), gather the anchor texts on them plus the page's title and first
heading into a weighted bag (:mod:`~visx.link.bags`), and assign rows to pages by how well
each row's key names one of a bag's top elements (:mod:`~visx.link.match`).

``import visx.link`` is cheap: httpx, networkx and lxml are imported when they are used.
"""

from __future__ import annotations

from visx.link.api import LinkOptions, LinkResult, link, link_crawl

__all__ = ["LinkOptions", "LinkResult", "link", "link_crawl"]
