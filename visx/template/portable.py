"""A template as portable selectors: a Crawl4AI schema, or plain CSS or XPath (``visx template export``).

Three forms, one reading: for every element the record selector matches, each
field is the *first* element its selector matches inside that record, read as
its text or, where ``attributes`` names one, as that attribute.

- ``crawl4ai``: the schema of Crawl4AI's ``JsonCssExtractionStrategy``::

      {"name": ..., "baseSelector": "<records>",
       "fields": [{"name": "title", "selector": ":scope > h3 > a", "type": "text"},
                  {"name": "title_url", "selector": ":scope > h3 > a", "type": "attribute",
                   "attribute": "href"},
                  {"name": "score", "selector": ":scope > td:nth-of-type(2) > span",
                   "type": "text", "source": "+ *"}],
       "_visx": {...}}

  Crawl4AI selects fields with BeautifulSoup, which searches a record's
  descendants only: a field on the record element itself has no ``selector``,
  and a field in a later part of a split record (a title row and a details
  row) hops to the sibling with Crawl4AI's ``"source": "+ *"`` first (``"+ * + *"``
  for the third row; ``source`` is a key of recent Crawl4AI releases, which older
  ones ignore). Crawl4AI ignores the ``_visx`` key (template, notes, fields left out).
- ``css``: ``{"format": "visx-css/1", "records": CSS, "fields": {name: CSS},
  "attributes": {name: attribute}, "notes": [...], "left_out": {name: why}}``.
  Field selectors are relative to the record (``:scope`` is the record; a
  field starting ``:scope + *`` is in the record's next sibling). They run as
  they are with parsel (``record.css(sel)``), lxml's ``CSSSelector`` and
  cssselect; a browser's ``record.querySelector`` reaches descendants only, so
  there a ``:scope + *`` field needs ``record.nextElementSibling``.
- ``xpath``: the same object (``"format": "visx-xpath/1"``) with the first
  XPath of each queue: absolute for the records, relative (``./...``) for the
  fields. Paths that enter a shadow root or a frame (visx's ``#shadow-root``
  and ``#document`` steps) are not XPath; they are kept only when no other
  path exists, with a note saying that plain XPath cannot run them.

The CSS forms use each queue's first CSS twin (the template keeps twins only
for the XPaths CSS can say); a column without one is left out, named in
``left_out`` with the reason. Hidden columns (constant text, labels) are left
out unless ``all_columns``. Images are read from ``src``, bare links from
``href``; a column whose selector passes through a link (or whose record is
one) also gets a ``<name>_url`` field, that link's ``href``, as visx's own
output has.

Where a column's portable reading is not visx's, the output's notes say so:
visx reads a text *run* of an element (a column with ``piece`` > 0 is the
second run, after a child element), splits list cells into entries, and reads
``aria-label`` or else ``title``; star widgets, read by their filled width, are
left out (no selector says it). Two differences hold for every export and are
not repeated in it: visx skips matches that hold no value of the column's kind
where a selector takes the first match, and attribute values are as written in
the page (visx makes ``src`` and ``href`` absolute). Selectors describe the
rendered DOM: a browser adds ``tbody`` to tables written without one, so run
them on the HTML a browser gives (Crawl4AI's does), not on the raw file.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from visx.errors import TemplateError
from visx.model import FRAME_STEP, SHADOW_STEP
from visx.template.model import ColumnRule, Template

Format = Literal["crawl4ai", "css", "xpath"]
FORMATS: tuple[Format, ...] = ("crawl4ai", "css", "xpath")

_SIBLING = re.compile(r"^:scope((?: \+ \*)+)(.*)$")
_XSIBLING = re.compile(r"^\./following-sibling::\*\[\d+\]")
_LINK = re.compile(r"^a(?![\w-])")


@dataclass(slots=True)
class Field:
    """One exported field: where it is inside the record and what to read."""

    name: str
    path: str
    """CSS or XPath relative to the record (``:scope`` / ``.`` for the record itself)."""
    attribute: str = ""
    """The attribute to read; empty reads the element's text."""


