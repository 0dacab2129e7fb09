"""Edits of the columnar page (``collect.js`` output) before it becomes a node table.

A capture is a dict of parallel lists in pre-order (see ``DomColumns``). Frames
are spliced under their ``<iframe>``, and a harvested list gets the rows of
every step; both are one operation here: take subtrees out of one capture as
a *forest* (roots with parent -1) and put a forest under a node of another.
Interned tags and styles are re-interned, sparse columns re-indexed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

Columns = dict[str, Any]

_DENSE = ("id", "cls", "text", "tail", "vis")


def empty_like(dom: Columns) -> Columns:
    """A forest with no nodes, sharing nothing with ``dom`` (page meta copied)."""
    return {"n": 0, "parent": [], "tag": [], "tags": [], "id": [], "cls": [], "text": [], "tail": [],
            "box": [], "vis": [], "sty": [], "styles": [], "attrs": {}, "scope": [], "xstep": [], "step": [],
            "frames": [], "page": dict(dom.get("page", {}))}


def subtree_end(parent: Sequence[int], i: int) -> int:
    """One past the last descendant of ``i`` (pre-order: the first later node whose parent precedes ``i``)."""
    j = i + 1
    n = len(parent)
    while j < n and parent[j] >= i:
        j += 1
    return j


def children(parent: Sequence[int], i: int) -> list[int]:
    return [j for j in range(i + 1, subtree_end(parent, i)) if parent[j] == i]


def _sparse(flat: Sequence[Any], width: int) -> Iterable[tuple[Any, ...]]:
    return zip(*(flat[k::width] for k in range(width)), strict=True)


def take_forest(dom: Columns, roots: Sequence[int]) -> Columns:
    """The subtrees of ``roots`` (in that order) as a new forest."""
    out = empty_like(dom)
    keep: list[int] = []
    for r in roots:
        keep.extend(range(r, subtree_end(dom["parent"], r)))
    new = {old: k for k, old in enumerate(keep)}
    _append(out, dom, keep, lambda old: new.get(old, -1), lambda old: new.get(dom["parent"][old], -1))
    return out


class _Interned:
    """The tag names and style tuples of ``out``, and where another capture's ids land in them."""

    def __init__(self, out: Columns) -> None:
        self.out = out
        self.tag_ids = {t: k for k, t in enumerate(out["tags"])}
        self.style_ids = {tuple(s): k for k, s in enumerate(out["styles"])}

    def maps(self, src: Columns) -> tuple[dict[int, int], dict[int, int]]:
        """``src``'s tag ids and style ids -> ``out``'s, adding the names and styles ``out`` lacks
        (only those ``src`` uses)."""
        tmap: dict[int, int] = {}
        for t in set(src["tag"]):
            name = src["tags"][t]
            if name not in self.tag_ids:
                self.tag_ids[name] = len(self.out["tags"])
                self.out["tags"].append(name)
            tmap[t] = self.tag_ids[name]
        smap: dict[int, int] = {}
        for sid in set(src["sty"]):
            st = tuple(src["styles"][sid])
            if st not in self.style_ids:
                self.style_ids[st] = len(self.out["styles"])
                self.out["styles"].append(list(st))
            smap[sid] = self.style_ids[st]
        return tmap, smap


def _append(out: Columns, src: Columns, keep: Sequence[int], index_of: Callable[[int], int],
            parent_of: Callable[[int], int], dx: float = 0.0, dy: float = 0.0) -> None:
    """Append ``src``'s nodes ``keep`` to ``out``: ``index_of`` gives any ``src`` node's index
    in ``out`` (-1 when it is not there), ``parent_of`` a kept node's parent in ``out``."""
    tmap, smap = _Interned(out).maps(src)
    b = src["box"]
    for old in keep:
        out["parent"].append(parent_of(old))
        out["tag"].append(tmap[src["tag"][old]])
        out["sty"].append(smap[src["sty"][old]])
        for col in _DENSE:
            out[col].append(src[col][old])
        if dx or dy:
            out["box"].extend((round(b[4 * old] + dx, 1), round(b[4 * old + 1] + dy, 1),
                               b[4 * old + 2], b[4 * old + 3]))
        else:
            out["box"].extend(b[4 * old: 4 * old + 4])
    kept = set(keep)
    for name, flat in src.get("attrs", {}).items():
        dst = out["attrs"].setdefault(name, [])
        for i, v in _sparse(flat, 2):
            if i in kept:
                dst.extend((index_of(i), v))
    for col in ("scope", "step"):
        for i, v in _sparse(src.get(col, []), 2):
            if i in kept:
                out[col].extend((index_of(i), v))
    for i, base, st in _sparse(src.get("xstep", []), 3):
        if i in kept:
            out["xstep"].extend((index_of(i), index_of(base) if base >= 0 else -1, st))
    out["n"] = len(out["parent"])


