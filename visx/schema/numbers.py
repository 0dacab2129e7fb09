"""Locale-aware numbers: ``1.234,56``, ``1,234.56``, ``1 234,56``, ``1'234.56``.

A lone separator followed by three digits (``1.234``, ``1,234``) is ambiguous;
the decimal separator is then decided by a vote over a column's (or the
table's) unambiguous numbers, see :func:`decimal_vote`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

NUMBER = re.compile(
    r"[-+−]?(?:\d{1,3}(?:[\u00a0\u202f ]\d{3})+(?:[.,]\d+)?|\d[\d.,'’]*\d|\d)(?![\d])"
)
"""A number token: digits with grouping/decimal separators, or space-grouped thousands."""

_GROUP_SPACES = re.compile(r"[\u00a0\u202f '’]")


def decimal_of(token: str) -> str | None:
    """The decimal separator a single token implies, or None when it cannot tell."""
    t = _GROUP_SPACES.sub("", token.lstrip("-+−"))
    dots, commas = t.count("."), t.count(",")
    if dots and commas:
        return "." if t.rfind(".") > t.rfind(",") else ","
    if not dots and not commas:
        return None
    sep = "." if dots else ","
    if dots + commas > 1:
        # Repeated separator: grouping (1.234.567), so the other one is decimal.
        return "," if sep == "." else "."
    frac = t.split(sep)[1]
    if len(frac) == 3 and not t.startswith(("0" + sep, sep)):
        return None
    return sep


def decimal_vote(tokens: list[str]) -> str | None:
    """Majority decimal separator over tokens that show one, else None."""
    return vote_of(decimal_counts(tokens))


def decimal_counts(tokens: Iterable[str]) -> tuple[int, int]:
    """How many tokens show ``.``, resp. ``,`` as their decimal separator."""
    dots = commas = 0
    for tok in tokens:
        d = decimal_of(tok)
        if d == ".":
            dots += 1
        elif d == ",":
            commas += 1
    return dots, commas


def vote_of(counts: tuple[int, int]) -> str | None:
    """The majority of :func:`decimal_counts`, None on a tie."""
    dots, commas = counts
    if dots == commas:
        return None
    return "." if dots > commas else ","


@functools.lru_cache(maxsize=8192)
def text_counts(text: str) -> tuple[int, int]:
    """:func:`decimal_counts` of a text's number tokens (cached: cells repeat)."""
    return decimal_counts(NUMBER.findall(text))


def parse_number(token: str, decimal: str | None = None) -> float | None:
    """Value of a number token; ``decimal`` (``.`` or ``,``) resolves ambiguous groups.

    Without a decision an ambiguous ``1,234`` reads as 1234 and ``1.234`` as 1.234
    (English conventions).
    """
    t = token.strip().replace("−", "-")
    sign = -1.0 if t.startswith("-") else 1.0
    t = _GROUP_SPACES.sub("", t.lstrip("+-"))
    if not t or not t[0].isdigit():
        return None
    dec = decimal_of(t) or decimal or "."
    group = "," if dec == "." else "."
    if t.count(dec) > 1:
        return None
    whole = t.split(dec)[0]
    groups = whole.split(group)[1:]
    if groups and (len(groups[-1]) != 3 or any(len(g) not in (2, 3) for g in groups)):
        return None  # "3.5.2019" is no number: groups have three digits (two in 1,23,456)
    t = t.replace(group, "").replace(dec, ".")
    try:
        return sign * float(t)
    except ValueError:
        return None


def tokens(text: str) -> list[str]:
    return NUMBER.findall(text)
