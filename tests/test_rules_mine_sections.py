"""Sections of one list joined, and a pager row dropped from a list (``visx.mine.sections``),
at the limits: the gap between sections, one template, the shortest list a pager leaves."""

from __future__ import annotations

from test_columns import Builder

from visx.config import MineConfig
from visx.mine import mine
from visx.mine.sections import drop_pager_records
from visx.mine.thresholds import PAGER_MIN_RECORDS, SECTION_GAP_RECORDS
from visx.model import PageSnapshot, Record, Region
from visx.render.snapshot_io import snapshot_from_dom


def sections(gap: float, *, wrapped_top: bool = True, cls: str = "",
             sizes: tuple[int, ...] = (3, 10), menu: bool = False) -> PageSnapshot:
    """Sections of ``sizes`` results (by default three above ten) in one column, ``gap`` px
    apart; records 90px tall every 100px; only the first section's records may be wrapped.
    ``cls``: the records' class; ``menu``: a nav menu on the right."""
    b = Builder()
    html = b.add(-1, "html", box=(0, 0, 1200, 4000))
    body = b.add(html, "body", box=(0, 0, 1200, 4000))
    if menu:
        nav = b.add(body, "nav", box=(950, 100, 200, 150))
        ul = b.add(nav, "ul", box=(950, 100, 200, 150))
        for k, w in enumerate(["Home", "Shop", "Deals", "Journal", "Contact"]):
            li = b.add(ul, "li", box=(950, 100 + 30 * k, 200, 30))
            b.add(li, "a", w, box=(950, 100 + 30 * k, 100, 20), href=f"http://x/{w}")
    y = 100.0
    for s_k, n in enumerate(sizes):
        wrapped = wrapped_top and s_k == 0
        sec = b.add(body, "section", box=(100, y, 800, 100 * n))
        ul = b.add(sec, "ul", box=(100, y, 800, 100 * n))
        for k in range(n):
            li = b.add(ul, "li", box=(100, y, 800, 90))
            if cls:
                b.d["cls"][li] = cls
            holder = b.add(li, "div", box=(100, y, 800, 90)) if wrapped else li
            b.add(holder, "a", f"Result {s_k} {k} title words", box=(100, y, 400, 20), href=f"http://x/{s_k}/{k}")
            b.add(holder, "cite", f"www.site{k}.example/page", box=(100, y + 25, 300, 20))
            b.add(holder, "p", f"A description of result {k} with several words in it", box=(100, y + 50, 700, 30))
            y += 100
        y += gap  # the next section starts ``gap`` px below the last record's slot
    return snapshot_from_dom(b.d, source="sections", status=200, javascript=True)


def longest(snap: PageSnapshot, **kw: bool) -> int:
    return max(len(r.records) for r in mine(snap, None, MineConfig(**kw)))


def test_sections_one_and_a_half_records_apart_are_one_list() -> None:
    # Record height (mean of both sections) is about 98px: the gap limit is about 147px,
    # the gap measured from the last record's bottom (10px below its box) to the next top.
    assert SECTION_GAP_RECORDS == 1.5
    assert longest(sections(120.0)) == 13   # 130px apart: within the limit
    assert longest(sections(150.0)) == 10   # 160px apart: two lists
    # Joining leaves the page's other regions as they were.
    regions = mine(sections(120.0, menu=True), None)
    assert max(len(r.records) for r in regions) == 13
    assert any(r.records[0].text == "Home" and len(r.records) == 5 for r in regions)


def test_sections_of_one_template_join_without_the_shape_rule() -> None:
    snap = sections(30.0, wrapped_top=False, cls="result")
    assert longest(snap, join_shapes=False) == 13
    top = mine(snap, None, MineConfig(join_shapes=False))[0]
    assert top.records[0].text.startswith("Result 0 0") and top.evidence["joined_sections"] == 2
    # Three sections: each shorter one joins the longest.
    three = sections(30.0, wrapped_top=False, cls="result", sizes=(3, 10, 2))
    assert longest(three, join_shapes=False) == 15


def rec(text: str, k: int) -> Record:
    return Record([10 + k], (0, 100.0 * k, 500, 90), text)


def test_a_pager_row_leaves_the_shortest_list() -> None:
    texts = ["Brass lamp", "Oak chair", "Wool rug", "1 2 3 »"]
    assert len(texts) == PAGER_MIN_RECORDS
    rg = Region(1, [rec(t, k) for k, t in enumerate(texts)], kind="grid", gn_size=1)
    out = drop_pager_records([rg])
    assert [r.text for r in out[0].records] == texts[:-1]
    assert out[0].kind == "grid" and out[0].bbox == (0, 0, 500, 290)
    # Three records: too few to tell a pager row from a list of numbers.
    short = Region(1, [rec(t, k) for k, t in enumerate(texts[1:])])
    assert len(drop_pager_records([short])[0].records) == 3
