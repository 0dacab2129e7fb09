"""Dates, times and durations as they appear on list pages.

Absolute dates become ISO strings (``2026-11-22``; ``--11-22`` without a year,
``2026-11`` for a month). Relative dates ("3 days ago", "yesterday") are kept
raw and flagged ``relative``: their meaning depends on when the page was saved.
Durations become seconds.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from typing import NamedTuple

from visx.schema import thresholds as th

_MONTH_NAMES = {
    1: "january janvier januar enero gennaio janeiro januari jan janv ene gen",
    2: "february février fevrier februar febrero febbraio fevereiro februari feb févr fevr fev",
    3: "march mars märz maerz marzo março marco maart mar mär mrt",
    4: "april avril abril aprile apr avr abr",
    5: "may mai mayo maggio maio mei mag",
    6: "june juin juni junio giugno junho jun",
    7: "july juillet juli julio luglio julho jul juil lug",
    8: "august août aout agosto augustus aug ago",
    9: "september septembre septiembre settembre setembro sep sept set",
    10: "october octobre oktober octubre ottobre outubro oct okt ott out",
    11: "november novembre noviembre novembro nov",
    12: "december décembre decembre dezember diciembre dicembre dezembro dec déc dez dic",
}
MONTHS: dict[str, int] = {w: m for m, names in _MONTH_NAMES.items() for w in names.split()}
"""Month names and abbreviations (en, fr, de, es, it, pt, nl) -> month number."""
_MONTH_FIRST = frozenset(_MONTH_NAMES[m].split()[0] for m in _MONTH_NAMES) | frozenset(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"]
)
"""Names that may come before the day ("Oct 5", "May 3, 2024"): English writes dates month
first; the other languages of the table write the day first ("5 out", "3 de mayo"), so
their names before a day are words ("Sold out 5", "Set 5")."""

_WEEKDAY = re.compile(
    r"^(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche"
    r"|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|lunes|martes|miércoles|jueves|viernes"
    r"|sábado|domingo),?\s+|^(?:mon|tue|wed|thu|fri|sat|sun|mo|di|mi|do|fr|sa|so)[.,]\s*",
    re.I,
)
"""A leading weekday ("Monday, 3 May", "Tue, 4 Jun"); short forms only with their dot or comma,
so that month names such as "mars" are not taken for "mar(di)"."""
_MON = r"([^\W\d_]{3,10})\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th|er|º)?\.?"
_YEAR = r"(\d{4}|'\d{2})"
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("iso", re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?")),
    ("dmy", re.compile(rf"{_DAY}\s+(?:de\s+)?{_MON},?\s+(?:de\s+)?{_YEAR}")),
    ("mdy", re.compile(rf"{_MON}\s+{_DAY},?\s+{_YEAR}")),
    ("numeric", re.compile(r"(\d{1,4})([./-])(\d{1,2})\2(\d{2,4})")),
    ("my", re.compile(rf"{_MON},?\s+{_YEAR}")),
    ("dm", re.compile(rf"{_DAY}\s+{_MON}(?!\s+[oO][fF]\b)")),
    ("md", re.compile(rf"{_MON}\s+{_DAY}(?!\d)")),
)
_RELATIVE = re.compile(
    r"\b(?:\d+|an?|one|few)\s*(?:s|sec|secs|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?|"
    r"mo|mos|months?|y|yrs?|years?)\.?\s+ago\b"
    r"|\b(?:yesterday|today|just now|gestern|heute|hier|aujourd'hui|ayer|hoy)\b"
    r"|\bvor\s+\d+\s+\w+|\bil y a\s+\d+|\bhace\s+\d+",
    re.I,
)
_CLOCK = re.compile(r"(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2}))?(?![\d:])\s*([ap]\.?\s?m\.?)?", re.I)
_UNIT_DURATION = re.compile(
    r"(?:(\d+)\s*(?:days?|d)\s*)?(?:(\d+)\s*(?:hours?|hrs|hr|std|h)\.?\s*)?"
    r"(?:(\d+)\s*(?:minutes?|mins|min|m)\.?\s*)?(?:(\d+)\s*(?:seconds?|secs|sec|s)\.?)?",
    re.I,
)
_ISO_DURATION = re.compile(r"P(?:(\d+)D)?T?(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$")


class Found(NamedTuple):
    """A value found in a text: its typed value, flags, and how much text it used."""

    value: object
    flags: tuple[str, ...]
    span: tuple[int, int]


def fold(text: str) -> str:
    """Lowercase without accents, for month names (``Août`` -> ``aout``)."""
    t = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in t if not unicodedata.combining(ch))


_MONTHS_FOLDED = {fold(k): v for k, v in MONTHS.items()}


def month(word: str) -> int | None:
    return _MONTHS_FOLDED.get(fold(word).rstrip("."))


def _year(y: str) -> int:
    if not y.startswith("'"):
        return int(y)
    yy = int(y[1:])
    return (2000 if yy < th.TWO_DIGIT_YEAR_PIVOT else 1900) + yy


def _valid(y: int, m: int, d: int) -> bool:
    if not (1 <= m <= 12 and 1 <= d <= 31 and 1000 <= y <= 2999):
        return False
    return d <= calendar.monthrange(y, m)[1]


def find_date(text: str, order: str = "auto") -> Found | None:
    """An absolute or relative date in ``text``; ``order`` resolves numeric ones."""
    rel = _RELATIVE.search(text)
    if rel:
        return Found(text.strip(), ("relative",), rel.span())
    t = _WEEKDAY.sub("", text) if not text[:1].isdigit() else text
    shift = len(text) - len(t)
    for kind, rx in _PATTERNS:
        for m in rx.finditer(t):
            iso = _iso(kind, m.groups(), order)
            if iso is not None:
                value, flags = iso
                return Found(value, flags, (m.start() + shift, m.end() + shift))
    return None


def _iso(kind: str, g: tuple[str | None, ...], order: str) -> tuple[str, tuple[str, ...]] | None:
    if kind == "iso":
        y, m, d = int(g[0] or 0), int(g[1] or 0), int(g[2] or 0)
        if not _valid(y, m, d):
            return None
        if g[3] is not None:
            sec = f":{g[5]}" if g[5] else ""
            return f"{y:04d}-{m:02d}-{d:02d}T{int(g[3]):02d}:{g[4]}{sec}", ()
        return f"{y:04d}-{m:02d}-{d:02d}", ()
    if kind == "numeric":
        a, sep, b, c = g[0] or "", g[1] or "", g[2] or "", g[3] or ""
        return _numeric(a, sep, b, c, order)
    if kind in ("mdy", "md") and fold(g[0] or "").rstrip(".") not in _MONTH_FIRST:
        return None
    if kind in ("dmy", "mdy"):
        d_s, m_s, y_s = (g[0], g[1], g[2]) if kind == "dmy" else (g[1], g[0], g[2])
        mo = month(m_s or "")
        if mo is None or not _valid(_year(y_s or "0"), mo, int(d_s or 0)):
            return None
        return f"{_year(y_s or '0'):04d}-{mo:02d}-{int(d_s or 0):02d}", ()
    if kind == "my":
        mo = month(g[0] or "")
        return (f"{_year(g[1] or '0'):04d}-{mo:02d}", ("month",)) if mo else None
    d_s, m_s = (g[0], g[1]) if kind == "dm" else (g[1], g[0])
    mo = month(m_s or "")
    if mo is None or not _valid(2000, mo, int(d_s or 0)):
        return None
    return f"--{mo:02d}-{int(d_s or 0):02d}", ("no_year",)


def numeric_order(a: str, b: str, c: str, sep: str) -> str:
    """Default field order of a numeric date when the values do not tell."""
    if len(a) == 4:
        return "ymd"
    if int(a) > 12:
        return "dmy"
    if int(b) > 12:
        return "mdy"
    return "mdy" if sep == "/" else "dmy"


def _numeric(a: str, sep: str, b: str, c: str, order: str) -> tuple[str, tuple[str, ...]] | None:
    if len(a) == 4:
        order = "ymd"
    elif len(a) == 3 or len(c) == 3:
        return None
    elif order in ("auto", "ymd"):
        order = numeric_order(a, b, c, sep)
    if order == "ymd":
        y, m, d = int(a), int(b), int(c)
    elif order == "dmy":
        y, m, d = _year("'" + c if len(c) == 2 else c), int(b), int(a)
    else:
        y, m, d = _year("'" + c if len(c) == 2 else c), int(a), int(b)
    if not _valid(y, m, d):
        return None
    return f"{y:04d}-{m:02d}-{d:02d}", ()


def numeric_fields(text: str) -> tuple[str, str, str, str] | None:
    """(a, sep, b, c) of the first numeric date in ``text``, for column-level order votes."""
    m = _PATTERNS[3][1].search(text)
    return (m.group(1), m.group(2), m.group(3), m.group(4)) if m else None


def find_time(text: str) -> Found | None:
    """A clock time with am/pm, or a two-digit 24-hour time (``14:05``)."""
    for m in _CLOCK.finditer(text):
        h, mi, s, ampm = m.group(1), int(m.group(2)), m.group(3), m.group(4)
        hour = int(h)
        if mi > 59 or (s and int(s) > 59):
            continue
        if ampm:
            if not 1 <= hour <= 12:
                continue
            pm = ampm.lower().startswith("p")
            hour = hour % 12 + (12 if pm else 0)
        elif len(h) != 2 or hour > 23:
            continue  # "4:05" is more often a media duration than a time of day
        sec = f":{int(s):02d}" if s else ""
        return Found(f"{hour:02d}:{mi:02d}{sec}", (), m.span())
    return None


def find_duration(text: str) -> Found | None:
    """A duration in seconds: ``1:02:33``, ``4:05``, ``2h 35m``, ``45 min``, ``PT3M``."""
    iso = _ISO_DURATION.search(text.strip())
    if iso and any(iso.groups()):
        d, h, mi, s = (int(x or 0) for x in iso.groups())
        return Found(((d * 24 + h) * 60 + mi) * 60 + s, (), iso.span())
    for m in _CLOCK.finditer(text):
        if m.group(4):
            continue
        a, b, c = int(m.group(1)), int(m.group(2)), m.group(3)
        if b > 59 or (c and int(c) > 59):
            continue
        secs = (a * 60 + b) * 60 + int(c) if c else a * 60 + b
        return Found(secs, (), m.span())
    for m in _UNIT_DURATION.finditer(text):
        if not m.group(0).strip() or not any(m.groups()):
            continue
        start = m.start()
        end = start + len(m.group(0).rstrip())
        if (start > 0 and text[start - 1].isalnum()) or (end < len(text) and text[end].isalpha()):
            continue
        d, h, mi, s = (int(x or 0) for x in m.groups())
        return Found(((d * 24 + h) * 60 + mi) * 60 + s, (), (start, end))
    return None
