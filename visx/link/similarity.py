"""How well a row's key names a bag element: token alignment, aware of names and titles.

Both sides are folded (accents dropped, case folded, possessives and punctuation removed),
"Last, First" is turned round, a leading article ("The Matrix" = "Matrix, The") and honorifics
are dropped. Tokens are then aligned one to one: equal words count 1, a typo in a long word
its rapidfuzz ratio, an initial agreeing with a word ``INITIAL_CREDIT``; tokens with digits
only count when equal. The score is the F-measure of that alignment, where words that name
nothing ("home page", "Prof.") do not count against the element, a year the key does not
give does not either (it qualifies a title), and a year the key gives but the element lacks
counts half (compatible, less sure), while a different year rules the element out, as does
another number on each side (a size, a model).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import NamedTuple

from rapidfuzz.distance import Indel

from visx.link import thresholds as T

_POSSESSIVE = re.compile(r"['\u2019]s\b", re.IGNORECASE)
_NON_WORD = re.compile(r"[^\w]+|_")
_SEPARATORS = re.compile(T.TITLE_SEPARATORS)
_YEAR = re.compile(r"^(1[89]\d\d|20\d\d)$")
_DIGIT = re.compile(r"\d")


class Tokens(NamedTuple):
    words: tuple[str, ...]
    years: tuple[str, ...]
    article: str = ""
    """The leading article that was dropped, if any."""


def fold(text: str) -> str:
    """Accents dropped, case folded, possessives and punctuation turned into spaces."""
    text = unicodedata.normalize("NFKD", _POSSESSIVE.sub("", text))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(_NON_WORD.sub(" ", text.casefold()).split())


@lru_cache(maxsize=200_000)
def tokens(text: str) -> Tokens:
    """The words and years of a name or title (see the module doc)."""
    text = text.strip()
    if text.count(",") == 1:
        head, tail = (p.strip() for p in text.split(","))
        tail_words = fold(tail).split()
        if tail_words and all(w in T.ARTICLES for w in tail_words):
            text = f"{tail} {head}"  # "Matrix, The"
        elif head and tail and not _DIGIT.search(text) and len(head.split()) <= 3 and len(tail.split()) <= 3:
            text = f"{tail} {head}"  # "Doe, Jane"
    words = fold(text).split()
    while len(words) > 1 and words[0] in T.HONORIFICS:
        words = words[1:]
    article = ""
    if len(words) > 1 and words[0] in T.ARTICLES:
        article, words = words[0], words[1:]
    years = tuple(w for w in words if _YEAR.match(w))
    return Tokens(tuple(w for w in words if not _YEAR.match(w)), years, article)


@lru_cache(maxsize=200_000)
def variants(element: str) -> tuple[Tokens, ...]:
    """An element and, for a title, each of its parts ("Jane Doe | CS Department")."""
    parts = [p for p in _SEPARATORS.split(element) if p.strip()]
    out = [tokens(element)]
    if len(parts) > 1:
        out.extend(tokens(p) for p in parts)
    return tuple(out)


@lru_cache(maxsize=200_000)
def _pair(a: str, b: str) -> float:
    if a == b:
        return 1.0
    if _DIGIT.search(a) or _DIGIT.search(b):
        return 0.0
    if (len(a) == 1 and b.startswith(a)) or (len(b) == 1 and a.startswith(b)):
        return T.INITIAL_CREDIT
    if min(len(a), len(b)) >= 4:
        r = Indel.normalized_similarity(a, b)
        if r >= T.TOKEN_RATIO:
            return r
    return 0.0


def similarity(key: Tokens, element: Tokens) -> float:
    """Token F-measure of ``key`` against one element (0..1); see the module doc."""
    if key.years and element.years and not set(key.years) & set(element.years):
        return 0.0
    if not key.words:
        return 0.0
    pairs = sorted(((_pair(a, b), i, j) for i, a in enumerate(key.words)
                    for j, b in enumerate(element.words)), reverse=True)
    used_k: set[int] = set()
    used_e: set[int] = set()
    credit = 0.0
    for s, i, j in pairs:
        if s <= 0:
            break
        if i in used_k or j in used_e:
            continue
        used_k.add(i)
        used_e.add(j)
        credit += s
    if any(_DIGIT.search(w) for i, w in enumerate(key.words) if i not in used_k) and \
            any(_DIGIT.search(w) for j, w in enumerate(element.words) if j not in used_e):
        return 0.0  # another number on each side: another size or model ("1.5 L" vs "1.7 L")
    # Element words that name nothing count only when they were matched.
    content = sum(1 for j, w in enumerate(element.words) if j in used_e or w not in T.BOILERPLATE)
    if not content or not credit:
        return 0.0
    need = float(len(key.words))
    if key.years and element.years:  # the same year (a different one returned 0 above)
        credit += len(key.years)
        need += len(key.years)
        content += len(key.years)
    elif key.years:  # the element gives no year: compatible, less sure
        need += 0.5 * len(key.years)
    recall = credit / need
    precision = credit / content
    f = 2 * recall * precision / (recall + precision)
    if key.article and element.article and key.article != element.article:
        f *= T.OTHER_ARTICLE  # "A Iron Orchard" is not quite "The Iron Orchard"
    return f


def best(key: Tokens, element: str) -> float:
    """The best score of ``key`` against the element or one of its parts."""
    return max(similarity(key, v) for v in variants(element))


def covered(cell: str, words: set[str]) -> bool:
    """Every word and year of ``cell`` is among ``words`` (a page's bag): context agreeing."""
    t = tokens(cell)
    got = [*t.words, *t.years]
    return bool(got) and all(w in words for w in got if w not in T.BOILERPLATE)
