"""Redesigned copies of list pages (visx/evaluate/redesign.py, scripts/redesign.py)."""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

import lxml.html
import pytest
from conftest import FIXTURES

from visx.evaluate import redesign as rd

ROOT = Path(__file__).resolve().parent.parent
REAL = FIXTURES / "redesign"
HASHED = re.compile(r"c[0-9a-f]{6,}")

SHEET = """\
/* .item in a comment stays */
.item { color: red; margin: .5em 0 }
.list > .item:hover .title, .list .item.odd { font: 1.5em/2 "a.item"; }
@media (max-width: 600px) { .list .item { background: url(img/.item.png) } }
@font-face { font-family: x; src: url(x.woff) }
#main.list a:not(.title) { content: '.price' }
[class~=odd] .price { x: 1 }
[class^=icon-] { font-family: icons }
.icon-star:before { content: "*" }
"""

LIST_PAGE = """<!DOCTYPE html>
<html><head><meta charset="windows-1252"><title>t</title>
<style>.price { color: green } .title{font-weight:bold}</style></head>
<body><h1 class="top">Results</h1><h6>fine print</h6>
<ul class="list" id="main">
{items}
</ul><p class="foot">About us</p></body></html>
"""
ITEM = ('<li class="item {parity}"><h2 class="title"><a href="/p{i}">Product {i}</a></h2>'
        '<span class="price">${i}.99</span> <i class="icon-star"></i></li>')
LIST_GOLD = [[f"Product {i}", f"${i}.99"] for i in range(1, 7)]

TABLE_PAGE = """<!DOCTYPE html><html><body><table class="results">
<tr class="head"><th>Name</th><th>Price</th><th>Stock</th></tr>
{rows}
</table></body></html>"""
ROW = '<tr class="row"><td class="name">Thing {i}</td><td class="p">{i} EUR</td><td>in stock</td></tr>'
TABLE_GOLD = [[f"Thing {i}", f"{i} EUR", "in stock"] for i in range(1, 6)]

GRID_PAGE = """<!DOCTYPE html><html><body><div class="grid">
<div class="row">{a}</div><div class="row">{b}</div></div><div class="side">Card 1 is great</div>
</body></html>"""
CARD = '<div class="card"><div class="name">Card {i}</div><div class="by">by Ann {i}</div></div>'
GRID_GOLD = [[f"Card {i}", f"by Ann {i}"] for i in range(1, 7)]


def list_page() -> str:
    return LIST_PAGE.replace("{items}", "\n".join(
        ITEM.format(i=i, parity="odd" if i % 2 else "even") for i in range(1, 7)))


def table_page() -> str:
    return TABLE_PAGE.replace("{rows}", "\n".join(ROW.format(i=i) for i in range(1, 6)))


def grid_page() -> str:
    return GRID_PAGE.format(a="".join(CARD.format(i=i) for i in range(1, 4)),
                            b="".join(CARD.format(i=i) for i in range(4, 7)))


def tree(html: str) -> lxml.html.HtmlElement:
    return rd.parse_html(html)


def classes_of(root: lxml.html.HtmlElement) -> list[str]:
    return [c for el in root.iter() if isinstance(el.tag, str) for c in (el.get("class") or "").split()]


# --- finding the records ------------------------------------------------------------------

def test_records_of_a_list_are_its_items() -> None:
    loc = rd.locate_records(tree(list_page()), LIST_GOLD)
    assert not loc.problem
    assert loc.parent is not None and loc.parent.get("id") == "main"
    assert [r.tag for r in loc.records] == ["li"] * 6
    assert [r.find("h2/a").text for r in loc.records] == [f"Product {i}" for i in range(1, 7)]


def test_records_of_a_table_are_its_rows() -> None:
    loc = rd.locate_records(tree(table_page()), TABLE_GOLD)
    assert [r.tag for r in loc.records] == ["tr"] * 5
    assert loc.records[0].findtext("td") == "Thing 1"


