"""Choosing the list (``visx.choose``): by rank, by a CSS/XPath hint, by an example text;
the chosen region as the main one in the API, every exporter, the CLI and the report.

Saved snapshots, no browser (one browser test resolves a ``#shadow-root`` XPath):

- ``mine/site_map_footer``: a review list (#1) and a site map (#2) whose four columns are
  its records and each a list of links of its own (#3-#6): nested lists, so the hint's
  "innermost region" rule shows;
- ``mine/several_regions``: a result list and a pager (no ``#reviews`` there);
- ``gate/store.steampowered.com``: six regions, two of them under one parent.
"""

from __future__ import annotations

import asyncio
import base64
import csv
import json
import re
import sqlite3
from pathlib import Path

import jsonschema
import pytest
from conftest import FIXTURES, RENDER_FIXTURES, render_config

import visx
from visx.choose import apply_choice, choose_region, hint_kind, region_hint, region_hints
from visx.cli import main
from visx.debug import build_report
from visx.debug.html import region_commands, template_link
from visx.debug.template_link import region_template_json
from visx.errors import ConfigError, ExtractionError, SelectionError
from visx.export import json_schema, to_json_dict, write
from visx.export.formats import render_text
from visx.model import Region
from visx.pipeline import Extraction

SITE_MAP = FIXTURES / "mine" / "site_map_footer.json.gz"
SEVERAL = FIXTURES / "mine" / "several_regions.json.gz"
STEAM = FIXTURES / "gate" / "store.steampowered.com" / "video-games" / "snapshot.json.gz"
SCHEMA = json_schema()
PAGE = jsonschema.Draft202012Validator(SCHEMA)
LINE = jsonschema.Draft202012Validator({"$ref": "#/$defs/line", "$defs": SCHEMA["$defs"]})


@pytest.fixture(scope="module")
def site() -> Extraction:
    return visx.extract(SITE_MAP)


def by_rank(ex: Extraction, rank: int) -> Region:
    (rg,) = [r for r in ex.regions if r.rank == rank]
    return rg


def texts(ex: Extraction, rg: Region) -> list[str]:
    nodes = ex.snapshot.nodes
    return [r.text or " ".join(nodes.text(p) for p in r.parts) for r in rg.records]


def test_the_fixture_has_the_regions_the_tests_rely_on(site: Extraction) -> None:
    assert [(rg.rank, rg.role, len(rg.records)) for rg in site.regions] == [
        (1, "data", 6), (2, "navigation", 4), (3, "navigation", 16), (4, "navigation", 16),
        (5, "navigation", 16), (6, "navigation", 16)]
    assert texts(site, by_rank(site, 5))[3] == "Restaurants in city 2-3"
    assert site.chosen is None


# --- by rank ------------------------------------------------------------------------------

def test_region_by_rank_becomes_the_main_one_keeping_ranks() -> None:
    ex = visx.extract(SITE_MAP, region=4)
    assert [rg.rank for rg in ex.regions] == [4, 1, 2, 3, 5, 6]
    assert ex.main is ex.regions[0] and ex.main.rank == 4
    assert [t.rank for t in ex.tables] == [4, 1, 2, 3, 5, 6]
    assert all(rg.table is t for rg, t in zip(ex.regions, ex.tables, strict=True))
    assert ex.chosen == {"by": "region", "value": 4, "rank": 4}
    assert texts(ex, ex.main)[0] == "Restaurants in city 1-0"


def test_choose_region_returns_without_changing_the_extraction(site: Extraction) -> None:
    assert choose_region(site, region=6) is by_rank(site, 6)
    assert [rg.rank for rg in site.regions] == [1, 2, 3, 4, 5, 6] and site.chosen is None


def test_a_missing_rank_lists_the_ranks_found(site: Extraction) -> None:
    with pytest.raises(SelectionError) as err:
        choose_region(site, region=9)
    msg = str(err.value)
    assert "site_map_footer" in msg and "rank 9" in msg
    assert "#1 data, 6 record(s): 'Service 4.0 Food 3.0 Review 0: We ate well" in msg
    assert "#6 navigation, 16 record(s): 'Restaurants in city 3-0'" in msg
    clipped = re.search(r"#1 data, 6 record\(s\): '([^']*)'", msg)
    assert clipped is not None and len(clipped.group(1)) == 60 and clipped.group(1).endswith("…")
    assert isinstance(err.value, ExtractionError)


