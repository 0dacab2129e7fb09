"""A page as an lxml tree, so templates run on ordinary XPath 1.0.

Two ways in, one tree out:

- :func:`from_snapshot`: the rendered page (a :class:`NodeTable`) rebuilt as
  elements, with a ``visx-shadow-root`` element between a shadow host and its
  shadow content and a ``visx-document`` element between a frame and its
  document. A visx XPath's ``#shadow-root`` and ``#document`` steps become
  those names (:func:`to_lxml_path`), so one path form reaches into shadow
  roots and frames.
- :func:`from_html`: raw HTML parsed by lxml, with no browser (``--static``),
  and a :class:`NodeTable` made from it (no boxes, no styles) so the same item
  and typing code runs on both.

``PageTree.index`` maps an element back to its node; the tree keeps every
element proxy alive in ``elements``, so lxml hands back those same objects.
A tree from :func:`from_snapshot` builds its elements only when first asked for
them: applying a template runs its XPaths on the node table instead
(:mod:`visx.template.native`).
"""

from __future__ import annotations

import re

from lxml import etree

from visx.model import (
    ATTR_NAMES,
    FRAME_STEP,
    NON_CONTENT_TAGS,
    SHADOW_STEP,
    Node,
    NodeTable,
    number_steps,
)
from visx.template.native import FRAME_TAG as FRAME_TAG
from visx.template.native import SHADOW_TAG as SHADOW_TAG
from visx.template.native import XML_NAME, Dom, clean_xml

SYNTHETIC = frozenset({SHADOW_TAG, FRAME_TAG})


class PageTree:
    """An lxml tree of a page and the node behind each element.

    A tree from :func:`from_snapshot` builds its elements the first time ``root``,
    ``elements`` or ``index`` is read: applying a template reads the node table
    directly (:mod:`visx.template.native`) and never needs them.
    """

    __slots__ = ("_dom", "_elements", "_index", "_root", "native", "nodes")

    def __init__(self, root: etree._Element | None, nodes: NodeTable, elements: list[etree._Element] | None,
                 index: dict[etree._Element, int] | None = None, *, native: bool = False) -> None:
        self._root = root
        self.nodes = nodes
        self._elements = elements
        self._index = index
        """Built on first use when None (from ``elements`` when given)."""
        self.native = native
        """XPaths of the forms templates write run on the node table (:class:`visx.template.native.Dom`)."""
        self._dom: Dom | None = None

    @property
    def root(self) -> etree._Element:
        if self._root is None:
            self._build()
        assert self._root is not None
        return self._root

    @property
    def elements(self) -> list[etree._Element]:
        """``elements[i]`` is node ``i``'s element."""
        if self._elements is None:
            self._build()
        assert self._elements is not None
        return self._elements

    @property
    def index(self) -> dict[etree._Element, int]:
        """Element -> its node."""
        if self._index is None:
            if self._elements is not None:
                self._index = {el: i for i, el in enumerate(self._elements)}
            else:
                self._build()
        assert self._index is not None
        return self._index

    @index.setter
    def index(self, value: dict[etree._Element, int]) -> None:
        self._index = value

    @property
    def built(self) -> bool:
        """The lxml elements exist (a lazy tree builds them on first use)."""
        return self._root is not None

    @property
    def dom(self) -> Dom:
        """The tree as :func:`from_snapshot` builds it, read from the node table."""
        if self._dom is None:
            self._dom = Dom(self.nodes)
        return self._dom

    def _build(self) -> None:
        root, elements = _elements_of(self.nodes)
        self._root, self._elements = root, elements
        self._index = {el: i for i, el in enumerate(elements)}

    def node_of(self, el: etree._Element) -> int | None:
        return self.index.get(el)

    def select(self, xpath: str, context: etree._Element | None = None) -> list[etree._Element]:
        """Elements a (visx) XPath selects, in document order; [] for a path lxml rejects."""
        return select(context if context is not None else self.root, xpath)


def to_lxml_path(xpath: str) -> str:
    """A visx XPath with its shadow-root and document steps as this tree's element names."""
    return xpath.replace(SHADOW_STEP, SHADOW_TAG).replace(FRAME_STEP, FRAME_TAG)


def to_visx_path(xpath: str) -> str:
    return xpath.replace(SHADOW_TAG, SHADOW_STEP).replace(FRAME_TAG, FRAME_STEP)


_COMPILED: dict[str, etree.XPath | None] = {}
_MISSING = etree.XPath("/..")


