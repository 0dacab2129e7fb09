"""Choose the list: "this one, not that one".

Ranking picks the main list; when it picks the wrong one, the user names the
list they want, in one of three ways:

- ``region=N``: the region of rank N (ranks as in the JSON output and the report);
- ``hint=SELECTOR``: an element inside the wanted list, as CSS (``#results li``) or
  XPath (``//ul[@id='results']``; a hint starting with ``/``, ``(`` or ``./`` is
  XPath, ``css=`` and ``xpath=`` prefixes say it outright). It is resolved on the
  snapshot, no browser: an lxml tree is built from the :class:`~visx.model.NodeTable`
  (tags, id, class, the captured attributes, text). A visx XPath (with
  ``#shadow-root`` / ``#document`` steps, as in the JSON output) is looked up in the
  node table first;
- ``example=TEXT``: the text of one record or of one value, as copied from the page;
  case and spacing do not matter, and near matches count.

:func:`choose_region` returns the region; :func:`apply_choice` makes it the main one
(first in ``Extraction.regions`` and ``tables``, its rank kept) and records the choice
in ``Extraction.chosen``. :func:`region_hint` finds a selector that chooses a given
region again (the debug report shows it as a command).
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from visx.errors import ConfigError, SelectionError
from visx.model import FRAME_STEP, SHADOW_STEP, NodeTable, Region

if TYPE_CHECKING:
    from lxml import etree

    from visx.pipeline import Extraction

log = logging.getLogger(__name__)

# --- thresholds -------------------------------------------------------------------------

EXAMPLE_MIN_SCORE: Final = 85.0
"""Least rapidfuzz score (0-100) for an example that no record or value contains exactly
(containment is tried first; this only admits near matches). Text copied from a screen
differs from the page's text by a little: a dropped or doubled character, punctuation drawn
by CSS, a line break become a space. A 42-character copy with two characters wrong scores
97 against its record, "servce 4.0" 90 against "service 4.0 food 3.0"; another word in the
same frame stays under it: "bistros in city 2-3" scores 84.8 against "restaurants in city
2-3", "towns 2" 62 against "cities 2". Ties and better matches elsewhere still decide, as
the best match over all regions wins."""

CLIP: Final = 60
"""Characters of a record's text shown per region in error messages."""

INDEX_ATTR: Final = "data-visx-i"
"""Attribute carrying each element's node index in the lxml tree built for hints."""

BY_REGION, BY_HINT, BY_EXAMPLE = "region", "hint", "example"


@dataclass(frozen=True, slots=True)
class Choice:
    """One way of naming the wanted list: ``by`` region, hint or example, and the value."""

    by: str
    value: int | str

    def as_dict(self, rank: int) -> dict[str, Any]:
        return {"by": self.by, "value": self.value, "rank": rank}


def check_choice(*, region: int | None = None, hint: str | None = None,
                 example: str | None = None) -> Choice | None:
    """The choice given, checked before any page is rendered; None when there is none.

    Raises :class:`ConfigError` for two choices at once, a rank below 1, an empty
    hint or example, or a hint that is neither valid CSS nor valid XPath.
    """
    given = [(name, v) for name, v in ((BY_REGION, region), (BY_HINT, hint), (BY_EXAMPLE, example))
             if v is not None]
    if len(given) > 1:
        names = " and ".join(f"{n} ({_show(v)})" for n, v in given)
        raise ConfigError(f"choose the list one way only: {names} were both given; keep one of "
                          "region (--region), hint (--hint) or example (--example)")
    if not given:
        return None
    by, value = given[0]
    if by == BY_REGION:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"region {value!r}: give a rank, a whole number from 1 (1 is the main list)")
        if value < 1:
            raise ConfigError(f"region {value}: ranks start at 1 (the main list); see the ranks in the "
                              "JSON output or the --debug report")
        return Choice(by, value)
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{by} {value!r}: give " + (
            "a CSS selector or an XPath of an element inside the wanted list" if by == BY_HINT else
            "the text of one record or one value of the wanted list, as the page shows it"))
    if by == BY_HINT:
        _compile(value)  # a syntax error is the option's fault, whatever the page
        return Choice(by, value.strip())
    if not _squash(normalise(value)):
        raise ConfigError(f"example {value!r} holds no text; copy one record or one value from the page")
    return Choice(by, value)