def test_a_rank_below_one_is_a_config_error(site: Extraction) -> None:
    with pytest.raises(ConfigError, match="ranks start at 1"):
        choose_region(site, region=0)


# --- by hint ------------------------------------------------------------------------------

def test_hint_kind_tells_xpath_from_css() -> None:
    assert hint_kind("//ul/li") == ("xpath", "//ul/li")
    assert hint_kind("(//a)[2]") == ("xpath", "(//a)[2]")
    assert hint_kind("./div") == ("xpath", "./div")
    assert hint_kind("xpath=//a") == ("xpath", "//a")
    assert hint_kind("div.col > a") == ("css", "div.col > a")
    assert hint_kind("css=/weird") == ("css", "/weird")


@pytest.mark.parametrize(("hint", "rank"), [
    ("#reviews .review i", 1),                         # inside a record of the main list
    ("div.site-map div.col:nth-child(3) a", 5),        # a link of the third column
    ("div.site-map > div.col:nth-child(2)", 4),        # the column itself: that list, not #2's record
    ("div.site-map h4", 2),                            # a column's heading: in #2's record only
    ("div.site-map", 2),                               # the parent of #2
    ("div.wrap", 1),                                   # around the main list
])
def test_hint_css(site: Extraction, hint: str, rank: int) -> None:
    assert choose_region(site, hint=hint).rank == rank


@pytest.mark.parametrize(("hint", "rank"), [
    ("//div[@class='site-map']/div[4]//a[5]", 6),
    ("(//a[contains(@href, '/c1/')])[1]", 4),
    ("//div[@id='reviews']/@id", 1),                    # an attribute counts as its element
    ("//h4[.='Cities 2']/following-sibling::a/text()", 5),  # text nodes as their element
    ("xpath=//i", 1),
    ("/html/body/div[2]/div[3]/a[16]", 5),              # a plain absolute path
])
def test_hint_xpath(site: Extraction, hint: str, rank: int) -> None:
    assert choose_region(site, hint=hint).rank == rank


def test_hint_visx_xpath_of_the_json_output(site: Extraction) -> None:
    doc = to_json_dict(site)
    (rg6,) = [r for r in doc["regions"] if r["rank"] == 6]
    for xpath in (rg6["xpath"], rg6["records"][7]["xpaths"][0], rg6["records"][7]["cells"][0]["xpath"]):
        assert xpath.startswith("/html/")
        assert choose_region(site, hint=xpath).rank == 6


def test_many_matches_vote(site: Extraction) -> None:
    # The site map's 64 links, 16 in each column: the columns tie on votes and the best
    # rank wins; with the first column left out, #4 does.
    assert choose_region(site, hint="div.site-map a").rank == 3
    assert choose_region(site, hint="div.col:not(:first-child) a").rank == 4


def test_a_hint_that_matches_nothing_names_it_and_lists_the_regions(site: Extraction) -> None:
    with pytest.raises(SelectionError) as err:
        choose_region(site, hint="ul.results > li")
    msg = str(err.value)
    assert "'ul.results > li' matches no element" in msg
    assert "#2 navigation, 4 record(s): 'Cities 0 Restaurants" in msg


def test_a_hint_outside_every_region_says_so(site: Extraction) -> None:
    with pytest.raises(SelectionError, match=r"matches 4 element\(s\), but none is inside a list"):
        choose_region(site, hint="header nav a")


