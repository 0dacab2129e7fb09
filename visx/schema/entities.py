"""Entity typing with two rule levels, as in seed 002.

Level 1, *recall* rules: cheap tests that propose every type a text might
have (a digit makes it a possible number, price, date, phone ...). Level 2,
*precision* rules: tried in a fixed priority order over the proposed types;
the first that parses the text fixes its type and value and removes the
other candidates. A text no precision rule accepts is ``text``.

A precision rule accepts a value with a little other text around it
(``From $12``, ``500 views``) but not a sentence that mentions a value.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from visx.schema import thresholds as th
from visx.schema.dates import MONTHS, Found, find_date, find_duration, find_time, fold
from visx.schema.numbers import NUMBER, parse_number

TYPES = ("price", "number", "integer", "percent", "date", "time", "duration", "rating",
         "url", "email", "phone", "image", "text")


class Typed(NamedTuple):
    type: str
    value: Any
    flags: tuple[str, ...] = ()


@dataclass(slots=True, frozen=True)
class Context:
    """Column-level decisions that single texts cannot make."""

    decimal: str | None = None
    date_order: str = "auto"


# Currency symbols and codes -> ISO 4217. "$", "¥" and "kr" name several currencies
# and stay as written.
CURRENCIES: dict[str, str] = {
    "€": "EUR", "£": "GBP", "₹": "INR", "₩": "KRW", "₽": "RUB", "₺": "TRY", "₫": "VND",
    "₱": "PHP", "฿": "THB", "₪": "ILS", "zł": "PLN", "r$": "BRL", "us$": "USD", "c$": "CAD",
    "ca$": "CAD", "cdn$": "CAD", "a$": "AUD", "au$": "AUD", "hk$": "HKD", "nz$": "NZD", "s$": "SGD",
    "rs": "INR", "rs.": "INR", "chf": "CHF", "fr.": "CHF", "usd": "USD", "eur": "EUR",
    "gbp": "GBP", "cad": "CAD", "aud": "AUD", "jpy": "JPY", "cny": "CNY", "inr": "INR",
    "sek": "SEK", "nok": "NOK", "dkk": "DKK", "pln": "PLN", "brl": "BRL", "mxn": "MXN",
    "rub": "RUB", "try": "TRY", "zar": "ZAR", "krw": "KRW", "sgd": "SGD", "hkd": "HKD",
    "nzd": "NZD", "czk": "CZK", "huf": "HUF", "ils": "ILS", "aed": "AED", "rmb": "CNY",
    "$": "$", "¥": "¥", "kr": "kr", "kr.": "kr", "円": "JPY", "元": "CNY",
}


def _cur_pattern(key: str) -> str:
    """A currency key as an expression: a country prefix may stand apart from its "$" ("CDN $").

    One-letter prefixes may not ("A $5 gift card" is dollars, not AUD).
    """
    if len(key) > 2 and key.endswith("$"):
        return re.escape(key[:-1]) + r"\s?\$"
    return re.escape(key)


def currency_code(written: str) -> str:
    """ISO 4217 code of a currency as written ("CDN $" -> CAD); unknown or ambiguous ones as written."""
    return CURRENCIES.get("".join(written.lower().split()), written)


_CUR = "|".join(_cur_pattern(k) for k in sorted(CURRENCIES, key=len, reverse=True))
_AMOUNT = r"\d[\d.,'\u00a0\u202f ]*\d|\d"
_MULT = r"k|m|bn|mio|mrd|thousand|million|billion"
_PRICE = re.compile(
    rf"(?<![\w$])(?P<c1>{_CUR})\s?(?P<a1>{_AMOUNT})(?!\d)(?:\s?(?P<m1>{_MULT})\b)?"
    rf"|(?P<a2>{_AMOUNT})(?:\s?(?P<m2>{_MULT})\b)?\s?(?P<c2>{_CUR})(?![\w$])",
    re.I,
)
_MULTIPLIERS = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mio": 1e6, "million": 1e6, "bn": 1e9, "mrd": 1e9,
                "billion": 1e9}
# The lower bound of a range whose currency is written once, after the upper ("12 - 20 EUR").
_RANGE_LOW = re.compile(rf"(?P<a>{_AMOUNT})(?:\s?(?P<m>{_MULT})\b)?\s*[-–—]\s*$", re.I)
_PERCENT = re.compile(r"[-+−]?\d[\d.,]*\s?%")
_RATING = re.compile(
    # Not a date's parts: "03/10/2016" is no rating of 3 out of 10.
    r"(?<![\d/.\-])(?P<v>\d+(?:[.,]\d+)?)\s*(?:out\s+of|of|/|von|sur|de)\s*(?P<s>\d+)\b(?!\s*[/.\-]\s*\d)"
    r"(?:\s*stars?|\s*sterne)?"
    r"|(?P<v2>\d(?:[.,]\d+)?)\s*(?:stars?|sterne|étoiles)\b",
    re.I,
)
_STAR_CHARS = re.compile(r"^[★☆✩✭✮⭐\s]+$")
_EMAIL = re.compile(r"^(?:mailto:)?[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")
_URL = re.compile(r"^(?:https?://|www\.)\S+$|^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,6}(?:/\S*)?$", re.I)
_PHONE = re.compile(r"^(?:tel:|phone:?\s*)?(\+?[\d\s().\-/]{7,22})$", re.I)
_INTEGER_UNIT = re.compile(r"^\(?(?P<n>[-+−]?\d[\d.,'\u00a0\u202f ]*\d|\d)\)?(?:\s+[^\W\d_]+){0,2}$")

_HAS_DIGIT = re.compile(r"\d")
_R_RATING_WORD = re.compile(r"/|\b(?:of|von|sur|de)\b|star|sterne|étoiles")
"""A word that _RATING needs (lower-case text): its scale words or a star word."""
_R_TLD = re.compile(r"\.[a-z]{2,6}(?:/|$)")
_R_DAYWORD = re.compile(r"\b(?:yesterday|today|just now|gestern|heute|hier|ayer|hoy)\b")
_R_UNIT = re.compile(r"\d\s*(?:d|days?|h|hrs?|hours?|m|mins?|minutes?|s|secs?|seconds?)\b")
_R_LETTER = re.compile(r"[a-z]", re.I)
_R_NONDIGIT = re.compile(r"\D")
_R_GROUPING = re.compile(r"[\s\-/.]")
_R_DECIMAL_END = re.compile(r"\d[.,]\d{1,2}$")
_R_AMPM = re.compile(r"[ap]\.?\s?m", re.I)
_R_FRACTION = re.compile(r"[.,]\d{1,2}$")
_R_WORDCHAR = re.compile(r"[^\W\d_]")
_SEVEN_DIGITS = re.compile(r"\d(?:\D*\d){6}")
"""Matches when a text holds seven digits or more (a possible phone number)."""
_DATE_WORDS = r"\d[./-]\d{1,2}[./-]\d|\bago\b|\b(?:vor|hace|il y a)\b"
_DATE_HINT = re.compile(
    _DATE_WORDS + r"|(?<![^\W\d_])(?:"
    + "|".join(sorted({re.escape(w) for w in MONTHS} | {re.escape(fold(w)) for w in MONTHS}, key=len, reverse=True))
    + r")\.?(?![^\W\d_])",
    re.I,
)
"""A numeric date, a month name or a relative-time word: only these can be dates."""

# Cheaper equivalents of _PRICE and _DATE_HINT for ASCII text, whose letters only
# case-fold to ASCII: a match needs one of these ASCII strings, resp. a whole word.
_ASCII_CURRENCIES = tuple(sorted(k for k in CURRENCIES if k.isascii() and "$" not in k))
_ASCII_MONTHS = frozenset(w for m in MONTHS for w in (m, fold(m)) if w.isascii())
_ASCII_WORD = re.compile(r"[a-z]+")
_DATE_HINT_REST = re.compile(_DATE_WORDS, re.I)


def _may_be_price(text: str) -> bool:
    """False only when _PRICE cannot match (an ASCII text without "$" or a currency code)."""
    if not text.isascii() or "$" in text:
        return True
    low = text.lower()
    return any(c in low for c in _ASCII_CURRENCIES)


def _date_hint(text: str) -> bool:
    """``_DATE_HINT.search(text)``, by word lookups for ASCII text."""
    if not text.isascii():
        return _DATE_HINT.search(text) is not None
    if _DATE_HINT_REST.search(text):
        return True
    return not _ASCII_MONTHS.isdisjoint(_ASCII_WORD.findall(text.lower()))


def _recall(text: str, kind: str) -> set[str]:
    """Level 1: every type the text might have."""
    if kind == "image":
        return {"image"}
    out = {"text"}
    low = text.lower()
    if "@" in text:
        out.add("email")
    if "http" in low or "www." in low or _R_TLD.search(low):
        out.add("url")
    if _STAR_CHARS.match(text) and text.strip():
        out.add("rating")
    if not _HAS_DIGIT.search(text):
        if _R_DAYWORD.search(low):
            out.add("date")
        return out
    out |= {"number", "integer", "price"}  # _price searches for its own match
    if "%" in text:
        out.add("percent")
    if ":" in text or _R_UNIT.search(low) or text.startswith("P"):
        out |= {"time", "duration"}
    if _date_hint(text):
        out.add("date")
    if _R_RATING_WORD.search(low):
        out.add("rating")
    if _SEVEN_DIGITS.search(text):
        out.add("phone")
    return out


def _covers(text: str, span: tuple[int, int]) -> bool:
    """The found value is the text, give or take a few words."""
    return len(text) - (span[1] - span[0]) <= th.MAX_EXTRA_CHARS


def _price(text: str, ctx: Context) -> Typed | None:
    if not _may_be_price(text):
        return None
    found = list(_PRICE.finditer(text))
    if not found:
        return None
    m = found[0]
    cur = m.group("c1") or m.group("c2") or ""
    amount = _amount(m.group("a1") or m.group("a2"), m.group("m1") or m.group("m2"), ctx)
    if amount is None:
        return None
    low = _RANGE_LOW.search(text, 0, m.start()) if len(found) == 1 and m.group("c2") else None
    used = sum(f.end() - f.start() for f in found[:2]) + (low.end() - low.start() if low else 0)
    if len(text) - used > th.MAX_EXTRA_CHARS:
        return None
    value: dict[str, Any] = {"amount": amount, "currency": currency_code(cur)}
    flags: tuple[str, ...] = ()
    hi = None
    if len(found) > 1:
        hi = _amount(found[1].group("a1") or found[1].group("a2"), found[1].group("m1") or found[1].group("m2"),
                     ctx)
    elif low is not None:
        lo = _amount(low.group("a"), low.group("m") or m.group("m1") or m.group("m2"), ctx)
        if lo is not None:
            value["amount"], hi = lo, amount
    if hi is not None:
        value["max"] = hi
        flags = ("range",)
    return Typed("price", value, flags)


def _amount(digits: str | None, mult: str | None, ctx: Context) -> float | None:
    """A written amount as a number, its multiplier applied ("71k" -> 71000)."""
    v = parse_number((digits or "").strip(), ctx.decimal)
    if v is None or not mult:
        return v
    return round(v * _MULTIPLIERS[mult.lower()], 6)


def _percent(text: str, ctx: Context) -> Typed | None:
    m = _PERCENT.search(text)
    if not m or not _covers(text, m.span()):
        return None
    v = parse_number(m.group(0).rstrip("% ").strip(), ctx.decimal)
    return Typed("percent", v) if v is not None else None


def _rating(text: str, ctx: Context) -> Typed | None:
    if _STAR_CHARS.match(text) and text.strip():
        return Typed("rating", float(sum(ch in "★✭✮⭐" for ch in text)))
    m = _RATING.search(text)
    if not m or not _covers(text, m.span()):
        return None
    if m.group("v") is not None:
        v, scale = float(m.group("v").replace(",", ".")), float(m.group("s"))
        if scale not in (5.0, 10.0, 100.0) or v > scale:
            return None  # "3 of 20" is a count, "4/12" a date part
        return Typed("rating", v, () if scale == 5 else (f"scale={int(scale)}",))
    return Typed("rating", float(m.group("v2").replace(",", ".")))


def _email(text: str, ctx: Context) -> Typed | None:
    t = text.strip()
    return Typed("email", t.lower().removeprefix("mailto:")) if _EMAIL.match(t) else None


def _url(text: str, ctx: Context) -> Typed | None:
    t = text.strip()
    if not _URL.match(t) or not _R_LETTER.search(t):
        return None
    return Typed("url", t)


def _phone(text: str, ctx: Context) -> Typed | None:
    m = _PHONE.match(text.strip())
    if not m:
        return None
    raw = m.group(1)
    digits = _R_NONDIGIT.sub("", raw)
    grouped = raw.strip().startswith(("+", "(")) or len(_R_GROUPING.findall(raw.strip())) >= 2
    if not 7 <= len(digits) <= 15 or not grouped or _R_DECIMAL_END.search(raw):
        return None
    return Typed("phone", ("+" if raw.strip().startswith("+") else "") + digits)


def _from(found: Found | None, text: str, kind: str) -> Typed | None:
    if found is None or not _covers(text, found.span):
        return None
    return Typed(kind, found.value, found.flags)


def _date(text: str, ctx: Context) -> Typed | None:
    return _from(find_date(text, ctx.date_order), text, "date")


_WORD_BEFORE = re.compile(r"[^\W\d_]\s*$")


def _clock_ok(found: Found | None, text: str) -> Found | None:
    """A clock-like value ("17:12") preceded by a word is a reference ("Genesis 17:12")
    unless the word is a label ("Duration: 4:05")."""
    if found is None:
        return None
    if _R_AMPM.search(text[found.span[0]:found.span[1]]):
        return found  # "Departs 6:45 AM": am/pm makes it a time of day whatever precedes
    before = text[:found.span[0]].rstrip()
    if before and _WORD_BEFORE.search(before) and not before.endswith(":"):
        return None
    return found


def _time(text: str, ctx: Context) -> Typed | None:
    return _from(_clock_ok(find_time(text), text), text, "time")


def _duration(text: str, ctx: Context) -> Typed | None:
    return _from(_clock_ok(find_duration(text), text), text, "duration")


def _integer(text: str, ctx: Context) -> Typed | None:
    t = text.strip()
    if t.startswith("(") and t.endswith(")"):
        text = t[1:-1]  # "(299 ratings)"
    m = _INTEGER_UNIT.match(text.strip())
    if not m:
        return None
    tok = m.group("n")
    v = parse_number(tok, ctx.decimal)
    if v is None:
        return None
    flags = ("unit",) if tok != text.strip() and not text.strip().startswith("(") else ()
    if v == int(v) and not _R_FRACTION.search(tok):
        return Typed("integer", int(v), flags)
    return Typed("number", v, flags)


def _number(text: str, ctx: Context) -> Typed | None:
    found = NUMBER.findall(text)
    if len(found) != 1:
        return None
    m = NUMBER.search(text)
    if m is None or not _covers(text, m.span()) or _R_WORDCHAR.search(text[:m.start()]):
        return None
    v = parse_number(found[0], ctx.decimal)
    return Typed("number", v) if v is not None else None


PRECISION: tuple[tuple[str, Callable[[str, Context], Typed | None]], ...] = (
    ("email", _email),
    ("url", _url),
    ("rating", _rating),
    ("percent", _percent),
    ("price", _price),
    ("date", _date),
    ("time", _time),
    ("duration", _duration),
    ("phone", _phone),
    ("integer", _integer),
    ("number", _number),
)
"""Level 2, in priority order: more specific shapes first (a date is also digits)."""

_PARSERS = dict(PRECISION)


_DEFAULT_CONTEXT = Context()


def type_text(text: str, ctx: Context = _DEFAULT_CONTEXT, *, kind: str = "text") -> Typed:
    """Type one cell's text: recall rules propose, the first precision rule that fits decides."""
    if kind == "image":
        return Typed("image", None)
    if ctx is _DEFAULT_CONTEXT:
        return _type_default(text)  # column typing: one key fewer to hash per lookup
    return _type_text(text, ctx)