@dataclass(slots=True)
class Portable:
    """A template in one portable form, with what it could not say."""

    fmt: Format
    records: str
    fields: list[Field]
    notes: list[str] = field(default_factory=list)
    left_out: dict[str, str] = field(default_factory=dict)
    """Column name -> why it is not among the fields."""
    template: dict[str, Any] = field(default_factory=dict)

    def data(self) -> dict[str, Any]:
        """The JSON object of this form (see the module docstring)."""
        if self.fmt == "crawl4ai":
            return self._crawl4ai()
        out: dict[str, Any] = {
            "format": f"visx-{self.fmt}/1",
            "records": self.records,
            "fields": {f.name: f.path for f in self.fields},
            "attributes": {f.name: f.attribute for f in self.fields if f.attribute},
        }
        out["template"] = self.template
        if self.notes:
            out["notes"] = list(self.notes)
        if self.left_out:
            out["left_out"] = dict(self.left_out)
        return out

    def text(self) -> str:
        return json.dumps(self.data(), indent=2, ensure_ascii=False) + "\n"

    def _crawl4ai(self) -> dict[str, Any]:
        fields: list[dict[str, Any]] = []
        for f in self.fields:
            spec: dict[str, Any] = {"name": f.name}
            hop, rest = split_sibling(f.path)
            if hop:
                spec["source"] = " ".join(["+ *"] * hop)
            if rest != ":scope":
                spec["selector"] = rest
            if f.attribute:
                spec["type"] = "attribute"
                spec["attribute"] = f.attribute
            else:
                spec["type"] = "text"
            fields.append(spec)
        name = self.template.get("title") or self.template.get("site") or "visx template"
        visx: dict[str, Any] = {"template": self.template}
        if self.notes:
            visx["notes"] = list(self.notes)
        if self.left_out:
            visx["left_out"] = dict(self.left_out)
        return {"name": name, "baseSelector": self.records, "fields": fields, "_visx": visx}


def split_sibling(css: str) -> tuple[int, str]:
    """``(k, rest)`` for a field CSS that starts in the record's k-th next sibling
    (``:scope + * > td`` -> ``(1, ":scope > td")``); ``(0, css)`` otherwise."""
    m = _SIBLING.match(css)
    if not m:
        return 0, css
    hop = m.group(1).count("+")
    rest = m.group(2)
    return hop, ":scope" + rest if rest else ":scope"


def export_template(t: Template, fmt: Format | str, *, all_columns: bool = False) -> str:
    """The template ``t`` as portable selectors in ``fmt`` (``crawl4ai``, ``css`` or ``xpath``), as JSON text.

    Raises :class:`TemplateError` for an unknown format, or when no selector of the form
    can say where the records are (a list inside a shadow root or a frame has no CSS path).
    """
    return portable(t, fmt, all_columns=all_columns).text()


def portable(t: Template, fmt: Format | str, *, all_columns: bool = False) -> Portable:
    """:func:`export_template` before it is written: the fields, notes and columns left out."""
    if fmt not in FORMATS:
        raise TemplateError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
    xpath = fmt == "xpath"
    notes: list[str] = []
    left_out: dict[str, str] = {}
    records = _records(t, xpath, notes)
    fields: list[Field] = []
    taken = {c.name for c in t.columns}
    for col in t.columns:
        if col.hidden and not all_columns:
            continue
        why = _why_not(col, xpath)
        if why:
            left_out[col.name] = why
            continue
        path = _column_path(col, xpath, notes)
        attr = {"image": "src", "link": "href", "attr": "aria-label"}.get(col.kind, "")
        fields.append(Field(col.name, path, attr))
        notes.extend(f"{col.name}: {n}" for n in _approximate(col))
        url = f"{col.name}_url"
        if col.kind != "link" and col.type != "url" and "same-link" not in col.flags and url not in taken:
            link = _link_path(path, xpath) if path else None
            if link is None and _is_link(records, xpath) and not _in_sibling(path, xpath):
                link = "." if xpath else ":scope"
            if link is not None:
                fields.append(Field(url, link, "href"))
                taken.add(url)
    if not fields:
        notes.append("no column of the template has a selector in this form; see left_out")
    meta = {"url": t.url, "site": t.site, "title": t.title, "version": t.version, "visx": t.visx}
    return Portable(fmt, records, fields, notes, left_out, meta)


