"""The shortcuts of the alignment and schema hot paths answer as the plain expressions do.

Each fast path (substring tests before a regex, a letters count before typing) must
never change a result; these compare them with the expressions they stand for on
tricky and random texts.
"""

from __future__ import annotations

import random
import re

from visx.align import thresholds, tree
from visx.schema import entities

_TRICKY = [
    "", " ", "  a  b ", "\u00a0x\u00a0", "a\tb", "|", " | ", "·", "$12", "12 USD", "USD12", "12usd", "Rs.500",
    "kr 12", "12 kr", "12 zł", "€ 3,50", "3 Jan 2026", "jan 3", "xjan 3", "3 janvier", "Dec. 4", "3 days ago",
    "3ago", "agone 4", "12/03/2026", "2026-11-22", "1.2.3", "4.5 out of 5", "ſ 12", "\u212a 12", "100%",
    "(299 ratings)", "+49 30 1234567", "a@b.com", "www.x.com", "vor 3 Tagen", "hace 2 días", "1 day 2 hours",
    "Posted by ann on 3 May", "P1DT2H", "12:30 pm", "Genesis 17:12",
]
_ALPHABET = [*"0123456789 ./-$:,%_", "usd", "USD", "Rs", "kr", "Jan", "janvier", "ago", "Août", "MÄRZ",
             "é", "ł", "ſ", "\u212a", "€", "of", "stars", "vor", "Tagen", "de"]


def _texts(n: int, seed: int) -> list[str]:
    rnd = random.Random(seed)
    return _TRICKY + ["".join(rnd.choice(_ALPHABET) for _ in range(rnd.randint(1, 10))) for _ in range(n)]


def test_text_shape_matches_its_expressions() -> None:
    def plain(text: str) -> str:
        if not tree._DIGIT.search(text) and "ago" not in text:
            return "word"
        return next((name for name, rx in tree._SHAPES if rx.search(text)), "word")

    for text in _texts(20_000, 1):
        assert tree.text_shape(text) == plain(text), text


def test_clean_text_matches_split_and_join() -> None:
    separators = re.compile("[" + re.escape("".join(sorted(thresholds.SEPARATOR_CHARS))) + "]*")

    def plain(raw: str) -> str:
        t = " ".join(raw.split())
        return "" if separators.fullmatch(t) else t

    rnd = random.Random(2)
    pieces = [" ", "  ", "\n", "\t", "\u00a0", "\u2009", "\u3000", "\x1c", "a", "é", "|", "-", ":", "\u200b"]
    for _ in range(20_000):
        raw = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 8)))
        assert tree.clean_text(raw) == plain(raw), repr(raw)


def test_price_and_date_prefilters_never_hide_a_match() -> None:
    for text in _texts(20_000, 3):
        assert entities._date_hint(text) == (entities._DATE_HINT.search(text) is not None), text
        if entities._PRICE.search(text):
            assert entities._may_be_price(text), text


def test_sentences_skip_typing_only_when_no_rule_could_accept_them() -> None:
    ctx = entities.Context()
    sentence = "A short description of product 12, with bold words and a few more of them to read."
    assert entities._surely_text(sentence)
    assert entities.type_text(sentence) == entities.Typed("text", sentence)
    # Too few letters outside two long words (an integer with a unit), or outside one
    # long word ("vor 3 <word>"): typed by the rules, never skipped.
    for text in ("5 " + "x" * 40 + " " + "y" * 40, "vor 3 " + "Jahrhundertwende" * 4 + " am 12"):
        assert not entities._surely_text(text)
    rnd = random.Random(4)
    words = ["vor", "3", "days", "ago", "hours", "minutes", "seconds", "1 234", "$", "USD", "12,50", "out of", "5",
             "stars", "(299", "ratings)", "Pneumonoultramicroscopicsilicovolcanoconiosis", "septiembre", "de",
             "2026", "1st", "12:30", "pm", "50%", "a@b.com", "Posted", "by", "the", "quick", "brown", "fox"]
    for _ in range(5_000):
        text = " ".join(rnd.choice(words) for _ in range(rnd.randint(3, 16)))
        if entities._surely_text(text):
            for _name, rule in entities.PRECISION:
                assert rule(text, ctx) is None, (text, _name)
            assert not entities._STAR_CHARS.match(text)
