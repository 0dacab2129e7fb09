"""Record trees: the part of the DOM a record covers, reduced to what carries data.

Each record becomes a small tree of elements and text pieces (DEPTA's tag
tree with ``#text`` leaves). Elements without any data below them are pruned,
so alignment only sees structure that can hold a column. Every tree node
carries a few rendered features (classes, font size/weight/colour, x-offset in
its record, text shape) that :mod:`visx.align.stm` uses to break ties.

Nested lists (tags, several authors) are found across the records of a region
(:func:`collapse_lists`) and each replaced by one ``#list`` node. Building notes
whether any record has two alike siblings in a row; only then does a second walk
(:meth:`TreeBuilder.index`) collect the sibling runs and element paths this needs,
so regions without lists (most of them) walk their DOM once.

Trees are flat lists indexed by tree-node id; ids are allocated bottom-up, so a
freshly built tree numbers its nodes in post-order, but ``children`` lists hold
the reading order, from ``root``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

from visx.align import thresholds as th
from visx.align.model import Item
from visx.model import STYLE_INDEX, Node, NodeTable, Record

ROOT = "#record"
TEXT = "#text"
LIST = "#list"

_SKIP_TAGS = frozenset(
    {"script", "style", "noscript", "template", "head", "title", "meta", "link", "br", "hr",
     "svg", "iframe", "select", "option", "input", "textarea"}
)


class Feat(NamedTuple):
    """Rendered evidence about one tree node (see :func:`visx.align.stm.node_sim`)."""

    classes: frozenset[str]
    font: tuple[str, str, str]
    """Font size, weight and colour (empty for the record root)."""
    relx: float
    shape: str
    """Coarse text shape for text leaves (``price``, ``num``, ``date``, ``word``), else ""."""
    text: str


_NO_FEAT = Feat(frozenset(), ("", "", ""), 0.0, "", "")

# The tree builder makes a Feat and an Item per node: tuple.__new__ skips the
# NamedTuple constructor's keyword handling.
_new_feat = cast("Callable[[type[Feat], tuple[Any, ...]], Feat]", tuple.__new__)
_new_item = cast("Callable[[type[Item], tuple[Any, ...]], Item]", tuple.__new__)
_DISPLAY = STYLE_INDEX["display"]

Sig = tuple[str, tuple[str, ...], tuple[str, str, str]]
RunKey = tuple[int, Sig]
"""(hash of the parent's path from the record root, child signature)."""


class Run(NamedTuple):
    """The first maximal run of adjacent alike child elements of one parent."""

    key: RunKey
    parent: int
    elems: list[int]


@dataclass(slots=True)
class RecTree:
    """A record (or the growing seed) as flat arrays, read from ``root``."""

    label: list[str] = field(default_factory=list)
    children: list[list[int]] = field(default_factory=list)
    feat: list[Feat] = field(default_factory=list)
    item: list[Item | None] = field(default_factory=list)
    shape: list[int] = field(default_factory=list)
    """Hash of the subtree's labels, classes, fonts and text shapes: equal shapes match alike."""
    size: list[int] = field(default_factory=list)
    """Number of tree nodes in each subtree: filled by :meth:`rehash` (the seed needs it)."""
    root: int = -1
    of_elem: dict[int, int] = field(default_factory=dict)
    """Element index -> its tree node (elements that were kept)."""
    paths: dict[int, int] = field(default_factory=dict)
    """Hash of an element's path from the record root (tags, classes, ordinals) -> element."""
    repeats: set[tuple[int, Sig]] = field(default_factory=set)
    """(parent path, child signature) wherever two alike siblings follow each other."""

    n_data: int = 0
    """Data items reachable from the root."""
    postorder: bool = True
    """Node ids number the nodes in post-order, as :class:`TreeBuilder` adds them (each
    node after its children), so equally shaped trees have equal ids node for node.
    Cleared when the tree is rearranged (list collapse, seed growth)."""

    def add(self, label: str, feat: Feat, kids: list[int], item: Item | None) -> int:
        if item is not None:
            self.n_data += 1
        shape = self.shape
        self.label.append(label)
        self.children.append(kids)
        self.feat.append(feat)
        self.item.append(item)
        if kids:
            shape.append(hash((label, feat.classes, feat.font, *[shape[k] for k in kids])))
        else:
            shape.append(hash((label, feat.classes, feat.font, feat.shape)))
        return len(shape) - 1

    def rehash(self) -> None:
        """Recompute shapes and sizes after children changed (list collapse, seed growth)."""
        shape, children = self.shape, self.children
        size = self.size
        if len(size) < len(shape):
            size.extend([1] * (len(shape) - len(size)))
        for t in reversed(self.preorder()):
            kids = children[t]
            if kids:
                f = self.feat[t]
                shape[t] = hash((self.label[t], f.classes, f.font, *[shape[k] for k in kids]))
                size[t] = 1 + sum([size[k] for k in kids])
            else:
                size[t] = 1

    def preorder(self) -> list[int]:
        out: list[int] = []
        stack = [self.root]
        children = self.children
        while stack:
            t = stack.pop()
            out.append(t)
            stack.extend(reversed(children[t]))
        return out

    def count_items(self, t: int) -> int:
        """Data items in the subtree of ``t``."""
        item, children = self.item, self.children
        n = 0
        stack = [t]
        while stack:
            x = stack.pop()
            n += item[x] is not None
            stack.extend(children[x])
        return n


_CURRENCY_SIGNS = "$€£¥₹₩₽₺₫₱฿"
_CURRENCY_WORDS = ("USD", "EUR", "GBP", "CAD", "AUD", "JPY", "CHF", "INR", r"Rs\.?", "kr", "zł")
_CURRENCY = rf"[{_CURRENCY_SIGNS}]|\b(?:{'|'.join(_CURRENCY_WORDS)})\b"
_MONTHS = "jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"
_DIGIT = re.compile(r"\d")
_SHAPES = (
    ("price", re.compile(rf"(?:{_CURRENCY})\s*\d|\d\s*(?:{_CURRENCY})", re.I)),
    ("date", re.compile(rf"\b\d{{1,4}}[./-]\d{{1,2}}[./-]\d{{1,4}}\b|\b(?:{_MONTHS})[a-z]*\.?\s+\d|\d\s+(?:{_MONTHS})|\bago\b", re.I)),
    ("num", re.compile(r"^[^A-Za-z]*\d[^A-Za-z]*$")),
)
_SEPARATOR_STR = "".join(sorted(th.SEPARATOR_CHARS))
_ENTRY_SEPARATORS = ",;|·• \u00a0"
"""Stripped from both ends of a list entry: separators, not brackets or signs ("(2006)", "-5")."""

# For ASCII text, which only case-folds to ASCII: the words a price or date match needs.
_ASCII_SIGNS = "".join(c for c in _CURRENCY_SIGNS if c.isascii())
_CURRENCY_CODES = frozenset(w.removesuffix(r"\.?").lower() for w in _CURRENCY_WORDS if w.isascii())
_MONTH3 = frozenset(_MONTHS.split("|")) | {"ago"}
_WORD = re.compile(r"\w+")
_SHAPE_CACHE: dict[str, str] = {}
_SHAPE_CACHE_MAX = 20_000
"""Distinct texts with digits kept; the cache starts over past this (a few MB at most)."""


def text_shape(text: str) -> str:
    """Coarse type of a text piece, cheap enough for every leaf."""
    if not _DIGIT.search(text) and "ago" not in text:
        return "word"
    got = _SHAPE_CACHE.get(text)
    if got is None:
        if len(_SHAPE_CACHE) >= _SHAPE_CACHE_MAX:
            _SHAPE_CACHE.clear()
        got = _SHAPE_CACHE[text] = _shape(text)
    return got


def _shape(text: str) -> str:
    """:func:`text_shape` after its digit test: the first of ``_SHAPES`` that matches.

    ASCII text only case-folds to ASCII, so its words tell when the price and date
    expressions cannot match: a price needs "$" or a currency code as a whole word,
    a date two of "./-" or a word that starts with a month (or "ago").
    """
    if text.isascii():
        words = _WORD.findall(text.lower())
        price = any(c in text for c in _ASCII_SIGNS) or not _CURRENCY_CODES.isdisjoint(words)
        date = (text.count(".") + text.count("/") + text.count("-") >= 2
                or any(w[:3] in _MONTH3 for w in words))
    else:
        price = date = True
    if price and _SHAPES[0][1].search(text):
        return "price"
    if date and _SHAPES[1][1].search(text):
        return "date"
    if _SHAPES[2][1].search(text):
        return "num"
    return "word"


def clean_text(raw: str) -> str:
    """Whitespace-normalised text, or "" when it is only a separator."""
    if raw.isprintable() and "  " not in raw and raw[:1] != " " and raw[-1:] != " ":
        t = raw  # already normalised: the only whitespace a printable text has is " "
    else:
        t = " ".join(raw.split())
    if not t.strip(_SEPARATOR_STR):  # also true for ""
        return ""
    return t


_NONE: frozenset[int] = frozenset()
_LEAF: list[int] = []
"""The children of every leaf the builder makes, shared to save a list per leaf. Never
mutated: list collapse only edits lists that hold the list's entries, and the seed
copies its record's lists before it grows."""


def _links(nodes: list[Node], e: int) -> set[str]:
    return {nodes[d].attrs["href"] for d in range(e, nodes[e].end)
            if nodes[d].tag == "a" and nodes[d].attrs.get("href")}


class PageCache:
    """Per-page lookups shared by every record of a region (fonts, class sets, signatures)."""

    __slots__ = ("classes", "fonts", "looks", "nodes", "parts", "sigs")

    def __init__(self, nodes: NodeTable) -> None:
        self.nodes = nodes
        self.fonts: dict[int, tuple[str, str, str]] = {}
        self.classes: dict[tuple[str, ...], frozenset[str]] = {}
        self.sigs: dict[int, Sig] = {}
        self.looks: dict[tuple[tuple[str, ...], int], tuple[frozenset[str], tuple[str, str, str]]] = {}
        self.parts: dict[int, list[str]] = {}

    def font(self, e: int) -> tuple[str, str, str]:
        si = self.nodes.nodes[e].style
        f = self.fonts.get(si)
        if f is None:
            st = self.nodes.styles[si]
            f = self.fonts[si] = (st[4], st[5], st[8])
        return f

    def class_set(self, e: int) -> frozenset[str]:
        c = self.nodes[e].classes
        got = self.classes.get(c)
        if got is None:
            got = self.classes[c] = frozenset(c)
        return got

    def look(self, e: int) -> tuple[frozenset[str], tuple[str, str, str]]:
        """Class set and font of an element, interned per (classes, style)."""
        n = self.nodes.nodes[e]
        key = (n.classes, n.style)
        got = self.looks.get(key)
        if got is None:
            got = self.looks[key] = (self.class_set(e), self.font(e))
        return got

    def text_parts(self, e: int) -> list[str]:
        """``nodes.text_parts(e)``, once per element (list detection asks up to three times)."""
        got = self.parts.get(e)
        if got is None:
            got = self.parts[e] = self.nodes.text_parts(e)
        return got

    def sig(self, e: int) -> Sig:
        """Tag, classes and font: siblings with equal signatures are alike."""
        got = self.sigs.get(e)
        if got is None:
            n = self.nodes[e]
            got = self.sigs[e] = (n.tag, n.classes, self.font(e))
        return got


class TreeBuilder:
    """Builds the :class:`RecTree` of each record of one region.

    The hot loop of the alignment stage: one pass over each record's elements,
    with the per-node helpers inlined and feature tuples built directly.
    """

    def __init__(self, pc: PageCache) -> None:
        self.pc = pc
        self.nodes = pc.nodes
        self.nn = pc.nodes.nodes  # the plain list: indexing it skips a Python-level __getitem__
        self.alike = False
        """Some record built so far has two alike sibling elements in a row (a possible list)."""
        self.merged: dict[int, frozenset[int]] = {}
        """Element -> children merged into its text, where there are any."""

    def build(self, record: Record) -> RecTree:
        """The record's tree; its ``paths`` and ``repeats`` stay empty until :meth:`index`."""
        t = RecTree()
        kids = []
        nodes = self.nn
        for part in record.parts:
            n = nodes[part]
            if n.vis or n.tag in _SKIP_TAGS:
                continue
            c = self._element(t, part, n.x, "", 0)
            if c >= 0:
                kids.append(c)
        t.root = t.add(ROOT, _NO_FEAT, kids, None)
        return t

    def index(self, t: RecTree, record: Record) -> None:
        """Fill ``t.paths`` and ``t.repeats`` (what :func:`find_lists` reads) for a built record.

        A second walk over the elements :meth:`build` visited, in the same order: only
        regions where :attr:`alike` is set need it, so most regions skip this work.
        """
        nodes = self.nn
        for k, part in enumerate(record.parts):
            n = nodes[part]
            if not n.vis and n.tag not in _SKIP_TAGS:
                self._index(t, part, hash((k, n.tag)), 0)

    def _index(self, t: RecTree, e: int, path: int, depth: int) -> None:
        nodes, pc = self.nn, self.pc
        t.paths[path] = e
        children = nodes[e].children
        if not children or depth >= th.MAX_DEPTH:
            return
        merge = self.merged.get(e, _NONE)
        many = len(children) > 1
        steps: dict[tuple[str, tuple[str, ...]], int] = {}
        sigs = pc.sigs
        prev: Sig | None = None
        for c in children:
            if c in merge:
                continue
            cn = nodes[c]
            if cn.vis or cn.tag in _SKIP_TAGS:
                continue
            step = (cn.tag, cn.classes)
            if many:
                s = sigs.get(c) or pc.sig(c)
                if s == prev:
                    t.repeats.add((path, s))  # two alike siblings in a row
                prev = s
                i = steps.get(step, 0)
                steps[step] = i + 1
                self._index(t, c, hash((path, step, i)), depth + 1)
            else:
                self._index(t, c, hash((path, step, 0)), depth + 1)

    def _element(self, t: RecTree, e: int, x0: float, href: str, depth: int) -> int:
        nodes, pc = self.nn, self.pc
        n = nodes[e]
        tag = n.tag
        if tag == "a":
            h = n.attrs.get("href")
            if h:
                href = h
        kids: list[int] = []
        look = pc.looks.get((n.classes, n.style)) or pc.look(e)
        relx = n.x - x0
        children = n.children
        if children and depth < th.MAX_DEPTH:
            # Text of its own (before, between or after its children) makes text leaves
            # and can merge children into them; most elements have none.
            raw = n.text
            own = bool(raw) and not raw.isspace()
            if not own:
                for c in children:
                    raw = nodes[c].tail
                    if raw and not raw.isspace():
                        own = True
                        break
            if own:
                self._mixed(t, kids, n, look, relx, x0, href, depth)
            elif len(children) > 1:
                # Only whitespace around the children: no text run can make a leaf.
                check = not self.alike
                prev: Sig | None = None
                for c in children:
                    cn = nodes[c]
                    if not cn.vis and cn.tag not in _SKIP_TAGS:
                        if check:
                            prev = self._note_alike(prev, c, cn)
                            check = not self.alike
                        k = self._element(t, c, x0, href, depth + 1)
                        if k >= 0:
                            kids.append(k)
            else:
                c = children[0]
                cn = nodes[c]
                if not cn.vis and cn.tag not in _SKIP_TAGS:
                    k = self._element(t, c, x0, href, depth + 1)
                    if k >= 0:
                        kids.append(k)
        else:
            raw = n.text
            if raw and not raw.isspace():
                self._leaf(t, kids, raw, e, look, relx, href)
        if kids:
            item = self._own_item(e, href, has_data=True) if tag == "img" else None
        elif not n.classes and not n.attrs and tag != "img" and tag != "a":
            return -1  # nothing for _own_item to find: no image, link, label or star widget
        else:
            item = self._own_item(e, href, has_data=False)
            if item is None:
                return -1
        classes, font = look
        shape = t.shape
        t.label.append(tag)
        t.children.append(kids or _LEAF)
        t.feat.append(_new_feat(Feat, (classes, font, relx, "", "")))
        t.item.append(item)
        if not kids:
            shape.append(hash((tag, classes, font, "")))
        elif len(kids) == 1:
            shape.append(hash((tag, classes, font, shape[kids[0]])))
        else:
            shape.append(hash((tag, classes, font, *map(shape.__getitem__, kids))))
        if item is not None:
            t.n_data += 1
        k = len(shape) - 1
        t.of_elem[e] = k
        return k

    def _note_alike(self, prev: Sig | None, c: int, cn: Node) -> Sig:
        """Signature of child ``c``; sets :attr:`alike` when it equals its previous sibling's."""
        pc = self.pc
        s = (cn.tag, cn.classes, pc.fonts.get(cn.style) or pc.font(c))
        if s == prev:
            self.alike = True
        return s

    def _mixed(self, t: RecTree, kids: list[int], n: Node, look: tuple[frozenset[str], tuple[str, str, str]],
               relx: float, x0: float, href: str, depth: int) -> None:
        """Children of an element with text of its own: text runs become leaves between them."""
        nodes = self.nn
        e = n.index
        children = n.children
        merge = self._mergeable(n)
        if merge:
            self.merged[e] = merge
        run = [n.text]
        links: set[str] = set()
        check = len(children) > 1 and not self.alike
        prev: Sig | None = None
        for c in children:
            cn = nodes[c]
            if merge and c in merge:
                run.append(self._raw_text(c))
                links.update(_links(nodes, c))
                run.append(cn.tail)
                continue
            if not cn.vis and cn.tag not in _SKIP_TAGS:
                if any(run):
                    self._flush(t, kids, run, links, e, look, relx, href)
                    run, links = [], set()
                else:
                    run = []
                if check:
                    prev = self._note_alike(prev, c, cn)
                    check = not self.alike
                k = self._element(t, c, x0, href, depth + 1)
                if k >= 0:
                    kids.append(k)
            if cn.tag == "br":
                run.append(" ")  # a line break separates words: "Apple<br>iPhone 7"
            if cn.tail:
                run.append(cn.tail)
        if any(run):
            self._flush(t, kids, run, links, e, look, relx, href)

    def _flush(self, t: RecTree, kids: list[int], run: list[str], links: set[str], e: int,
               look: tuple[frozenset[str], tuple[str, str, str]], relx: float, href: str) -> None:
        """One text leaf for a run of text and merged inline children."""
        raw = "".join(run) if len(run) > 1 else (run[0] if run else "")
        if raw and not raw.isspace():
            self._leaf(t, kids, raw, e, look, relx, next(iter(links)) if len(links) == 1 else href)

    @staticmethod
    def _leaf(t: RecTree, kids: list[int], raw: str, holder: int,
              look: tuple[frozenset[str], tuple[str, str, str]], relx: float, href: str) -> None:
        """Append a ``#text`` leaf for ``raw`` (unless it is only a separator) to ``kids``."""
        text = clean_text(raw)
        if not text:
            return
        classes, font = look
        tshape = text_shape(text)
        shape = t.shape
        t.label.append(TEXT)
        t.children.append(_LEAF)
        t.feat.append(_new_feat(Feat, (classes, font, relx, tshape, text)))
        t.item.append(_new_item(Item, ("text", text, holder, href, "", (), (), (), None)))
        shape.append(hash((TEXT, classes, font, tshape)))
        t.n_data += 1
        kids.append(len(shape) - 1)

    def _mergeable(self, n: Node) -> frozenset[int]:
        """Children of ``n`` whose text runs on with ``n``'s own text (seed 002's depth merge).

        Inline formatting (``b``, ``em``, a bare ``span``...) always joins the text
        around it. Other inline elements (links, classed spans) join when the
        parent's own words outweigh theirs (a link inside a sentence), or when the
        parent's text is a short label before one of them ("by <a>Ann</a>"); a row
        of fields with separators between stays apart. Block children never join.
        """
        nodes = self.nn
        raw = n.text
        lead = clean_text(raw) if raw and not raw.isspace() else ""
        tails = 0
        for c in n.children:
            raw = nodes[c].tail
            if raw and not raw.isspace():
                tails += len(clean_text(raw))
        own = len(lead) + tails
        if not own:
            return _NONE
        fmt, other, hidden = [], [], []
        other_len = 0
        for c in n.children:
            cn = nodes[c]
            if cn.vis or cn.tag in _SKIP_TAGS:
                hidden.append(c)
                continue
            kind = self._inline_kind(c)
            if kind == "fmt":
                fmt.append(c)
            elif kind == "other":
                other.append(c)
                other_len += len(self._raw_text(c).strip())
        if not fmt and not other:
            return _NONE
        merge = fmt + hidden
        label = (not tails and len(other) == 1 and len(lead.split()) <= th.LABEL_MAX_WORDS
                 and not _DIGIT.search(lead))
        if other and (own >= th.RUNNING_TEXT_SHARE * other_len or label):
            merge += other
        return frozenset(merge)

    def _inline_kind(self, c: int) -> str:
        """``fmt`` (inline formatting only), ``other`` (inline), or ``block``."""
        nodes = self.nn
        styles = self.nodes.styles
        fmt_tags = th.INLINE_FORMAT_TAGS
        kind = "fmt"
        for d in range(c, nodes[c].end):
            dn = nodes[d]
            if dn.tag in ("br", "wbr") or (dn.vis and d != c):
                continue
            if dn.tag in _SKIP_TAGS or dn.tag == "img" or styles[dn.style][_DISPLAY] != "inline":
                return "block"
            if dn.tag not in fmt_tags and not (dn.tag == "span" and not dn.classes and not dn.id):
                kind = "other"
        return kind

    def _raw_text(self, c: int) -> str:
        """The visible text of ``c``'s subtree as written (no spaces added between pieces)."""
        nodes = self.nn
        parts: list[str] = []
        stack: list[tuple[int, bool]] = [(c, False)]
        while stack:
            d, closing = stack.pop()
            dn = nodes[d]
            if closing:
                if d != c:
                    parts.append(dn.tail)
                continue
            if dn.tag == "br":
                parts.append(" ")
                stack.append((d, True))
                continue
            if dn.vis:
                if d != c:
                    parts.append(dn.tail)
                continue
            stack.append((d, True))
            parts.append(dn.text)
            stack.extend((k, False) for k in reversed(dn.children))
        return "".join(parts)

    def _own_item(self, e: int, href: str, *, has_data: bool) -> Item | None:
        """The item an element carries itself: image, bare link, label attribute, stars."""
        n = self.nodes[e]
        if n.tag == "img":
            src, alt = n.attrs.get("src", ""), clean_text(n.attrs.get("alt", ""))
            return Item("image", alt, e, href, src) if src or alt else None
        if has_data:
            return None
        label = clean_text(n.attrs.get("aria-label", "") or n.attrs.get("title", ""))
        if n.tag == "a" and n.attrs.get("href"):
            return Item("link", label, e, href)
        if label:
            return Item("attr", label, e, href)
        fill = self._star_fill(e)
        if fill is not None:
            return Item("stars", "", e, href, fill=fill)
        return None

    def _star_fill(self, e: int) -> float | None:
        """Filled share of a star widget: an inner bar's width over the widget's."""
        nodes = self.nodes
        n = nodes[e]
        if n.w <= 0 or not n.classes:
            return None
        cls = " ".join(n.classes).lower()
        if not any(w in cls for w in th.STAR_CLASS_WORDS):
            return None
        for i in range(e + 1, n.end):
            d = nodes[i]
            if d.h <= 0 or d.w <= 0 or abs(d.x - n.x) > 1.0 or d.w > n.w + 0.5:
                continue
            if d.w < n.w - 0.5 or nodes.style(i, "position") == "absolute":
                return round(min(d.w / n.w, 1.0), 3)
        return None


def _n_data(pc: PageCache, e: int) -> int:
    """Rough count of data items below an element: text pieces plus images."""
    nodes = pc.nodes.nodes
    n = len(pc.text_parts(e))
    return n + sum(1 for i in range(e, nodes[e].end) if nodes[i].tag == "img")


def _run(pc: PageCache, parent: int, sig: Sig) -> list[int]:
    """The first maximal run of visible children of ``parent`` with signature ``sig``."""
    nodes = pc.nodes
    run: list[int] = []
    for c in nodes[parent].children:
        cn = nodes[c]
        if cn.vis or cn.tag in _SKIP_TAGS:
            continue
        if pc.sig(c) == sig:
            run.append(c)
        elif run:
            break
    return run


def find_lists(pc: PageCache, trees: list[RecTree]) -> list[list[Run]]:
    """Per record, the runs of alike siblings that are a nested list.

    A run is a list when its length varies across records (1 author here, 3
    there) while its entries stay alike: small, of one text shape, and not a
    fixed label. Runs of constant length stay columns.
    """
    out: list[list[Run]] = [[] for _ in trees]
    if len(trees) < th.LIST_MIN_RECORDS:
        return out
    keys = {k for t in trees for k in t.repeats}
    for key in keys:
        path, sig = key
        by_rec: dict[int, Run] = {}
        for r, t in enumerate(trees):
            parent = t.paths.get(path)
            if parent is not None:
                elems = _run(pc, parent, sig)
                if elems:
                    by_rec[r] = Run(key, parent, elems)
        counts = [len(by_rec[r].elems) if r in by_rec else 0 for r in range(len(trees))]
        if max(counts) < 2 or min(counts) == max(counts):
            continue
        runs = list(by_rec.values())
        if any(_n_data(pc, e) > th.LIST_MAX_ITEMS_PER_ENTRY for run in runs for e in run.elems):
            continue
        if _positional(pc, [run.elems for run in runs]):
            continue
        for r, run in by_rec.items():
            out[r].append(run)
    return out


def _positional(pc: PageCache, runs: list[list[int]]) -> bool:
    """True when position i of the run means something fixed (a label, a type)."""
    by_pos: list[list[str]] = []
    for elems in runs:
        for i, e in enumerate(elems):
            if i == len(by_pos):
                by_pos.append([])
            by_pos[i].append(" ".join(pc.text_parts(e)))
    dominant: list[str] = []
    lead: list[str] = []
    vocab: list[set[str]] = []
    for pos, texts in enumerate(by_pos[:2]):
        if len(texts) < 2:
            if pos == 1 and texts and dominant and dominant[0] not in ("", "word"):
                # One record has a second entry: unlike a first entry that holds a typed
                # value ("4 months ago 436,722 views" then "Season 1 Episode 17"), it shows
                # the first position is a field of its own, not the head of a list.
                dominant.append(text_shape(texts[0]) if texts[0] else "")
            break
        shapes = [text_shape(t) for t in texts if t]
        if shapes:
            top = max(set(shapes), key=shapes.count)
            dominant.append(top if shapes.count(top) / len(shapes) >= th.LIST_SHAPE_AGREEMENT else "")
        most = max((texts.count(t) for t in set(texts)), default=0)
        if most / len(texts) >= th.LIST_SHAPE_AGREEMENT:
            return True
        heads = [t.split()[0].lower() for t in texts if t.split() and not _DIGIT.search(t.split()[0])]
        opener, labels = _openings(heads, len(texts))
        lead.append(opener)
        vocab.append(labels)
    if len(lead) == 2 and lead[0] and lead[1] and lead[0] != lead[1]:
        return True  # "Reg. $67", "Was $41": each position opens with its own label
    if len(vocab) == 2 and vocab[0] and vocab[1] and not vocab[0] & vocab[1]:
        return True  # "Reg."/"Orig." first, "Was"/"Sale" second: two small sets of labels
    if len(by_pos) > 1 and _label_rows(pc, runs):
        return True
    return len(dominant) == 2 and dominant[0] != dominant[1]


def _openings(heads: list[str], n: int) -> tuple[str, set[str]]:
    """The opening words of ``n`` entries: the one that opens most of them (or ""), and the
    few labels (at most ``LIST_LABEL_WORDS``, each opening two entries or more) that
    together open most of them (an empty set when the openings are many: names, titles)."""
    counts = Counter(heads)
    top, k = counts.most_common(1)[0] if counts else ("", 0)
    # A label opens several entries: words seen once (a name, a title) are no label.
    repeated = sorted(((c, w) for w, c in counts.items() if c > 1), reverse=True)[:th.LIST_LABEL_WORDS]
    labels = {w for _, w in repeated} if sum(c for c, _ in repeated) >= th.LIST_SHAPE_AGREEMENT * n else set()
    return (top if k / n >= th.LIST_SHAPE_AGREEMENT else ""), labels


def _label_rows(pc: PageCache, runs: list[list[int]]) -> bool:
    """The first entries open with one label of their own ("Current" beside its value)
    that the second entries do not ("Education", "Summary"): label-value rows."""
    firsts = [pc.text_parts(elems[0])[:1] for elems in runs if elems]
    labels = [p[0].lower() for p in firsts if p and len(p[0].split()) <= th.LABEL_MAX_WORDS]
    if not labels or len(labels) < th.LIST_SHAPE_AGREEMENT * len(runs):
        return False
    top = max(set(labels), key=labels.count)
    if labels.count(top) < th.LIST_SHAPE_AGREEMENT * len(runs) or len(pc.text_parts(runs[0][0])) < 2:
        return False
    seconds = [pc.text_parts(elems[1])[:1] for elems in runs if len(elems) > 1]
    return sum(1 for p in seconds if p and p[0].lower() == top) < th.LIST_SHAPE_AGREEMENT * len(seconds)


def collapse_lists(pc: PageCache, tree: RecTree, runs: list[Run]) -> None:
    """Replace each list run's entries in ``tree`` by one ``#list`` node holding them all."""
    nodes = pc.nodes
    changed = False
    for run in runs:
        parent = tree.of_elem.get(run.parent)
        entries = [tree.of_elem[e] for e in run.elems if e in tree.of_elem]
        if parent is None or not entries:
            continue
        kids = tree.children[parent]
        if entries[0] not in kids or entries[-1] not in kids:
            continue  # inside a list collapsed before: already part of its value
        values, hrefs, elems = [], [], []
        for e in run.elems:
            # An entry's own separator (", Gerald Klaassen") is not part of its value.
            text = " ".join(pc.text_parts(e)).strip(_ENTRY_SEPARATORS)
            if text:
                values.append(text)
                elems.append(e)
                hrefs.append(_first_href(nodes, e) or _enclosing_href(tree, entries[0]))
        if not values:
            continue
        item = Item("list", "; ".join(values), run.parent, hrefs[0] if len(set(hrefs)) == 1 else "",
                    values=tuple(values), hrefs=tuple(hrefs), nodes=tuple(elems))
        f = tree.feat[entries[0]]
        ln = tree.add(LIST, Feat(f.classes, f.font, f.relx, "", ""), [], item)
        i0, i1 = kids.index(entries[0]), kids.index(entries[-1])
        tree.n_data -= sum(tree.count_items(k) for k in kids[i0:i1 + 1])
        kids[i0:i1 + 1] = [ln]
        changed = True
    if changed:
        tree.postorder = False
        tree.rehash()


def _first_href(nodes: NodeTable, e: int) -> str:
    for i in range(e, nodes[e].end):
        n = nodes[i]
        if n.tag == "a" and n.attrs.get("href"):
            return n.attrs["href"]
    return ""


def _enclosing_href(tree: RecTree, t: int) -> str:
    """The link a list sits inside (its entries' items carry it)."""
    stack = [t]
    while stack:
        x = stack.pop()
        it = tree.item[x]
        if it is not None:
            return it.href
        stack.extend(tree.children[x])
    return ""