def select(context: etree._Element, xpath: str) -> list[etree._Element]:
    """Evaluate an XPath from ``context``: elements only, duplicates dropped, order kept."""
    fn = _COMPILED.get(xpath, _MISSING)
    if fn is _MISSING:
        try:
            fn = etree.XPath(to_lxml_path(xpath))
        except etree.XPathSyntaxError:
            fn = None
        if len(_COMPILED) > 4096:
            _COMPILED.clear()
        _COMPILED[xpath] = fn
    if fn is None:
        return []
    try:
        got = fn(context)
    except etree.XPathEvalError:
        return []
    if not isinstance(got, list):
        return []
    out: list[etree._Element] = []
    seen: set[int] = set()
    for el in got:
        if isinstance(el, etree._Element) and isinstance(el.tag, str) and id(el) not in seen:
            seen.add(id(el))
            out.append(el)
    return out


def valid_xpath(xpath: str) -> bool:
    try:
        etree.XPath(to_lxml_path(xpath))
    except etree.XPathSyntaxError:
        return False
    return True


def _element(tag: str) -> etree._Element:
    return etree.Element(tag if XML_NAME.match(tag) and ":" not in tag else "visx-unknown")


def from_snapshot(nodes: NodeTable, *, native: bool = True) -> PageTree:
    """The rendered page as an lxml tree (see the module docstring).

    ``native`` (the default): the elements are built on first use, and a template's
    XPaths run on the node table meanwhile, with the same results. ``native=False``
    builds the elements now and keeps every XPath on lxml: the reference the fast path
    is checked against (``scripts/bench_templates.py --verify``).
    """
    if native:
        return PageTree(None, nodes, None, native=True)
    root, elements = _elements_of(nodes)
    return PageTree(root, nodes, elements, {el: i for i, el in enumerate(elements)})


def _elements_of(nodes: NodeTable) -> tuple[etree._Element, list[etree._Element]]:
    elements: list[etree._Element] = []
    wrappers: dict[tuple[int, str], etree._Element] = {}
    xsteps = nodes.xsteps
    root: etree._Element | None = None
    for n in nodes.nodes:
        el = _element(n.tag)
        if n.id:
            el.set("id", clean_xml(n.id))
        if n.classes:
            el.set("class", clean_xml(" ".join(n.classes)))
        for k, v in n.attrs.items():
            if XML_NAME.match(k):
                el.set(k, clean_xml(v))
        el.text = clean_xml(n.text) or None
        el.tail = clean_xml(n.tail) or None
        elements.append(el)
        parent = _parent_of(n, elements, wrappers, xsteps)
        if parent is None:
            if root is None:
                root = el
            continue
        parent.append(el)
    if root is None:
        root = etree.Element("html")
    return root, elements


def _parent_of(n: Node, elements: list[etree._Element], wrappers: dict[tuple[int, str], etree._Element],
               xsteps: dict[int, tuple[int, str]]) -> etree._Element | None:
    got = xsteps.get(n.index)
    if got is None:
        return elements[n.parent] if n.parent >= 0 else None
    base, step = got
    if not 0 <= base < n.index:
        return elements[n.parent] if n.parent >= 0 else None
    host = elements[base]
    first = step.split("/", 1)[0]
    if first not in (SHADOW_STEP, FRAME_STEP):
        return host  # an element assigned to a slot: its DOM place is under its host
    tag = SHADOW_TAG if first == SHADOW_STEP else FRAME_TAG
    w = wrappers.get((base, tag))
    if w is None:
        w = wrappers[(base, tag)] = etree.SubElement(host, tag)
    return w


# ---------------------------------------------------------------- static pages

_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
STATIC_STYLE: tuple[str, ...] = ("block", "visible", "static", "none", "16px", "400", "normal", "", "", "", "auto",
                                 "1", "start", "visible")
"""The one style every static node gets (no stylesheet is applied without a browser)."""


_ATTR_ORDER = {a: k for k, a in enumerate(ATTR_NAMES)}
_HTML_PARSER = etree.HTMLParser()
"""``lxml.html``'s parser without its Python element classes: the same tree, read faster."""


def _document(html: str | bytes) -> etree._Element:
    """``lxml.html.document_fromstring(html)``."""
    doc = etree.fromstring(html, _HTML_PARSER)
    if doc is None:
        raise etree.ParserError("Document is empty")
    return doc


_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")


