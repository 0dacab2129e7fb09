"""Dates, times and durations: each way of writing one, and the limits that reject a reading.

Every case states the value a reader would give the text; the pairs sit on
either side of one rule (a field order, a two-digit year, a 59 that is still a
minute), so that a rule changed in ``visx/schema/dates.py`` flips one of them.
"""

from __future__ import annotations

import pytest

from visx.schema.dates import find_date, find_duration, find_time, numeric_order


@pytest.mark.parametrize(("text", "iso", "flags"), [
    ("3 May 2024", "2024-05-03", ()),            # day month year
    ("May 3, 2024", "2024-05-03", ()),           # English: month first
    ("3 de mayo de 2024", "2024-05-03", ()),     # Spanish "de"
    ("March 2024", "2024-03", ("month",)),       # a month alone
    ("March '24", "2024-03", ("month",)),        # with a two-digit year
    ("Oct 5", "--10-05", ("no_year",)),          # month first, no year
    ("5 Oct", "--10-05", ("no_year",)),          # day first, no year
    ("5 out", "--10-05", ("no_year",)),          # Portuguese October, day first
    ("29 Feb", "--02-29", ("no_year",)),         # a day that some year has
])
def test_dates_with_month_names(text: str, iso: str, flags: tuple[str, ...]) -> None:
    found = find_date(text)
    assert found is not None
    assert (found.value, found.flags) == (iso, flags)
    assert found.span == (0, len(text))


@pytest.mark.parametrize("text", [
    "Sold out 5",   # a Portuguese month name before a number is a word, not a date
    "Set 5",        # likewise Italian/Portuguese "set"
    "31 Feb",       # no year has it
    "31 Apr",       # April has 30 days
])
def test_words_and_impossible_days_are_not_dates(text: str) -> None:
    assert find_date(text) is None


@pytest.mark.parametrize(("text", "iso"), [
    ("2024.05.03", "2024-05-03"),   # a four-digit first field is the year
    ("03.05.2024", "2024-05-03"),   # dots: day first
    ("03-05-2024", "2024-05-03"),   # dashes: day first
    ("03/05/2024", "2024-03-05"),   # slashes: month first
    ("13/05/24", "2024-05-13"),     # a first field over 12 is the day, whatever the separator
    ("05/13/24", "2024-05-13"),     # a second field over 12 is the day
])
def test_numeric_dates_by_their_own_evidence(text: str, iso: str) -> None:
    found = find_date(text)
    assert found is not None and found.value == iso


def test_numeric_dates_follow_the_column_order_when_told() -> None:
    assert find_date("03/05/2024", "dmy").value == "2024-05-03"  # type: ignore[union-attr]
    assert find_date("03.05.2024", "mdy").value == "2024-03-05"  # type: ignore[union-attr]
    # a two-digit year is this century, in either order
    assert find_date("03.05.24", "dmy").value == "2024-05-03"  # type: ignore[union-attr]
    assert find_date("03.05.24", "mdy").value == "2024-03-05"  # type: ignore[union-attr]
    # "ymd" cannot apply to a date whose first field is not a year: the default order decides
    assert find_date("03/05/24", "ymd").value == "2024-03-05"  # type: ignore[union-attr]


def test_three_digit_fields_are_not_dates() -> None:
    assert find_date("03/05/202") is None
    assert find_date("031/05/2024") is None


@pytest.mark.parametrize(("a", "b", "sep", "order"), [
    ("2024", "05", "-", "ymd"),
    ("13", "05", "/", "dmy"),   # the first field can only be a day
    ("05", "13", ".", "mdy"),   # the second field can only be a day
    ("03", "05", "/", "mdy"),   # undecided: slashes are American
    ("03", "05", ".", "dmy"),   # undecided: dots and dashes are European
    ("03", "05", "-", "dmy"),
])
def test_numeric_order(a: str, b: str, sep: str, order: str) -> None:
    assert numeric_order(a, b, "2024", sep) == order


@pytest.mark.parametrize(("text", "seconds"), [
    ("PT3M", 180),
    ("P1DT1H1M1S", ((1 * 24 + 1) * 60 + 1) * 60 + 1),
    ("PT2H", 7200),
    ("4:05", 4 * 60 + 5),
    ("4:59", 4 * 60 + 59),               # 59 is still a second
    ("1:02:33", (1 * 60 + 2) * 60 + 33),
    ("1:02:59", (1 * 60 + 2) * 60 + 59),
    ("2h 35m", (2 * 60 + 35) * 60),
    ("45 min", 45 * 60),
])
def test_durations_in_seconds(text: str, seconds: int) -> None:
    found = find_duration(text)
    assert found is not None and found.value == seconds
    assert found.flags == () and found.span == (0, len(text))


@pytest.mark.parametrize("text", ["4:60", "1:02:60", "1:60:00"])
def test_sixty_is_not_a_minute_or_second(text: str) -> None:
    assert find_duration(text) is None


@pytest.mark.parametrize(("text", "value"), [
    ("14:05", "14:05"),
    ("14:05:30", "14:05:30"),   # seconds are kept
    ("2:05 pm", "14:05"),
    ("12:30 am", "00:30"),
    ("4:05", None),             # one-digit hour, no am/pm: a media duration, not a clock
    ("24:00", None),
    ("13:00 pm", None),
])
def test_clock_times(text: str, value: str | None) -> None:
    found = find_time(text)
    assert (found.value if found else None) == value
