"""What the flat miner produces: typed entities, patterns, and records that are text ranges."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from visx.model import BBox, Record, Region


class TextPos(NamedTuple):
    """A place in a text node: the element ``node``'s own text (``child == -1``) or the tail
    of its child element ``child``, and a character offset into that raw string."""

    node: int
    child: int
    offset: int


class Entity(NamedTuple):
    """One entity s_i of the seed: a piece of text between tags or separators."""

    text: str
    """Whitespace-normalised text."""
    node: int
    """The innermost element holding the whole entity (its text nodes' common parent)."""
    start: TextPos
    end: TextPos
    """Where the entity starts and ends in the page's raw text nodes (end offset exclusive)."""
    depth: int
    """Depth of the element owning its first text node."""
    bbox: BBox
    """The entity's box: its element's when the entity is all of that element's text, else
    the line's box (the ``<br>`` or element that ends it, across its container)."""
    href: str = ""
    """Target of the enclosing link, if any."""
    inline: tuple[str, ...] = ()
    """Inline tags wrapping the entity between its container and its text (``a``, ``b``, ...)."""
    bold: bool = False
    line_start: bool = False
    """The entity begins a line (after a ``<br>``, a block edge or a line break in ``<pre>``)."""
    alone: bool = False
    """The entity is all of its line."""
    line_size: int = 1
    """Entities on the entity's line."""
    blank_before: bool = False
    """An empty line or a gap of over half a line lies between the entity's line and the
    one before: records of several lines are set apart so (``<br><br>``, ``\\n\\n``)."""


class Typing(NamedTuple):
    """The two rule levels' verdict on one entity."""

    candidates: frozenset[str]
    """Types the recall rules proposed."""
    decided: str
    """The type a precision rule fixed, or '' when none did (the entity keeps its candidates)."""

    @property
    def labels(self) -> frozenset[str]:
        """The entity's label set in the type sequence A_list."""
        return frozenset((self.decided,)) if self.decided else self.candidates


Labels = tuple[frozenset[str], ...]


@dataclass(slots=True)
class Pattern:
    """A repeated pattern over the type sequence, with its support and simplified form."""

    slots: Labels
    support: int
    simple: tuple[str, ...] = ()
    """The automaton's shortest path visiting every type (seed step 5)."""

    @property
    def types(self) -> tuple[str, ...]:
        return tuple("|".join(sorted(s)) for s in self.slots)


@dataclass(slots=True)
class FlatRecord(Record):
    """A record made of consecutive entities; ``parts`` are the elements its text touches."""

    entities: list[Entity] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    """One type per entity: the field names."""

    @property
    def start(self) -> TextPos:
        """Where the record starts (possibly inside a text node)."""
        return self.entities[0].start

    @property
    def end(self) -> TextPos:
        return self.entities[-1].end


@dataclass(slots=True)
class FlatRegion(Region):
    """A region found by the flat miner: its container, entities, key type and patterns."""

    entities: list[Entity] = field(default_factory=list)
    typings: list[Typing] = field(default_factory=list)
    key: str = ""
    patterns: list[Pattern] = field(default_factory=list)
    reason: str = ""
    """Why it ranks where it does against the DOM miner's regions."""