def insert_forest(dom: Columns, parent: int, forest: Columns, *, at: int | None = None,
                  dx: float = 0.0, dy: float = 0.0, scope: int = 0, vis: int = 0,
                  root_step: str = "") -> Columns:
    """A copy of ``dom`` with ``forest``'s trees as children of ``parent``.

    They go before node ``at`` (a child of ``parent``; default: after its last
    descendant), moved by ``dx``/``dy``, with ``scope`` and ``vis`` flags added to
    every node, and ``root_step`` (if given) as each root's explicit XPath step.
    """
    pos = subtree_end(dom["parent"], parent) if at is None else at
    m = forest["n"]
    out = empty_like(dom)

    def shift(i: int) -> int:
        return i if i < pos else i + m

    _append(out, dom, range(pos), shift, lambda old: dom["parent"][old])
    _append(out, forest, range(m), lambda i: pos + i if i >= 0 else -1,
            lambda old: parent if forest["parent"][old] < 0 else pos + forest["parent"][old], dx, dy)
    _append(out, dom, range(pos, dom["n"]), shift, lambda old: shift(dom["parent"][old]))
    for k in range(pos, pos + m):
        if scope:
            out["scope"].extend((k, scope))
        if vis:
            out["vis"][k] |= vis
        if root_step and forest["parent"][k - pos] < 0:
            out["xstep"].extend((k, parent, root_step))
    out["scope"] = _merge_flags(out["scope"])
    out["xstep"] = _sorted_triples(out["xstep"])
    out["frames"] = [v for i, x, y in _sparse(dom.get("frames", []), 3) for v in (shift(i), x, y)]
    return out


def _merge_flags(flat: list[int]) -> list[int]:
    """Sparse ``node, flags`` pairs with one entry per node (flags or-ed), sorted."""
    acc: dict[int, int] = {}
    for i, v in _sparse(flat, 2):
        acc[i] = acc.get(i, 0) | v
    return [x for i in sorted(acc) for x in (i, acc[i])]


def _sorted_triples(flat: list[Any]) -> list[Any]:
    """Explicit steps, one per node (the last given wins), sorted by node."""
    acc = {i: (b, st) for i, b, st in _sparse(flat, 3)}
    return [x for i in sorted(acc) for x in (i, *acc[i])]


def drop_children(dom: Columns, parent: int) -> Columns:
    """A copy of ``dom`` without the descendants of ``parent``."""
    end = subtree_end(dom["parent"], parent)
    if end - parent <= 1:
        return dom
    keep = [i for i in range(dom["n"]) if not parent < i < end]
    new = {old: k for k, old in enumerate(keep)}
    out = empty_like(dom)
    _append(out, dom, keep, lambda old: new.get(old, -1), lambda old: new.get(dom["parent"][old], -1))
    out["frames"] = [v for i, x, y in _sparse(dom.get("frames", []), 3) if i in new for v in (new[i], x, y)]
    return out


def move(dom: Columns, nodes: Iterable[int], dx: float = 0.0, dy: float = 0.0) -> None:
    """Move the boxes of ``nodes`` in place."""
    b = dom["box"]
    for i in nodes:
        b[4 * i] = round(b[4 * i] + dx, 1)
        b[4 * i + 1] = round(b[4 * i + 1] + dy, 1)


def split_roots(forest: Columns) -> list[Columns]:
    """Each tree of ``forest`` as a forest of its own, in one pass over the columns."""
    parent = forest["parent"]
    n = forest["n"]
    root_of = [0] * n
    starts: list[int] = []
    for i in range(n):
        if parent[i] < 0:
            starts.append(i)
            root_of[i] = len(starts) - 1
        else:
            root_of[i] = root_of[parent[i]]
    trees = []
    for k, s in enumerate(starts):
        e = starts[k + 1] if k + 1 < len(starts) else n
        t = empty_like(forest)
        t["n"] = e - s
        t["parent"] = [p - s if p >= 0 else -1 for p in parent[s:e]]
        t["tags"], t["styles"] = forest["tags"], forest["styles"]
        for col in ("tag", "sty", *_DENSE):
            t[col] = forest[col][s:e]
        t["box"] = forest["box"][4 * s: 4 * e]
        trees.append(t)
    for name, flat in forest.get("attrs", {}).items():
        for i, v in _sparse(flat, 2):
            t = trees[root_of[i]]
            t["attrs"].setdefault(name, []).extend((i - starts[root_of[i]], v))
    for col in ("scope", "step"):
        for i, v in _sparse(forest.get(col, []), 2):
            trees[root_of[i]][col].extend((i - starts[root_of[i]], v))
    for i, b, st in _sparse(forest.get("xstep", []), 3):
        s = starts[root_of[i]]
        trees[root_of[i]]["xstep"].extend((i - s, b - s if b >= s else -1, st))
    return trees


def concat(trees: Iterable[tuple[Columns, float, float]], like: Columns) -> Columns:
    """One forest of ``trees`` (each moved by its dx, dy), in order; tags and styles re-interned."""
    out = empty_like(like)
    interned = _Interned(out)
    for t, dx, dy in trees:
        base = out["n"]
        tmap, smap = interned.maps(t)
        out["parent"].extend(p + base if p >= 0 else -1 for p in t["parent"])
        out["tag"].extend(tmap[x] for x in t["tag"])
        out["sty"].extend(smap[x] for x in t["sty"])
        for col in _DENSE:
            out[col].extend(t[col])
        b = t["box"]
        for k in range(t["n"]):
            out["box"].extend((round(b[4 * k] + dx, 1), round(b[4 * k + 1] + dy, 1), b[4 * k + 2], b[4 * k + 3]))
        for name, flat in t["attrs"].items():
            out["attrs"].setdefault(name, []).extend(
                v for i, val in _sparse(flat, 2) for v in (i + base, val))
        for col in ("scope", "step"):
            out[col].extend(v for i, val in _sparse(t[col], 2) for v in (i + base, val))
        out["xstep"].extend(v for i, b0, st in _sparse(t["xstep"], 3)
                            for v in (i + base, b0 + base if b0 >= 0 else -1, st))
        out["n"] = len(out["parent"])
    return out
