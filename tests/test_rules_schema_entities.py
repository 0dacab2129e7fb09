"""Entity typing rules at their boundaries: prices, counts, phones, clocks, recall.

Each case states what a rule is for and is written by hand from that rule, not
copied from the code's output. The typer caches its answers per text; the
fixture empties those caches so that every case runs the rules themselves
(a cached answer from an earlier test would hide a broken rule).
"""

from __future__ import annotations

import pytest

from visx.schema import entities
from visx.schema.entities import Context, Typed, parse_as, type_text
from visx.schema.numbers import parse_number

COMMA = Context(decimal=",")


pytestmark = pytest.mark.usefixtures("fresh_typing_caches")  # conftest.py


# --- prices ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "currency"),
    [
        ("CDN $ 5", "CAD"),  # a country prefix of three letters may stand apart from "$"
        ("CDN$5", "CAD"),
        ("HK $ 5", "HKD"),  # ... and so may one of two letters
        ("US$ 5", "USD"),
        ("A $5 gift card", "$"),  # a one-letter prefix may not: plain dollars
    ],
)
def test_price_currency_prefix_apart_from_dollar(text: str, currency: str) -> None:
    got = type_text(text)
    assert got.type == "price"
    assert got.value == {"amount": 5.0, "currency": currency}


def test_price_amount_follows_the_columns_decimal_separator() -> None:
    # "1,234" alone is ambiguous: English reads a thousands group, a comma column a decimal
    assert type_text("1,234 €").value == {"amount": 1234.0, "currency": "EUR"}
    assert type_text("1,234 €", COMMA).value == {"amount": 1.234, "currency": "EUR"}
    assert type_text("€ 1,234", COMMA).value == {"amount": 1.234, "currency": "EUR"}


def test_price_multiplier_keeps_the_fraction() -> None:
    # 2.5005 thousand is 2500.5, not a rounded 2500 or 2501
    assert type_text("€2.5005k").value == {"amount": 2500.5, "currency": "EUR"}
    # 1.1 million: float noise (1100000.0000000002) is rounded away
    assert type_text("€1.1m").value == {"amount": 1100000.0, "currency": "EUR"}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("$10 - $20", {"amount": 10.0, "currency": "$", "max": 20.0}),
        ("€1,5 - €2,5", {"amount": 1.5, "currency": "EUR", "max": 2.5}),
        ("€1 - €2,5k", {"amount": 1.0, "currency": "EUR", "max": 2500.0}),
        ("€10-€20k", {"amount": 10.0, "currency": "EUR", "max": 20000.0}),
        # currency written once, after the upper bound
        ("12 - 20 EUR", {"amount": 12.0, "currency": "EUR", "max": 20.0}),
        ("1.5 – 2.5 EUR", {"amount": 1.5, "currency": "EUR", "max": 2.5}),
        # ... and its multiplier applies to the lower bound too
        ("10 - 20k EUR", {"amount": 10000.0, "currency": "EUR", "max": 20000.0}),
        # the lower bound counts as part of the value, not as extra text
        ("From 1.000.000 - 2.000.000 EUR", {"amount": 1e6, "currency": "EUR", "max": 2e6}),
    ],
)
def test_price_ranges(text: str, value: dict[str, object]) -> None:
    assert type_text(text) == Typed("price", value, ("range",))


def test_price_range_bounds_follow_the_columns_decimal_separator() -> None:
    got = type_text("€1,234 - €2,345", COMMA)
    assert got == Typed("price", {"amount": 1.234, "currency": "EUR", "max": 2.345}, ("range",))


def test_single_price_has_no_range_flag() -> None:
    assert type_text("$20") == Typed("price", {"amount": 20.0, "currency": "$"})


# --- counts and numbers ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(299)", Typed("integer", 299)),  # the whole count inside the parentheses
        ("(1,234 views)", Typed("integer", 1234, ("unit",))),
        ("2.5 kg", Typed("number", 2.5, ("unit",))),  # a fraction with a unit is a number
        ("(3.5)", Typed("number", 3.5)),
        ("12 345", Typed("integer", 12345)),
    ],
)
def test_counts_and_measures(text: str, expected: Typed) -> None:
    assert type_text(text) == expected


@pytest.mark.parametrize(("text", "value"), [("~3.5", 3.5), ("≈ 12", 12.0), ("12.5+", 12.5), ("#12", 12.0)])
def test_number_with_a_sign_around_it(text: str, value: float) -> None:
    assert type_text(text) == Typed("number", value)


def test_parse_as_number_reads_the_columns_decimal() -> None:
    # "~" stops the integer rule; the number rule must still use the column's comma
    assert parse_as("number", "~3,5", COMMA) == Typed("number", 3.5)
    assert parse_as("integer", "1,234", COMMA) == Typed("number", 1.234)