def test_records_of_a_grid_are_its_cells_not_its_rows() -> None:
    # The sidebar's "Card 1" holds one cell of six: it lifts nothing to <body>.
    loc = rd.locate_records(tree(grid_page()), GRID_GOLD)
    assert loc.parent is not None and loc.parent.get("class") == "grid"
    assert [r.get("class") for r in loc.records] == ["card"] * 6


def test_repeated_records_take_one_element_each() -> None:
    html = list_page().replace("Product 4", "Product 1").replace("$4.99", "$1.99")
    gold = [*LIST_GOLD[:3], ["Product 1", "$1.99"], *LIST_GOLD[4:]]
    loc = rd.locate_records(tree(html), gold)
    assert len(loc.records) == 6 and len(set(loc.records)) == 6


def test_records_not_on_the_page_are_reported() -> None:
    loc = rd.locate_records(tree(list_page()), [["Nothing", "here"]] * 3)
    assert loc.problem.startswith("records not located") and not loc.records
    # Three of six found is under MIN_LOCATED_SHARE.
    gold = [*LIST_GOLD[:3], *[[f"Gone {i}", "x"] for i in range(3)]]
    assert "3 of 6" in rd.locate_records(tree(list_page()), gold).problem
    with pytest.raises(rd.RecordsNotLocated):
        rd.redesign(list_page(), [["Nothing", "here"]], "none")


def test_matching_ignores_case_spacing_and_script_text() -> None:
    html = list_page().replace("</body>", '<script>var d = ["Product 1", "$1.99"]</script></body>')
    gold = [[c.upper().replace(" ", "  ") for c in row] for row in LIST_GOLD]
    loc = rd.locate_records(tree(html), gold)
    assert [r.tag for r in loc.records] == ["li"] * 6


# --- classes ------------------------------------------------------------------------------

def unmap(text: str, mapping: dict[str, str]) -> str:
    back = {new: old for old, new in mapping.items()}
    return HASHED.sub(lambda m: back.get(m.group(0), m.group(0)), text)


def test_classes_are_hashed_alike_in_html_and_css() -> None:
    out = rd.redesign(list_page(), LIST_GOLD, "classes", css={"s.css": SHEET}, seed=3)
    m = out.classes
    assert set(m) >= {"item", "odd", "even", "title", "price", "list", "top", "foot"}
    assert len(set(m.values())) == len(m)
    # [class^=icon-] needs that prefix: icon-star keeps it around its hash.
    assert re.fullmatch(r"icon-c[0-9a-f]{6}", m["icon-star"])
    assert all(HASHED.fullmatch(v) for k, v in m.items() if k != "icon-star")
    root = tree(out.html)
    assert set(classes_of(root)) == set(m.values())
    assert out.stats.classes_renamed == len(m) and out.stats.classes_affixed == 1
    assert out.stats.classes_kept == 0
    assert root.find(".//ul").get("id") == "main"  # ids stay
    # Nothing but the class names changed in the sheets: undoing the mapping gives them back.
    assert unmap(out.css["s.css"], m) == SHEET.replace(".icon-star", f".{m['icon-star']}")
    assert f".{m['icon-star']}:before" in out.css["s.css"]
    assert ".c" in out.css["s.css"] and "url(img/.item.png)" in out.css["s.css"]
    assert "margin: .5em 0" in out.css["s.css"] and "'.price'" in out.css["s.css"]
    assert f"[class~={m['odd']}]" in out.css["s.css"]
    style = root.find(".//style").text
    assert style == f".{m['price']} {{ color: green }} .{m['title']}{{font-weight:bold}}"
    # 14 in the sheet (not the comment's, the string's nor the url's), 2 in <style>.
    assert out.stats.css_edits == 14 + 2 and out.stats.css_left == 0


