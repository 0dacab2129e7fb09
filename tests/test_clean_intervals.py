"""The interval sums of the band and column rules (they replaced shapely: same answers, no import)."""

from __future__ import annotations

import pytest

from visx.clean.bands import covered_length, union_extent


@pytest.mark.parametrize(("spans", "lo", "hi", "want"), [
    ([(0, 10), (5, 15)], 0, 100, 15),          # overlap counted once
    ([(0, 10), (20, 30)], 0, 100, 20),         # a gap is not covered
    ([(-10, 10), (90, 120)], 0, 100, 20),      # clipped to the frame at both ends
    ([(120, 130)], 0, 100, 0),                 # wholly outside on the right
    ([(-30, -20)], 0, 100, 0),                 # wholly outside on the left
    ([(10, 0)], 0, 100, 10),                   # a reversed span counts like its normal form
    ([(0, 50), (10, 20), (40, 60)], 0, 100, 60),  # nested and chained
    ([], 0, 100, 0),
])
def test_covered_length(spans: list[tuple[float, float]], lo: float, hi: float, want: float) -> None:
    assert covered_length(spans, lo, hi) == pytest.approx(want)


def test_union_extent() -> None:
    assert union_extent([(10, 20, 30, 40), (0, 25, 15, 90)]) == (0, 20, 30, 90)