def test_parse_as_text_and_unknown_types() -> None:
    assert parse_as("text", "abc", COMMA) == Typed("text", "abc")
    assert parse_as("colour", "abc", COMMA) is None


@pytest.mark.parametrize(("token", "value"), [("−5", -5.0), ("−1,234", -1234.0), ("−2.5", -2.5)])
def test_parse_number_reads_a_unicode_minus(token: str, value: float) -> None:
    assert parse_number(token) == value


def test_percent_with_a_unicode_minus() -> None:
    assert type_text("50%") == Typed("percent", 50.0)
    assert type_text("−5.5 %") == Typed("percent", -5.5)


# --- ratings ---------------------------------------------------------------------


def test_rating_on_a_scale_of_100() -> None:
    assert type_text("87/100") == Typed("rating", 87.0, ("scale=100",))
    assert type_text("8 of 10") == Typed("rating", 8.0, ("scale=10",))


def test_a_dates_parts_are_no_rating() -> None:
    # "03/10" reads as 3 out of 10 only until the year follows.
    assert type_text("03/10/2016 16:05").type == "date"
    assert type_text("2/5/2019").type == "date"
    assert type_text("3.5 / 5") == Typed("rating", 3.5)


# --- phones ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("+49 30 1234567", "+49301234567"),
        ("+4930123456", "+4930123456"),  # a leading "+" is grouping enough
        ("(030) 1234567", "0301234567"),  # ... and so is a leading "("
        ("030 123 4567", "0301234567"),  # otherwise two separators
    ],
)
def test_phone_numbers(text: str, digits: str) -> None:
    assert type_text(text) == Typed("phone", digits)


def test_ungrouped_digits_are_no_phone() -> None:
    # one separator, no "+" or "(": a large count, not a phone number
    assert type_text("030 1234567").type == "integer"
    assert type_text("0301234567").type == "integer"


# --- clocks ----------------------------------------------------------------------


def test_clock_after_a_word_is_a_reference() -> None:
    assert type_text("Genesis 17:12") == Typed("text", "Genesis 17:12")
    assert type_text("Duration: 4:05") == Typed("duration", 245)  # a label ends with ":"
    assert type_text("Flight 6:45 PM") == Typed("time", "18:45")  # am/pm: a time of day


# --- recall: a type that is not proposed cannot be found --------------------------


@pytest.mark.parametrize(
    ("text", "type_"),
    [
        ("https://localhost/x", "url"),  # no TLD, no "www.": only "http" proposes a url
        ("yesterday", "date"),  # a day word without digits
        ("3 March 2024", "date"),
        ("17:45", "time"),
        ("4:05", "duration"),
        ("50%", "percent"),
        ("€5", "price"),
    ],
)
def test_recall_proposes_the_type(text: str, type_: str) -> None:
    assert type_text(text).type == type_
    assert type_text(text, COMMA).type == type_


def test_long_sentence_is_text() -> None:
    s = "This lovely flat is close to the station and has a garden of 120 square metres"
    assert type_text(s) == Typed("text", s)


def test_three_long_words_are_surely_text() -> None:
    # three words with more letters than any value and its extra characters can hold
    text = "Extraordinarily uncharacteristically incomprehensibilities"
    assert entities._surely_text(text)
    assert not entities._surely_text("Extraordinarily uncharacteristically")  # two words: a unit may hold them


def test_currency_key_patterns() -> None:
    # the regex is built from these patterns at import: test the patterns themselves
    import re

    cdn = re.compile(entities._cur_pattern("cdn$"), re.I)
    assert cdn.fullmatch("CDN $") and cdn.fullmatch("cdn$")
    assert not cdn.fullmatch("CD $")
    hk = re.compile(entities._cur_pattern("hk$"), re.I)
    assert hk.fullmatch("HK $") and hk.fullmatch("HK$")
    a = re.compile(entities._cur_pattern("a$"), re.I)  # one letter: only written together
    assert a.fullmatch("A$") and not a.fullmatch("A $")
    assert entities._cur_pattern("€") == "€"


@pytest.mark.parametrize(("text", "seconds"), [("PT1H30M", 5400), ("P3D", 259200)])
def test_iso_durations_are_recalled(text: str, seconds: int) -> None:
    assert type_text(text) == Typed("duration", seconds)


def test_count_with_an_unclosed_parenthesis() -> None:
    # only a pair of parentheses is taken off: "(12" keeps both digits
    assert type_text("(12") == Typed("integer", 12)


def test_image_items_are_images_whatever_their_text() -> None:
    assert type_text("$5", kind="image") == Typed("image", None)
    assert type_text("$5", kind="text").type == "price"
