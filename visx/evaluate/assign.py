"""Optimal one-to-one assignment (the Hungarian method), for mapping gold fields to columns.

scipy is not a dependency; the matrices here are small (a page's gold fields
by its table's columns, tens at most), so the O(n^2 m) potentials form of
Kuhn-Munkres in pure Python takes well under a millisecond per page. A greedy
pass on descending weight is not enough: it can give a column to the field
that agrees with it best and leave a second field, whose only good column it
was, with nothing.
"""

from __future__ import annotations

from collections.abc import Sequence


def max_weight_assignment(weights: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """Pairs ``(row, col)``, each row and column at most once, with the largest total weight.

    Only pairs of positive weight are returned: a row whose weights are all
    <= 0 stays unassigned. The result is sorted by row.
    """
    rows = [i for i, r in enumerate(weights) if any(w > 0 for w in r)]
    cols = sorted({j for i in rows for j, w in enumerate(weights[i]) if w > 0})
    if not rows:
        return []
    w = [[max(0, weights[i][j]) for j in cols] for i in rows]
    if len(rows) <= len(cols):
        pairs = _hungarian([[-x for x in r] for r in w])
    else:  # the method below needs no more rows than columns: solve the transpose
        pairs = [(a, b) for b, a in _hungarian([[-w[a][b] for a in range(len(rows))]
                                                 for b in range(len(cols))])]
    out = [(rows[a], cols[b]) for a, b in pairs if w[a][b] > 0]
    return sorted(out)


def _hungarian(cost: list[list[int]]) -> list[tuple[int, int]]:
    """Minimum-cost assignment of every row of an n x m matrix (n <= m) to distinct columns.

    Shortest augmenting paths with row and column potentials (1-based inside,
    index 0 is the virtual start column).
    """
    n, m = len(cost), len(cost[0])
    inf = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (m + 1)
    owner = [0] * (m + 1)  # owner[j]: row assigned to column j (0: none)
    way = [0] * (m + 1)
    for i in range(1, n + 1):
        owner[0] = i
        j0 = 0
        minv = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = owner[j0], inf, 0
            row = cost[i0 - 1]
            for j in range(1, m + 1):
                if not used[j]:
                    cur = row[j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j], way[j] = cur, j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(m + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:  # flip the augmenting path
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    return [(owner[j] - 1, j - 1) for j in range(1, m + 1) if owner[j]]
