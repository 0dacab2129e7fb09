"""Node similarity in tree matching: each kind of rendered evidence counts by its weight.

``node_sim`` scores two same-label nodes in ``[NODE_BASE, 1]``: NODE_BASE plus the
rest in proportion to the weighted evidence that agrees (classes by their
overlap, each of font size, weight, colour and x position, text shape and text).
Each test changes one piece of evidence and states the share it is worth.
"""

from __future__ import annotations

import pytest

from visx.align import thresholds as th
from visx.align.stm import node_sim
from visx.align.tree import Feat

FONT = ("16px", "400", "rgb(0, 0, 0)")


def feat(classes: tuple[str, ...] = (), font: tuple[str, str, str] = ("", "", ""), relx: float = 0.0,
         shape: str = "", text: str = "") -> Feat:
    return Feat(frozenset(classes), font, relx, shape, text)


def share(agree: float, total: float) -> float:
    return th.NODE_BASE + (1.0 - th.NODE_BASE) * agree / total


def test_same_evidence_is_one_and_no_evidence_is_one() -> None:
    a = feat(("title",), FONT, 10.0, "word", "Rake")
    assert node_sim(a, a) == 1.0
    assert node_sim(feat(), feat(relx=5.0)) == 1.0   # nothing to compare


def test_classes_count_by_their_overlap() -> None:
    a, b = feat(("card", "title")), feat(("card", "name"))
    assert node_sim(a, b) == pytest.approx(share(th.W_CLASSES / 3, th.W_CLASSES))
    assert node_sim(feat(("x",)), feat(("y",))) == pytest.approx(th.NODE_BASE)
    assert node_sim(feat(("x",)), feat()) == pytest.approx(th.NODE_BASE)   # one side has none


@pytest.mark.parametrize("which", [0, 1, 2])
def test_each_font_property_is_a_quarter_of_the_style(which: int) -> None:
    other = list(FONT)
    other[which] = "different"
    a, b = feat(font=FONT), feat(font=(other[0], other[1], other[2]))
    assert node_sim(a, b) == pytest.approx(share(3 * th.W_STYLE, 4 * th.W_STYLE))


@pytest.mark.parametrize(("dx", "agrees"), [(th.X_TOLERANCE_PX, True), (th.X_TOLERANCE_PX + 0.5, False)])
def test_x_position_agrees_within_the_tolerance(dx: float, agrees: bool) -> None:
    a, b = feat(font=FONT, relx=100.0), feat(font=FONT, relx=100.0 + dx)
    want = share((4 if agrees else 3) * th.W_STYLE, 4 * th.W_STYLE)
    assert node_sim(a, b) == pytest.approx(want)


def test_text_shape_and_text_are_half_each() -> None:
    a = feat(shape="price", text="$12")
    assert node_sim(a, feat(shape="price", text="$15")) == pytest.approx(share(th.W_TEXT, 2 * th.W_TEXT))
    assert node_sim(a, feat(shape="word", text="Sale")) == pytest.approx(th.NODE_BASE)


def test_evidence_adds_up_across_kinds() -> None:
    a = feat(("price", "big"), FONT, 0.0, "price", "$12")
    b = feat(("price",), FONT, 0.0, "price", "$15")
    agree = th.W_CLASSES * 1 / 2 + 4 * th.W_STYLE + th.W_TEXT
    total = th.W_CLASSES + 4 * th.W_STYLE + 2 * th.W_TEXT
    assert node_sim(a, b) == pytest.approx(share(agree, total))
    # a look-alike scores above a node that only shares the label
    assert node_sim(a, b) > node_sim(a, feat(("name",), ("12px", "700", "red"), 200.0, "word", "Rake"))
