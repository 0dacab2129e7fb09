"""Data lists told from navigation, filters, pagers and fragments (``visx.mine.roles``), and their score."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_columns import Builder

from visx.config import CleanConfig, Config
from visx.errors import ConfigError
from visx.evaluate.data_lists import RegionLabel, load_labels, score_data_lists
from visx.mine import mine
from visx.model import PageSnapshot
from visx.pipeline import analyse
from visx.render.snapshot_io import snapshot_from_dom

RESULT_WORDS = "a hand finished lamp of brass sold with a shade and a bulb in the home range"


def page() -> PageSnapshot:
    """A results page: a nav menu, filters, results whose records hold a nested list of
    tags, a pager, tabs and footer links, laid out top to bottom."""
    b = Builder()
    html = b.add(-1, "html", box=(0, 0, 1200, 3000))
    body = b.add(html, "body", box=(0, 0, 1200, 3000))
    nav = b.add(body, "nav", box=(0, 0, 1200, 40))
    ul = b.add(nav, "ul", box=(0, 0, 1200, 40))
    for k, w in enumerate(["Home", "Shop", "Deals", "Journal", "Contact"]):
        li = b.add(ul, "li", box=(100 * k, 0, 90, 40))
        b.add(li, "a", w, box=(100 * k, 5, 80, 20), href=f"http://x/{w}")
    tabs = b.add(body, "div", box=(250, 50, 900, 30))
    for k, w in enumerate(["All", "Recent", "Popular", "Nearby"]):
        b.add(tabs, "span", w, box=(250 + 100 * k, 50, 90, 30))
    side = b.add(body, "aside", box=(0, 100, 200, 300))
    fl = b.add(side, "ul", box=(0, 100, 200, 300))
    for k, w in enumerate(["Lamps", "Chairs", "Mugs", "Rugs"]):
        li = b.add(fl, "li", box=(0, 100 + 30 * k, 200, 30))
        box = b.add(li, "input", box=(0, 100 + 30 * k, 12, 12))
        b.d["attrs"].setdefault("type", []).extend((box, "checkbox"))
        b.add(li, "label", f"{w} ({k + 4})", box=(20, 100 + 30 * k, 150, 20))
    res = b.add(body, "ol", box=(250, 100, 900, 1600))
    for k in range(8):
        y = 100 + 200 * k
        li = b.add(res, "li", box=(250, y, 900, 190))
        b.add(li, "a", f"Result title number {k}", box=(260, y + 5, 400, 24), href=f"http://x/r{k}")
        b.add(li, "p", f"{RESULT_WORDS} number {k}", box=(260, y + 35, 800, 40))
        b.add(li, "span", f"${k}9.00", box=(260, y + 80, 80, 20))
        tags = b.add(li, "ul", box=(260, y + 110, 600, 20))
        for t in range(4):
            tl = b.add(tags, "li", box=(260 + 120 * t, y + 110, 110, 20))
            b.add(tl, "a", f"tag {t} of {k}", box=(260 + 120 * t, y + 110, 100, 20), href=f"http://x/t{t}")
    pager = b.add(body, "div", box=(250, 1750, 900, 30))
    for k, w in enumerate(["1", "2", "3", "4", "Next"]):
        b.add(pager, "a", w, box=(250 + 50 * k, 1750, 40, 30), href=f"http://x/p{k}")
    foot = b.add(body, "footer", box=(0, 2800, 1200, 200))
    fu = b.add(foot, "ul", box=(0, 2800, 1200, 200))
    for k, w in enumerate(["About us", "Privacy", "Terms", "Careers", "Press"]):
        li = b.add(fu, "li", box=(0, 2800 + 30 * k, 200, 30))
        b.add(li, "a", w, box=(0, 2800 + 30 * k, 150, 20), href=f"http://x/f{k}")
    return snapshot_from_dom(b.d, source="roles", status=200, javascript=True)


def test_each_kind_of_region_gets_its_role() -> None:
    snap = page()
    regions = mine(snap, None)  # not cleaned: the bands would take the menu, pager and footer
    by_first = {r.records[0].text: r for r in regions}
    results = next(r for t, r in by_first.items() if t.startswith("Result title number 0"))
    assert results.data and results.role == "data" and results.rank == 1
    assert by_first["1"].role == "pager"
    assert by_first["Lamps (4)"].role == "filter"
    assert by_first["All"].role in ("filter", "fragment")  # tabs without links, one word each
    assert by_first["Home"].role == "navigation"
    assert by_first["About us"].role == "footer-links"
    assert not any(r.data for r in regions if r is not results)
    # The tags inside each result are part of it, not a list of their own.
    assert all(r.role in ("fragment", "navigation", "tag-cloud") for r in regions
               if r.records[0].text.startswith("tag "))


def test_data_lists_rank_first_and_export_alone() -> None:
    from visx.export.contract import picked_regions, to_json_dict

    ex = analyse(page(), Config(clean=CleanConfig(enabled=False)))
    assert [r.data for r in ex.regions] == sorted((r.data for r in ex.regions), reverse=True)
    assert [r.rank for r in ex.regions] == list(range(1, len(ex.regions) + 1))
    assert ex.data_regions == [r for r in ex.regions if r.data] and len(ex.data_regions) == 1
    assert len(ex.regions) >= 5
    assert picked_regions(ex, True) == [0]
    assert len(picked_regions(ex, True, data_only=False)) == len(ex.regions)
    doc = to_json_dict(ex)
    assert (doc["regions"][0]["data"], doc["regions"][0]["role"]) == (True, "data")
    assert all(r["role"] != "data" for r in doc["regions"][1:])


def test_data_list_score_counts_by_region_key() -> None:
    snap = page()
    regions = mine(snap, None)
    nodes = snap.nodes
    labels = [RegionLabel(parent=nodes[r.parent].xpath, first=nodes[r.records[0].parts[0]].xpath,
                          data=(r.rank == 1 or r.role == "pager")) for r in regions[:-1]]
    s = score_data_lists(nodes, regions, labels)
    assert (s.tp, s.fp, s.fn, s.unlabelled) == (1, 0, 1, 1)
    assert s.precision == 1.0 and s.recall == 0.5


def test_bad_label_files_are_config_errors(tmp_path: Path) -> None:
    bad = tmp_path / "labels.json"
    bad.write_text(json.dumps({"a/b": [{"parent": "/html", "data": True}]}))
    with pytest.raises(ConfigError, match="first"):
        load_labels(bad)
    with pytest.raises(ConfigError, match="cannot read"):
        load_labels(tmp_path / "missing.json")


def test_the_dev_labels_load() -> None:
    path = Path(__file__).resolve().parent.parent / "fixtures" / "testbed" / "data_lists.json"
    labels = load_labels(path)
    assert len(labels) >= 50 and sum(len(v) for v in labels.values()) >= 250
    assert all(any(lab.data for lab in rows) for rows in labels.values())
