"""Seed step 3: two-level typing of entities by a rule set (:mod:`visx.flat.rules`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from visx.flat.model import Entity, Typing
from visx.flat.rules import Rule, RuleSet
from visx.schema.entities import Typed, type_text

_DIGIT = re.compile(r"\d")
_LETTER = re.compile(r"[^\W\d_]")


def _holds(rule: Rule, e: Entity, schema: Typed) -> bool:
    if rule.schema_types is not None and schema.type not in rule.schema_types:
        return False
    if rule.schema_flags is not None and not set(rule.schema_flags) <= set(schema.flags):
        return False
    if rule.digits is not None and bool(_DIGIT.search(e.text)) != rule.digits:
        return False
    if rule.letters is not None and bool(_LETTER.search(e.text)) != rule.letters:
        return False
    if rule.linked is not None and bool(e.href) != rule.linked:
        return False
    if rule.bold is not None and e.bold != rule.bold:
        return False
    if rule.line_start is not None and e.line_start != rule.line_start:
        return False
    if rule.alone is not None and e.alone != rule.alone:
        return False
    if rule.min_line is not None and e.line_size < rule.min_line:
        return False
    if rule.in_tags is not None and not set(rule.in_tags) & set(e.inline):
        return False
    if rule.min_words is not None or rule.max_words is not None:
        words = len(e.text.split())
        if (rule.min_words is not None and words < rule.min_words) or (
                rule.max_words is not None and words > rule.max_words):
            return False
    pat = rule.compiled
    return pat is None or pat.search(e.text) is not None


def type_entity(e: Entity, rules: RuleSet) -> Typing:
    """Level 1 proposes every type with a recall rule that holds; level 2 fixes the first
    proposed type, in the rule set's order, whose precision rule holds."""
    schema = type_text(e.text)
    cands = [t for t in rules.types if not t.recall or any(_holds(r, e, schema) for r in t.recall)]
    for t in cands:
        if any(_holds(r, e, schema) for r in t.precision):
            return Typing(frozenset(c.name for c in cands), t.name)
    # No precision rule fixed a type: the entity keeps the candidates that have no precision
    # rule of their own to fail (text), plus those proposed by a specific recall rule.
    kept = frozenset(c.name for c in cands if not c.precision or not _broad(c.recall))
    return Typing(kept or frozenset({"text"}), "")


def _broad(recall: Sequence[Rule]) -> bool:
    """A recall rule on digits alone proposes half the page: failing its precision rule is
    enough to drop the type."""
    return any(r.digits is not None and r.regex is None for r in recall)


def type_entities(entities: Sequence[Entity], rules: RuleSet) -> list[Typing]:
    return [type_entity(e, rules) for e in entities]
