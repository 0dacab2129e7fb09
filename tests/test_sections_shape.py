"""Sections of one list written two ways join by what a reader sees (``join_adjacent_sections``)."""

from __future__ import annotations

from test_columns import Builder

from visx.config import MineConfig
from visx.mine import mine
from visx.model import PageSnapshot
from visx.render.snapshot_io import snapshot_from_dom


def two_lists(top_cls: str, main_cls: str, *, top_wrapped: bool) -> PageSnapshot:
    """Three results above ten, one column; the top ones' markup differs (an extra wrapper)."""
    b = Builder()
    html = b.add(-1, "html", box=(0, 0, 1200, 2400))
    body = b.add(html, "body", box=(0, 0, 1200, 2400))
    y = 100.0
    for cls, n, wrapped in ((top_cls, 3, top_wrapped), (main_cls, 10, False)):
        sec = b.add(body, "section", box=(100, y, 800, 100 * n))
        ul = b.add(sec, "ul", box=(100, y, 800, 100 * n))
        for k in range(n):
            li = b.add(ul, "li", box=(100, y, 800, 90))
            if cls:
                b.d["cls"][li] = cls
            holder = b.add(li, "div", box=(100, y, 800, 90)) if wrapped else li
            b.add(holder, "a", f"Result {cls or 'plain'} {k} title words", box=(100, y, 400, 20),
                  href=f"http://x/{cls}{k}")
            b.add(holder, "cite", f"www.site{k}.example/page", box=(100, y + 25, 300, 20))
            b.add(holder, "p", f"A description of result {k} with several words in it", box=(100, y + 50, 700, 30))
            y += 100
        y += 30
    return snapshot_from_dom(b.d, source="sections", status=200, javascript=True)


def test_sponsored_results_above_organic_ones_are_one_list() -> None:
    snap = two_lists("", "", top_wrapped=True)
    regions = mine(snap, None)
    assert len(regions[0].records) == 13
    assert regions[0].records[0].text.startswith("Result plain 0")
    off = mine(snap, None, MineConfig(join_shapes=False))
    assert max(len(r.records) for r in off) == 10


def test_a_sponsored_class_may_differ_but_a_content_kind_may_not() -> None:
    ads = mine(two_lists("result ad", "result", top_wrapped=True), None)
    assert len(ads[0].records) == 13
    kinds = mine(two_lists("item item-video", "item item-text", top_wrapped=True), None)
    assert max(len(r.records) for r in kinds) == 10