def _records(t: Template, xpath: bool, notes: list[str]) -> str:
    if xpath:
        plain = [x for x in t.records.xpaths if not _synthetic(x)]
        if plain:
            return plain[0]
        notes.insert(0, f"records: the list is inside a shadow root or a frame ({SHADOW_STEP} or "
                        f"{FRAME_STEP} steps): these paths run in visx (`visx apply`), not as plain XPath")
        return t.records.xpaths[0]
    if not t.records.css:
        raise TemplateError(
            "no CSS selector can say where this template's records are (the list is inside a shadow "
            "root or a frame, or its path needs XPath); export --format xpath, or run it with `visx apply`")
    if t.records.parts > 1:
        notes.append(f"records: each record is {t.records.parts} sibling elements; the record selector "
                     "matches the first, and fields in the later ones start from its next sibling")
    return t.records.css[0]


def _why_not(col: ColumnRule, xpath: bool) -> str:
    if col.kind == "stars":
        return "a star rating: visx reads the filled width of the stars, which no selector says"
    if not col.xpaths:
        return "the template holds no path for it (learning found none that selects it)"
    if xpath:
        return ""
    if not col.css:
        if any(_synthetic(x) for x in col.xpaths):
            return "inside a shadow root or a frame: no CSS path; use --format xpath or `visx apply`"
        return "none of its XPaths has a CSS twin; use --format xpath"
    return ""


def _column_path(col: ColumnRule, xpath: bool, notes: list[str]) -> str:
    if not xpath:
        return col.css[0]
    plain = [x for x in col.xpaths if not _synthetic(x)]
    if plain:
        return plain[0]
    notes.append(f"{col.name}: inside a shadow root or a frame ({SHADOW_STEP} or {FRAME_STEP} steps): "
                 "this path runs in visx (`visx apply`), not as plain XPath")
    return col.xpaths[0]


def _approximate(col: ColumnRule) -> list[str]:
    """Where the portable reading of the column differs from visx's."""
    out = []
    if col.kind == "list":
        out.append("visx splits this list into entries joined by '; '; the selector gives its whole text")
    if col.kind == "attr":
        out.append("visx reads aria-label, or title when there is none; the export reads aria-label")
    if col.kind == "text" and col.piece:
        out.append(f"visx reads text run {col.piece + 1} of this element (after a child element); the "
                   "selector gives the element's whole text")
    return out


def _synthetic(path: str) -> bool:
    return SHADOW_STEP in path or FRAME_STEP in path


# ------------------------------------------------------------------ links

def _split(path: str, seps: tuple[str, ...]) -> list[str]:
    """``path`` cut before each separator outside brackets and quotes (separators kept)."""
    out: list[str] = []
    depth = 0
    quote = ""
    start = 0
    i = 0
    while i < len(path):
        ch = path[i]
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif depth == 0:
            sep = next((s for s in seps if path.startswith(s, i)), None)
            if sep is not None and i > start:
                out.append(path[start:i])
                start = i
                i += len(sep)
                continue
        i += 1
    out.append(path[start:])
    return out


def _link_path(path: str, xpath: bool) -> str | None:
    """``path`` cut after its last link step (an ``a`` element), or None when it has none."""
    if xpath:
        parts = _split(path, ("//", "/"))
        for k in range(len(parts) - 1, -1, -1):
            step = parts[k].lstrip("/")
            if _LINK.match(step):
                return "".join(parts[:k + 1])
        return None
    parts = _split(path, (" > ", " + ", " "))
    for k in range(len(parts) - 1, -1, -1):
        compound = parts[k]
        for comb in (" > ", " + ", " "):
            if compound.startswith(comb):
                compound = compound[len(comb):]
                break
        if _LINK.match(compound):
            return "".join(parts[:k + 1])
    return None


def _in_sibling(path: str, xpath: bool) -> bool:
    return bool(_XSIBLING.match(path)) if xpath else split_sibling(path)[0] > 0


def _is_link(records: str, xpath: bool) -> bool:
    """Whether the record element itself is a link (its last step is an ``a``)."""
    if xpath:
        last = _split(records, ("//", "/"))[-1].lstrip("/")
        return bool(_LINK.match(last))
    last = _split(records, (" > ", " + ", " "))[-1].lstrip(" >+")
    return bool(_LINK.match(last))
