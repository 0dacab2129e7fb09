"""Mining on saved fixture snapshots: exact record boundaries per layout.

The fixtures are written and rendered by scripts/make_mine_fixtures.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from visx.config import CleanConfig, MineConfig
from visx.model import PageSnapshot, Region
from visx.render.snapshot_io import load_snapshot

FIX = Path(__file__).resolve().parent.parent / "fixtures" / "mine"


def regions_of(name: str, clean: bool = True) -> tuple[PageSnapshot, list[Region]]:
    from visx.clean import clean as run_clean
    from visx.mine import mine

    snap = load_snapshot(FIX / f"{name}.json.gz")
    cleaned = run_clean(snap, CleanConfig()) if clean else None
    return snap, mine(snap, cleaned, MineConfig())


def xpaths(snap: PageSnapshot, region: Region) -> list[list[str]]:
    return [[snap.nodes[p].xpath for p in r.parts] for r in region.records]


def test_two_rows_per_record() -> None:
    snap, regions = regions_of("two_rows")
    main = regions[0]
    base = "/html/body/div/table/tbody/tr"
    # Title row + subtext row per item; the empty spacer row belongs to no record.
    assert xpaths(snap, main) == [[f"{base}[{3 * i + 1}]", f"{base}[{3 * i + 2}]"] for i in range(8)]
    assert main.records[0].text.startswith("1. Story number 1")
    assert "10 points" in main.records[0].text


def test_non_contiguous_records_are_columns() -> None:
    snap, regions = regions_of("split_table")
    main = regions[0]
    assert main.kind == "split"
    base = "/html/body/div/table/tbody/tr"
    want = [
        [f"{base}[{2 * b + 1}]/td[{k + 1}]", f"{base}[{2 * b + 2}]/td[{k + 1}]"] for b in range(2) for k in range(4)
    ]
    assert xpaths(snap, main) == want
    assert [r.text for r in main.records[:2]] == ["Product 0 name $9.99", "Product 1 name $12.99"]


def test_grid_in_table_rows() -> None:
    snap, regions = regions_of("grid_table")
    main = regions[0]
    assert main.kind == "grid"
    base = "/html/body/div/table/tbody/tr"
    assert xpaths(snap, main) == [[f"{base}[{r + 1}]/td[{k + 1}]"] for r in range(3) for k in range(3)]


def test_grid_in_flex_rows_with_short_last_row() -> None:
    snap, regions = regions_of("grid_flex")
    main = regions[0]
    base = "/html/body/div/div/div"
    want = [[f"{base}[{r + 1}]/div[{k + 1}]"] for r, n in enumerate((4, 4, 2)) for k in range(n)]
    assert xpaths(snap, main) == want
    # The short last row is part of the grid, not a region of its own.
    assert not any(len(rg.records) == 2 and rg.parent == main.records[-1].parts[0] for rg in regions)


def test_ads_and_separators_are_skipped() -> None:
    snap, regions = regions_of("ads_between")
    main = regions[0]
    base = "/html/body/div/ol/li"
    # li[4] is the ad slot, li[8] the separator.
    assert xpaths(snap, main) == [[f"{base}[{i}]"] for i in (1, 2, 3, 5, 6, 7, 9, 10, 11)]


def test_optional_parts_stay_in_one_region() -> None:
    snap, regions = regions_of("optional_parts")
    main = regions[0]
    assert xpaths(snap, main) == [[f"/html/body/div/ul/li[{i + 1}]"] for i in range(8)]
    assert "Sale" in main.records[0].text and "Sale" not in main.records[1].text
    assert "$" not in main.records[1].text


def test_main_list_ranks_above_menus_and_pagination() -> None:
    snap, regions = regions_of("several_regions", clean=False)
    main = regions[0]
    assert snap.nodes[main.parent].id == "main-list"
    assert len(main.records) == 10
    others = {snap.nodes[rg.parent].label: rg.rank for rg in regions[1:]}
    # Menus, pagination and footer links exist as regions but rank below the list.
    assert any(label.startswith("div.pager") for label in others)
    assert any(label.startswith("ul.menu") for label in others)
    assert all(rg.score < main.score for rg in regions[1:])
    assert [rg.rank for rg in regions] == list(range(1, len(regions) + 1))


def test_mining_does_not_mutate_its_input() -> None:
    from visx.mine import mine

    snap = load_snapshot(FIX / "optional_parts.json.gz")
    before = [(n.vis, n.text, n.children[:]) for n in snap.nodes.nodes]
    mine(snap, None, MineConfig())
    assert before == [(n.vis, n.text, n.children[:]) for n in snap.nodes.nodes]


@pytest.mark.parametrize("threshold", [0.2, 0.3, 0.4])
def test_threshold_is_honoured(threshold: float) -> None:
    from visx.mine import mine

    snap = load_snapshot(FIX / "ads_between.json.gz")
    regions = mine(snap, None, MineConfig(threshold=threshold))
    assert len(regions[0].records) == 9


def test_split_records_with_row_label_cells() -> None:
    """A comparison table: <th> row labels, then one column per item over three rows."""
    from visx.mine import mine

    snap = load_snapshot(FIX.parent / "tables" / "split_table.json.gz")
    main = mine(snap, None, MineConfig())[0]
    assert main.kind == "split"
    base = "/html/body/table/tbody/tr"
    assert xpaths(snap, main) == [[f"{base}[{r}]/td[{k}]" for r in (1, 2, 3)] for k in (1, 2, 3, 4)]
    assert main.records[0].text == "Lumen X100 £499.00 Details"


def test_site_map_of_link_columns_ranks_below_the_list() -> None:
    # Four columns of 16 links each: more text and area than the reviews, but every
    # piece of it is a link and no column holds a picture.
    snap, regions = regions_of("site_map_footer")
    main = regions[0]
    assert snap.nodes[main.parent].id == "reviews" and len(main.records) == 6
    site_map = next(rg for rg in regions if "site-map" in snap.nodes[rg.parent].classes)
    assert len(site_map.records) == 4 and "link_list" in site_map.evidence
    assert "link_list" not in main.evidence


def test_records_between_rules_are_not_folded_in_pairs() -> None:
    # A real 2013 review page (fixtures/peer): five reviews between <hr> rules, a heading
    # before and a "write a review" box after. A combination of five siblings covers the
    # most, folding two reviews and an end piece into each; the reviews are the records.
    from visx.clean import clean as run_clean
    from visx.mine import mine

    snap = load_snapshot(FIX.parent / "peer" / "pydepta-3.json.gz")
    main = mine(snap, run_clean(snap, CleanConfig()), MineConfig())[0]
    assert len(main.records) == 5
    assert all(len(r.parts) == 1 and "hreview" in snap.nodes[r.parts[0]].classes for r in main.records)
    assert [r.text.split(" 20")[0] for r in main.records] == [
        "22 augustus", "20 juni", "28 december", "9 december", "17 oktober"]


def test_sections_of_one_list_join_in_page_order() -> None:
    # Sponsored jobs above and below the organic ones, each block under its own parent,
    # all one record template in one column: one region of 16 records, in page order.
    snap, regions = regions_of("split_sections")
    main = regions[0]
    assert len(main.records) == 16 and main.evidence["joined_sections"] == 3
    titles = [r.text.split(" Company")[0] for r in main.records]
    assert titles == [f"Business analyst {i}" for i in range(16)]
    assert snap.nodes[main.parent].id == "results"


def test_unlike_templates_stay_apart() -> None:
    # The menu, the pager and the list of several_regions are three templates.
    _snap, regions = regions_of("several_regions", clean=False)
    assert all("joined_sections" not in rg.evidence for rg in regions)


def test_unclassed_blocks_of_one_column_are_records() -> None:
    # A testbed page (fixtures/mine/testbed): ten profiles, each an <li> without classes,
    # of very different lengths. Lined up in one column, each is a record.
    import csv

    from visx.clean import clean as run_clean
    from visx.mine import mine

    snap = load_snapshot(FIX / "testbed" / "linkedin-3-d.json.gz")
    main = mine(snap, run_clean(snap, CleanConfig()), MineConfig())[0]
    with (FIX / "testbed" / "linkedin-3-d.records.csv").open(encoding="utf-8") as fh:
        gold = [row[0].strip() for row in csv.reader(fh) if row]
    assert all(len(r.parts) == 1 and snap.nodes[r.parts[0]].tag == "li" for r in main.records)
    starts = [next(g for g in gold if r.text.startswith(g)) for r in main.records if
              any(r.text.startswith(g) for g in gold)]
    assert len(main.records) >= 9 and len(starts) == len(main.records) == len(set(starts))


def test_a_row_of_page_numbers_at_the_end_is_not_a_record() -> None:
    from visx.mine.sections import drop_pager_records
    from visx.model import Record

    texts = ["Nanna We had a very nice stay", "Melissa Perfect modern apartment", "Leanne A great location",
             "Hiram A real jewel in Berlin", "1 2 3 … 13"]
    recs = [Record(parts=[i], bbox=(0.0, 20.0 * i, 100.0, 18.0), text=t) for i, t in enumerate(texts)]
    out = drop_pager_records([Region(parent=0, records=recs)])[0]
    assert [r.text for r in out.records] == texts[:-1]
    # A list that is numbers all through (a price grid, a table of scores) keeps every record.
    nums = [Record(parts=[i], bbox=(0.0, 20.0 * i, 100.0, 18.0), text=f"{i} {i + 1}") for i in range(5)]
    assert len(drop_pager_records([Region(parent=0, records=nums)])[0].records) == 5


def test_two_row_records_without_a_spacer_are_paired_by_their_period() -> None:
    _snap, regions = regions_of("two_rows_tight")
    main = regions[0]
    assert len(main.records) == 10
    assert main.records[0].text.startswith("1. Story number 1 about something (example1.com) 10 points by user1")


def test_masonry_columns_are_one_list_in_reading_order() -> None:
    _snap, regions = regions_of("masonry")
    main = regions[0]
    titles = [int(r.text.split()[2]) for r in main.records]
    assert sorted(titles) == list(range(1, 19))
    assert titles[:3] == [1, 2, 3]  # the tops of the three columns come first
    tops = [r.bbox[1] for r in main.records]
    assert tops == sorted(tops)


def test_blocks_of_headlines_give_one_record_per_headline() -> None:
    _snap, regions = regions_of("headline_blocks")
    main = regions[0]
    assert len(main.records) == 40
    assert [r.text.split(" about")[0] for r in main.records[:2]] == ["Headline number 1", "Headline number 2"]


def test_equal_cards_whose_inner_lists_vary_are_one_grid() -> None:
    _snap, regions = regions_of("swatch_grid")
    main = regions[0]
    assert [int(r.text.split()[2]) for r in main.records] == list(range(1, 49))
    _snap, strict = regions_of_without_visual("swatch_grid")
    assert max(len(r.records) for r in strict) < 48  # tag strings alone break the run


def regions_of_without_visual(name: str) -> tuple[PageSnapshot, list[Region]]:
    from visx.clean import clean as run_clean
    from visx.mine import mine

    snap = load_snapshot(FIX / f"{name}.json.gz")
    return snap, mine(snap, run_clean(snap, CleanConfig()), MineConfig(visual=False))