def test_substring_selectors_keep_the_part_they_need() -> None:
    subs = [("^=", "icon-"), ("*=", " icon-"), ("$=", "-lg"), ("*=", "col"), ("|=", "lang"),
            ("*=", " exact ")]
    names = ["icon-star", "btn-lg", "xcolx", "lang-en", "lang", "exact", "plain", "icon-btn-lg"]
    m, kept = rd.class_mapping(names, "s", substrings=subs)
    assert re.fullmatch(r"icon-c[0-9a-f]{6}", m["icon-star"])
    assert re.fullmatch(r"c[0-9a-f]{6}-lg", m["btn-lg"])
    assert re.fullmatch(r"c[0-9a-f]{6}col", m["xcolx"])
    assert re.fullmatch(r"lang-c[0-9a-f]{6}", m["lang-en"])
    assert re.fullmatch(r"icon-c[0-9a-f]{6}-lg", m["icon-btn-lg"])
    assert re.fullmatch(r"lang-c[0-9a-f]{6}", m["lang"])  # [class|=lang] matches "lang-…" too
    assert HASHED.fullmatch(m["plain"])
    assert kept == {"exact"} and not kept & set(m)  # every letter counts


def test_class_hashes_are_stable_per_seed() -> None:
    a = rd.redesign(list_page(), LIST_GOLD, "classes", seed=1)
    b = rd.redesign(list_page(), LIST_GOLD, "classes", seed=1)
    c = rd.redesign(list_page(), LIST_GOLD, "classes", seed=2)
    assert a.html == b.html and a.classes == b.classes
    assert a.classes["item"] != c.classes["item"]
    assert rd.hashed_name("item", "s") == rd.hashed_name("item", "s") != rd.hashed_name("item", "t")


def test_css_edits_keep_escapes_selectors_in_functions_and_at_rules() -> None:
    css = ".md\\:flex{a:b}\r\n@supports (display:grid){ :is(.a, .b) > .c{x:y} }\n[class=\"a b\"]{}"
    new, n = rd.rewrite_css(css, {"md:flex": "c1", "a": "c2", "b": "c3", "c": "c4"})
    assert new == ".c1{a:b}\r\n@supports (display:grid){ :is(.c2, .c3) > .c4{x:y} }\n[class=\"c2 c3\"]{}"
    assert n == 5


def test_quirks_pages_rename_classes_ignoring_case() -> None:
    assert rd.is_quirks("") and rd.is_quirks('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">')
    assert not rd.is_quirks("<!DOCTYPE html>")
    assert not rd.is_quirks('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" '
                            '"http://www.w3.org/TR/html4/loose.dtd">')
    html = list_page().replace("<!DOCTYPE html>\n", "")
    out = rd.redesign(html, LIST_GOLD, "classes", css={"s.css": ".ITEM{x:y}"})
    assert out.css["s.css"] == f".{out.classes['item']}{{x:y}}"
    assert not out.html.lower().startswith("<!doctype")  # lxml's default doctype not added


def test_frames_share_the_mapping() -> None:
    frame = '<html><body><div class="item">ad</div></body></html>'
    out = rd.redesign(list_page(), LIST_GOLD, "classes", frames={"f.htm": frame})
    assert f'class="{out.classes["item"]}"' in out.frames["f.htm"]


# --- inserted blocks, wrappers, headings --------------------------------------------------

def test_insert_puts_an_ad_after_every_third_record() -> None:
    out = rd.redesign(list_page(), LIST_GOLD, "insert", seed=5)
    ul = tree(out.html).find(".//ul")
    items = [li for li in ul if li.tag == "li"]
    assert len(items) == 8 and out.stats.blocks_inserted == 2
    ads = [i for i, li in enumerate(items) if "item" not in (li.get("class") or "")]
    assert ads == [3, 7]
    ad = items[3]
    assert ad.text_content().startswith("Sponsored: ") and ad.find("a").get("href")
    assert ad.get("class") == items[7].get("class")
    assert ad.get("class") not in {li.get("class") for i, li in enumerate(items) if i not in ads}
    assert items[2].findtext("h2/a") == "Product 3" and items[4].findtext("h2/a") == "Product 4"


def test_insert_in_a_table_adds_a_row_spanning_the_columns() -> None:
    out = rd.redesign(table_page(), TABLE_GOLD, "insert")
    rows = tree(out.html).findall(".//tr")
    assert len(rows) == 7
    ad = rows[4]  # header, three records, the ad
    (td,) = ad
    assert td.tag == "td" and td.get("colspan") == "3" and "Sponsored" in td.text_content()