def _show(v: object) -> str:
    return repr(v) if isinstance(v, str) else str(v)


def choose_region(extraction: Extraction, *, region: int | None = None, hint: str | None = None,
                  example: str | None = None) -> Region:
    """The region the user means: by rank, by an element inside it, or by an example of its text.

    Exactly one of ``region``, ``hint`` and ``example`` must be given (:class:`ConfigError`
    otherwise). When the page has no such region, :class:`SelectionError` names the input
    and lists the regions found (rank, role, records, first record's text).
    """
    choice = check_choice(region=region, hint=hint, example=example)
    if choice is None:
        raise ConfigError("choose_region needs one of region=N, hint=SELECTOR or example=TEXT")
    return _choose(extraction, choice)


def apply_choice(extraction: Extraction, *, region: int | None = None, hint: str | None = None,
                 example: str | None = None) -> Extraction:
    """Make the chosen region the main one, in place, and return ``extraction``.

    The region (and its table) moves to the front of ``regions`` (and ``tables``), the
    others follow in rank order, ranks unchanged; ``extraction.chosen`` records
    ``{"by": ..., "value": ..., "rank": N}``. Without a choice nothing changes.
    """
    choice = check_choice(region=region, hint=hint, example=example)
    if choice is None:
        return extraction
    chosen = _choose(extraction, choice)
    regions = extraction.regions
    k = next(i for i, rg in enumerate(regions) if rg is chosen)
    order = [k, *sorted((i for i in range(len(regions)) if i != k), key=lambda i: regions[i].rank)]
    extraction.regions = [regions[i] for i in order]
    if len(extraction.tables) == len(regions):
        extraction.tables = [extraction.tables[i] for i in order]
    extraction.chosen = choice.as_dict(chosen.rank)
    log.info("%s: region %d chosen by %s %s", extraction.source, chosen.rank, choice.by, _show(choice.value))
    return extraction


def _choose(extraction: Extraction, choice: Choice) -> Region:
    source = extraction.source
    regions = extraction.regions
    if not regions:
        raise SelectionError(f"{source}: no list was found on the page, so {choice.by} "
                             f"{_show(choice.value)} has nothing to choose from; check the page "
                             "(visx report shows what was captured)", source=source)
    if choice.by == BY_REGION:
        found = [rg for rg in regions if rg.rank == choice.value]
        if not found:
            raise SelectionError(f"{source}: there is no region of rank {choice.value}; "
                                 f"the regions found are {describe_regions(extraction)}", source=source)
        return found[0]
    if choice.by == BY_HINT:
        return _by_hint(extraction, str(choice.value), HintPage(extraction.snapshot.nodes))
    return _by_example(extraction, str(choice.value))


def describe_regions(extraction: Extraction) -> str:
    """``#1 data, 10 records: "first record's text…"; #2 pager, ...``, in rank order."""
    nodes = extraction.snapshot.nodes
    out = []
    for rg in sorted(extraction.regions, key=lambda r: r.rank):
        first = _record_text(nodes, rg, 0) if rg.records else ""
        out.append(f"#{rg.rank} {rg.role}, {len(rg.records)} record(s): {_clip(first)!r}")
    return "; ".join(out) if out else "(none)"


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= CLIP else text[: CLIP - 1] + "…"


def _record_text(nodes: NodeTable, rg: Region, r: int) -> str:
    rec = rg.records[r]
    return rec.text or " ".join(nodes.text(p) for p in rec.parts)


# --- hints --------------------------------------------------------------------------------

