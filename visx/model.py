"""The data that flows through the pipeline.

A page is a :class:`NodeTable`: one slotted :class:`Node` per element in
document (pre-)order, addressed by integer index. Computed styles are
interned: ``node.style`` indexes ``NodeTable.styles``, a list of tuples in
the order of :data:`STYLE_PROPS`. A subtree is the index range
``[i, node.end)``, which makes subtree scans plain slices.

The table follows the *rendered* tree: a shadow host's children are its
shadow root's children, a ``<slot>``'s children the nodes assigned to it, and
an ``<iframe>``'s child the ``<html>`` of its document. XPaths are lxml-style
absolute paths, extended with two steps where a path crosses into another
tree (the form templates use to find a node again):

- ``#shadow-root``: into the shadow root of the element before it, e.g.
  ``/html/body/product-list/#shadow-root/div/product-card[3]/#shadow-root/h3``;
- ``#document``: into the document of the frame before it, e.g.
  ``/html/body/iframe[2]/#document/html/body/ul/li[4]``.

Each part between these steps is an ordinary XPath inside one tree; an
element assigned to a slot keeps its DOM path (under its host, not the slot).
:func:`split_xpath` cuts a path into those parts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from visx.schema.table import Table

STYLE_PROPS: tuple[str, ...] = (
    "display",
    "visibility",
    "position",
    "float",
    "font-size",
    "font-weight",
    "font-style",
    "font-family",
    "color",
    "background-color",
    "z-index",
    "opacity",
    "text-align",
    "overflow",
)
STYLE_INDEX: dict[str, int] = {name: i for i, name in enumerate(STYLE_PROPS)}

ATTR_NAMES: tuple[str, ...] = (
    "href",
    "src",
    "alt",
    "title",
    "role",
    "aria-label",
    "type",
    "name",
    "datetime",
    "content",
)

# Where a node comes from (bit set, ``Node.scope``); 0 is the page's own document.
SCOPE_SHADOW = 1
"""Inside a shadow tree (a web component's rendered content)."""
SCOPE_CLOSED = 2
"""Inside a closed shadow root (recorded as the page attached it)."""
SCOPE_FRAME = 4
"""Inside the document of an ``<iframe>`` or ``<frame>``."""

SHADOW_STEP = "#shadow-root"
FRAME_STEP = "#document"


def split_xpath(xpath: str) -> list[tuple[str, str]]:
    """Cut a visx XPath into ``(boundary, xpath)`` parts, one per tree it crosses.

    ``boundary`` is ``""`` for the page itself, ``#shadow-root`` or ``#document``
    for the tree entered before that part; each part is an ordinary XPath
    relative to that tree's root (``/html/...`` for a document, ``/div/...`` for
    a shadow root).

    >>> split_xpath("/html/body/x-list/#shadow-root/div/x-card[2]")
    [('', '/html/body/x-list'), ('#shadow-root', '/div/x-card[2]')]
    """
    out: list[tuple[str, str]] = []
    boundary = ""
    current: list[str] = []
    for step in xpath.split("/")[1:]:
        if step in (SHADOW_STEP, FRAME_STEP):
            out.append((boundary, "/" + "/".join(current)))
            boundary, current = step, []
        else:
            current.append(step)
    out.append((boundary, "/" + "/".join(current)))
    return out


# Visibility flags (bit set); 0 means visible.
VIS_DISPLAY_NONE = 1
VIS_HIDDEN = 2
VIS_TRANSPARENT = 4
VIS_ZERO_SIZE = 8
VIS_OFFPAGE = 16
VIS_REASONS: dict[int, str] = {
    VIS_DISPLAY_NONE: "display-none",
    VIS_HIDDEN: "visibility-hidden",
    VIS_TRANSPARENT: "opacity-0",
    VIS_ZERO_SIZE: "zero-size",
    VIS_OFFPAGE: "off-page",
}


@dataclass(slots=True)
class Node:
    """One element of the rendered DOM."""

    index: int
    parent: int
    """Index of the parent element, -1 for the root."""
    tag: str
    id: str
    classes: tuple[str, ...]
    attrs: dict[str, str]
    text: str
    """Text before the first child element (lxml's ``.text``)."""
    tail: str
    """Text after this element, before its next sibling (lxml's ``.tail``)."""
    x: float
    y: float
    w: float
    h: float
    vis: int
    """Visibility flags, 0 when visible (see ``VIS_*``)."""
    style: int
    """Index into :attr:`NodeTable.styles`."""
    depth: int = 0
    end: int = 0
    """One past the last descendant: the subtree is ``range(index, end)``."""
    children: list[int] = field(default_factory=list)
    xpath: str = ""
    scope: int = 0
    """Which tree the node comes from (``SCOPE_*`` flags); 0 for the page's own document."""
    step: int = 0
    """The harvest step that first showed the node (0: the first view; see ``RenderConfig.pages``)."""

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        return (self.x, self.y, self.w, self.h)

    @property
    def visible(self) -> bool:
        return self.vis == 0

    @property
    def label(self) -> str:
        """``tag#id.class`` as used in debug dumps."""
        out = self.tag
        if self.id:
            out += "#" + self.id
        if self.classes:
            out += "." + ".".join(self.classes[:3])
        return out


class NodeTable:
    """All elements of a page, in document order, plus the interned styles."""

    __slots__ = ("_by_xpath", "nodes", "styles", "xsteps")

    def __init__(self, nodes: list[Node], styles: list[tuple[str, ...]],
                 xsteps: dict[int, tuple[int, str]] | None = None) -> None:
        self.nodes = nodes
        self.styles = styles
        self.xsteps = xsteps or {}
        """Explicit XPath steps where the rendered tree differs from one DOM tree:
        node -> (node whose path it extends, step), e.g. ``(host, "#shadow-root/div")``."""
        self._by_xpath: dict[str, int] | None = None
        _link(nodes, self.xsteps)

    def __len__(self) -> int:
        return len(self.nodes)

    def __getitem__(self, i: int) -> Node:
        return self.nodes[i]

    def style(self, i: int, prop: str) -> str:
        """One computed style property of node ``i``."""
        return self.styles[self.nodes[i].style][STYLE_INDEX[prop]]

    def style_tuple(self, i: int) -> tuple[str, ...]:
        return self.styles[self.nodes[i].style]

    def own_text(self, i: int) -> str:
        """The node's direct text: its ``.text`` plus its children's tails."""
        n = self.nodes[i]
        parts = [n.text] + [self.nodes[c].tail for c in n.children]
        return " ".join(p for p in parts if p)

    def text(self, i: int, *, visible_only: bool = True) -> str:
        """All text of the subtree in document order, whitespace-normalised."""
        s = " ".join(self.text_parts(i, visible_only=visible_only))
        # Text where CSS keeps line breaks (<pre>) holds '\n' (the flat miner's line ends).
        return " ".join(s.split()) if "\n" in s else s

    def text_parts(self, i: int, *, visible_only: bool = True) -> list[str]:
        """Text pieces of the subtree in document order (text, children, tail)."""
        nodes = self.nodes
        out: list[str] = []
        stack: list[tuple[int, bool]] = [(i, False)]
        while stack:
            j, closing = stack.pop()
            n = nodes[j]
            if closing:
                # A tail belongs to the parent's text, so it follows the subtree.
                if j != i and n.tail:
                    out.append(n.tail)
                continue
            stack.append((j, True))
            if n.tag in NON_CONTENT_TAGS or (visible_only and n.vis and j != i):
                continue
            if n.text:
                out.append(n.text)
            stack.extend((c, False) for c in reversed(n.children))
        return [" ".join(p.split()) for p in out if p and not p.isspace()]

    def ancestors(self, i: int) -> list[int]:
        out = []
        p = self.nodes[i].parent
        while p >= 0:
            out.append(p)
            p = self.nodes[p].parent
        return out

    def is_ancestor(self, a: int, b: int) -> bool:
        """True when ``a`` is ``b`` or one of its ancestors."""
        return a <= b < self.nodes[a].end

    def find_xpath(self, xpath: str) -> int | None:
        if self._by_xpath is None:
            self._by_xpath = {n.xpath: n.index for n in self.nodes}
        return self._by_xpath.get(xpath)


# Elements whose content no reader sees: their text is not page text and
# their subtrees take no part in mining or drawing.
NON_CONTENT_TAGS = frozenset(
    {"script", "style", "noscript", "template", "head", "title", "meta", "link", "base", "param", "source", "track"}
)


def _link(nodes: list[Node], xsteps: dict[int, tuple[int, str]]) -> None:
    """Fill children, depth, subtree end and lxml-style absolute XPaths.

    A node in ``xsteps`` extends the path of the node named there by its step
    (shadow roots, slotted elements, frame documents); the others are numbered
    among their siblings that have no explicit step, as lxml does.
    """
    for n in nodes:
        n.children = []
        n.end = n.index + 1
    for n in nodes:
        if n.parent >= 0:
            p = nodes[n.parent]
            p.children.append(n.index)
            n.depth = p.depth + 1
        else:
            n.depth = 0
    for n in reversed(nodes):
        if n.children:
            n.end = nodes[n.children[-1]].end
    for n in nodes:
        if n.parent < 0:
            n.xpath = "/" + n.tag
        if n.index in xsteps:
            base, step = xsteps[n.index]
            # The base precedes the node in pre-order (a host or an ancestor).
            n.xpath = f"{nodes[base].xpath if 0 <= base < n.index else ''}/{step}"
        if n.children:
            # Children with an explicit step (shadow roots, frames, slotted) are not counted.
            number_steps(nodes, [c for c in n.children if c not in xsteps] if xsteps else n.children, n.xpath)


def number_steps(nodes: Sequence[Node], kids: Sequence[int], base: str) -> None:
    """Each of ``kids``' XPath under ``base``: ``base/tag``, or ``base/tag[k]`` when siblings share the tag."""
    counts: dict[str, int] = {}
    for c in kids:
        t = nodes[c].tag
        counts[t] = counts.get(t, 0) + 1
    seen: dict[str, int] = {}
    for c in kids:
        child = nodes[c]
        t = child.tag
        if counts[t] > 1:
            k = seen.get(t, 0) + 1
            seen[t] = k
            child.xpath = f"{base}/{t}[{k}]"
        else:
            child.xpath = f"{base}/{t}"


@dataclass(slots=True)
class PageSnapshot:
    """A rendered page: its node table and what is known about the load."""

    nodes: NodeTable
    source: str
    url: str
    title: str
    status: int
    width: float
    height: float
    viewport: tuple[int, int]
    javascript: bool
    timings: dict[str, float] = field(default_factory=dict)
    partial: bool = False
    """The capture is known to be incomplete (a timeout with ``--partial``, a page that never
    settled, a script that had to be stopped, a DOM cut at the capture limit)."""
    notes: list[str] = field(default_factory=list)
    screenshot_png: bytes | None = None
    created: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    """What may make this capture wrong or incomplete (the page never settled, a
    wait that ran out); carried into the extraction's warnings."""
    partial_reason: str = ""
    """Why ``partial`` is set, for people (empty when it is not)."""

    def save(self, path: str | Any) -> None:
        """Write the snapshot as gzip-compressed JSON (``.json.gz``)."""
        from visx.render.snapshot_io import save_snapshot

        save_snapshot(self, path)


BBox = tuple[float, float, float, float]


def union_bbox(boxes: list[BBox]) -> BBox:
    """Smallest box holding every non-empty box (x, y, w, h)."""
    real = [b for b in boxes if b[2] > 0 and b[3] > 0]
    if not real:
        return (0.0, 0.0, 0.0, 0.0)
    x0 = min(b[0] for b in real)
    y0 = min(b[1] for b in real)
    x1 = max(b[0] + b[2] for b in real)
    y1 = max(b[1] + b[3] for b in real)
    return (x0, y0, x1 - x0, y1 - y0)


@dataclass(slots=True)
class Removal:
    """A subtree the cleaner dropped, with its reason (see ``visx.clean.reasons``)."""

    node: int
    reason: str
    detail: str = ""


@dataclass(slots=True)
class Cleaned:
    """The cleaner's verdict: top-most removed subtrees, and a per-node mask."""

    removed: list[Removal]
    dropped: bytearray
    """``dropped[i]`` is 1 when node ``i`` or an ancestor was removed."""

    def is_dropped(self, i: int) -> bool:
        return bool(self.dropped[i])


@dataclass(slots=True)
class Record:
    """One data record: its top-level elements (several for split records)."""

    parts: list[int]
    bbox: BBox = (0.0, 0.0, 0.0, 0.0)
    text: str = ""
    step: int = 0
    """The harvest step that brought the record (0: the first view; see ``RenderConfig.pages``)."""


@dataclass(slots=True)
class Region:
    """A data region: records under one parent (or one table, for split records)."""

    parent: int
    records: list[Record]
    score: float = 0.0
    rank: int = 0
    bbox: BBox = (0.0, 0.0, 0.0, 0.0)
    kind: str = "list"
    """``list``, ``grid``, ``split`` (non-contiguous records) or ``flat``."""
    gn_size: int = 1
    """Children per generalized node (MDR's combination length)."""
    evidence: dict[str, float] = field(default_factory=dict)
    """Named score parts, shown in reports to say why a region ranks where it does."""
    miner: str = "mdr"
    data: bool = True
    """A data list (results, products, posts, related items), not navigation or the like."""
    role: str = "data"
    """``data``, or why not: navigation, filter, pager, breadcrumb, footer-links, tag-cloud,
    fragment, layout (``visx.mine.roles``)."""
    table: Table | None = field(default=None, repr=False, compare=False)
    """The region's typed table, set by the pipeline after alignment (None before, or when
    tables were not built); ``Extraction.tables[k]`` is the same object."""
