"""Link paths end to end: generated sites served over real HTTP on 127.0.0.1, crawled and linked.

The sites and their known answers come from ``tests/link_sites.py``; seeds here are not the
ones ``scripts/eval_link.py`` reports on.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import link_sites
import pytest

import visx
from visx.link.api import LinkOptions, crawl_site, link_crawl, page_bags
from visx.link.table_io import read_table


@pytest.fixture(scope="module")
def dept(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, link_sites.Served]]:
    folder = tmp_path_factory.mktemp("dept")
    link_sites.build("dept", 7, folder, size=45)
    with link_sites.serve(folder) as srv:
        yield folder, srv


def _gold(folder: Path, base: str) -> list[str | None]:
    answers = json.loads((folder / "gold.json").read_text())["answers"]
    return [base + a if a else None for a in answers]


def _prf(got: list[str | None], gold: list[str | None]) -> tuple[float, float]:
    predicted = [g for g in got if g]
    correct = sum(1 for g, w in zip(got, gold, strict=True) if g and g == w)
    return correct / max(1, len(predicted)), correct / max(1, sum(1 for w in gold if w))


def test_department_rows_get_their_pages(dept: tuple[Path, link_sites.Served]) -> None:
    folder, srv = dept
    res = visx.link(srv.url("index.html"), folder / "table.csv", "name", depth=3)
    gold = _gold(folder, srv.base)
    p, r = _prf([row["page_url"] for row in res.rows], gold)
    assert p == 1.0 and r >= 0.95, (p, r)
    assert res.columns[-2:] == ["page_url", "link_score"]
    for row, want in zip(res.rows, gold, strict=True):
        if row["page_url"]:
            assert 0.8 <= row["link_score"] <= 1.0
        if want is None:  # people who left have no page: their rows stay empty and are listed
            assert row["page_url"] is None
    assert {i for i, w in enumerate(gold) if w is None} <= set(res.unmatched)


def test_titles_beat_anchors_alone(dept: tuple[Path, link_sites.Served]) -> None:
    """Rows whose links read "Web page" are found only through the page's title."""
    folder, srv = dept
    crawl = crawl_site(srv.url("index.html"), LinkOptions(depth=3))
    cols, rows = read_table(folder / "table.csv")
    gold = _gold(folder, srv.base)
    anchors = link_crawl(crawl, cols, rows, "name", LinkOptions(depth=3, titles=False, headings=False))
    titles = link_crawl(crawl, cols, rows, "name", LinkOptions(depth=3))
    _, r_anchors = _prf([x["page_url"] for x in anchors.rows], gold)
    _, r_titles = _prf([x["page_url"] for x in titles.rows], gold)
    assert r_titles - r_anchors >= 0.05, (r_anchors, r_titles)


def test_namesakes_are_told_apart_by_their_group(dept: tuple[Path, link_sites.Served]) -> None:
    folder, srv = dept
    _, rows = read_table(folder / "table.csv")
    names = [r["name"] for r in rows]
    twins = [i for i, n in enumerate(names) if names.count(n) > 1]
    assert len(twins) >= 2, "the generator makes namesakes in different groups"
    res = visx.link(srv.url("index.html"), folder / "table.csv", "name", depth=3)
    gold = _gold(folder, srv.base)
    assert [res.rows[i]["page_url"] for i in twins] == [gold[i] for i in twins]


def test_crawl_obeys_robots_and_lists_failed_pages(dept: tuple[Path, link_sites.Served]) -> None:
    _, srv = dept
    srv.asked.clear()
    crawl = crawl_site(srv.url("index.html"), LinkOptions(depth=2))
    assert not any(p.startswith("/private/") for p in srv.asked)
    assert srv.url("private/admin.html") in crawl.disallowed
    assert (srv.url("archive/2009.html"), "HTTP 404") in crawl.failed
    assert "/robots.txt" in srv.asked
    assert max(crawl.depth.values()) == 2


@pytest.mark.parametrize("kind", ["films", "shop"])
def test_films_and_shop(tmp_path: Path, kind: str) -> None:
    link_sites.build(kind, 11, tmp_path, size=30)
    key = json.loads((tmp_path / "gold.json").read_text())["key"]
    with link_sites.serve(tmp_path) as srv:
        res = visx.link(srv.url("index.html"), tmp_path / "table.csv", key, depth=3)
        gold = _gold(tmp_path, srv.base)
    p, r = _prf([row["page_url"] for row in res.rows], gold)
    assert p == 1.0 and r >= 0.9, (p, r)


def test_layers_and_yen_give_the_same_paths(dept: tuple[Path, link_sites.Served]) -> None:
    """With K above the number of short paths, both enumerate every loopless path of <= h edges."""
    from visx.link.graph import site_graph
    from visx.link.paths import k_shortest_paths

    _, srv = dept
    crawl = crawl_site(srv.url("index.html"), LinkOptions(depth=2))
    g = site_graph(crawl, 2)
    a = k_shortest_paths(g, crawl.source, 10_000, 2, "layers")
    b = k_shortest_paths(g, crawl.source, 10_000, 2, "yen")
    assert a.keys() == b.keys()
    assert all(set(a[t]) == set(b[t]) for t in a)
    small = k_shortest_paths(g, crawl.source, 3, 2, "layers")
    assert all(len(p) <= 3 for p in small.values())
    # The K kept are the shortest: no kept path is longer than one left out.
    for t, ps in small.items():
        left = set(a[t]) - set(ps)
        assert not left or max(map(len, ps)) <= min(map(len, left))