def test_bad_hint_syntax_fails_before_any_render(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.html")
    with pytest.raises(ConfigError, match="not a CSS selector"):
        visx.extract(missing, hint="div[")
    with pytest.raises(ConfigError, match="not a valid XPath"):
        visx.extract(missing, hint="//div[")
    with pytest.raises(visx.SourceNotFoundError):
        visx.extract(missing, hint="div")


def test_a_visx_xpath_not_on_the_page_is_a_selection_error(site: Extraction) -> None:
    with pytest.raises(SelectionError, match="matches no element"):
        choose_region(site, hint="/html/body/x-list/#shadow-root/div/x-card[2]")


@pytest.mark.browser
def test_hint_through_shadow_roots() -> None:
    ex = visx.extract(RENDER_FIXTURES / "shadow.html", render_config())
    nodes = ex.snapshot.nodes
    price = "/html/body/main/card-list/#shadow-root/div/card-item[3]/span"
    assert nodes.find_xpath(price) is not None
    assert choose_region(ex, hint=price) is ex.regions[0]
    assert choose_region(ex, hint="card-list card-item .price") is ex.regions[0]  # CSS pierces the roots
    with pytest.raises(SelectionError):
        choose_region(ex, hint="/html/body/main/card-list/#shadow-root/div/card-item[30]")


# --- by example ---------------------------------------------------------------------------

@pytest.mark.parametrize(("example", "rank"), [
    ("restaurants in   CITY 2-3", 5),                      # a whole record, other case and spacing
    ("\n Restaurants in city 3-15\t", 6),
    ("Cities 1", 2),                                       # one value: #2's column heading
    ("FOOD 5.0", 1),                                       # one value of the main list
    ("service4.0food3.0", 1),                              # the screen may drop spaces
    ("the view over the harbour was lovely and the wine list long", 1),  # part of a record
    ("Restaurnts in city 1-1", 4),                         # a near match, the closest record wins
])
def test_example(site: Extraction, example: str, rank: int) -> None:
    assert choose_region(site, example=example).rank == rank


def test_example_of_a_record_beats_the_same_words_as_a_value(site: Extraction) -> None:
    # "Restaurants in city 0-2" is a whole record of #3 and one value of #2's column record.
    assert any(c is not None and c.text == "Restaurants in city 0-2"
               for row in by_rank(site, 2).table.rows for c in row)  # type: ignore[union-attr]
    assert choose_region(site, example="Restaurants in city 0-2").rank == 3


def test_an_example_that_matches_nothing_lists_the_regions(site: Extraction) -> None:
    with pytest.raises(SelectionError) as err:
        choose_region(site, example="Lisbon airport lounge")
    msg = str(err.value)
    assert "example 'Lisbon airport lounge' matches no record or value" in msg
    for rank, role, n in ((1, "data", 6), (2, "navigation", 4), (5, "navigation", 16)):
        assert f"#{rank} {role}, {n} record(s): '" in msg
    assert "'Restaurants in city 2-0'" in msg


@pytest.mark.parametrize(("example", "rank"), [
    ("Servce 4.0", 1), ("Citiez", 2),                      # a letter off: still that list
    ("Towns 2", None), ("Bistros in city 2-3", None),      # another word: no match (84.8 < 85)
])
def test_near_matches_stop_at_the_threshold(site: Extraction, example: str, rank: int | None) -> None:
    if rank is not None:
        assert choose_region(site, example=example).rank == rank
    else:
        with pytest.raises(SelectionError, match="matches no record or value"):
            choose_region(site, example=example)


def test_two_choices_at_once_are_a_config_error(site: Extraction, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="one way only"):
        choose_region(site, region=2, example="Cities 1")
    with pytest.raises(ConfigError, match="one way only"):
        visx.extract(tmp_path / "missing.html", hint="#reviews", region=1)
    with pytest.raises(ConfigError):
        choose_region(site)
    with pytest.raises(ConfigError, match="give the text of one record"):
        choose_region(site, example="  \n ")


def test_async_takes_the_choice_too() -> None:
    ex = asyncio.run(visx.extract_async(SITE_MAP, example="Cities 3"))
    assert ex.main is not None and ex.main.rank == 2 and ex.chosen == {"by": "example", "value": "Cities 3", "rank": 2}


def test_apply_choice_again_restores_rank_order_for_the_rest() -> None:
    ex = visx.extract(SITE_MAP, region=5)
    apply_choice(ex, hint="#reviews")
    assert [rg.rank for rg in ex.regions] == [1, 2, 3, 4, 5, 6]
    assert ex.chosen == {"by": "hint", "value": "#reviews", "rank": 1}


# --- exporters ----------------------------------------------------------------------------

def test_every_exporter_gives_the_chosen_table(tmp_path: Path) -> None:
    ex = visx.extract(SITE_MAP, example="Restaurants in city 2-3")
    want = by_rank(ex, 5).table.to_records()  # type: ignore[union-attr]
    assert ex.to_records() == want and len(want) == 16
    assert ex.to_records()[3]["restaurants_in"] == "city 2-3"

    write(ex, tmp_path / "t.csv")
    with (tmp_path / "t.csv").open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["restaurants_in"] for r in rows] == [w["restaurants_in"] for w in want]

    write(ex, tmp_path / "t.sqlite")
    with sqlite3.connect(tmp_path / "t.sqlite") as con:
        (rank, table, n), = con.execute("select rank, table_name, n_records from regions").fetchall()
        assert (rank, n) == (5, 16)
        assert con.execute(f'select "restaurants_in" from "{table}" order by _record').fetchall()[3] == ("city 2-3",)

    # A chosen list that is not a data list still leads --all-regions, with its rank.
    every = ex.to_records(all_regions=True)
    assert every[0]["region"] == 5 and {r["region"] for r in every} == {5, 1}


