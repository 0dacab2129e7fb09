"""Rating and date rules of the entity typer at their boundaries.

A rating is a value on a scale of 5, 10 or 100 that does not exceed its scale;
"5 out of 5" is the last rating and "5.1 out of 5" is no rating. The words
around a number decide whether a short word is a month: "out" is Portuguese
for October only where Portuguese puts it (after the day, or before a year),
never in "out of" or "Sold out 5". The expected values are written by hand
from these rules, not copied from the code's output.
"""

from __future__ import annotations

import pytest

from visx.schema.entities import Typed, type_text


def _t(text: str) -> tuple[str, object]:
    got: Typed = type_text(text)
    return got.type, got.value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("5 out of 5", 5.0),  # the value equals its scale: still a rating (">" not ">=")
        ("5/5", 5.0),
        ("10 out of 10", 10.0),
        ("100/100", 100.0),
        ("4.5 out of 5 stars", 4.5),
        ("4.5 out of 5", 4.5),
        ("Rated 4 out of 5", 4.0),
        ("0 out of 5", 0.0),
        ("4,5 von 5 Sternen", 4.5),
        ("3 sur 5", 3.0),  # every scale word the rule knows is also recalled
        ("4 Sterne", 4.0),
    ],
)
def test_ratings_up_to_their_scale(text: str, value: float) -> None:
    assert _t(text) == ("rating", value)


def test_rating_scale_is_flagged_unless_five() -> None:
    assert type_text("5 out of 5").flags == ()
    assert type_text("10 out of 10").flags == ("scale=10",)
    assert type_text("100/100").flags == ("scale=100",)


@pytest.mark.parametrize("text", ["6 out of 5", "5.1 out of 5", "11 out of 10", "101/100"])
def test_a_value_above_its_scale_is_not_a_rating_nor_a_date(text: str) -> None:
    kind, _ = _t(text)
    assert kind not in ("rating", "date")


@pytest.mark.parametrize("text", ["3 out of 20", "3 of 20", "7 out of 12", "2 of 3"])
def test_counts_on_other_scales_are_not_ratings_nor_dates(text: str) -> None:
    """"3 out of 20" is a count (the third of twenty), and "out" there is no month."""
    assert _t(text) == ("text", text)


@pytest.mark.parametrize("text", ["Sold out 5", "Sold out", "Set 5", "out 5"])
def test_words_that_spell_a_foreign_month_before_a_number_are_not_dates(text: str) -> None:
    kind, _ = _t(text)
    assert kind != "date"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("5 out 2024", "2024-10-05"),  # Portuguese: the day first
        ("5 de out. de 2024", "2024-10-05"),
        ("5 out", "--10-05"),
        ("12 dez", "--12-12"),
        ("Oct 5", "--10-05"),  # English: the month first
        ("Sep 5", "--09-05"),
        ("May 3, 2024", "2024-05-03"),
        ("December 12, 2024", "2024-12-12"),
        ("3 May 2024", "2024-05-03"),
    ],
)
def test_month_names_where_their_language_puts_them(text: str, value: str) -> None:
    assert _t(text) == ("date", value)