def test_bag_holds_path_anchors_title_and_heading(dept: tuple[Path, link_sites.Served]) -> None:
    _, srv = dept
    crawl = crawl_site(srv.url("index.html"), LinkOptions(depth=3))
    bags = page_bags(crawl, LinkOptions(depth=3))
    faculty = bags[srv.url("faculty.html")]
    assert abs(sum(e.weight for e in faculty) - 1.0) < 1e-9
    assert [e.weight for e in faculty] == sorted((e.weight for e in faculty), reverse=True)
    page = crawl.pages[srv.url("faculty.html")]
    texts = {e.text for e in faculty}
    assert page.title.casefold() in texts and page.heading.casefold() in texts


def test_bad_inputs_name_the_input_and_the_way_out(dept: tuple[Path, link_sites.Served], tmp_path: Path) -> None:
    folder, srv = dept
    with pytest.raises(visx.LinkError, match=r"no column 'nom'.*'name'.*--key"):
        visx.link(srv.url("index.html"), folder / "table.csv", "nom")
    with pytest.raises(visx.LinkError, match=r"no such table file"):
        visx.link(srv.url("index.html"), tmp_path / "missing.csv", "name")
    bad = tmp_path / "t.sqlite"
    bad.write_bytes(b"not a database at all, just bytes" * 10)
    with pytest.raises(visx.LinkError, match=r"not a readable SQLite"):
        visx.link(srv.url("index.html"), bad, "name")
    from conftest import closed_port

    with pytest.raises(visx.UnreachableError, match=r"source page could not be fetched"):
        visx.link(f"http://127.0.0.1:{closed_port()}/", folder / "table.csv", "name",
                  options=LinkOptions(retries=0, timeout_s=2))
    with pytest.raises(visx.HttpStatusError, match=r"answered HTTP 404"):
        visx.link(srv.url("nowhere.html"), folder / "table.csv", "name")


def _cli(*args: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "visx", *map(str, args)], capture_output=True, text=True)


def test_cli_writes_csv_and_sqlite(dept: tuple[Path, link_sites.Served], tmp_path: Path) -> None:
    folder, srv = dept
    out = tmp_path / "out.csv"
    p = _cli("link", "--source", srv.url("index.html"), "--table", folder / "table.csv", "--key", "name",
             "--depth", "3", "-o", out)
    assert p.returncode == 0, p.stderr
    with out.open() as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0])[-2:] == ["page_url", "link_score"]
    gold = _gold(folder, srv.base)
    assert sum(r["page_url"] == g for r, g in zip(rows, gold, strict=True) if g) >= 0.95 * sum(1 for g in gold if g)
    assert "no page for row" in p.stderr and "page failed" in p.stderr and "linked" in p.stderr
    db = tmp_path / "out.sqlite"
    p = _cli("link", "--source", srv.url("index.html"), "--table", out, "--key", "name", "-o", db, "-q")
    assert p.returncode == 0, p.stderr
    import sqlite3

    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM linked WHERE page_url IS NOT NULL").fetchone()[0] > 0
    con.close()
    p = _cli("link", "--source", srv.url("index.html"), "--table", folder / "table.csv", "--key", "Name")
    assert p.returncode == 2 and "no column 'Name'" in p.stderr and "--key" in p.stderr


@pytest.mark.browser
def test_extract_link_depth_fills_page_url(dept: tuple[Path, link_sites.Served], tmp_path: Path) -> None:
    """`visx extract URL --link-depth 1`: the directory's main table gets each person's page."""
    folder, srv = dept
    out = tmp_path / "faculty.csv"
    p = _cli("extract", srv.url("faculty.html"), "--no-js", "--link-depth", "1", "-o", out)
    assert p.returncode == 0, p.stderr
    with out.open() as f:
        rows = list(csv.DictReader(f))
    assert rows and "page_url" in rows[0] and "link_score" in rows[0]
    gold = {g for g in _gold(folder, srv.base) if g}
    filled = [r["page_url"] for r in rows if r["page_url"]]
    assert len(filled) >= 0.8 * len(rows), (len(filled), len(rows))
    assert set(filled) <= gold and len(set(filled)) == len(filled)
    assert "linked" in p.stderr


@pytest.mark.browser
def test_render_crawl_links_like_plain_http(dept: tuple[Path, link_sites.Served]) -> None:
    """--render (pages through Chromium) finds the same links, titles and so the same pages."""
    folder, srv = dept
    plain = visx.link(srv.url("faculty.html"), folder / "table.csv", "name", depth=1)
    rendered = visx.link(srv.url("faculty.html"), folder / "table.csv", "name",
                         options=LinkOptions(depth=1, render=True, timeout_s=15))
    assert rendered.matched >= 5
    assert [r["page_url"] for r in rendered.rows] == [r["page_url"] for r in plain.rows]