def test_parquet_gives_the_chosen_table(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    ex = visx.extract(SITE_MAP, region=3)
    write(ex, tmp_path / "t.parquet")
    table = pq.read_table(tmp_path / "t.parquet").to_pylist()
    assert [r["restaurants_in"] for r in table] == [f"city 0-{i}" for i in range(16)]


def test_json_and_jsonl_carry_the_choice_and_match_the_schema() -> None:
    ex = visx.extract(SITE_MAP, hint="div.site-map h4")
    doc = json.loads(render_text(ex, "json"))
    assert not list(PAGE.iter_errors(doc))
    assert doc["chosen"] == {"by": "hint", "value": "div.site-map h4", "rank": 2}
    assert [r["rank"] for r in doc["regions"]] == [2, 1, 3, 4, 5, 6]
    lines = [json.loads(x) for x in render_text(ex, "jsonl").splitlines()]
    assert all(LINE.is_valid(x) for x in lines)
    assert [x.get("chosen") for x in lines[:5]] == [True] * 4 + [None]
    assert [x["rank"] for x in lines[:5]] == [2, 2, 2, 2, 1]
    # Without a choice there is no "chosen" key at all.
    assert "chosen" not in to_json_dict(visx.extract(SITE_MAP))


def test_the_schema_rejects_a_wrong_choice() -> None:
    doc = json.loads(render_text(visx.extract(SITE_MAP, region=2), "json"))
    assert PAGE.is_valid(doc)
    for bad in ({"by": "region", "value": "2", "rank": 2}, {"by": "hint", "value": 2, "rank": 2},
                {"by": "rank", "value": 2, "rank": 2}, {"by": "region", "value": 2},
                {"by": "region", "value": 2, "rank": 2, "extra": 1}, {"by": "example", "value": "", "rank": 1}):
        assert not PAGE.is_valid({**doc, "chosen": bad}), bad


# --- CLI ----------------------------------------------------------------------------------

def test_cli_example_writes_the_chosen_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "x.csv"
    assert main(["extract", str(SITE_MAP), "--example", "  restaurants IN city 2-3 ", "-o", str(out)]) == 0
    with out.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["restaurants_in"] for r in rows] == [f"city 2-{i}" for i in range(16)]
    assert "16 record(s) in the chosen one (#5, by example)" in capsys.readouterr().err


def test_cli_region_and_hint_to_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", str(SITE_MAP), "--region", "6"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["chosen"] == {"by": "region", "value": 6, "rank": 6} and doc["regions"][0]["rank"] == 6
    out = tmp_path / "h.json"
    assert main(["extract", str(SITE_MAP), "--hint", "//div[@id='reviews']", "-o", str(out)]) == 0
    assert json.loads(out.read_text())["chosen"]["rank"] == 1


