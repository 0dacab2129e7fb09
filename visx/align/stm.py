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

from visx.align import thresholds as th
from visx.align.tree import TEXT, Feat, RecTree

_EPS = 1e-9


def node_sim(a: Feat, b: Feat) -> float:
    """Score of two same-label nodes, from the agreement of their features."""
    agree = total = 0.0
    if a.classes or b.classes:
        total += th.W_CLASSES
        if a.classes == b.classes:
            agree += th.W_CLASSES
        elif a.classes and b.classes:
            agree += th.W_CLASSES * len(a.classes & b.classes) / len(a.classes | b.classes)
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

    __slots__ = ("a", "b", "budget", "cut", "memo", "nb", "same", "style")

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
        self.budget = budget

    def score(self, x: int, y: int) -> float:
        """STM value of seed node ``x`` against record node ``y`` (memoised)."""
        key = x * self.nb + y
        got = self.memo.get(key)
        if got is not None:
            return got
        a, b = self.a, self.b
        if a.label[x] != b.label[y]:
            self.memo[key] = 0.0
            return 0.0
        if a.shape[x] == b.shape[y]:
            # Twins: every node pairs with its counterpart and agrees on all the hashed
            # evidence, so the score is the subtree size (the relx tie-break is skipped).
            v = float(a.size[x])
            self.memo[key] = v
            self.same.add(key)
            return v
        base = node_sim(a.feat[x], b.feat[y]) if self.style else 1.0
        ca, cb = a.children[x], b.children[y]
        if not ca or not cb or a.label[x] == TEXT:
            self.memo[key] = base
            return base
        n = len(cb)
        self.budget -= len(ca) * n
        if self.budget < 0:
            # Out of budget: count the pair by itself, do not descend.
            self.memo[key] = base
            self.cut.add(key)
            return base
        la, lb = a.label, b.label
        prev = [0.0] * (n + 1)
        for ai in ca:
            cur = [0.0] * (n + 1)
            lai = la[ai]
            for j in range(n):
                best = prev[j + 1] if prev[j + 1] > cur[j] else cur[j]
                bj = cb[j]
                if lb[bj] == lai:
                    v = prev[j] + self.score(ai, bj)
                    if v > best:
                        best = v
                cur[j + 1] = best
            prev = cur
        total = base + prev[n]
        self.memo[key] = total
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
        """Traceback of the child-sequence DP of a matched pair."""
        ca, cb = self.a.children[x], self.b.children[y]
        if not ca or not cb or self.a.label[x] == TEXT:
            return []
        if x * self.nb + y in self.cut:
            return []
        m, n = len(ca), len(cb)
        memo, nb = self.memo, self.nb
        s = [[memo.get(ai * nb + bj, 0.0) for bj in cb] for ai in ca]
        dp = [[0.0] * (n + 1) for _ in range(m + 1)]
        for i in range(1, m + 1):
            row, up, si = dp[i], dp[i - 1], s[i - 1]
            for j in range(1, n + 1):
                best = up[j] if up[j] > row[j - 1] else row[j - 1]
                v = up[j - 1] + si[j - 1]
                if si[j - 1] > 0 and v > best:
                    best = v
                row[j] = best
        out: list[tuple[int, int]] = []
        i, j = m, n
        while i > 0 and j > 0:
            sij = s[i - 1][j - 1]
            if sij > 0 and abs(dp[i][j] - (dp[i - 1][j - 1] + sij)) <= _EPS:
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
