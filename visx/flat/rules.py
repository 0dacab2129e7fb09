"""Seed step 3's rule sets as data: one JSON file per topic, validated with pydantic.

A rule set lists types in priority order. Each type has *recall* rules (level 1:
any one that holds proposes the type; none at all means always proposed) and
*precision* rules (level 2: the first type, in order, with a rule that holds
fixes the entity's type and drops its other candidates). Every condition
given in a rule must hold. ``schema`` conditions ask the schema stage's typer
(:func:`visx.schema.entities.type_text`), so price, date, rating, phone, URL
... mean the same thing in the flat miner and in the tables' columns.

A topic file may ``extend`` another: its types come first (they are more
specific), then the base's.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from visx.errors import ConfigError

RULES_DIR = Path(__file__).with_name("rules")


class Rule(BaseModel):
    """Conditions on one entity; all that are given must hold."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_types: tuple[str, ...] | None = Field(None, alias="schema")
    """The schema stage types the text as one of these."""
    schema_flags: tuple[str, ...] | None = None
    """... and its verdict carries all these flags (``unit``: ``500 views``)."""
    regex: str | None = None
    """Searched in the text (case-insensitively unless ``case``)."""
    case: bool = False
    digits: bool | None = None
    letters: bool | None = None
    linked: bool | None = None
    """Inside a link."""
    bold: bool | None = None
    line_start: bool | None = None
    """The entity begins a line (a ``<br>``, a block edge or a line break before it)."""
    alone: bool | None = None
    """The entity is all of its line."""
    min_line: int | None = None
    """The entity's line holds at least this many entities."""
    in_tags: tuple[str, ...] | None = None
    """Wrapped in one of these inline tags."""
    min_words: int | None = None
    max_words: int | None = None

    @field_validator("regex")
    @classmethod
    def _compiles(cls, v: str | None) -> str | None:
        if v is not None:
            try:
                re.compile(v)
            except re.error as e:
                raise ValueError(f"bad regex {v!r}: {e}") from e
        return v

    @functools.cached_property
    def compiled(self) -> re.Pattern[str] | None:
        return re.compile(self.regex, 0 if self.case else re.I) if self.regex is not None else None


class TypeRules(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    recall: tuple[Rule, ...] = ()
    precision: tuple[Rule, ...] = ()


class RuleSet(BaseModel):
    """The entity types of one topic (the seed's set A) with their two rule levels."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    topic: str
    about: str = ""
    extends: str | None = None
    types: tuple[TypeRules, ...]

    @field_validator("types")
    @classmethod
    def _unique(cls, v: tuple[TypeRules, ...]) -> tuple[TypeRules, ...]:
        names = [t.name for t in v]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise ValueError(f"types named twice: {sorted(dup)}")
        return v

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.types)


_ADAPTER = TypeAdapter(RuleSet)


def topics() -> list[str]:
    """The rule sets shipped with visx."""
    return sorted(p.stem for p in RULES_DIR.glob("*.json"))


@functools.lru_cache(maxsize=16)
def load_rules(name: str = "default") -> RuleSet:
    """A shipped topic by name, or a JSON rule file by path; ``extends`` resolved.

    Raises :class:`visx.ConfigError` naming the file and the fault."""
    path = RULES_DIR / f"{name}.json" if "/" not in name and not name.endswith(".json") else Path(name)
    if not path.is_file():
        raise ConfigError(f"flat.rules: no rule set {name!r} (shipped: {', '.join(topics())}; or a JSON file path)")
    try:
        rs = _ADAPTER.validate_python(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, OSError) as e:
        raise ConfigError(f"flat.rules: {path}: {e}") from e
    if rs.extends:
        base = load_rules(rs.extends)
        own = set(rs.names)
        rs = rs.model_copy(update={"types": (*rs.types, *(t for t in base.types if t.name not in own)),
                                   "extends": None})
    if "text" not in rs.names:
        rs = rs.model_copy(update={"types": (*rs.types, TypeRules(name="text"))})
    return rs