def test_cli_options_are_exclusive_and_explained(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["extract", str(SITE_MAP), "--region", "2", "--example", "Cities 1"])
    assert stop.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["extract", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "choosing the list" in text
    assert "--region N the region of rank N" in text
    assert "--hint CSS|XPATH" in text and "--example TEXT" in text


def test_cli_a_choice_not_on_the_page_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "x.csv"
    dbg = tmp_path / "dbg"
    assert main(["extract", str(SEVERAL), "--example", "no such text", "-o", str(out), "--debug", str(dbg)]) == 2
    err = capsys.readouterr().err
    assert "visx: error:" in err and "example 'no such text' matches no record" in err
    assert "#2 pager, 7 record(s)" in err
    assert not out.exists()
    assert "--region 2" in (dbg / "report.html").read_text()  # the report shows the way out
    assert main(["extract", str(SEVERAL), "--hint", "div[", "-o", str(out)]) == 2
    assert "not a CSS selector" in capsys.readouterr().err


def test_cli_several_sources_take_the_same_choice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "x.csv"
    assert main(["extract", str(SITE_MAP), str(SEVERAL), str(SITE_MAP), "--hint", "#reviews", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert re.search(r"visx: error: \[2/3\] \S*several_regions\S*: hint '#reviews' matches no element", err)
    # A source given twice is one job (the job list is keyed by source): run and written once.
    assert "1 duplicate(s) run once" in err and "1 of 2 source(s) failed" in err
    with out.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 6 and {r["source"] for r in rows} == {visx.extract(SITE_MAP).source}


# --- report -------------------------------------------------------------------------------

def test_report_shows_the_command_of_every_region(site: Extraction) -> None:
    doc = build_report(site)["report.html"].decode()
    src = site.source
    for rg in site.regions:
        assert f"<code>visx extract {src} --region {rg.rank}</code>" in doc
    assert "<code>visx extract fixtures/mine/site_map_footer.html --hint &#x27;#reviews&#x27;</code>" in doc
    assert "<code>visx extract fixtures/mine/site_map_footer.html --hint div.site-map</code>" in doc
    assert doc.count("download=\"region-") >= 1  # each learnable region offers its template


@pytest.mark.parametrize("path", [SITE_MAP, STEAM], ids=["site_map", "steam"])
def test_every_report_hint_chooses_its_region_again(path: Path) -> None:
    ex = visx.extract(path)
    hints = region_hints(ex)
    assert sum(h is not None for h in hints) >= len(hints) - 1
    for rg, hint in zip(ex.regions, hints, strict=True):
        if hint is not None:
            assert choose_region(ex, hint=hint) is rg, (rg.rank, hint)
    assert region_hint(ex, 1) == hints[1]


def test_report_hint_is_the_id_or_class_when_unique_else_the_xpath(site: Extraction) -> None:
    assert region_hints(site)[:3] == ["#reviews", "div.site-map", "/html/body/div[2]/div[1]"]


def test_report_marks_the_chosen_region_and_quotes_sources() -> None:
    ex = visx.extract(SITE_MAP, example="Cities 2")
    doc = build_report(ex)["report.html"].decode()
    assert "<span class=\"k\">chosen</span> #2 by example &#x27;Cities 2&#x27;" in doc
    assert doc.count("<span class=\"chosen\"") == 2  # the summary row and the section
    first = doc.index("<section id=\"sec-g")
    assert doc[first:].startswith("<section id=\"sec-g2\"")
    # Ranked against its neighbours by rank, not by its place at the front.
    assert "Score" in doc[first:doc.index("</section>", first)] and "for #1" in doc[first:doc.index("</section>", first)]
    ex.snapshot.source = "page with spaces.html"
    assert region_commands(ex, 0, "a[href='/x']") == [
        "visx extract 'page with spaces.html' --region 2",
        "visx extract 'page with spaces.html' --hint 'a[href='\"'\"'/x'\"'\"']'"]


def test_template_link_hook() -> None:
    ex = visx.extract(SITE_MAP)
    from visx.template import apply_template, parse_template

    got = region_template_json(ex, 0)
    assert got is not None
    t = parse_template(got)  # the download is a template that extracts that region again
    rows = apply_template(ex.snapshot, t, strict=False).extraction.main.records
    assert [r.text for r in rows] == [r.text for r in ex.regions[0].records]
    assert region_template_json(ex, len(ex.regions)) is None
    link = template_link(3, '{"a": "<b>"}')
    m = re.fullmatch(r'<a class="template" download="region-3\.template\.json" '
                     r'href="data:application/json;base64,([A-Za-z0-9+/=]+)">[^<]*</a>', link)
    assert m is not None and json.loads(base64.b64decode(m.group(1))) == {"a": "<b>"}
