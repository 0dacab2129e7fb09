"""Every region's box is the box of its records, whichever step made it (MDR, split rows,
joined sections, blocks merged into one list, DRMining): roles and ranking read it."""

from __future__ import annotations

import pytest
from test_columns import Builder
from test_drmining import TABLES
from test_roles import page as roles_page
from test_rules_mine_records import names_over_prices
from test_rules_mine_sections import sections

import visx
from visx.config import MineConfig
from visx.mine import mine
from visx.model import PageSnapshot, union_bbox
from visx.render.snapshot_io import snapshot_from_dom


def blocks_of_one_list() -> PageSnapshot:
    """One results list cut into three sibling blocks of four (a grid in rows of blocks)."""
    b = Builder()
    html = b.add(-1, "html", box=(0, 0, 1200, 3000))
    body = b.add(html, "body", box=(0, 0, 1200, 3000))
    main = b.add(body, "main", box=(100, 100, 800, 1300))
    y = 100.0
    for s in range(3):
        sec = b.add(main, "section", box=(100, y, 800, 400))
        ul = b.add(sec, "ul", box=(100, y, 800, 400))
        for k in range(4):
            li = b.add(ul, "li", box=(100, y, 800, 90))
            b.add(li, "a", f"Result {s} {k} title words", box=(100, y, 400, 20), href=f"http://x/{s}/{k}")
            b.add(li, "p", f"A description of result {k} with several words in it", box=(100, y + 30, 700, 30))
            y += 100
        y += 30
    return snapshot_from_dom(b.d, source="blocks", status=200, javascript=True)


PAGES = {
    "roles": roles_page,
    "sections": lambda: sections(30.0),
    "three-sections": lambda: sections(30.0, wrapped_top=False, cls="result", sizes=(3, 10, 2)),
    "split-rows": lambda: names_over_prices(3, heading=True),
    "blocks": blocks_of_one_list,
    **{n: (lambda n=n: visx.load_snapshot(TABLES / f"{n}.json.gz"))
       for n in ("optional_badge", "list_field", "missing_field")},
}


@pytest.mark.parametrize("miner", ["mdr", "drmining"])
@pytest.mark.parametrize("name", sorted(PAGES))
def test_region_box_is_the_union_of_its_record_boxes(name: str, miner: str) -> None:
    regions = mine(PAGES[name](), None, MineConfig(miner=miner))
    assert regions
    for rg in regions:
        assert rg.bbox == union_bbox([r.bbox for r in rg.records])
        assert rg.bbox[2] > 0 and rg.bbox[3] > 0


def test_blocks_of_one_list_are_one_region() -> None:
    regions = mine(blocks_of_one_list(), None)
    assert len(regions[0].records) == 12
    assert regions[0].bbox == (100, 100, 800, 1250)
