"""Seed step 5: a pattern simplified by a finite automaton.

The pattern's types are the states; each pair of neighbours in the pattern is a
transition (a type repeated in a row is a loop). The simplified pattern is the
shortest path from the first type to the last that visits every type at least
once; patterns that simplify to the same path are one.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterable, Sequence


class Automaton:
    """States and transitions of one pattern (single types per slot)."""

    __slots__ = ("first", "last", "moves", "types")

    def __init__(self, types: Sequence[str]) -> None:
        self.types = tuple(dict.fromkeys(types))
        self.first = types[0]
        self.last = types[-1]
        self.moves: dict[str, set[str]] = {t: set() for t in self.types}
        for a, b in itertools.pairwise(types):
            self.moves[a].add(b)

    def shortest_cover(self) -> tuple[str, ...]:
        """Breadth-first over (state, visited types): the first full visit ending at ``last``."""
        bit = {t: 1 << k for k, t in enumerate(self.types)}
        full = (1 << len(self.types)) - 1
        start = (self.first, bit[self.first])
        back: dict[tuple[str, int], tuple[str, int] | None] = {start: None}
        queue = deque([start])
        while queue:
            state = queue.popleft()
            t, seen = state
            if seen == full and t == self.last:
                path: list[str] = []
                cur: tuple[str, int] | None = state
                while cur is not None:
                    path.append(cur[0])
                    cur = back[cur]
                return tuple(reversed(path))
            for u in sorted(self.moves[t]):
                nxt = (u, seen | bit[u])
                if nxt not in back:
                    back[nxt] = state
                    queue.append(nxt)
        return self.types  # unreachable for a pattern read from a walk, kept for safety

    def reach(self) -> dict[str, set[str]]:
        """States reachable from each state in one move or more."""
        out = {t: set(m) for t, m in self.moves.items()}
        changed = True
        while changed:
            changed = False
            for t in self.types:
                more = set().union(*(out[u] for u in out[t])) - out[t]
                if more:
                    out[t] |= more
                    changed = True
        return out

    def walk(self, types: Sequence[Iterable[str]]) -> int:
        """How many leading entities (label sets) form a walk from the first state. A move may
        pass over states (a record without its description), and one entity whose type fits
        nowhere is passed over when the next one fits (a field the rules mistyped)."""
        if not types or self.first not in types[0]:
            return 0
        reach = self.reach()
        state = self.first
        n = 1
        k = 1
        while k < len(types):
            nxt = sorted(u for u in types[k] if u in reach[state])
            if not nxt and k + 1 < len(types):
                after = sorted(u for u in types[k + 1] if u in reach[state])
                if after:
                    state, n, k = after[0], n + 2, k + 2
                    continue
            if not nxt:
                break
            state = nxt[0]
            n += 1
            k += 1
        return n


def simplify(types: Sequence[str]) -> tuple[str, ...]:
    return Automaton(types).shortest_cover() if types else ()
