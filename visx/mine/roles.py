"""Which regions are data lists, and what the others are.

Every region MDR finds repeats, and navigation, filters, pagers and
breadcrumbs repeat as well as results do. A region is a *data list* unless
its records read as one of these roles (first that applies):

- ``pager``: page numbers and arrows;
- ``breadcrumb``: a few short links in one row under a breadcrumb container;
- ``filter``: checkboxes or radio buttons, facet counts ("Lamps (12)"), or
  options of a select;
- ``navigation``: short single links (a menu), link columns with no picture,
  or anything inside ``<nav>``/``<header>``/``role=navigation``;
- ``footer-links``: link lists in the footer or the page's lowest band;
- ``tag-cloud``: bare words or short phrases laid out in rows;
- ``fragment``: scraps of text (a count split into pieces), or a region whose
  records are the columns of a layout another region fills;
- ``layout``: two or three blocks without the repeated fields of records, or the few
  boxes another, longer list fills.

The reasons are kept in ``Region.role``; ``Region.data`` says data or not.
"""

from __future__ import annotations

import re

from visx.mine import thresholds as th
from visx.mine.stats import Stats
from visx.model import NodeTable, Record, Region

_PAGER_TOKEN = re.compile(r"^(?:\d{1,4}|[.…«»‹›<>|/,:\-–—]+|prev(?:ious)?|next|first|last|page)$", re.I)
_FACET = re.compile(r"^[^()]{1,40}\(\s*\d[\d.,\s]*\)$")
_BREADCRUMB = re.compile(r"breadcrumb", re.I)
_NAV_TAGS = frozenset({"nav", "header", "menu"})
_NAV_ROLES = frozenset({"navigation", "banner", "menu", "menubar", "tablist"})
_FOOT_TAGS = frozenset({"footer"})
_FOOT_ROLES = frozenset({"contentinfo"})
_TOGGLES = frozenset({"checkbox", "radio"})


def assign_roles(nodes: NodeTable, stats: Stats, regions: list[Region], page_h: float) -> list[Region]:
    """Set ``data`` and ``role`` on every region, and rank the data lists first (each group
    in its score order): a menu that outscored the results no longer passes for the main list."""
    # First what each region is on its own, then how regions sit in one another: a layout
    # box holds a data list, a data list inside another's record is part of that record.
    own = {id(rg): _role(nodes, stats, rg, page_h) for rg in regions}
    lists = [rg for rg in regions if own[id(rg)] == "data"]
    for rg in regions:
        role = own[id(rg)]
        if role == "data" and _holds_longer_list(nodes, stats, rg, lists):
            role = "layout"
        elif role == "data" and _nested(nodes, stats, rg, regions, lists):
            role = "fragment"
        rg.role = role
        rg.data = role == "data"
    regions.sort(key=lambda rg: (not rg.data, rg.rank))
    for k, rg in enumerate(regions, 1):
        rg.rank = k
    return regions


def _role(nodes: NodeTable, stats: Stats, rg: Region, page_h: float) -> str:
    """What ``rg`` is by its own records."""
    recs = rg.records
    n = len(recs)
    if n == 0:
        return "fragment"
    texts = [r.text.strip() for r in recs]
    if sum(1 for t in texts if _pager_like(t)) >= th.ROLE_SHARE * n:
        return "pager"
    if _breadcrumb(nodes, rg):
        return "breadcrumb"
    chars = sum(stats.chars(r.parts) for r in recs) / n
    # A checkbox with a short label is a filter; one beside a product card (a picture, or
    # more text) is "Compare".
    pictured = sum(sum(stats.media[p] for p in r.parts) for r in recs) / n >= 1.0
    toggles = sum(1 for r in recs if any(_has_toggle(nodes, p) for p in r.parts)) \
        if chars < th.FILTER_MAX_CHARS and not pictured else 0
    facets = sum(1 for t in texts if _FACET.match(t))
    options = sum(1 for r in recs if all(nodes[p].tag == "option" for p in r.parts))
    if toggles >= th.ROLE_SHARE * n or facets >= th.ROLE_SHARE * n or options >= th.ROLE_SHARE * n:
        return "filter"
    leaves = sum(sum(stats.text_leaves[p] for p in r.parts) for r in recs) / n
    links = sum(sum(stats.links[p] for p in r.parts) for r in recs) / n
    media = sum(sum(stats.media[p] for p in r.parts) for r in recs) / n
    in_foot = _inside(nodes, rg.parent, _FOOT_TAGS, _FOOT_ROLES)
    bottom = page_h > 0 and rg.bbox[1] > (1.0 - th.BOTTOM_SHARE) * page_h
    linky = links >= 0.8 and leaves <= th.LINK_LIST_LEAVES_PER_LINK * max(links, 1.0) and media < 1.0
    if (in_foot or bottom) and linky:
        return "footer-links"
    if _inside(nodes, rg.parent, _NAV_TAGS, _NAV_ROLES) and media < 1.0 and (linky or chars < th.FILTER_MAX_CHARS):
        return "navigation"
    if chars < th.MENU_TEXT_CHARS and leaves <= 1.5 and links >= 0.8 and media < 1.0:
        return "tag-cloud" if _in_rows(recs) and n >= th.TAG_CLOUD_MIN else "navigation"
    if links >= th.LINK_LIST_MIN_LINKS and media < th.LINK_LIST_MAX_MEDIA \
            and leaves <= th.LINK_LIST_LEAVES_PER_LINK * links:
        return "navigation"
    if chars < th.FRAGMENT_CHARS and media < 0.5:
        return "fragment"
    words = sum(len(t.split()) for t in texts) / n
    if bottom_most(rg, page_h) and media < 1.0 and words < th.CONTROL_MAX_WORDS * 3:
        return "footer-links"
    if words < th.CONTROL_MAX_WORDS and media < 1.0:
        # Tabs, sort options, one-word entries: controls and links, not records.
        return "navigation" if links >= 0.8 else "filter"
    if n == 2 and words < th.PAIR_MIN_WORDS:
        return "layout"
    if n <= 3 and leaves < th.LAYOUT_MIN_LEAVES and media < 1.0 and chars < th.LAYOUT_MAX_CHARS:
        return "layout"
    return "data"