_VALUE_LETTERS = 23
r"""The most letters (``[^\W\d_]``) that a value found by a precision rule can hold,
outside whole words: a duration's unit words ("days hours minutes seconds"). Dates
hold at most 16 ("1st de septiembre de"), ratings 11, relative dates 13, prices 6.
Keep this in step when a rule's expression gains longer words."""


def _surely_text(text: str) -> bool:
    r"""True for sentences that no precision rule can accept, so typing them is skipped.

    Every rule but four finds a value that leaves at most ``MAX_EXTRA_CHARS`` other
    characters, so the text holds at most that many letters plus the value's own
    (:data:`_VALUE_LETTERS`). Email and URL need a text without inner spaces (three
    words have them); an integer with a unit keeps its letters in two words; "vor 3
    <word>" in one word plus "vor". More letters than all of these: plain text.
    Letters are counted with ``str.isalpha`` (never more than ``[^\W\d_]`` finds),
    in the first 160 characters when those already tell.
    """
    if len(text) <= th.MAX_EXTRA_CHARS + _VALUE_LETTERS:
        return False
    words = text.split()
    if len(words) < 3:
        return False
    lens = sorted(map(len, words))
    need = max(th.MAX_EXTRA_CHARS + _VALUE_LETTERS, lens[-1] + lens[-2], th.MAX_EXTRA_CHARS + len("vor") + lens[-1])
    letters = sum(map(str.isalpha, text[:160]))
    if letters <= need < len(text) and len(text) > 160:
        letters += sum(map(str.isalpha, text[160:]))
    return letters > need


# Cached: list pages repeat the same texts (labels, buttons, currencies) many times.
@functools.lru_cache(maxsize=8192)
def _type_default(text: str) -> Typed:
    return _classify(text, _DEFAULT_CONTEXT)


@functools.lru_cache(maxsize=8192)
def _type_text(text: str, ctx: Context) -> Typed:
    return _classify(text, ctx)


def _classify(text: str, ctx: Context) -> Typed:
    if _surely_text(text):
        return Typed("text", text)
    candidates = _recall(text, "text")
    for name, rule in PRECISION:
        if name in candidates:
            got = rule(text, ctx)
            if got is not None:
                return got
    return Typed("text", text)


def parse_as(type_name: str, text: str, ctx: Context) -> Typed | None:
    """Parse ``text`` as a given type (after the column's type is decided)."""
    rule = _PARSERS.get(type_name)
    if rule is None:
        return Typed("text", text) if type_name == "text" else None
    if type_name in ("integer", "number"):
        # Integers first: they keep a unit flag and whole values ("500 views").
        return _integer(text, ctx) or _number(text, ctx)
    return rule(text, ctx)
