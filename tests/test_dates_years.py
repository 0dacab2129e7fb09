"""Leap days and two-digit years in dates."""

from __future__ import annotations

import pytest

from visx.schema.dates import find_date


@pytest.mark.parametrize(("text", "want"), [
    ("29 Feb 2024", "2024-02-29"),   # a leap year
    ("29 Feb 2000", "2000-02-29"),   # divisible by 400: leap
    ("28 Feb 2023", "2023-02-28"),
])
def test_leap_days(text: str, want: str) -> None:
    found = find_date(text)
    assert found is not None and found.value == want


@pytest.mark.parametrize("text", ["29 Feb 2023", "29 Feb 1900", "2023-02-29"])
def test_no_leap_day_outside_leap_years(text: str) -> None:
    found = find_date(text)
    assert found is None or not found.value.endswith("-29")


@pytest.mark.parametrize(("text", "want"), [
    ("5.3.99", "1999-03-05"),
    ("1.1.69", "1969-01-01"),    # the pivot itself is the last century
    ("31.12.68", "2068-12-31"),  # just below it, this one
    ("05.03.24", "2024-03-05"),
    ("Mar '99", "1999-03"),
])
def test_two_digit_years_follow_the_posix_pivot(text: str, want: str) -> None:
    found = find_date(text)
    assert found is not None and found.value == want
