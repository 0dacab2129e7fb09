"""Templates (issue 13): learn, apply by XPath, match by URL, repair loudly, --static, the CLI.

Saved testbed snapshots (two pages of one site, with gold records) test learning and
applying without a browser; a small shop page and its redesigned versions are rendered
by a real Chromium for the repair and shadow-DOM cases.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from template_pages import PAGE2, PRODUCTS, shop

from visx import analyse, load_snapshot
from visx.cli import main
from visx.config import Config, RenderConfig
from visx.errors import RepairError, TemplateError, TemplateMismatchError
from visx.template import Template, apply_template, learn_from, load_template
from visx.template.match import candidates, url_similarity
from visx.template.model import parse_template

ROOT = Path(__file__).resolve().parent.parent
AGODA = ROOT / "fixtures" / "template" / "agoda.com"
SNAP_A = AGODA / "chinese-recreation" / "snapshot.json.gz"
SNAP_B = AGODA / "family-recreation-center" / "snapshot.json.gz"
NO_JS = Config(render=RenderConfig(javascript=False, timeout_s=15.0))


def _gold_titles(folder: Path) -> list[str]:
    with (folder / "records.csv").open(encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return [r[0] for r in rows[1:] if r]


@pytest.fixture(scope="module")
def learned() -> tuple[Template, object]:
    ex = analyse(load_snapshot(SNAP_A))
    return learn_from(ex), ex


# ------------------------------------------------------------------ learning

def test_learned_template_is_plain_json_that_round_trips(learned, tmp_path):
    t, ex = learned
    path = t.save(tmp_path / "agoda.template.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "visx-template/1" and data["version"] == 1
    assert load_template(path) == t
    assert t.records.counts == [len(ex.main.records)]
    assert t.records.xpaths and all(x.startswith("/") for x in t.records.xpaths)
    assert [c.name for c in t.columns] == [c.name for c in ex.tables[0].columns]
    for col in t.columns:
        assert col.xpaths, col.name
        assert col.rules.value_type == col.type
        assert col.rules.tag and col.rules.font.size > 0


def test_record_queue_is_best_first_and_each_path_finds_the_records(learned):
    t, ex = learned
    from visx.template.resolve import select_records
    from visx.template.tree import from_snapshot

    tree = from_snapshot(ex.snapshot.nodes)
    truth = {rec.parts[0] for rec in ex.main.records}
    for xp in t.records.xpaths:
        got = {tree.index[e] for e in select_records(tree, xp)}
        tp = len(got & truth)
        assert 2 * tp / (len(got) + len(truth)) >= 0.8, xp  # RECORD_MIN_F1
    # An id- or class-anchored path comes before the bare positional one.
    assert "@id=" in t.records.xpaths[0] or "@class" in t.records.xpaths[0]


def test_apply_on_the_learned_page_gives_the_extraction_rows(learned):
    t, ex = learned
    res = apply_template(SNAP_A, t)
    assert not res.repaired and res.problems == []
    assert res.extraction.to_records(all_columns=True) == ex.to_records(all_columns=True)
    assert res.extraction.main.miner == "template"


def test_apply_to_another_page_of_the_site_finds_its_gold_records(learned):
    t, _ex = learned
    res = apply_template(SNAP_B, t, strict=False)
    full = analyse(load_snapshot(SNAP_B))
    gold = _gold_titles(AGODA / "family-recreation-center")
    got = [r.text for r in res.extraction.main.records]
    assert len(got) == len(full.main.records) >= len(gold)
    assert all(any(g.split()[0] in text for text in got) for g in gold)
    # The columns keep the template's names on the other page.
    assert [c.name for c in res.extraction.tables[0].columns] == [c.name for c in t.columns]


def test_bad_template_files_are_errors_naming_them(tmp_path):
    p = tmp_path / "t.json"
    p.write_text("{not json", encoding="utf-8")
    with pytest.raises(TemplateError, match=r"t\.json: not JSON"):
        load_template(p)
    p.write_text(json.dumps({"format": "visx-template/9"}), encoding="utf-8")
    with pytest.raises(TemplateError, match="format 'visx-template/9'"):
        load_template(p)
    with pytest.raises(TemplateError, match="records"):
        parse_template(json.dumps({"site": "x", "url": "http://x/", "columns": []}), "mine.json")
    with pytest.raises(TemplateError, match="no such template file"):
        load_template(tmp_path / "missing.json")


# ------------------------------------------------------------------ matching

def test_url_similarity_is_the_seed_formula_with_numbers_as_one_symbol():
    assert url_similarity("https://a.com/shop/kitchen/page/2", "https://a.com/shop/kitchen/page/7") == 1.0
    assert url_similarity("https://a.com/shop/kitchen", "https://a.com/shop/garden") == 0.5
    assert url_similarity("https://a.com/news/today", "https://a.com/shop/garden/list") == 0.0
    assert url_similarity("https://a.com/", "https://a.com") == 1.0


def test_templates_are_tried_most_similar_first_and_other_sites_never(learned):
    t, _ = learned
    near = t.model_copy(update={"url": "https://shop.example/kitchen/list?page=1"})
    far = t.model_copy(update={"url": "https://shop.example/about/team"})
    other = t.model_copy(update={"url": "https://elsewhere.example/kitchen/list?page=1"})
    got = candidates("https://shop.example/kitchen/list?page=3", [far, other, near], 0.5)
    assert [x for _, x in got] == [near]


def test_no_fitting_template_is_an_error_that_says_why(learned):
    t, _ = learned
    other = t.model_copy(update={"url": "https://elsewhere.example/a/b"})
    with pytest.raises(TemplateMismatchError, match="another site"):
        apply_template(SNAP_B, other)


# ------------------------------------------------------------------ repair, on rendered pages

@pytest.fixture(scope="module")
def shop_files(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("shop")
    out = {}
    for v in ("v1", "page2", "redesign", "noprice"):
        out[v] = d / f"{v}.html"
        out[v].write_text(shop(v), encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def shop_template(shop_files) -> Template:
    from visx import extract

    return learn_from(extract(shop_files["v1"], NO_JS))


@pytest.mark.browser
def test_shop_template_names_its_fields(shop_template):
    names = [c.name for c in shop_template.columns if not c.hidden]
    assert names[:5] == ["title", "price", "rating", "date", "description"]
    price = shop_template.column("price")
    assert price.type == "price" and price.rules.font.color == "rgb(200, 0, 0)"


@pytest.mark.browser
def test_redesigned_page_is_repaired_with_a_diff_and_same_names(shop_template, shop_files):
    res = apply_template(shop_files["redesign"], shop_template, NO_JS)
    rows = res.extraction.to_records()
    assert res.repaired and res.template.version == shop_template.version + 1
    assert res.diff().startswith("template repaired: version 1 -> 2, confidence")
    assert 0.5 <= res.confidence <= 1.0
    assert len(rows) == len(PRODUCTS)  # the sponsored blocks are not records
    assert [r["title"] for r in rows] == [p[0] for p in PRODUCTS]
    assert [r["price"] for r in rows] == [float(p[1]) for p in PRODUCTS]
    assert [r["rating"] for r in rows] == [float(p[2]) for p in PRODUCTS]
    assert [r["date"] for r in rows] == [p[3] for p in PRODUCTS]
    assert res.template.repairs[-1].changes == res.changes
    # The repaired template fits the redesigned page without another repair.
    again = apply_template(shop_files["redesign"], res.template, NO_JS)
    assert not again.repaired and again.extraction.to_records() == rows


@pytest.mark.browser
def test_a_column_gone_from_the_page_is_an_error_naming_it(shop_template, shop_files):
    with pytest.raises(RepairError, match="could not find 'price' again") as e:
        apply_template(shop_files["noprice"], shop_template, NO_JS)
    assert e.value.column == "price"
    lenient = apply_template(shop_files["noprice"], shop_template, NO_JS, strict=False)
    rows = lenient.extraction.to_records()
    assert all(r["price"] is None for r in rows)  # no value rather than another field's
    assert [r["rating"] for r in rows] == [float(p[2]) for p in PRODUCTS]
    assert any("'price'" in w for w in lenient.extraction.warnings)


@pytest.mark.browser
def test_without_repair_a_changed_page_is_an_error(shop_template, shop_files):
    with pytest.raises(TemplateError, match="no longer fits"):
        apply_template(shop_files["redesign"], shop_template, NO_JS, repair=False)


@pytest.mark.browser
def test_static_apply_reads_the_html_without_a_browser(shop_template, shop_files):
    rendered = apply_template(shop_files["page2"], shop_template, NO_JS).extraction.to_records()
    static = apply_template(shop_files["page2"], shop_template, static=True)
    assert static.extraction.snapshot.extra.get("static") is True
    assert static.extraction.to_records() == rendered
    assert [r["title"] for r in rendered] == [p[0] for p in PAGE2]


@pytest.mark.browser
def test_static_apply_of_html_text_and_over_http(shop_template, shop_files, server):
    html = shop_files["page2"].read_text(encoding="utf-8")
    res = apply_template(html, shop_template, static=True)  # no address: every template may fit
    assert [r["title"] for r in res.extraction.to_records()] == [p[0] for p in PAGE2]
    from visx import extract
    from visx.errors import HttpStatusError

    url = server.url("demo/index.html")
    ex = extract(url, Config(render=RenderConfig(timeout_s=15.0)))
    t = learn_from(ex)
    static = apply_template(url, t, static=True)
    assert static.extraction.url == url and static.extraction.snapshot.javascript is False
    assert [r.text for r in static.extraction.main.records] == [r.text for r in ex.main.records]
    with pytest.raises(HttpStatusError, match="HTTP 404"):
        apply_template(server.url("demo/missing.html"), t, static=True)
    with pytest.raises(TemplateMismatchError, match="another site"):
        apply_template(server.url("demo/index.html"), shop_template, static=True)


@pytest.mark.browser
def test_shadow_dom_template_uses_shadow_root_steps():
    from visx import extract

    page = ROOT / "fixtures" / "render" / "shadow.html"
    ex = extract(page, Config(render=RenderConfig(timeout_s=15.0)))
    k = next(i for i, rg in enumerate(ex.regions) if len(rg.records) == 12)
    from visx.template.learn import learn

    t = learn(ex, k)
    assert "#shadow-root" in t.records.xpaths[0]
    res = apply_template(ex.snapshot, t)
    assert [r.text for r in res.extraction.main.records] == [r.text for r in ex.regions[k].records]


# ------------------------------------------------------------------ the CLI

@pytest.mark.browser
def test_cli_learn_apply_and_save_repairs(shop_files, tmp_path, capsys):
    tpl = tmp_path / "shop.template.json"
    assert main(["learn", str(shop_files["v1"]), "--no-js", "-o", str(tpl), "-q"]) == 0
    out = tmp_path / "rows.csv"
    assert main(["apply", str(shop_files["redesign"]), "--template", str(tpl), "--no-js", "-o", str(out),
                 "--save-repairs"]) == 0
    err = capsys.readouterr().err
    assert "template repaired: version 1 -> 2" in err and "rating" in err
    with out.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["title"] for r in rows] == [p[0] for p in PRODUCTS]
    saved = load_template(tpl)
    assert saved.version == 2 and saved.repairs and saved.records.counts[-1] == len(PRODUCTS)
    # --no-repair on a page the template does not fit: exit 2 and a message, no output file.
    bad = tmp_path / "bad.csv"
    assert main(["apply", str(shop_files["noprice"]), "--template", str(tpl), "--no-js", "--no-repair",
                 "-o", str(bad)]) == 2
    assert "no longer fits" in capsys.readouterr().err and not bad.exists()


def test_cli_apply_needs_a_template(capsys):
    with pytest.raises(SystemExit):
        main(["apply", str(SNAP_A)])
    assert "--template" in capsys.readouterr().err


def test_cli_apply_templates_dir_picks_by_url(learned, tmp_path, capsys):
    t, _ = learned
    d = tmp_path / "templates"
    d.mkdir()
    t.save(d / "agoda.json")
    t.model_copy(update={"url": "https://elsewhere.example/x"}).save(d / "other.json")
    out = tmp_path / "b.json"
    assert main(["apply", str(SNAP_B), "--templates", str(d), "-o", str(out), "--lenient"]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert len(data["regions"]) == 1 and len(data["regions"][0]["records"]) == 8
    assert main(["apply", str(SNAP_B), "--templates", str(tmp_path / "nothing")]) == 2
    assert "not a folder" in capsys.readouterr().err