def bottom_most(rg: Region, page_h: float) -> bool:
    return page_h > 0 and rg.bbox[1] >= (1.0 - th.FOOTER_BAND) * page_h


def _nested(nodes: NodeTable, stats: Stats, rg: Region, regions: list[Region], lists: list[Region]) -> bool:
    """``rg`` lies inside one record of another region (a table or a list inside a post, the
    fields of a card): part of that record, not a list of its own. Not so when ``rg`` is the
    longer list the other's few layout boxes hold."""
    first = rg.records[0].parts[0]
    for other in regions:
        if other is rg or len(other.records) < 2 or _holds_longer_list(nodes, stats, other, lists):
            continue
        for r in other.records:
            if any(p != first and nodes.is_ancestor(p, first) for p in r.parts):
                return True
        # Between the records of a list that ranks higher and is at least as long, under its
        # parent: an expanded post body, a row of the list that is no record of it.
        if other.rank > rg.rank or len(other.records) < len(rg.records):
            continue
        start = other.records[0].parts[0]
        stop = max(nodes[p].end for p in other.records[-1].parts)
        if other.parent != rg.parent and nodes.is_ancestor(other.parent, first) and start < first < stop:
            return True
    return False


def _pager_like(text: str) -> bool:
    toks = text.split()
    return bool(toks) and len(toks) <= 4 and all(_PAGER_TOKEN.match(t) for t in toks)


def _breadcrumb(nodes: NodeTable, rg: Region) -> bool:
    j = rg.parent
    for _ in range(4):
        if j < 0:
            return False
        nd = nodes[j]
        label = nd.attrs.get("aria-label", "")
        if _BREADCRUMB.search(" ".join(nd.classes)) or _BREADCRUMB.search(nd.id) or _BREADCRUMB.search(label):
            return len(rg.records) <= th.BREADCRUMB_MAX
        j = nd.parent
    return False


def _has_toggle(nodes: NodeTable, root: int) -> bool:
    return any(nodes[i].tag in ("input", "select") and (nodes[i].tag == "select"
               or nodes[i].attrs.get("type", "").lower() in _TOGGLES)
               for i in range(root, nodes[root].end))


def _inside(nodes: NodeTable, i: int, tags: frozenset[str], roles: frozenset[str]) -> bool:
    while i >= 0:
        nd = nodes[i]
        if nd.tag in tags or nd.attrs.get("role", "") in roles:
            return True
        i = nd.parent
    return False


def _in_rows(recs: list[Record]) -> bool:
    """Records laid out side by side and wrapping (several share a top): a cloud, not a column."""
    tops = [round(r.bbox[1]) for r in recs]
    return len(set(tops)) <= len(tops) / 2


def _holds_longer_list(nodes: NodeTable, stats: Stats, rg: Region, regions: list[Region]) -> bool:
    """``rg``'s few records are the columns or boxes of a layout: another region with twice
    the records lies inside them and holds most of their text."""
    if len(rg.records) > th.LAYOUT_MAX_BLOCKS:
        return False
    for other in regions:
        if other is rg or len(other.records) < 2 * len(rg.records) or not other.records:
            continue
        first = other.records[0].parts[0]
        holders = [r for r in rg.records if any(nodes.is_ancestor(p, first) for p in r.parts)]
        if not holders:
            continue
        # One box holding a list of its own (ads beside the results block), or boxes whose
        # text is mostly the inner list's; the same short list in each record is a field.
        if len(holders) == 1 and len(other.records) >= th.LAYOUT_INNER_MIN:
            return True
        inner = sum(stats.chars(r.parts) for r in other.records)
        outer = sum(stats.chars(r.parts) for r in holders)
        if inner >= th.CONTAINER_TEXT_SHARE * outer:
            return True
    return False
