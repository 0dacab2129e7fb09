"""DEPTA's partial tree alignment: grow a seed tree until every record fits it.

The seed starts as the record with the most data items. Each other record is
matched to it with :class:`~visx.align.stm.Matcher`; a run of its unmatched
nodes is inserted into the seed when its place is unambiguous (its matched
neighbours are adjacent in the seed), otherwise the record waits for a later
round, when other records may have fixed the order. After the last round the
rest is placed at the best guess (after its left neighbour) instead of being
dropped, and counted in ``forced``.
"""

from __future__ import annotations

from dataclasses import dataclass

from visx.align import thresholds as th
from visx.align.stm import Matcher
from visx.align.tree import RecTree


@dataclass(slots=True)
class PartialResult:
    seed: RecTree
    seed_record: int
    maps: list[dict[int, int]]
    """Per record: record tree node -> seed tree node, for every matched node. Records
    shaped alike may share one dict: read them, do not change them."""
    forced: int
    matches: int
    """STM runs (rounds re-run deferred records)."""


def _copy_into(seed: RecTree, up: list[int], tree: RecTree, t: int, mapping: dict[int, int]) -> int:
    kids = [_copy_into(seed, up, tree, c, mapping) for c in tree.children[t]]
    s = seed.add(tree.label[t], tree.feat[t], kids, None)
    size = seed.size
    size.append(1 + sum([size[k] for k in kids]))
    up.append(-1)
    for k in kids:
        up[k] = s
    mapping[t] = s
    return s


def _clone(tree: RecTree) -> tuple[RecTree, list[int], list[int]]:
    """A copy of ``tree`` without items, the parent of each of its nodes, and its preorder."""
    seed = RecTree(list(tree.label), [list(k) for k in tree.children], list(tree.feat),
                   [None] * len(tree.label), list(tree.shape), root=tree.root, postorder=False)
    order = seed.preorder()
    up = [-1] * len(seed.label)
    size = [1] * len(seed.label)
    children = seed.children
    for t in reversed(order):
        kids = children[t]
        if kids:
            n = 1
            for k in kids:
                up[k] = t
                n += size[k]
            size[t] = n
    seed.size = size  # shapes are copied: the record's are up to date
    return seed, up, order


def _rehash_up(seed: RecTree, up: list[int], t: int) -> None:
    """Shapes and sizes of ``t`` and its ancestors after ``t`` gained children.

    The rest of the seed is unchanged, so this equals a full :meth:`RecTree.rehash`.
    """
    shape, size, children, label, feat = seed.shape, seed.size, seed.children, seed.label, seed.feat
    while t >= 0:
        kids = children[t]
        f = feat[t]
        shape[t] = hash((label[t], f.classes, f.font, *[shape[k] for k in kids]))
        size[t] = 1 + sum([size[k] for k in kids])
        t = up[t]


def _unmatched_runs(tree: RecTree, mapping: dict[int, int]) -> list[tuple[int, list[int]]]:
    """(matched parent, run of unmatched children) for every gap in the matching."""
    out: list[tuple[int, list[int]]] = []
    for t in list(mapping):
        run: list[int] = []
        for c in tree.children[t]:
            if c in mapping:
                if run:
                    out.append((t, run))
                    run = []
            else:
                run.append(c)
        if run:
            out.append((t, run))
    return out


def _place(seed: RecTree, up: list[int], tree: RecTree, mapping: dict[int, int], parent: int,
           run: list[int], *, force: bool) -> int:
    """Insert ``run`` under the seed node matched to ``parent`` if its place is unique.

    Returns 1 when placed at its unique place, 2 when placed by force, 0 when not placed.
    """
    kids = tree.children[parent]
    sp = mapping[parent]
    seed_kids = seed.children[sp]
    i0, i1 = kids.index(run[0]), kids.index(run[-1])
    left = kids[i0 - 1] if i0 > 0 else -1
    right = kids[i1 + 1] if i1 + 1 < len(kids) else -1
    pos_l = seed_kids.index(mapping[left]) if left >= 0 else -1
    pos_r = seed_kids.index(mapping[right]) if right >= 0 else len(seed_kids)
    unique = pos_r == pos_l + 1
    if not unique and not force:
        return 0
    new = [_copy_into(seed, up, tree, c, mapping) for c in run]
    seed_kids[pos_l + 1:pos_l + 1] = new
    for k in new:
        up[k] = sp
    _rehash_up(seed, up, sp)
    return 1 if unique else 2


def align_trees(trees: list[RecTree], *, budget: int = th.MAX_STM_CELLS, style: bool = True) -> PartialResult:
    """Grow a seed over ``trees`` and map every record's nodes into it."""
    seed_record = max(range(len(trees)), key=lambda r: (trees[r].n_data, -r))
    seed, up, order = _clone(trees[seed_record])
    maps: list[dict[int, int]] = [{} for _ in trees]
    maps[seed_record] = {t: t for t in order}
    pending = [r for r in range(len(trees)) if r != seed_record]
    forced = matches = rnd = 0
    # (root shape, seed size) -> a record that matched in full (first the seed's own record),
    # and that record's mapping listed in its preorder (for rearranged trees).
    same_shape: dict[tuple[int, int], int] = {(seed.shape[seed.root], len(seed.label)): seed_record}
    by_preorder: dict[tuple[int, int], list[int]] = {}
    while pending:
        force = rnd >= th.MAX_ROUNDS
        waiting: list[int] = []
        grew = False
        for r in pending:
            tree = trees[r]
            key = (tree.shape[tree.root], len(seed.label))
            r0 = same_shape.get(key)
            if r0 is not None:
                # A record shaped like one already matched in full matches the same way.
                if tree.postorder and trees[r0].postorder:
                    maps[r] = maps[r0]  # equal shapes, equal ids: the very same mapping
                    continue
                hit = by_preorder.get(key)
                if hit is None:
                    got = maps[r0]
                    hit = by_preorder[key] = [got.get(t, -1) for t in trees[r0].preorder()]
                maps[r] = {t: x for t, x in zip(tree.preorder(), hit, strict=True) if x >= 0}
                continue
            mapping = Matcher(seed, tree, budget, style=style).pairs()
            matches += 1
            runs = _unmatched_runs(tree, mapping)
            if not runs:
                same_shape[key] = r
            complete = True
            for parent, run in runs:
                placed = _place(seed, up, tree, mapping, parent, run, force=force)
                grew = grew or placed > 0
                complete = complete and placed > 0
                if placed == 2:
                    forced += _count_items(tree, run)
            if complete:
                maps[r] = mapping
            else:
                waiting.append(r)
        pending = waiting
        # A round that did not grow the seed would defer the same records again.
        rnd = rnd + 1 if grew else th.MAX_ROUNDS
    return PartialResult(seed, seed_record, maps, forced, matches)


def _count_items(tree: RecTree, run: list[int]) -> int:
    return sum(tree.count_items(t) for t in run)