def hint_kind(hint: str) -> tuple[str, str]:
    """``("xpath" | "css", expression)``: XPath when the hint starts with ``/``, ``(`` or ``./``
    (or says ``xpath=``), CSS otherwise (``css=`` may say so)."""
    h = hint.strip()
    low = h.lower()
    if low.startswith("xpath="):
        return "xpath", h[6:].strip()
    if low.startswith("css="):
        return "css", h[4:].strip()
    if h.startswith(("/", "(", "./")):
        return "xpath", h
    return "css", h


def _is_visx_path(expr: str) -> bool:
    """A visx XPath crossing into a shadow root or frame: lxml cannot read those steps."""
    steps = expr.split("/")
    return expr.startswith("/") and (SHADOW_STEP in steps or FRAME_STEP in steps)


def _compile(hint: str) -> Callable[[Any], Any] | None:
    """The compiled selector of ``hint`` (None for a visx XPath, looked up in the node table);
    :class:`ConfigError` for bad syntax."""
    from cssselect import SelectorError
    from lxml import etree
    from lxml.cssselect import CSSSelector

    kind, expr = hint_kind(hint)
    if not expr:
        raise ConfigError(f"hint {hint!r}: the selector after the prefix is empty")
    try:
        if kind == "css":
            return CSSSelector(expr, translator="html")
        if _is_visx_path(expr):
            return None
        return etree.XPath(expr)
    except SelectorError as e:
        raise ConfigError(f"hint {hint!r} is not a CSS selector lxml understands ({e}); write e.g. "
                          "'#results li' or '.product', or give an XPath starting with /") from e
    except etree.XPathError as e:
        raise ConfigError(f"hint {hint!r} is not a valid XPath ({e}); write e.g. "
                          "//ul[@id='results'] or copy an xpath from the JSON output") from e


_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_NAME = re.compile(r"[A-Za-z_][\w.-]*")


def _xml_text(s: str) -> str:
    return _INVALID_XML.sub("", s)


def _xml_name(tag: str) -> str:
    """A tag lxml accepts: custom elements pass, ``fb:login-button`` becomes ``fb_login-button``."""
    if _NAME.fullmatch(tag):
        return tag
    name = re.sub(r"[^\w.-]", "_", tag)
    return name if _NAME.fullmatch(name) else "_" + name


class HintPage:
    """The page as an lxml tree for CSS and XPath hints; each element carries its node index.

    The tree follows the rendered tree of the :class:`NodeTable`: a shadow host's
    children are its shadow content, so CSS pierces shadow roots as Playwright's does.
    """

    def __init__(self, nodes: NodeTable) -> None:
        self.nodes = nodes
        self._root: etree._Element | None = None

    @property
    def root(self) -> etree._Element:
        if self._root is None:
            self._root = self._build()
        return self._root

    def _build(self) -> etree._Element:
        from lxml import etree

        elems: list[etree._Element] = []
        root: etree._Element | None = None
        for n in self.nodes.nodes:
            tag = _xml_name(n.tag)
            if n.parent < 0 or n.parent >= len(elems):
                el = etree.Element(tag) if root is None else etree.SubElement(root, tag)
                root = el if root is None else root
            else:
                el = etree.SubElement(elems[n.parent], tag)
            for name, value in (("id", n.id), ("class", " ".join(n.classes)), *n.attrs.items()):
                if value and _NAME.fullmatch(name):
                    el.set(name, _xml_text(value))
            el.set(INDEX_ATTR, str(n.index))
            el.text = _xml_text(n.text) or None
            el.tail = _xml_text(n.tail) or None
            elems.append(el)
        return root if root is not None else etree.Element("html")

    def select(self, hint: str) -> list[int]:
        """Node indices of the elements ``hint`` selects, in document order (deduplicated);
        a text or attribute result counts as its element."""
        from lxml import etree

        kind, expr = hint_kind(hint)
        if kind == "xpath" and expr.startswith("/"):
            i = self.nodes.find_xpath(expr)
            if i is not None:
                return [i]
        sel = _compile(hint)
        if sel is None:
            return []
        try:
            res = sel(self.root.getroottree())
        except etree.XPathError as e:
            raise ConfigError(f"hint {hint!r} could not be evaluated ({e}); give a plain XPath "
                              "or CSS selector of an element") from e
        out: set[int] = set()
        for item in res if isinstance(res, list) else []:
            el = item if isinstance(item, etree._Element) else getattr(item, "getparent", lambda: None)()
            value = el.get(INDEX_ATTR) if isinstance(el, etree._Element) else None
            if value is not None:
                out.add(int(value))
        return sorted(out)


