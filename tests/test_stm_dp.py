"""Simple tree matching on small trees, scores worked out by hand.

Plain STM (Yang 1991; ``style=False``: every node pair of one label scores 1)
is 0 when the roots' labels differ, else 1 plus the best order-preserving
matching of the two child sequences, each pair scored recursively. Each
expected number below is counted from that definition; the comments show the
count. Trees are written ``label.class(child, child)``.
"""

from __future__ import annotations

import re

import pytest

from visx.align.stm import Matcher
from visx.align.thresholds import NODE_BASE, W_CLASSES
from visx.align.tree import Feat, RecTree

_TOKEN = re.compile(r"\s*([\w.]+|[(),])")


def tree(spec: str) -> RecTree:
    """A record tree from ``r(a, b.x(c))``: tags with optional classes, children in parentheses."""
    tokens = _TOKEN.findall(spec)
    t = RecTree()
    pos = 0

    def node() -> int:
        nonlocal pos
        label, *classes = tokens[pos].split(".")
        pos += 1
        kids: list[int] = []
        if pos < len(tokens) and tokens[pos] == "(":
            pos += 1
            while tokens[pos] != ")":
                kids.append(node())
                if tokens[pos] == ",":
                    pos += 1
            pos += 1
        return t.add(label, Feat(frozenset(classes), ("", "", ""), 0.0, "", ""), kids, None)

    t.root = node()
    assert pos == len(tokens), spec
    t.rehash()
    return t


def stm(a: str, b: str, *, style: bool = False) -> float:
    ta, tb = tree(a), tree(b)
    return Matcher(ta, tb, style=style).score(ta.root, tb.root)


@pytest.mark.parametrize(
    ("a", "b", "score"),
    [
        ("r", "r", 1.0),
        ("r", "s", 0.0),  # roots differ: nothing matches
        ("r(a)", "s(a)", 0.0),
        ("r(a, b, c)", "r(a, c)", 3.0),  # r + a + c
        ("r(a, c)", "r(a, b, c)", 3.0),  # symmetric
        ("r(a, b)", "r(b, a)", 2.0),  # crossing pairs: only one of a, b (order-preserving)
        ("r(a, b, c, d)", "r(b, c, d, a)", 4.0),  # r + b c d
        ("r(a, b, c, d)", "r(d, a, b, c)", 4.0),  # r + a b c
        ("r(a, z)", "r(b, z)", 2.0),  # only the last children pair: the DP's last row and column
        ("r(z, a)", "r(z, b)", 2.0),  # only the first children pair
        ("r(x(a, b))", "r(y(a, b))", 1.0),  # x and y differ: their children never meet
        ("r(p(a, b), p(c))", "r(p(a, b, c))", 4.0),  # r + p + a b (3 beats p + c, 2)
        ("r(p(c), p(a, b))", "r(p(a, b, c))", 4.0),  # the better p is the later one
        ("r(ul(li(a), li(a, b)), p)", "r(ul(li(a, b)), p, p)", 6.0),  # r + ul + li a b + p
        ("r(a, a, a)", "r(a)", 2.0),
        ("r(a(b(c(d))))", "r(a(b(c(e))))", 4.0),  # one-child chains: r a b c, d and e differ
        ("r(a(b), c)", "r(a(b, c), c)", 4.0),  # r + a + b + c
    ],
)
def test_plain_stm_scores(a: str, b: str, score: float) -> None:
    assert stm(a, b) == score


def test_twins_score_their_size() -> None:
    assert stm("r(a(b, c), d)", "r(a(b, c), d)") == 5.0
    assert stm("r(a(b, c), d)", "r(a(b, c), e)") == 4.0  # the a-subtree pairs as twins: 3


def test_style_weighted_node_score() -> None:
    """One class of two shared: the pair agrees on half of its class weight, so it scores
    NODE_BASE + (1 - NODE_BASE) * (W_CLASSES / 2) / W_CLASSES = 0.75."""
    assert W_CLASSES > 0
    half = NODE_BASE + (1.0 - NODE_BASE) * 0.5
    assert half == 0.75
    assert stm("r(a.x)", "r(a.x.y)", style=True) == 1.0 + half
    assert stm("r(a.x, b)", "r(a.x.y, b)", style=True) == 1.0 + half + 1.0
    # Style decides between equally shaped matchings: the record's a.y pairs with the seed's a.y.
    ta, tb = tree("r(a.x, a.y)"), tree("r(a.y)")
    m = Matcher(ta, tb)
    assert m.score(ta.root, tb.root) == 2.0
    assert m.pairs()[tb.children[tb.root][0]] == ta.children[ta.root][1]


def test_pairs_follow_the_best_matching() -> None:
    ta, tb = tree("r(p(a, b), p(c))"), tree("r(p(a, b, c))")
    pairs = Matcher(ta, tb, style=False).pairs()
    p1, _p2 = ta.children[ta.root]
    (q,) = tb.children[tb.root]
    assert pairs[tb.root] == ta.root
    assert pairs[q] == p1
    qa, qb, qc = tb.children[q]
    assert pairs[qa] == ta.children[p1][0] and pairs[qb] == ta.children[p1][1]
    assert qc not in pairs  # c's only partner is under the other p
    assert len(pairs) == 4


def test_a_tie_pairs_with_the_seeds_earlier_child() -> None:
    ta, tb = tree("r(a, a, b)"), tree("r(a, b)")
    pairs = Matcher(ta, tb, style=False).pairs()
    first_a, _second_a, b = ta.children[ta.root]
    ra, rb = tb.children[tb.root]
    assert pairs == {tb.root: ta.root, ra: first_a, rb: b}