def test_insert_in_a_grid_adds_a_card() -> None:
    out = rd.redesign(grid_page(), GRID_GOLD, "insert")
    rows = tree(out.html).find_class("row")
    assert [len(r) for r in rows] == [4, 4]
    assert [c.tag for c in rows[0]] == ["div"] * 4 and "Sponsored" in rows[0][3].text_content()


def test_wrap_adds_one_level_to_each_record() -> None:
    before = rd.locate_records(tree(list_page()), LIST_GOLD).records
    out = rd.redesign(list_page(), LIST_GOLD, "wrap")
    after = rd.locate_records(tree(out.html), LIST_GOLD).records
    assert out.stats.elements_wrapped == 6
    for old, new in zip(before, after, strict=True):
        (wrapper,) = new
        assert wrapper.tag == "div" and not (new.text or "").strip()
        assert [c.tag for c in wrapper] == [c.tag for c in old]
        assert new.text_content() == old.text_content()
        assert lxml.html.tostring(wrapper, encoding="unicode").count("<h2") == 1


def test_wrap_in_a_table_wraps_each_cell() -> None:
    out = rd.redesign(table_page(), TABLE_GOLD, "wrap")
    rows = tree(out.html).findall(".//tr")
    assert out.stats.elements_wrapped == 15
    assert all(len(td) == 1 and td[0].tag == "div" for tr in rows[1:] for td in tr)
    assert rows[1][0][0].text == "Thing 1"
    assert all(len(th) == 0 for th in rows[0])  # the header is no record


def test_wrap_inside_a_paragraph_uses_a_span() -> None:
    html = "<html><body><p>" + "".join(f"<span>Item {i} costs {i}</span>" for i in range(4)) + "</p></body></html>"
    out = rd.redesign(html, [[f"Item {i}", f"costs {i}"] for i in range(4)], "wrap")
    spans = tree(out.html).find(".//p")
    assert all(s[0].tag == "span" for s in spans)


def test_headings_move_down_a_level_and_titles_elsewhere_stay() -> None:
    html = list_page().replace("</ul>", "</ul><h3>a</h3><h5>b</h5><a class=title>Product 1</a>")
    out = rd.redesign(html, LIST_GOLD, "headings")
    root = tree(out.html)
    assert [el.tag for el in root.iter("h1", "h2", "h3", "h4", "h5", "h6")] == \
        ["h2", "h6", *["h3"] * 6, "h4", "h6"]
    assert out.stats.headings_shifted == 9  # h6 stays h6
    assert root.find(".//body/a").get("class") == "title"


def test_all_composes_the_four_changes() -> None:
    out = rd.redesign(list_page(), LIST_GOLD, "all", css={"s.css": SHEET})
    s = out.stats
    assert (s.blocks_inserted, s.elements_wrapped, s.headings_shifted) == (2, 6, 7)
    assert s.classes_renamed > 8
    root = tree(out.html)
    assert root.find(".//h1") is None and len(root.findall(".//h3")) == 6
    items = root.find(".//ul")
    assert len(items) == 8 and all(len(li) == 1 for li in items if "Sponsored" not in li.text_content())
    assert set(classes_of(root)) == set(out.classes.values())
    assert "item" not in out.html and "icon-star" not in out.html
    assert unmap(out.css["s.css"], out.classes) == SHEET.replace(".icon-star", f".{out.classes['icon-star']}")


def test_none_only_reserialises() -> None:
    out = rd.redesign(list_page(), LIST_GOLD, "none")
    assert out.html.startswith("<!DOCTYPE html>")
    assert '<meta charset="utf-8">' in out.html  # the CLI writes UTF-8
    assert tree(out.html).text_content() == tree(list_page()).text_content()
    with pytest.raises(ValueError, match="unknown change"):
        rd.redesign(list_page(), LIST_GOLD, "colours")


def test_body_attributes_survive_a_head_that_opens_the_body_early() -> None:
    # A browser adds the <body> tag's attributes to the body an <iframe> in <head> opened.
    html = list_page().replace("<title>t</title>", "<iframe></iframe><title>t</title>") \
        .replace("<body>", '<body class="light" data-x="1">')
    root = tree(rd.redesign(html, LIST_GOLD, "none").html)
    assert root.find("body").get("class") == "light" and root.find("body").get("data-x") == "1"


