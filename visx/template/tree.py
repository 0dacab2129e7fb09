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
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from visx.model import ATTR_NAMES, FRAME_STEP, NON_CONTENT_TAGS, SHADOW_STEP, Node, NodeTable

SHADOW_TAG = "visx-shadow-root"
FRAME_TAG = "visx-document"
SYNTHETIC = frozenset({SHADOW_TAG, FRAME_TAG})
_BAD_XML_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_NAME = re.compile(r"^[A-Za-z_][\w.\-]*$")


@dataclass(slots=True)
class PageTree:
    """An lxml tree of a page and the node behind each element."""

    root: etree._Element
    nodes: NodeTable
    elements: list[etree._Element]
    """``elements[i]`` is node ``i``'s element."""
    index: dict[etree._Element, int] = field(default_factory=dict)

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


def _clean(value: str) -> str:
    return _BAD_XML_CHARS.sub("", value) if value else value


def _element(tag: str) -> etree._Element:
    return etree.Element(tag if _NAME.match(tag) and ":" not in tag else "visx-unknown")


def from_snapshot(nodes: NodeTable) -> PageTree:
    """The rendered page as an lxml tree (see the module docstring)."""
    elements: list[etree._Element] = []
    wrappers: dict[tuple[int, str], etree._Element] = {}
    xsteps = nodes.xsteps
    root: etree._Element | None = None
    for n in nodes.nodes:
        el = _element(n.tag)
        if n.id:
            el.set("id", _clean(n.id))
        if n.classes:
            el.set("class", _clean(" ".join(n.classes)))
        for k, v in n.attrs.items():
            if _NAME.match(k):
                el.set(k, _clean(v))
        el.text = _clean(n.text) or None
        el.tail = _clean(n.tail) or None
        elements.append(el)
        parent = _parent_of(n, elements, wrappers, xsteps)
        if parent is None:
            if root is None:
                root = el
            continue
        parent.append(el)
    if root is None:
        root = etree.Element("html")
    tree = PageTree(root, nodes, elements)
    tree.index = {el: i for i, el in enumerate(elements)}
    return tree


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


def from_html(html: str | bytes, base_url: str = "") -> PageTree:
    """Raw HTML as a :class:`PageTree` whose :class:`NodeTable` has no boxes or styles.

    ``hidden`` and inline ``display: none`` mark a node invisible: the one
    visibility a page states without a stylesheet.
    """
    from urllib.parse import urljoin

    from lxml import html as lhtml

    try:
        doc = lhtml.document_fromstring(html) if html and (isinstance(html, bytes) or html.strip()) else None
    except (etree.ParserError, ValueError):
        doc = None
    if doc is None:
        doc = lhtml.document_fromstring("<html><body></body></html>")
    nodes: list[Node] = []
    elements: list[etree._Element] = []
    _strip_comments(doc)
    stack: list[tuple[etree._Element, int]] = [(doc, -1)]
    while stack:
        el, parent = stack.pop()
        i = len(nodes)
        tag = el.tag.lower() if isinstance(el.tag, str) else "visx-unknown"
        attrs = {}
        for a in ATTR_NAMES:
            v = el.get(a)
            if v is not None:
                attrs[a] = urljoin(base_url, v) if a in ("href", "src") and base_url and v else v
        style = el.get("style") or ""
        vis = 1 if el.get("hidden") is not None or _HIDDEN_STYLE.search(style) else 0
        nodes.append(Node(i, parent, tag, el.get("id") or "", tuple((el.get("class") or "").split()), attrs,
                          el.text or "", el.tail or "", 0.0, 0.0, 0.0, 0.0, vis, 0))
        elements.append(el)
        if tag in NON_CONTENT_TAGS:
            continue
        kids = [c for c in el if isinstance(c.tag, str)]
        stack.extend((c, i) for c in reversed(kids))
    table = NodeTable(nodes, [STATIC_STYLE])
    tree = PageTree(doc, table, elements)
    tree.index = {el: i for i, el in enumerate(elements)}
    return tree


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