class _Joiner:
    """``urljoin(base, url)`` for the links of one page, each once. A URL of another scheme
    than the base's (``https:`` links in a ``file:`` page) comes back as it is, as urljoin
    returns it, without parsing it."""

    __slots__ = ("base", "done", "scheme")

    def __init__(self, base: str) -> None:
        self.base = base
        self.done: dict[str, str] = {}
        self.scheme: str | None = None

    def __call__(self, url: str) -> str:
        got = self.done.get(url)
        if got is None:
            got = self.done[url] = self._join(url)
        return got

    def _join(self, url: str) -> str:
        from urllib.parse import urljoin, urlsplit

        if self.scheme is None:
            self.scheme = urlsplit(self.base).scheme  # what urljoin parses the base to
        m = _SCHEME.match(url)
        if m is not None and url.isascii() and "[" not in url and "]" not in url \
                and m.group()[:-1].lower() != self.scheme:
            return url  # urljoin returns it untouched, and nothing in it can make its parse fail
        return urljoin(self.base, url)


def from_html(html: str | bytes, base_url: str = "", *, native: bool = True) -> PageTree:
    """Raw HTML as a :class:`PageTree` whose :class:`NodeTable` has no boxes or styles.

    ``hidden`` and inline ``display: none`` mark a node invisible: the one
    visibility a page states without a stylesheet.

    ``native`` (the default): a template's XPaths run on the node table, as on a rendered
    page; the elements they could find and lxml would not (inside a skipped ``script`` or
    ``noscript``) are no nodes, so lxml's answer, nodes only, is the same. ``native=False``
    keeps every XPath on lxml (the reference ``--verify`` checks against).
    """
    try:
        doc = _document(html) if html and (isinstance(html, bytes) or html.strip()) else None
    except (etree.ParserError, ValueError):
        doc = None
    if doc is None:
        doc = _document("<html><body></body></html>")
    nodes: list[Node] = []
    elements: list[etree._Element] = []
    _strip_comments(doc)
    join = _Joiner(base_url)
    open_: list[int] = []
    """Nodes of the elements open in the walk (-1 for an element that is no node)."""
    walk = etree.iterwalk(doc, events=("start", "end"))
    attr_order = _ATTR_ORDER
    for event, el in walk:
        if event == "end":
            k = open_.pop()
            if k >= 0:
                nodes[k].end = len(nodes)
            continue
        parent = open_[-1] if open_ else -1
        tag = el.tag
        if not isinstance(tag, str):
            if el is not doc:
                open_.append(-1)  # not an element (an entity): no node, nothing below it
                walk.skip_subtree()
                continue
            tag = "visx-unknown"
        else:
            tag = tag.lower()
        i = len(nodes)
        got = el.items()
        if got:
            have = dict(got)
            hits = [a for a in have if a in attr_order]
            if len(hits) > 1:
                hits.sort(key=attr_order.__getitem__)  # in ATTR_NAMES order, as the browser's capture
            attrs = {}
            for a in hits:
                v = have[a]
                if v and base_url and (a == "href" or a == "src"):
                    v = join(v)
                attrs[a] = v
            style = have.get("style") or ""
            vis = 1 if "hidden" in have or (style and _HIDDEN_STYLE.search(style)) else 0
            id_ = have.get("id") or ""
            cls = have.get("class")
            classes = tuple(cls.split()) if cls else ()
        else:
            attrs, vis, id_, classes = {}, 0, "", ()
        if parent >= 0:
            pn = nodes[parent]
            pn.children.append(i)
            depth = pn.depth + 1
        else:
            depth = 0
        # Children, depth and end as NodeTable's linking sets them, filled in the walk.
        nodes.append(Node(i, parent, tag, id_, classes, attrs, el.text or "", el.tail or "", 0.0, 0.0, 0.0, 0.0,
                          vis, 0, depth, i + 1, []))
        elements.append(el)
        open_.append(i)
        if tag in NON_CONTENT_TAGS:
            walk.skip_subtree()
    _xpaths(nodes)
    table = NodeTable([], [STATIC_STYLE])
    table.nodes = nodes  # linked above: NodeTable's own linking would walk the nodes four times again
    return PageTree(doc, table, elements, None, native=native)


def _xpaths(nodes: list[Node]) -> None:
    """Each node's absolute XPath as ``visx.model._link`` writes it (a tree without explicit steps)."""
    for n in nodes:
        if n.parent < 0:
            n.xpath = "/" + n.tag
        kids = n.children
        if not kids:
            continue
        base = n.xpath
        if len(kids) == 1:
            child = nodes[kids[0]]
            child.xpath = f"{base}/{child.tag}"
            continue
        number_steps(nodes, kids, base)


def _strip_comments(doc: etree._Element) -> None:
    """Drop comments and processing instructions, keeping their tails as text."""
    for c in list(doc.iter(etree.Comment, etree.ProcessingInstruction)):
        parent = c.getparent()
        if parent is None:
            continue
        tail = c.tail or ""
        prev = c.getprevious()
        if tail:
            if prev is not None:
                prev.tail = (prev.tail or "") + tail
            else:
                parent.text = (parent.text or "") + tail
        parent.remove(c)
