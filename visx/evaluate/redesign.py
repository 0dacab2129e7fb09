"""Change a saved list page the way a site redesign does, to test self-repairing templates.

Each change keeps the records (the gold rows of ``records.csv``) on the page and
alters what a learned template leans on:

- ``classes``: every class name hashed, in the HTML and in the page's CSS alike,
  so the page looks the same but class-based XPaths break;
- ``insert``: an ad-like block after every third record, of the record's tag;
- ``wrap``: each record's content wrapped in one new element (one level deeper);
- ``headings``: h1..h5 moved down a level;
- ``all``: the four at once; ``none``: only parsed and re-serialised by lxml,
  the baseline that tells a change's effect from lxml's own rewriting.

The functions work on HTML and CSS text with lxml and tinycss2 (CSS is edited at
the tokenizer's positions, so numbers like ``.5em``, strings, ``url()`` and
declarations are never touched). The records are found from the gold rows on
lxml's tree of the original page; lxml adds no ``<tbody>`` as a browser does,
which is fine as every change works on that same tree.
"""

from __future__ import annotations

import codecs
import functools
import hashlib
import math
import random
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import lxml.html
import tinycss2  # type: ignore[import-untyped]  # ships no type information
from lxml.html import HtmlElement

CHANGES: tuple[str, ...] = ("none", "classes", "insert", "wrap", "headings", "all")
"""Every change, in the order the CLI writes them."""
STEPS: dict[str, tuple[str, ...]] = {
    "none": (),
    "classes": ("classes",),
    "insert": ("insert",),
    "wrap": ("wrap",),
    "headings": ("headings",),
    # Classes last, so the inserted blocks' and wrappers' classes are hashed too.
    "all": ("insert", "wrap", "headings", "classes"),
}

MIN_CELL_SHARE = 0.5
"""A record's element holds at least this share of its non-empty gold cells: about 5%
of gold cells differ slightly from the page text (truncation, whitespace), so not all."""
MIN_LOCATED_SHARE = 0.6
"""Below this share of gold records found, the records' parent is a guess: skip the page."""
INSERT_EVERY = 3
"""An inserted block after every third record: often enough to shift every index-based
XPath past the first few records, rarely enough to leave runs of plain records."""
MAX_ROWS_IN_RECORD = 2
LIST_CELL_SHARE = 0.75
"""An element holding this share of the cells of more than MAX_ROWS_IN_RECORD distinct gold
rows holds several records (a list): a record's element is looked for among the others
first. A record holds half of many rows' cells when they share dates or authors, and most
of one near copy's, hence the two numbers."""
HASH_HEX = 6
"""Hex digits of sha1 in a hashed class name: 16M names, so collisions are rare (and retried)."""

AD_LINKS = (
    "Save 20% on your next order",
    "Try Premium free for 30 days",
    "Compare insurance quotes near you",
    "Earn double points with our card",
    "Learn a language in three weeks",
)
"""Link texts of the inserted blocks, picked by the seed."""