def _hint_key(nodes: NodeTable, m: int, rg: Region, parts: set[int]) -> tuple[int, int, int, int] | None:
    """How closely region ``rg`` holds element ``m`` (bigger is closer); None when unrelated.

    The innermost container wins: the deepest record part or region parent that is ``m``
    or an ancestor of it. At the same node, the list whose parent ``m`` *is* comes first
    (the user named the list), then a record over a parent that merely holds ``m``.
    Failing containment, a region inside ``m`` (``m`` wraps the list) ranks last, the
    outermost first.
    """
    i = m
    while i >= 0:
        is_part, is_parent = i in parts, i == rg.parent
        if is_part or is_parent:
            return (1, nodes[i].depth, int(is_parent and i == m), int(is_part))
        i = nodes[i].parent
    if 0 <= rg.parent < len(nodes) and nodes.is_ancestor(m, rg.parent):
        return (0, -nodes[rg.parent].depth, 0, 0)
    return None


def _by_hint(extraction: Extraction, hint: str, page: HintPage) -> Region:
    source = extraction.source
    matched = page.select(hint)
    if not matched:
        raise SelectionError(f"{source}: hint {hint!r} matches no element of the page; check it against "
                             "the page as captured (the --debug report, or an xpath of the JSON output), "
                             f"or choose by rank: the regions found are {describe_regions(extraction)}",
                             source=source)
    winner = owner_of(extraction, matched)
    if winner is None:
        raise SelectionError(f"{source}: hint {hint!r} matches {len(matched)} element(s), but none is "
                             "inside a list visx found (nor holds one); point at an element of one of "
                             f"these regions, or choose by rank: {describe_regions(extraction)}", source=source)
    return winner


def owner_of(extraction: Extraction, matched: Sequence[int]) -> Region | None:
    """The region the elements ``matched`` point at: each votes for the region that holds it
    most closely (:func:`_hint_key`, ties to the better rank); most votes wins, ties to the
    better rank. None when no element is in or around a region."""
    nodes = extraction.snapshot.nodes
    regions = extraction.regions
    parts = [{p for rec in rg.records for p in rec.parts} for rg in regions]
    votes: dict[int, int] = {}
    for m in matched:
        best: tuple[tuple[int, int, int, int], int] | None = None
        for k, rg in enumerate(regions):
            key = _hint_key(nodes, m, rg, parts[k])
            if key is not None and (best is None or (key, -rg.rank) > (best[0], -regions[best[1]].rank)):
                best = (key, k)
        if best is not None:
            votes[best[1]] = votes.get(best[1], 0) + 1
    if not votes:
        return None
    k = max(votes, key=lambda j: (votes[j], -regions[j].rank))
    return regions[k]


_CSS_IDENT = re.compile(r"-?[_a-zA-Z][_a-zA-Z0-9-]*")


def region_hints(extraction: Extraction) -> list[str | None]:
    """For each region (list order), a hint that chooses it again, or None.

    Tried in order, the first that selects one element and chooses the region wins: the
    region parent's ``#id``, then ``tag.class.class``, then its XPath; then the same for its
    first record's first element (when another region shares the parent).
    """
    page = HintPage(extraction.snapshot.nodes)
    return [_hint_for(extraction, rg, page) for rg in extraction.regions]


def region_hint(extraction: Extraction, k: int) -> str | None:
    """:func:`region_hints` for region ``k`` alone."""
    return _hint_for(extraction, extraction.regions[k], HintPage(extraction.snapshot.nodes))