def test_decode_html_follows_bom_and_meta() -> None:
    assert rd.decode_html('<meta charset="windows-1252">é'.encode("cp1252")).endswith("é")
    assert rd.decode_html(b"\xef\xbb\xbf<p>\xc3\xa9") == "<p>é"
    assert rd.decode_html(b"<p>\xe9") == "<p>é"  # not UTF-8: cp1252


# --- a real testbed page and the CLI ------------------------------------------------------

def real_page() -> tuple[Path, dict[str, object], list[list[str]]]:
    (meta_file,) = REAL.rglob("meta.json")
    meta = json.loads(meta_file.read_text(encoding="utf-8"))
    with (meta_file.parent / "records.csv").open(encoding="utf-8", newline="") as fh:
        gold = [row for row in csv.reader(fh) if any(row)]
    return meta_file.parent, meta, gold


def test_real_page_records_are_all_located() -> None:
    folder, meta, gold = real_page()
    html = rd.decode_html((folder / str(meta["page"])).read_bytes())
    loc = rd.locate_records(rd.parse_html(html), gold)
    assert not loc.problem and loc.n_located == len(gold) == meta["n_records"]
    assert len({r.tag for r in loc.records}) == 1


def test_cli_writes_a_dataset_per_change(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import redesign as cli  # scripts/redesign.py
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    folder, meta, gold = real_page()
    out = tmp_path / "out"
    assert cli.main([str(REAL), "--out", str(out), "--changes", "classes,all", "--seed", "7"]) == 0
    report = json.loads((out / "redesign.json").read_text())
    (entry,) = report["pages"].values()
    assert {c: r["status"] for c, r in entry["changes"].items()} == {"classes": "written", "all": "written"}
    assert entry["records_located"] == len(gold)
    for change in ("classes", "all"):
        index = json.loads((out / change / "index.json").read_text())
        assert [e["id"] for e in index] == [meta["id"]]
        page_dir = out / change / str(meta["id"])
        assert (page_dir / "records.csv").read_bytes() == (folder / "records.csv").read_bytes()
        assert json.loads((page_dir / "meta.json").read_text()) == meta
        html = (page_dir / str(meta["page"])).read_bytes()
        assert html.startswith(b"\xef\xbb\xbf")
        files = folder / (Path(str(meta["page"])).stem + "_files")
        copied = page_dir / files.name
        for src in files.rglob("*"):
            dest = copied / src.relative_to(files)
            assert dest.exists()
            if src.suffix == ".css":  # rewritten, not linked
                assert not dest.is_symlink() and dest.read_bytes() != src.read_bytes()
            elif src.suffix == ".htm":  # a frame: its classes renamed too
                assert not dest.is_symlink()
            elif src.is_file():
                assert dest.is_symlink() and dest.resolve() == src.resolve()
    # The changed pages are a dataset the evaluator reads.
    from visx.evaluate.dataset import load_dataset
    (page,) = load_dataset(out / "all")
    assert page.page_file.is_file() and page.id == meta["id"]


def test_cli_reports_pages_whose_records_are_not_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import redesign as cli
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    data = tmp_path / "data" / "shop.example" / "q"
    data.mkdir(parents=True)
    (data / "p.htm").write_text(list_page(), encoding="cp1252")
    (data / "records.csv").write_text("Nothing,here\nNone,there\n", encoding="utf-8")
    (data / "meta.json").write_text(json.dumps({"id": "shop.example/q", "page": "p.htm"}))
    assert cli.main([str(tmp_path / "data"), "--out", str(tmp_path / "out"), "--changes", "wrap"]) == 0
    report = json.loads((tmp_path / "out" / "redesign.json").read_text())
    res = report["pages"]["shop.example/q"]["changes"]["wrap"]
    assert res["status"] == "skipped" and res["reason"].startswith("records not located")
    assert json.loads((tmp_path / "out" / "wrap" / "index.json").read_text()) == []
    assert "records not located" in capsys.readouterr().out