HASHED_NAME = re.compile(rf"c[0-9a-f]{{{HASH_HEX},40}}")
_HTML_SPACE = re.compile(r"[ \t\n\f\r]+")
"""Class attribute separators (HTML whitespace, not str.split's, which also splits at nbsp)."""
_XML_DECL = re.compile(r"^\ufeff?\s*<\?xml[^>]*>", re.I)
_DOCTYPE = re.compile(r"<!doctype[^>]*>", re.I)
_BODY_TAG = re.compile(r"<body\b[^>]*>", re.I)
_LEADING = re.compile(r"^(?:\ufeff|\s+|<!--.*?-->)*", re.S)
_META_CHARSET = re.compile(rb"<meta[^>]+charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.I)
_CSS_NEWLINE = re.compile(r"\r\n|[\r\n\f]")
_CSS_IDENT = re.compile(
    r"(?:[A-Za-z0-9_\-\u0080-\U0010ffff]|\\(?:[0-9A-Fa-f]{1,6}(?:\r\n|[ \t\r\n\f])?|[^\r\n\f0-9A-Fa-f]))+")
_CSS_STRING = {q: re.compile(q + r"(?:[^" + q + r"\\\r\n\f]|\\(?:\r\n|[\s\S]))*" + q + "?")
               for q in ("'", '"')}

GROUPING_AT_RULES = frozenset({"media", "supports", "document", "-moz-document", "layer",
                               "container", "scope", "starting-style"})
"""At-rules whose block holds style rules (and so selectors); others hold declarations."""
TABLE_PARTS = frozenset({"table", "thead", "tbody", "tfoot", "tr"})
LIST_TAGS = frozenset({"ul", "ol", "menu"})
UNWRAPPABLE = frozenset({"select", "option", "optgroup", "textarea", "script", "style", "img",
                         "input", "br", "hr", "iframe", "video", "audio", "canvas", "svg", "math"})
"""Records whose content cannot take a wrapper element."""
P_SCOPE_STOP = frozenset({"td", "th", "caption", "table", "button", "object", "marquee", "applet",
                          "template", "html", "body"})
"""Where a browser stops looking for an open ``<p>`` that a new ``<div>`` would close."""
QUIRKY_PUBLIC_IDS = ("-//w3c//dtd html 3", "-//w3c//dtd html 2", "-//ietf//dtd html",
                     "-//w3o//dtd w3 html", "-//netscape comm. corp.//dtd", "-//microsoft//dtd",
                     "-//softquad", "-//sq//dtd", "-//sun microsystems corp.//dtd",
                     "-//webtechs//dtd", "-//w3c//dtd html experimental", "-//w3c//dtd w3 html",
                     "-//w3c//dtd html 4.0 ")
"""Public ids that put a page in quirks mode (the common part of the HTML standard's list)."""


class RecordsNotLocated(Exception):
    """The gold records could not be tied to one element each on the page."""


@dataclass(slots=True)
class Location:
    """Where the gold records are on a page."""

    records: list[HtmlElement]
    """One element per located gold record, inside ``parent``, in document order."""
    parent: HtmlElement | None
    n_gold: int
    problem: str = ""
    """Why the page cannot be used (empty when it can)."""

    @property
    def n_located(self) -> int:
        return len(self.records)


@dataclass(slots=True)
class Stats:
    """What one change did to a page."""

    records_located: int = 0
    classes_renamed: int = 0
    """Distinct class names hashed."""
    classes_affixed: int = 0
    """Of those, names keeping a part a substring selector needs (``icon-`` of ``icon-star``)."""
    classes_kept: int = 0
    """Class names left as they were: a substring selector needs all of them."""
    css_edits: int = 0
    """Selector tokens rewritten across the page's stylesheets."""
    css_left: int = 0
    """Class tokens of selectors that could not be pinned to their text, so left as they were
    (their rules stop matching: a look change to notice)."""
    blocks_inserted: int = 0
    elements_wrapped: int = 0
    headings_shifted: int = 0

    def as_dict(self) -> dict[str, int]:
        return {f.name: int(getattr(self, f.name)) for f in fields(self)}


@dataclass(slots=True)
class Redesigned:
    """A changed page: its HTML, its stylesheets and frame documents by the names given."""

    html: str
    css: dict[str, str]
    frames: dict[str, str]
    stats: Stats
    classes: dict[str, str] = field(default_factory=dict)
    """Old class name (lower-cased in quirks mode) -> new, for the ``classes`` step."""


# --- reading and writing HTML -------------------------------------------------------------

def decode_html(data: bytes) -> str:
    """A saved page's bytes as text: BOM, then ``<meta charset>``, then UTF-8, then cp1252."""
    for bom, enc in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16"),
                     (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            return data.decode(enc, errors="replace").lstrip("\ufeff")
    m = _META_CHARSET.search(data[:4096])
    if m:
        try:
            enc = codecs.lookup(m.group(1).decode("ascii")).name
        except LookupError:
            enc = ""
        if enc in ("iso8859-1", "ascii"):  # browsers read both labels as windows-1252
            enc = "cp1252"
        if enc and not enc.startswith("utf-16"):  # a page saying utf-16 in ASCII is not utf-16
            return data.decode(enc, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def source_doctype(html: str) -> str:
    """The page's own doctype ("" if none): lxml would otherwise write HTML 4.0 Transitional's."""
    head = _LEADING.sub("", _XML_DECL.sub("", html[:4096]))
    m = _DOCTYPE.match(head)
    return m.group(0) if m else ""


def is_quirks(doctype: str) -> bool:
    """Whether a browser renders a page with this doctype in quirks mode, where class
    selectors match case-insensitively (so renaming must ignore case too)."""
    m = re.match(r"<!doctype\s+(\S+)(.*)>$", doctype.strip(), re.I | re.S)
    if not m or m.group(1).lower() != "html":
        return True
    ids = re.findall(r"\"([^\"]*)\"|'([^']*)'", m.group(2))
    values = [a or b for a, b in ids]
    public = values[0].lower() if re.search(r"\bpublic\b", m.group(2), re.I) and values else ""
    has_system = len(values) > 1 or (bool(values) and not public)
    if public.startswith(QUIRKY_PUBLIC_IDS):
        return True
    return (public.startswith(("-//w3c//dtd html 4.01 frameset//", "-//w3c//dtd html 4.01 transitional//"))
            and not has_system)


def parse_html(html: str) -> HtmlElement:
    """lxml's tree of a page (an XML declaration dropped: lxml refuses it in text, and a
    browser reads it as a comment).

    Where an element in ``<head>`` opens the body early (an ``<iframe>``), lxml drops the
    attributes of the page's own ``<body>`` tag, while a browser adds them to the body it
    made: they are added here too, or ``body.t-light``'s rules would stop matching."""
    root = lxml.html.document_fromstring(_XML_DECL.sub("", html, count=1))
    body = root.find("body")
    if body is not None:
        for tag in _BODY_TAG.findall(html):
            div = lxml.html.fragment_fromstring("<div" + tag[5:] + "</div>")
            for name, value in div.attrib.items():
                if name not in body.attrib:
                    body.set(name, value)
    return root


def serialize_html(root: HtmlElement, doctype: str) -> str:
    """The page as text, declared UTF-8 (the CLI writes it so) and with its own doctype."""
    for meta in root.iter("meta"):
        if meta.get("charset") is not None:
            meta.set("charset", "utf-8")
        elif (meta.get("http-equiv") or "").lower() == "content-type":
            meta.set("content", "text/html; charset=utf-8")
    out = lxml.html.tostring(root.getroottree(), encoding="unicode", method="html", doctype=doctype)
    return str(out).lstrip("\n")


# --- finding the records ------------------------------------------------------------------

def norm_text(s: str) -> str:
    """Text for matching gold cells: NFKC, case-folded, every space removed (lxml joins the
    text of adjacent elements with no space where the page shows one, and vice versa)."""
    return "".join(unicodedata.normalize("NFKC", s).casefold().split())


NO_TEXT = frozenset({"script", "style", "template", "head", "title"})
"""Elements whose text is not shown: some pages keep their records in JSON in a script."""


class _Texts:
    """Normalised shown text of every element under ``top``, and which hold a gold cell."""

    def __init__(self, top: HtmlElement) -> None:
        self.top = top
        self._text: dict[HtmlElement, str] = {}
        self._holders: dict[str, list[HtmlElement]] = {}
        # Children before parents, so each text is built from its children's.
        for el in reversed([e for e in top.iter() if isinstance(e.tag, str)]):
            parts = [norm_text(el.text or "")] if el.tag not in NO_TEXT else []
            for child in el:
                if el.tag not in NO_TEXT and isinstance(child.tag, str):
                    parts.append(self._text[child])
                parts.append(norm_text(child.tail or ""))
            self._text[el] = "".join(parts)

    def text(self, el: HtmlElement) -> str:
        return self._text.get(el, "")

    def holders(self, cell: str) -> list[HtmlElement]:
        """Every element whose text contains ``cell``: the set is closed upwards, so a
        walk from the top that enters only holders finds them all."""
        found = self._holders.get(cell)
        if found is None:
            found = []
            stack = [self.top] if cell in self.text(self.top) else []
            while stack:
                el = stack.pop()
                found.append(el)
                stack.extend(c for c in el if isinstance(c.tag, str) and cell in self.text(c))
            self._holders[cell] = found
        return found


def _fullest(counts: Mapping[HtmlElement, int], need: int) -> list[tuple[HtmlElement, int]]:
    """Elements holding ``need`` cells and more than any child does: the smallest one at
    each level of match. A record's own element holds all its cells; a price button inside
    it holds two and is a fallback only."""
    best_child: dict[HtmlElement, int] = {}
    for el, n in counts.items():
        up = el.getparent()
        if up is not None and n > best_child.get(up, 0):
            best_child[up] = n
    return [(el, n) for el, n in counts.items() if n >= need and best_child.get(el, 0) < n]


def _assign(texts: _Texts, order: Mapping[HtmlElement, int],
            counts: Sequence[Mapping[HtmlElement, int]], sizes: Sequence[int],
            lists: Mapping[HtmlElement, int], within: HtmlElement | None = None,
            ) -> dict[int, HtmlElement]:
    """Gold record index -> its element, each element (with its ancestors and descendants)
    used once: pages repeat a record's text (the same release twice), so the best pairs go
    first and a repeated record takes the next occurrence. Best: not a list (``lists``: how
    many distinct gold rows an element matches), most cells, least text, first on the page.
    ``within``: only elements strictly inside it."""
    pairs: list[tuple[bool, float, int, int, int, HtmlElement]] = []
    for gi, (held, size) in enumerate(zip(counts, sizes, strict=True)):
        need = max(1, math.ceil(size * MIN_CELL_SHARE))
        for el, n in _fullest(held, need):
            if within is None or any(a is within for a in el.iterancestors()):
                pairs.append((lists.get(el, 0) > MAX_ROWS_IN_RECORD, -n / size,
                              len(texts.text(el)), order.get(el, 0), gi, el))
    pairs.sort(key=lambda p: p[:5])
    chosen: dict[int, HtmlElement] = {}
    taken: set[HtmlElement] = set()
    under: set[HtmlElement] = set()
    """Ancestors of the taken elements."""
    for *_, gi, el in pairs:
        if gi in chosen or el in under or any(a in taken for a in (el, *el.iterancestors())):
            continue
        chosen[gi] = el
        taken.add(el)
        under.update(el.iterancestors())
    return chosen


def _holding(elements: Iterable[HtmlElement]) -> dict[HtmlElement, int]:
    """Proper ancestor -> how many of ``elements`` it holds."""
    inside: dict[HtmlElement, int] = {}
    for el in elements:
        for a in el.iterancestors():
            inside[a] = inside.get(a, 0) + 1
    return inside


def locate_records(root: HtmlElement, gold: Sequence[Sequence[str]]) -> Location:
    """One element per gold record, found from the gold cells on lxml's tree.

    The list is the deepest element holding MIN_LOCATED_SHARE of the gold records' smallest
    elements with MIN_CELL_SHARE of their cells (a record matched in a sidebar does not lift
    it to ``<body>``). Inside it, each record takes the element holding most of its cells
    (then the smallest), distinct for each record; its record element is that element's
    highest ancestor in the list holding no other record's. Where the records are siblings
    that is the list's child, as "the child of their lowest common ancestor" has it; in
    rows of a grid it is the grid cell, not the row. ``problem`` says why there is none.
    """
    body = root.find("body")
    top = body if body is not None else root
    texts = _Texts(top)
    order = {el: i for i, el in enumerate(top.iter())}
    n_gold = len(gold)
    rows = [[c for c in (norm_text(x) for x in row) if c] for row in gold]
    kept = [i for i, r in enumerate(rows) if r]
    counts: list[dict[HtmlElement, int]] = []
    for i in kept:
        held: dict[HtmlElement, int] = {}
        for cell in rows[i]:
            for el in texts.holders(cell):
                held[el] = held.get(el, 0) + 1
        counts.append(held)
    sizes = [len(rows[i]) for i in kept]
    matched: dict[HtmlElement, set[tuple[str, ...]]] = {}
    for i, held, size in zip(kept, counts, sizes, strict=True):
        for el, n in held.items():
            if n >= max(1, math.ceil(size * LIST_CELL_SHARE)):
                matched.setdefault(el, set()).add(tuple(rows[i]))
    lists = {el: len(found) for el, found in matched.items()}
    need = max(1, math.ceil(MIN_LOCATED_SHARE * n_gold))
    first = _assign(texts, order, counts, sizes, lists)
    if len(first) < need:
        return Location([], None, n_gold,
                        f"records not located: {len(first)} of {n_gold} gold records found")
    # Those holding `need` or more form one chain (need > half): the deepest is the list.
    parent = max((a for a, n in _holding(first.values()).items() if n >= need),
                 key=lambda a: sum(1 for _ in a.iterancestors()), default=None)
    if parent is None:
        return Location([], None, n_gold, "records not located: a record is the whole page")
    # Again inside the list, so a record first matched in a sidebar finds its own element.
    chosen = _assign(texts, order, counts, sizes, lists, within=parent)
    inside = _holding(chosen.values())
    records: list[HtmlElement] = []
    for el in chosen.values():
        rec = el
        for a in el.iterancestors():
            if a is parent or inside[a] > 1:
                break
            rec = a
        records.append(rec)
    if len(records) < need:
        return Location([], parent, n_gold,
                        f"records not located: {len(records)} of {n_gold} gold records found "
                        "in their list")
    records.sort(key=lambda r: order.get(r, 0))
    return Location(records, parent, n_gold)


# --- classes ------------------------------------------------------------------------------

@dataclass(slots=True, frozen=True)
class _Site:
    """A selector token naming classes, at its offset in the CSS text."""

    kind: str
    """``class`` (``.x``), ``word`` (``[class~=x]``), ``exact`` (``[class="x y"]``) or
    ``partial`` (``[class^=x]``, ``*=``, ``$=``, ``|=``)."""
    token: Any
    start: int
    end: int
    value: str
    op: str = ""
    """The operator of an attribute selector."""


def _line_starts(css: str) -> list[int]:
    """Offsets of line starts as tinycss2 counts lines (CRLF, CR, LF and FF are one newline each)."""
    return [0, *(m.end() for m in _CSS_NEWLINE.finditer(css))]


def _extent(css: str, start: int, token: Any) -> int:
    """End offset of ``token`` at ``start``, or -1 when the text there is not that token."""
    if token.type == "ident":
        m = _CSS_IDENT.match(css, start)
    elif token.type == "string" and css[start:start + 1] in _CSS_STRING:
        m = _CSS_STRING[css[start]].match(css, start)
    else:
        return -1
    if not m:
        return -1
    if token.type == "ident" and "\\" not in m.group(0):
        return m.end() if m.group(0) == token.value else -1
    again = tinycss2.parse_component_value_list(m.group(0))
    if len(again) != 1 or again[0].type != token.type or again[0].value != token.value:
        return -1
    return m.end()


@functools.lru_cache(maxsize=32)  # a page's sheets are read for names, then rewritten
def _selector_sites(css: str) -> tuple[tuple[_Site, ...], int]:
    """The class-naming tokens in the selectors of ``css``, and how many looked like one but
    could not be pinned to their text (left alone)."""
    starts = _line_starts(css)
    sites: list[_Site] = []
    lost = 0

    def offset(tok: Any) -> int:
        return int(starts[tok.source_line - 1] + tok.source_column - 1)

    def site(kind: str, tok: Any, value: str, op: str = "") -> None:
        nonlocal lost
        start = offset(tok)
        end = _extent(css, start, tok) if start < len(css) else -1
        if end < 0:
            lost += 1
        else:
            sites.append(_Site(kind, tok, start, end, value, op))

    def attribute(content: list[Any]) -> None:
        parts = [t for t in content if t.type not in ("whitespace", "comment")]
        if len(parts) < 3 or parts[0].type != "ident" or parts[0].lower_value != "class":
            return
        op, val = parts[1], parts[2]
        if op.type != "literal" or val.type not in ("ident", "string"):
            return
        kind = {"=": "exact", "~=": "word"}.get(op.value, "partial")
        site(kind, val, val.value, op.value)

    def prelude(tokens: list[Any]) -> None:
        prev = None
        for tok in tokens:
            if tok.type == "ident" and prev is not None and prev.type == "literal" and prev.value == ".":
                site("class", tok, tok.value)
            elif tok.type == "[] block":
                attribute(tok.content)
            elif tok.type == "function":  # :not(.x), :is(.x, .y), :has(> .x)
                prelude(tok.arguments)
            prev = tok

    def rules(nodes: Iterable[Any]) -> None:
        for node in nodes:
            if node.type == "qualified-rule":
                prelude(node.prelude)
            elif (node.type == "at-rule" and node.content is not None
                  and node.lower_at_keyword in GROUPING_AT_RULES):
                rules(tinycss2.parse_rule_list(node.content, skip_comments=False,
                                               skip_whitespace=False))

    rules(tinycss2.parse_stylesheet(css, skip_comments=False, skip_whitespace=False))
    return tuple(sites), lost


def _html_classes(root: HtmlElement) -> Iterator[str]:
    for el in root.iter():
        if isinstance(el.tag, str):
            value = el.get("class")
            if value:
                yield from (c for c in _HTML_SPACE.split(value) if c)


def hashed_name(name: str, salt: str, length: int = HASH_HEX) -> str:
    """A class name that says nothing of ``name`` and is the same on every run with ``salt``."""
    return "c" + hashlib.sha1(f"{salt}\0{name}".encode("utf-8", "surrogatepass")).hexdigest()[:length]


Substring = tuple[str, str]
"""A substring class selector: its operator (``^=``, ``$=``, ``*=``, ``|=``) and value."""


def class_mapping(names: Iterable[str], salt: str, *, substrings: Sequence[Substring] = (),
                  fold_case: bool = False) -> tuple[dict[str, str], set[str]]:
    """Old name (lower-cased in quirks mode) -> hashed name, and the names kept as they were.

    A name a substring selector relies on (``[class^=icon-]`` on ``icon-star``) keeps the
    part the selector needs around its hash (``icon-c1a2b3c``), so the page looks the same;
    one whose every letter counts (``[class*=" x "]`` on ``x``) is kept. A hash colliding
    with another name or hash is lengthened.
    """
    def key(n: str) -> str:
        return n.lower() if fold_case else n

    keys = sorted({key(n) for n in names})
    taken = set(keys)
    out: dict[str, str] = {}
    kept: set[str] = set()
    for k in keys:
        length = HASH_HEX
        while True:
            new = _affixed(k, hashed_name(k, salt, length), substrings)
            if new == k or new not in taken:
                break
            length += 1
        if new == k:
            kept.add(k)
            continue
        taken.add(new)
        out[k] = new
    return out, kept


def _affixed(name: str, hashed: str, substrings: Sequence[Substring]) -> str:
    """``hashed`` with the prefix, inner parts and suffix that the substring selectors
    matching ``name`` need; ``name`` itself when no such name matches exactly what it did."""
    matching = [(op, v) for op, v in substrings if _partial_match(op, v, name)]
    if not matching:
        return hashed
    prefixes, suffixes, inner = [""], [""], []
    for op, value in matching:
        p = value.strip()
        if op == "|=":
            prefixes.append(p + "-")
        elif op == "^=" or (value.startswith(" ") and not value.endswith(" ")):
            prefixes.append(p)
        elif op == "$=" or (value.endswith(" ") and not value.startswith(" ")):
            suffixes.append(p)
        else:
            inner.append(p)
    prefix, suffix = max(prefixes, key=len), max(suffixes, key=len)
    new = prefix + hashed + "".join(p for p in inner if p not in prefix and p not in suffix) + suffix
    same = all(_partial_match(op, v, new) == _partial_match(op, v, name) for op, v in substrings)
    return new if same else name


def _partial_match(op: str, pattern: str, name: str) -> bool:
    """Whether class ``name`` is what ``[class<op>pattern]`` may match it for (a pattern with a
    space at an end marks a word boundary: ``[class*=" icon-"]`` is a later class's start)."""
    p = pattern.strip()
    if not p:
        return False
    if pattern.startswith(" ") and pattern.endswith(" "):
        return name == p
    if op == "^=" or pattern.startswith(" "):
        return name.startswith(p)
    if op == "$=" or pattern.endswith(" "):
        return name.endswith(p)
    if op == "|=":
        return name == p or name.startswith(p + "-")
    return p in name


def rewrite_css(css: str, mapping: Mapping[str, str], *, fold_case: bool = False) -> tuple[str, int]:
    """``css`` with the class names of its selectors renamed by ``mapping``; nothing else of
    the text changes. Returns the text and the number of tokens rewritten."""
    sites, _ = _selector_sites(css)

    def new(name: str) -> str:
        return mapping.get(name.lower() if fold_case else name, name)

    edits: list[tuple[int, int, str]] = []
    for s in sites:
        if s.kind in ("class", "word"):
            repl = new(s.value)
            if repl == s.value:
                continue
            text = repl if s.token.type == "ident" else f'"{repl}"'
        elif s.kind == "exact":
            repl = " ".join(new(n) for n in _HTML_SPACE.split(s.value) if n)
            if repl == s.value:
                continue
            text = f'"{repl}"'
        else:
            continue
        edits.append((s.start, s.end, text))
    pieces: list[str] = []
    at = 0
    for start, end, text in sorted(edits):
        pieces += (css[at:start], text)
        at = end
    pieces.append(css[at:])
    return "".join(pieces), len(edits)


def css_class_names(css: str) -> tuple[set[str], list[tuple[str, str]]]:
    """Class names the selectors of ``css`` name, and its substring class selectors (op, value)."""
    sites, _ = _selector_sites(css)
    names: set[str] = set()
    partial: list[tuple[str, str]] = []
    for s in sites:
        if s.kind == "partial":
            partial.append((s.op, s.value))
        elif s.kind == "exact":
            names.update(n for n in _HTML_SPACE.split(s.value) if n)
        else:
            names.add(s.value)
    return names, partial


def rewrite_html_classes(root: HtmlElement, mapping: Mapping[str, str], *, fold_case: bool = False) -> int:
    """Rename the class attributes under ``root`` in place; returns the attributes changed."""
    changed = 0
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        value = el.get("class")
        if not value:
            continue
        names = [n for n in _HTML_SPACE.split(value) if n]
        new = " ".join(mapping.get(n.lower() if fold_case else n, n) for n in names)
        if new != value.strip():
            el.set("class", new)
            changed += 1
    return changed


# --- inserted blocks, wrappers, headings --------------------------------------------------

def _new_class(kind: str, seed: int) -> str:
    """A class for new elements, unlike any on the page (the page's are words, not hex)."""
    return f"{kind}-{hashlib.sha1(f'{seed}:{kind}'.encode()).hexdigest()[:5]}"


def _span(cell: HtmlElement) -> int:
    try:
        return max(1, int(cell.get("colspan") or 1))
    except ValueError:
        return 1


def _rows(el: HtmlElement) -> list[HtmlElement]:
    """The rows of a table part (a row is its own), not those of nested tables."""
    if el.tag == "tr":
        return [el]
    out: list[HtmlElement] = []
    for child in el:
        if child.tag == "tr":
            out.append(child)
        elif child.tag in ("thead", "tbody", "tfoot"):
            out.extend(c for c in child if c.tag == "tr")
    return out


def _cells(row: HtmlElement) -> list[HtmlElement]:
    return [c for c in row if c.tag in ("td", "th")]


def _ad_block(tag: str, cls: str, text: str, columns: int) -> HtmlElement:
    """An ad-like sibling for a record of ``tag``: ``Sponsored:`` and a link."""
    E = lxml.html.Element
    block = E(tag, {"class": cls})
    holder = block
    if tag == "table":
        holder = E("td")
        row = E("tr")
        row.append(holder)
        block.append(row)
    elif tag in ("thead", "tbody", "tfoot", "tr"):
        holder = E("td", {"colspan": str(columns)} if columns > 1 else {})
        if tag == "tr":
            block.append(holder)
        else:
            row = E("tr")
            row.append(holder)
            block.append(row)
    if tag == "a":  # a link holds no link: the block is the link
        block.set("href", "#sponsored")
        block.text = f"Sponsored: {text}"
        return block
    holder.text = "Sponsored: "
    link = E("a", {"href": "#sponsored"})
    link.text = text
    holder.append(link)
    return block


def insert_blocks(records: Sequence[HtmlElement], *, seed: int = 0) -> int:
    """After every INSERT_EVERY-th record, a sibling of its tag holding an ad; returns how many."""
    rng = random.Random(seed)
    cls = _new_class("promo", seed)
    columns = max((sum(_span(c) for c in _cells(r)) for rec in records for r in _rows(rec)),
                  default=1) if records and records[0].tag in TABLE_PARTS else 1
    n = 0
    for i, rec in enumerate(records, 1):
        if i % INSERT_EVERY == 0:
            rec.addnext(_ad_block(str(rec.tag), cls, rng.choice(AD_LINKS), columns))
            n += 1
    return n


def _in_paragraph(el: HtmlElement) -> bool:
    """Whether a ``<div>`` here would close an open ``<p>`` when a browser parses the page."""
    for node in (el, *el.iterancestors()):
        if node.tag == "p":
            return True
        if node.tag in P_SCOPE_STOP:
            return False
    return False


def wrap_targets(record: HtmlElement) -> list[HtmlElement]:
    """Whose content gets the wrapper: the record, or its cells (a row holds no ``<div>``),
    or its items (a list holds ``<li>`` only)."""
    tag = record.tag
    if tag in TABLE_PARTS:
        return [c for row in _rows(record) for c in _cells(row)]
    if tag in LIST_TAGS:
        return [c for c in record if c.tag == "li"]
    if tag in UNWRAPPABLE:
        return []
    return [record]


def wrap_content(el: HtmlElement, cls: str) -> HtmlElement:
    """Move all of ``el``'s content (text and children) into one new child element."""
    wrapper = lxml.html.Element("span" if _in_paragraph(el) else "div", {"class": cls})
    wrapper.text, el.text = el.text, None
    for child in list(el):
        wrapper.append(child)  # its tail goes with it
    el.append(wrapper)
    return wrapper


def wrap_records(records: Sequence[HtmlElement], *, seed: int = 0) -> int:
    """Wrap each record's content one level deeper; returns the elements wrapped."""
    cls = _new_class("wrap", seed)
    n = 0
    for rec in records:
        for target in wrap_targets(rec):
            wrap_content(target, cls)
            n += 1
    return n


def shift_headings(root: HtmlElement) -> int:
    """h1..h5 become h2..h6 (h6 stays); other elements, even ones holding a title, stay."""
    found = [el for el in root.iter("h1", "h2", "h3", "h4", "h5")]
    for el in found:
        el.tag = f"h{int(str(el.tag)[1]) + 1}"
    return len(found)


# --- one change on one page ---------------------------------------------------------------

def redesign(html: str, gold: Sequence[Sequence[str]], change: str, *,
             css: Mapping[str, str] | None = None, frames: Mapping[str, str] | None = None,
             seed: int = 0, location: Location | None = None) -> Redesigned:
    """Apply ``change`` (one of CHANGES) to a page.

    ``css`` are the page's stylesheet files by name and ``frames`` the HTML documents saved
    with it (its frames); both get the same class names as the page. Raises
    RecordsNotLocated when the gold records cannot be tied to elements, for every change, so
    all change folders hold the same pages.
    """
    if change not in STEPS:
        raise ValueError(f"unknown change {change!r}; one of {', '.join(CHANGES)}")
    css = dict(css or {})
    frames = dict(frames or {})
    root = parse_html(html)
    doctype = source_doctype(html)
    loc = locate_records(root, gold)
    if loc.problem:
        raise RecordsNotLocated(loc.problem)
    stats = Stats(records_located=loc.n_located)
    mapping: dict[str, str] = {}
    for step in STEPS[change]:
        if step == "insert":
            stats.blocks_inserted = insert_blocks(loc.records, seed=seed)
        elif step == "wrap":
            stats.elements_wrapped = wrap_records(loc.records, seed=seed)
        elif step == "headings":
            stats.headings_shifted = shift_headings(root)
        elif step == "classes":
            css, frames, mapping = _rename_classes(root, doctype, css, frames, seed, stats)
    return Redesigned(serialize_html(root, doctype), css, frames, stats, mapping)


@dataclass(slots=True)
class _Doc:
    root: HtmlElement
    doctype: str
    styles: list[HtmlElement] = field(default_factory=list)


def _rename_classes(root: HtmlElement, doctype: str, css: dict[str, str], frames: dict[str, str],
                    seed: int, stats: Stats) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    docs = [_Doc(root, doctype)]
    for text in frames.values():
        docs.append(_Doc(parse_html(text), source_doctype(text)))
    for d in docs:
        d.styles = [s for s in d.root.iter("style") if s.text]
    sheets = [*css.values(), *(s.text or "" for d in docs for s in d.styles)]
    names: set[str] = set()
    partial: list[Substring] = []
    for sheet in sheets:
        found, substrings = css_class_names(sheet)
        names |= found
        partial += substrings
        stats.css_left += _selector_sites(sheet)[1]
    for d in docs:
        names.update(_html_classes(d.root))
    # The main page's mode decides: frames are rarely styled by the page's sheets.
    fold = is_quirks(doctype)
    mapping, kept = class_mapping(names, f"visx-redesign:{seed}", substrings=partial, fold_case=fold)
    stats.classes_renamed = len(mapping)
    stats.classes_kept = len(kept)
    stats.classes_affixed = sum(1 for k, v in mapping.items() if not HASHED_NAME.fullmatch(v))
    edits = 0
    new_css = {}
    for name, text in css.items():
        new_css[name], n = rewrite_css(text, mapping, fold_case=fold)
        edits += n
    for d in docs:
        for style in d.styles:
            style.text, n = rewrite_css(style.text or "", mapping, fold_case=fold)
            edits += n
        rewrite_html_classes(d.root, mapping, fold_case=fold)
    stats.css_edits = edits
    new_frames = {name: serialize_html(d.root, d.doctype) for name, d in zip(frames, docs[1:], strict=True)}
    return new_css, new_frames, mapping