def _hint_for(extraction: Extraction, rg: Region, page: HintPage) -> str | None:
    nodes = extraction.snapshot.nodes
    targets = [rg.parent] + ([rg.records[0].parts[0]] if rg.records and rg.records[0].parts else [])
    for i in targets:
        if not 0 <= i < len(nodes):
            continue
        for hint in _candidates(nodes, i):
            try:
                if page.select(hint) != [i]:
                    continue
            except ConfigError:
                continue
            if owner_of(extraction, [i]) is rg:
                return hint
    return None


def _candidates(nodes: NodeTable, i: int) -> list[str]:
    n = nodes[i]
    out = []
    if n.id and _CSS_IDENT.fullmatch(n.id):
        out.append(f"#{n.id}")
    classes = [c for c in n.classes if _CSS_IDENT.fullmatch(c)]
    if classes and _CSS_IDENT.fullmatch(n.tag):
        out.append(n.tag + "".join(f".{c}" for c in classes))
    if n.xpath:
        out.append(n.xpath)
    return out


# --- examples -----------------------------------------------------------------------------

def normalise(text: str) -> str:
    """Compatibility forms (NFKC), case folded, whitespace runs as one space, trimmed."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _squash(text: str) -> str:
    """No spaces at all: the page's text pieces are joined with spaces where the screen
    may show none (``$<b>19</b>.99``)."""
    return text.replace(" ", "")


ExampleKey = tuple[int, float, float, int]
"""How well an example matches one text, bigger is better: the tier (4 equal to a whole
record, 3 equal to one value, 2 contained, 1 a near match, 0 none), the score (0-100), the
share of the text the example covers, and 1 for a record's text (0 for a value), so a near
copy of one record beats the same words as one value of a list that holds them all."""

_NO_MATCH: Final[ExampleKey] = (0, 0.0, 0.0, 0)


def _example_key(example: str, squashed: str, text: str, *, record: bool) -> ExampleKey:
    """:data:`ExampleKey` of ``example`` (normalised; ``squashed`` without spaces) against ``text``."""
    t = normalise(text)
    ts = _squash(t)
    if not ts:
        return _NO_MATCH
    cover = min(len(squashed) / len(ts), 1.0)
    if squashed == ts:
        return (4 if record else 3, 100.0, 1.0, int(record))
    if squashed in ts:
        return (2, 100.0, cover, int(record))
    from rapidfuzz import fuzz

    # partial_ratio aligns the shorter string inside the longer: only when the example is
    # the shorter, else any short record ("1" of a pager) would sit inside a long example.
    # ratio (the whole texts) lets a near copy of one record beat a longer text holding it.
    score = fuzz.ratio(example, t)
    if len(example) <= len(t):
        score = max(score, fuzz.partial_ratio(example, t))
    return (1, float(score), cover, int(record)) if score >= EXAMPLE_MIN_SCORE else _NO_MATCH


def _by_example(extraction: Extraction, example: str) -> Region:
    source = extraction.source
    nodes = extraction.snapshot.nodes
    ex = normalise(example)
    squashed = _squash(ex)
    best: tuple[ExampleKey, Region] | None = None
    for rg in extraction.regions:
        key = _NO_MATCH
        for r in range(len(rg.records)):
            key = max(key, _example_key(ex, squashed, _record_text(nodes, rg, r), record=True))
        for row in rg.table.rows if rg.table is not None else []:
            for cell in row:
                if cell is not None and cell.text:
                    key = max(key, _example_key(ex, squashed, cell.text, record=False))
        if key[0] and (best is None or (key, -rg.rank) > (best[0], -best[1].rank)):
            best = (key, rg)
    if best is None:
        raise SelectionError(f"{source}: example {_clip(example)!r} matches no record or value of the "
                             f"regions found: {describe_regions(extraction)}; copy the text of one record "
                             "or one value as the page shows it, or choose it by rank (--region N)", source=source)
    return best[1]
