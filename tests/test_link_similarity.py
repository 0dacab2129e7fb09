"""Keys against bag elements: names (initials, "Last, First", accents) and titles (articles, years)."""

from __future__ import annotations

import pytest

from visx.link.bags import Element
from visx.link.match import match_rows
from visx.link.similarity import best, tokens


@pytest.mark.parametrize(("key", "element", "low", "high"), [
    ("Jane Doe", "Prof. Jane Doe's Home Page", 1.0, 1.0),
    ("Doe, Jane", "Jane Doe | Department of Computer Science", 1.0, 1.0),
    ("J. Doe", "Jane Doe", 0.85, 0.95),  # an initial counts, less than the word
    ("L. Moreau", "Laura Moreau", 0.85, 0.95),  # "L" is an initial, not the article l'
    ("José Núñez", "JOSE NUNEZ", 1.0, 1.0),
    ("The Matrix", "Matrix, The", 1.0, 1.0),
    ("Solaris (1972)", "Solaris (1972) - Films", 1.0, 1.0),
    ("Solaris", "Solaris (2002) - Films", 1.0, 1.0),  # a year the key does not give qualifies
    ("Solaris (1972)", "Solaris", 0.8, 0.8),  # a year the element lacks: compatible, less sure
    ("A Iron Orchard", "The Iron Orchard", 0.9, 0.96),
])
def test_matches(key: str, element: str, low: float, high: float) -> None:
    assert low <= best(tokens(key), element) <= high


@pytest.mark.parametrize(("key", "element"), [
    ("Solaris (1972)", "Solaris (2002) - Films"),  # another year rules it out
    ("John Doe", "Jane Doe"),
    ("Jane Doe", "Web page"),  # words that name nothing
    ("Acme Kettle 1.7 L", "Acme Kettle 1.5 L"),  # numbers must be equal
    ("Wei Zhang", "Wei Zhang and Li Chen"),
])
def test_does_not_match(key: str, element: str) -> None:
    assert best(tokens(key), element) < 0.8


def _bag(*texts: str) -> list[Element]:
    n = len(texts)
    return [Element(t, 1 / n, 1.0) for t in texts]


def test_assignment_is_one_to_one_and_uses_the_other_cells() -> None:
    bags = {"/a": _bag("wei zhang", "systems group"), "/b": _bag("wei zhang", "theory lab"),
            "/c": _bag("jane doe")}
    got = match_rows(["Wei Zhang", "Wei Zhang", "Jane Doe", "Nobody Here"],
                     [["Theory"], ["Systems"], [], []], bags)
    assert [m.page for m in got] == ["/b", "/a", "/c", None]


def test_rows_that_could_swap_pages_are_left_empty() -> None:
    bags = {"/a": _bag("last mirror"), "/b": _bag("last mirror")}
    got = match_rows(["Last Mirror", "Last Mirror"], [["1957"], ["1968"]], bags)
    assert [m.page for m in got] == [None, None]
    assert {m.best_miss[0] for m in got if m.best_miss} == {"/a", "/b"}
