"""Simple tree matching (Yang 1991, as used by DEPTA) with style-weighted nodes.

The hot code of the alignment stage, kept apart and free of allocations it
does not need. ``STM(A, B)`` is 0 when the roots' labels differ, else the
roots' node score plus the best order-preserving matching of their child
sequences (a DP over children). Plain STM scores a node pair 1; here the
score is in ``[NODE_BASE, 1]`` by how much rendered evidence agrees, so among
equally shaped matchings the one that pairs look-alike nodes wins (an optional
badge then cannot pull the price column one place to the left).
"""

from __future__ import annotations

import functools

from visx.align import thresholds as th
from visx.align.tree import TEXT, Feat, RecTree

_EPS = 1e-9
_SINGLE: list[list[float]] = []
"""Stands for the DP table of a pair with one child each (see :meth:`Matcher.score`)."""


@functools.lru_cache(maxsize=4096)
def _class_overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Weighted Jaccard overlap of two class sets (templates reuse a few sets)."""
    return th.W_CLASSES * len(a & b) / len(a | b)


def node_sim(a: Feat, b: Feat) -> float:
    """Score of two same-label nodes, from the agreement of their features."""
    if a == b:
        return 1.0  # every feature agrees (or there are none): the formula below gives 1.0
    agree = total = 0.0
    if a.classes or b.classes:
        total += th.W_CLASSES
        if a.classes == b.classes:
            agree += th.W_CLASSES
        elif a.classes and b.classes:
            agree += _class_overlap(a.classes, b.classes)
    if a.font[0]:
        fa, fb = a.font, b.font
        total += 4 * th.W_STYLE
        agree += th.W_STYLE * ((fa[0] == fb[0]) + (fa[1] == fb[1]) + (fa[2] == fb[2])
                               + (abs(a.relx - b.relx) <= th.X_TOLERANCE_PX))
    if a.shape:
        total += 2 * th.W_TEXT
        agree += th.W_TEXT * ((a.shape == b.shape) + (a.text == b.text))
    if total <= 0:
        return 1.0
    return th.NODE_BASE + (1.0 - th.NODE_BASE) * agree / total


class Matcher:
    """STM of one record tree ``b`` against the seed ``a``, with its traceback."""

    __slots__ = ("a", "b", "budget", "cut", "dp", "memo", "nb", "same", "style")

    def __init__(self, a: RecTree, b: RecTree, budget: int = th.MAX_STM_CELLS, *,
                 style: bool = True) -> None:
        self.style = style
        if len(a.size) < len(a.label):
            a.rehash()  # subtree sizes of the seed score twin subtrees
        self.a = a
        self.b = b
        self.nb = len(b.label)
        self.memo: dict[int, float] = {}
        self.cut: set[int] = set()
        """Pairs scored without their children because the budget ran out."""
        self.same: set[int] = set()
        """Pairs of equally shaped subtrees: matched node for node, without a DP."""
        self.dp: dict[int, list[list[float]]] = {}
        """The child-sequence DP table of each pair that ran one, for the traceback."""
        self.budget = budget

    def score(self, x: int, y: int) -> float:
        """STM value of seed node ``x`` against record node ``y`` (memoised)."""
        key = x * self.nb + y
        memo = self.memo
        got = memo.get(key)
        if got is not None:
            return got
        a, b = self.a, self.b
        la, lb = a.label, b.label
        if la[x] != lb[y]:
            memo[key] = 0.0
            return 0.0
        sha, shb = a.shape, b.shape
        if sha[x] == shb[y]:
            # Twins: every node pairs with its counterpart and agrees on all the hashed
            # evidence, so the score is the subtree size (the relx tie-break is skipped).
            v = float(a.size[x])
            memo[key] = v
            self.same.add(key)
            return v
        style = self.style
        fa, fb = a.feat, b.feat
        base = node_sim(fa[x], fb[y]) if style else 1.0
        cha, chb = a.children, b.children
        ca, cb = cha[x], chb[y]
        if not ca or not cb or la[x] == TEXT:
            memo[key] = base
            return base
        n = len(cb)
        self.budget -= len(ca) * n
        if self.budget < 0:
            # Out of budget: count the pair by itself, do not descend.
            memo[key] = base
            self.cut.add(key)
            return base
        size, same, nb = a.size, self.same, self.nb
        if n == 1 and len(ca) == 1:
            # One child each (wrapper chains, most pairs): the DP below reduces to this.
            ai, bj = ca[0], cb[0]
            total = base
            if la[ai] == lb[bj]:
                k = ai * nb + bj
                if sha[ai] == shb[bj]:
                    sc = float(size[ai])
                    memo[k] = sc
                    same.add(k)
                elif not cha[ai] or not chb[bj] or la[ai] == TEXT:
                    sc = node_sim(fa[ai], fb[bj]) if style else 1.0
                    memo[k] = sc
                else:
                    sc = self.score(ai, bj)
                total = base + sc
            self.dp[key] = _SINGLE
            memo[key] = total
            return total
        prev = [0.0] * (n + 1)
        rows = [prev]
        for ai in ca:
            cur = [0.0] * (n + 1)
            lai = la[ai]
            row = ai * nb
            for j in range(n):
                best = prev[j + 1] if prev[j + 1] > cur[j] else cur[j]
                bj = cb[j]
                if lb[bj] == lai:
                    # The head of this method, inlined for the two common cases.
                    if sha[ai] == shb[bj]:
                        sc = float(size[ai])  # twins
                        memo[row + bj] = sc
                        same.add(row + bj)
                    elif not cha[ai] or not chb[bj] or lai == TEXT:
                        sc = node_sim(fa[ai], fb[bj]) if style else 1.0  # a leaf pair
                        memo[row + bj] = sc
                    else:
                        sc = self.score(ai, bj)
                    v = prev[j] + sc
                    if v > best:
                        best = v
                cur[j + 1] = best
            prev = cur
            rows.append(cur)
        self.dp[key] = rows
        total = base + prev[n]
        memo[key] = total
        return total

    def pairs(self) -> dict[int, int]:
        """Matched record node -> seed node, for the best matching of the roots."""
        a, b = self.a, self.b
        out: dict[int, int] = {}
        if self.score(a.root, b.root) <= 0:
            return out
        stack = [(a.root, b.root)]
        same, nb = self.same, self.nb
        while stack:
            x, y = stack.pop()
            out[y] = x
            if x * nb + y in same:
                _twins(a, b, x, y, out)
            else:
                stack.extend(self._children(x, y))
        return out

    def _children(self, x: int, y: int) -> list[tuple[int, int]]:
        """Traceback of the child-sequence DP of a matched pair (none for leaves and cut pairs)."""
        dp = self.dp.get(x * self.nb + y)
        if dp is None:
            return []
        ca, cb = self.a.children[x], self.b.children[y]
        memo, nb = self.memo, self.nb
        if dp is _SINGLE:
            return [(ca[0], cb[0])] if memo.get(ca[0] * nb + cb[0], 0.0) > 0 else []
        out: list[tuple[int, int]] = []
        i, j = len(ca), len(cb)
        while i > 0 and j > 0:
            sij = memo.get(ca[i - 1] * nb + cb[j - 1], 0.0)
            if abs(dp[i][j] - dp[i - 1][j]) <= _EPS:
                # Leaving the seed's child out costs nothing: among equal matchings, take
                # the one that pairs the record's children with the seed's earlier ones
                # (optional rows and fields are more often missing at the end).
                i -= 1
            elif sij > 0 and abs(dp[i][j] - (dp[i - 1][j - 1] + sij)) <= _EPS:
                out.append((ca[i - 1], cb[j - 1]))
                i -= 1
                j -= 1
            elif dp[i - 1][j] >= dp[i][j - 1]:
                i -= 1
            else:
                j -= 1
        return out


def _twins(a: RecTree, b: RecTree, x: int, y: int, out: dict[int, int]) -> None:
    """Map two equally shaped subtrees node for node."""
    stack = [(x, y)]
    while stack:
        x, y = stack.pop()
        out[y] = x
        stack.extend(zip(a.children[x], b.children[y], strict=True))
