"""A learned template: plain JSON, validated by pydantic, no code and no pickle.

After seed 001 (Wang et al. 2016): a template per page type holds the site,
the URL it was learned on, and its data items, each with a queue of XPaths
(the first that yields data wins) and the search rules that find the item
again when every XPath fails. visx learns it from one unsupervised
extraction, so the record list is an item too: a queue of record XPaths.

XPaths are visx XPaths (:mod:`visx.model`): ordinary XPath 1.0, plus the
steps ``#shadow-root`` and ``#document`` where a path enters a shadow root
or a frame's document. Column XPaths are relative to the record element.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from visx.errors import TemplateError

FORMAT = "visx-template/1"
"""The file format; a later format that cannot be read says so instead of guessing."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Font(_Strict):
    """Seed 001's font rule: the rendered colour and size of the value."""

    color: str = ""
    size: float = 0.0


class ContextRule(_Strict):
    """Seed 001's context rule: fixed text near the value, at a signed distance.

    ``distance`` counts the sibling and ancestor steps between the two elements;
    positive when the context comes first in reading order.
    """

    text: str
    distance: int


class SearchRules(_Strict):
    """What finds a column's value again when none of its XPaths does (seed 001, section 3.3)."""

    keyword: str = ""
    """Fixed text of the value's element (a label such as "Price:"), "" when it has none."""
    tag: str = ""
    tag_rarity: float = 0.0
    """1 / occurrences of ``tag`` in a record: a rare tag (``h3``) says more than a ``span``."""
    context: ContextRule | None = None
    font: Font = Field(default_factory=Font)
    value_type: str = "text"
    position: tuple[float, float] | None = None
    """Where the value sits in the record's box (0..1 across, 0..1 down), median over records."""


class ColumnRule(_Strict):
    """One column: its name and type, where it is, and how to find it again."""

    name: str
    type: str
    kind: str = "text"
    """Item kind (``visx.align.model.ITEM_KINDS``): text, image, link, attr, stars or list."""
    piece: int = 0
    """Which item of that kind its element holds (an element with text runs between children)."""
    xpaths: list[str]
    """Relative to the record element, best first; the first that yields data on a page wins."""
    css: list[str] = Field(default_factory=list)
    """CSS twins of the XPaths that have one (for ``visx template export``)."""
    rules: SearchRules = Field(default_factory=SearchRules)
    fill: float = 1.0
    """Share of records with a value when learned."""
    flags: list[str] = Field(default_factory=list)
    hidden: bool = False
    """Left out of the default table (constant text, labels...), as in extraction."""


class RecordRule(_Strict):
    """The record list: a queue of XPaths for the records' first elements."""

    xpaths: list[str]
    css: list[str] = Field(default_factory=list)
    parts: int = 1
    """Elements per record (split records: a title row and a details row); parts after
    the first are the first element's following siblings."""
    counts: list[int] = Field(default_factory=list)
    """Record counts of recent pages (the learned one first, at most ``HISTORY``)."""
    kind: str = "list"
    label: str = ""
    """Text near the list when learned (a heading), shown in diffs."""


class Repair(_Strict):
    """One self-repair, kept in the template's history."""

    version: int
    when: str
    url: str
    changes: list[str]
    confidence: float


class Template(_Strict):
    """A learned template (see the module docstring)."""

    format: Literal["visx-template/1"] = "visx-template/1"
    version: int = 1
    """Bumped on every repair."""
    site: str
    """Host name of the page it was learned on ("" for local files)."""
    url: str
    """The URL it was learned on: the seed's R(w, m) compares page URLs with it."""
    title: str = ""
    created: str = ""
    updated: str = ""
    javascript: bool = True
    """Whether the page was rendered with JavaScript when learned (``apply`` does the same)."""
    records: RecordRule
    columns: list[ColumnRule]
    repairs: list[Repair] = Field(default_factory=list)
    visx: str = ""
    """The visx version that wrote it."""

    def column(self, name: str) -> ColumnRule:
        for c in self.columns:
            if c.name == name:
                return c
        raise KeyError(name)

    def to_json(self) -> str:
        return self.model_dump_json(indent=2, exclude_defaults=False) + "\n"

    def save(self, path: str | Path) -> Path:
        """Write the template as JSON (atomically: a reader never sees half a file)."""
        from visx.atomic import write_bytes
        from visx.errors import ExportError

        p = Path(path)
        try:
            write_bytes(p, self.to_json().encode("utf-8"))
        except OSError as e:
            raise ExportError(f"{p}: cannot write the template ({e.strerror or e}); "
                              "check the folder exists and is writable", source=str(p)) from e
        return p


def load_template(path: str | Path) -> Template:
    """Read and validate a template file; a broken one raises :class:`TemplateError` naming it."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError as e:
        raise TemplateError(f"{p}: no such template file; write one with `visx learn SOURCE -o {p.name}`",
                            source=str(p)) from e
    except (OSError, UnicodeDecodeError) as e:
        raise TemplateError(f"{p}: cannot read the template ({e})", source=str(p)) from e
    return parse_template(text, str(p))


def parse_template(text: str, name: str = "template") -> Template:
    try:
        data = json.loads(text)
    except ValueError as e:
        raise TemplateError(f"{name}: not JSON ({e}); a template is the JSON `visx learn` writes",
                            source=name) from e
    if isinstance(data, dict) and data.get("format") not in (None, FORMAT):
        raise TemplateError(f"{name}: template format {data.get('format')!r} is not one this visx "
                            f"reads ({FORMAT}); learn it again with `visx learn`", source=name)
    try:
        return Template.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top)"
        raise TemplateError(f"{name}: not a valid template: {where}: {first['msg']} "
                            f"({e.error_count()} problem(s)); learn it again with `visx learn`",
                            source=name) from e


HISTORY = 10
"""Record counts kept per template: enough for a median that one odd page does not move."""
