"""Put the rows of every harvest step under the list of the first view, in list order.

Each step's new rows arrive as one forest captured while the page was at
that step (scrolled, after a click, on page 2...). Rows are placed in the
anchor's content coordinates: a row's offset from the anchor at its capture
is kept, so a virtualised list unrolls to the layout it would have if every
row were mounted, and the pages of a paginated list follow one another. The
page below the list moves down by what the list grew, as if it had been
rendered in full.
"""

from __future__ import annotations

from dataclasses import dataclass

from visx.model import VIS_OFFPAGE
from visx.render.columns import (
    Columns,
    children,
    concat,
    drop_children,
    insert_forest,
    split_roots,
    subtree_end,
)


@dataclass(slots=True)
class Batch:
    """The new rows of one step: a forest whose roots are rows, and where the anchor was."""

    forest: Columns
    step: int
    page: int
    anchor: tuple[float, float, float, float]
    """The anchor's box (page coordinates) when these rows were captured."""


def stitch(base: Columns, anchor: int, batches: list[Batch], clip_bottom: float) -> Columns:
    """``base`` with the anchor's children replaced by the rows of every batch, in list order.

    ``clip_bottom`` is where the list's visible part ended on the first view (the
    bottom of its scroll box, or of the anchor): content below it moves down by
    what the rows now need beyond it.
    """
    bx, by = float(base["box"][4 * anchor]), float(base["box"][4 * anchor + 1])
    rows: list[tuple[tuple[int, int, float, float], Columns, float, float]] = []
    page_top: dict[int, float] = {}
    page_bottom: dict[int, float] = {}
    for b in batches:
        ax, ay = b.anchor[0], b.anchor[1]
        for tree in split_roots(b.forest):
            x, y, _, h = tree["box"][0:4]
            cy = y - ay
            rows.append(((b.page, b.step, cy, x - ax), tree, bx - ax, by - ay))
            page_top[b.page] = min(page_top.get(b.page, cy), cy)
            page_bottom[b.page] = max(page_bottom.get(b.page, cy + h), cy + h)
    rows.sort(key=lambda t: t[0])
    # Pages follow one another: page p starts where page p-1's rows ended.
    shift: dict[int, float] = {}
    acc = 0.0
    for p in sorted(page_top):
        shift[p] = acc - page_top[p] if p != min(page_top) else 0.0
        acc = shift[p] + page_bottom[p]
    pieces = []
    step_of: list[tuple[int, int]] = []
    at = 0
    for (page, step, _, _), tree, dx, dy in rows:
        pieces.append((tree, dx, dy + shift[page]))
        if step:
            step_of.append((at, step))
        at += tree["n"]
    merged = concat(pieces, base)
    new_bottom = max((merged["box"][4 * i + 1] + merged["box"][4 * i + 3]
                      for i in range(merged["n"]) if merged["parent"][i] < 0), default=by)
    for i in range(merged["n"]):
        merged["vis"][i] &= ~VIS_OFFPAGE
    merged["step"] = [v for i, st in step_of for v in (i, st)]
    explicit = _row_steps(base, anchor)
    out = insert_forest(drop_children(base, anchor), anchor, merged)
    if explicit:
        _number_rows(out, anchor, explicit)
    grow = max(0.0, new_bottom - clip_bottom)
    if grow > 0:
        _grow(out, anchor, clip_bottom, grow, new_bottom)
    return out


def _row_steps(base: Columns, anchor: int) -> str:
    """The explicit step prefix the anchor's rows had (``#shadow-root/``), if any."""
    kids = set(children(base["parent"], anchor))
    xs = base.get("xstep", [])
    for i, _b, st in zip(xs[0::3], xs[1::3], xs[2::3], strict=True):
        if i in kids and isinstance(st, str) and st.startswith("#shadow-root/"):
            return "#shadow-root/"
    return ""


def _number_rows(dom: Columns, anchor: int, prefix: str) -> None:
    """Explicit steps ``prefix + tag[k]`` for the stitched rows (rows inside a shadow root)."""
    kids = children(dom["parent"], anchor)
    names = [dom["tags"][dom["tag"][k]] for k in kids]
    total = {t: names.count(t) for t in set(names)}
    seen: dict[str, int] = {}
    keep = [v for i, b, st in zip(dom["xstep"][0::3], dom["xstep"][1::3], dom["xstep"][2::3], strict=True)
            if i not in set(kids) for v in (i, b, st)]
    for k, t in zip(kids, names, strict=True):
        seen[t] = seen.get(t, 0) + 1
        keep.extend((k, anchor, prefix + (f"{t}[{seen[t]}]" if total[t] > 1 else t)))
    acc = {i: (b, st) for i, b, st in zip(keep[0::3], keep[1::3], keep[2::3], strict=True)}
    dom["xstep"] = [x for i in sorted(acc) for x in (i, *acc[i])]


def _grow(dom: Columns, anchor: int, clip: float, grow: float, new_bottom: float) -> None:
    """Make room for the unrolled list: its ancestors get taller, what lies below moves down."""
    parent, box = dom["parent"], dom["box"]
    ancestors = set()
    j = anchor
    while j >= 0:
        ancestors.add(j)
        j = parent[j]
    end = subtree_end(parent, anchor)
    for i in range(dom["n"]):
        y, h = box[4 * i + 1], box[4 * i + 3]
        if i == anchor:
            box[4 * i + 3] = round(max(h, new_bottom - y), 1)
        elif i in ancestors:
            if y + h >= clip - 1:
                box[4 * i + 3] = round(h + grow, 1)
        elif anchor < i < end:
            continue
        elif y >= clip - 1:
            box[4 * i + 1] = round(y + grow, 1)
    page = dom.setdefault("page", {})
    page["height"] = float(page.get("height", 0)) + grow
