"""``visx template export``: a learned template as Crawl4AI, CSS and XPath selectors that run
without visx, and give visx's own rows.

The round trip: learn a template from a saved snapshot, export it, run the export with parsel
(not visx) on the page's HTML, and compare every exported field of every record with the rows
``apply_template`` gives on the same page. The HTML is the one the template describes:

- the hand-written fixture file where the browser did not change it (no script, no table:
  the rendered DOM is the file's);
- for ``two_rows`` (a table written without ``tbody``, which the browser adds, so the raw file
  is not the DOM the selectors describe) the captured DOM, serialised from the snapshot: the
  same elements, ids, classes, captured attributes and text the browser had;
- in the browser test, the HTML the browser itself gives (``page.content()``, what Crawl4AI
  runs on).

Every field of the export is compared: these pages need no note (no list, no second text run),
so an export reading differs from visx's only by a bug. Where the two readings knowingly differ
(lists, text runs, first match against first match holding a value) the export says so; the
note tests below hold it to that.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from lxml import html as lhtml
from parsel import Selector

import visx
from visx.cli import main
from visx.errors import TemplateError
from visx.template import Template, apply_template
from visx.template.learn import learn
from visx.template.model import ColumnRule, RecordRule
from visx.template.portable import export_template, portable, split_sibling
from visx.template.tree import from_snapshot

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

RAW_PAGES = ["tables/missing_field", "tables/optional_badge", "mine/swatch_grid"]
"""Pages whose file is their DOM: no script, no table."""


def _norm(s: str | None) -> str | None:
    return " ".join(s.split()) or None if s else None


def _learned(name: str) -> tuple[visx.PageSnapshot, Template, list[dict[str, Any]]]:
    snap = visx.load_snapshot(FIXTURES / f"{name}.json.gz")
    t = learn(visx.analyse(snap), 0)
    return snap, t, []


def _visx_rows(snap: visx.PageSnapshot, t: Template, fields: dict[str, str],
               attributes: dict[str, str]) -> list[dict[str, str | None]]:
    """visx's own rows (``apply_template``), read as the export reads them."""
    applied = apply_template(snap, t, repair=False, strict=True)
    table = applied.extraction.tables[0]
    index = {c.name: k for k, c in enumerate(t.columns)}
    out = []
    for row in table.rows:
        rec: dict[str, str | None] = {}
        for name in fields:
            attr = attributes.get(name, "")
            base = name if name in index else name.removesuffix("_url")
            cell = row[index[base]]
            if cell is None:
                rec[name] = None
            elif attr == "src":
                rec[name] = cell.src or None
            elif attr == "href":
                rec[name] = cell.href or None
            else:
                rec[name] = _norm(cell.text)
        out.append(rec)
    return out


def _read(el: Selector | None, attr: str, base: str) -> str | None:
    if el is None:
        return None
    if attr:
        raw = el.attrib.get(attr)
        return urljoin(base, raw) if raw else None  # visx gives links and images absolute
    return _norm(el.xpath("string()").get())


def _run_css(page: str, data: dict[str, Any], base: str) -> list[dict[str, str | None]]:
    """The ``css`` export run with parsel alone."""
    out = []
    for rec in Selector(text=page).css(data["records"]):
        row = {}
        for name, css in data["fields"].items():
            got = rec.css(css)
            row[name] = _read(got[0] if got else None, data["attributes"].get(name, ""), base)
        out.append(row)
    return out


def _run_xpath(page: str, data: dict[str, Any], base: str) -> list[dict[str, str | None]]:
    """The ``xpath`` export run with parsel alone."""
    out = []
    for rec in Selector(text=page).xpath(data["records"]):
        row = {}
        for name, xp in data["fields"].items():
            got = rec.xpath(xp)
            row[name] = _read(got[0] if got else None, data["attributes"].get(name, ""), base)
        out.append(row)
    return out


def _run_crawl4ai(page: str, schema: dict[str, Any], base: str) -> list[dict[str, str | None]]:
    """The ``crawl4ai`` schema run as JsonCssExtractionStrategy reads one: base elements by
    ``baseSelector``; per field, a hop to the next sibling per ``+ *`` of ``source``, then the
    first *descendant* its ``selector`` matches (BeautifulSoup's ``select``), or the element
    itself without one; ``text`` or the named ``attribute``."""
    out = []
    for rec in Selector(text=page).css(schema["baseSelector"]):
        row: dict[str, str | None] = {}
        for f in schema["fields"]:
            el: Selector | None = rec
            for _ in range(f.get("source", "").count("+")):
                nxt = el.xpath("following-sibling::*[1]") if el is not None else []
                el = nxt[0] if nxt else None
            if el is not None and "selector" in f:
                got = [g for g in el.css(f["selector"]) if g.root is not el.root]
                el = got[0] if got else None
            row[f["name"]] = _read(el, f.get("attribute", "") if f["type"] == "attribute" else "", base)
        out.append(row)
    return out


def _dom_html(snap: visx.PageSnapshot) -> str:
    """The captured DOM as HTML; checked to parse back to the same elements."""
    tree = from_snapshot(snap.nodes)
    text = lhtml.tostring(tree.root, encoding="unicode")
    again = lhtml.document_fromstring(text)
    assert [e.tag for e in tree.root.iter()] == [e.tag for e in again.iter() if isinstance(e.tag, str)]
    return text


def _check_round_trip(snap: visx.PageSnapshot, t: Template, page: str) -> None:
    css = json.loads(export_template(t, "css"))
    xpath = json.loads(export_template(t, "xpath"))
    schema = json.loads(export_template(t, "crawl4ai"))
    # Nothing approximate (a note on a column, a column left out): every field must agree.
    assert "left_out" not in css and all(n.startswith("records: ") for n in css.get("notes", []))
    assert css["fields"]
    want = _visx_rows(snap, t, css["fields"], css["attributes"])
    assert len(want) >= 4
    assert all(any(row[name] for row in want) for name in css["fields"])  # no field compares only None
    assert _run_css(page, css, snap.url) == want
    assert _run_xpath(page, xpath, snap.url) == _visx_rows(snap, t, xpath["fields"], xpath["attributes"])
    assert _run_crawl4ai(page, schema, snap.url) == want
    assert [f["name"] for f in schema["fields"]] == list(css["fields"])


@pytest.mark.parametrize("name", RAW_PAGES)
def test_round_trip_on_the_page_file(name: str) -> None:
    snap, t, _ = _learned(name)
    _check_round_trip(snap, t, (FIXTURES / f"{name}.html").read_text(encoding="utf-8"))


def test_round_trip_split_records_on_the_captured_dom() -> None:
    # Two rows per record (a title row, a details row): fields of the second row start from
    # the record's next sibling. The file has no tbody; the browser's DOM, which the template
    # was learned on, has one.
    snap, t, _ = _learned("mine/two_rows")
    assert t.records.parts == 2
    schema = json.loads(export_template(t, "crawl4ai"))
    score = next(f for f in schema["fields"] if f["name"] == "score")
    assert score["source"] == "+ *" and score["selector"].startswith(":scope > ")
    css = json.loads(export_template(t, "css"))
    assert css["fields"]["score"].startswith(":scope + * > ")
    _check_round_trip(snap, t, _dom_html(snap))


def test_images_and_links_read_their_attributes() -> None:
    snap, t, _ = _learned("tables/optional_badge")
    schema = json.loads(export_template(t, "crawl4ai"))
    by_name = {f["name"]: f for f in schema["fields"]}
    assert by_name["image"] == {"name": "image", "selector": ":scope > img", "type": "attribute",
                                "attribute": "src"}
    assert by_name["name"]["type"] == "text"
    assert by_name["name_url"]["attribute"] == "href"
    assert by_name["name_url"]["selector"] == by_name["name"]["selector"]
    assert schema["name"] == snap.title
    assert schema["_visx"]["template"]["url"] == t.url


# ------------------------------------------------------------------ what cannot be said

def _template(columns: list[ColumnRule], *, records_css: list[str] | None = None,
              records_xpaths: list[str] | None = None, parts: int = 1) -> Template:
    return Template(site="shop.example", url="https://shop.example/list", title="Shop",
                    records=RecordRule(xpaths=records_xpaths or ["//ul[@id='r']/li"],
                                       css=['[id="r"] > li'] if records_css is None else records_css,
                                       parts=parts, counts=[10]),
                    columns=columns)


def test_hidden_stars_and_columns_without_css_are_left_out_and_named() -> None:
    t = _template([
        ColumnRule(name="title", type="text", xpaths=["./h3/a"], css=[":scope > h3 > a"]),
        ColumnRule(name="by", type="text", xpaths=["./span[1]"], css=[":scope > span:nth-of-type(1)"],
                   hidden=True, flags=["constant"]),
        ColumnRule(name="rating", type="rating", kind="stars", xpaths=["./div"], css=[":scope > div"]),
        ColumnRule(name="odd", type="text", xpaths=["./*[name()='x:y']"], css=[]),
    ])
    out = portable(t, "css")
    assert [f.name for f in out.fields] == ["title", "title_url"]
    assert set(out.left_out) == {"rating", "odd"}
    assert "star" in out.left_out["rating"] and "xpath" in out.left_out["odd"]
    data = json.loads(out.text())
    assert data["left_out"] == out.left_out
    assert [f.name for f in portable(t, "css", all_columns=True).fields] == ["title", "title_url", "by"]
    # XPath says the column CSS cannot; stars stay out of every form.
    assert set(portable(t, "xpath").left_out) == {"rating"}
    schema = json.loads(export_template(t, "crawl4ai"))
    assert schema["_visx"]["left_out"].keys() == {"rating", "odd"}


def test_readings_unlike_visx_are_noted() -> None:
    t = _template([
        ColumnRule(name="authors", type="text", kind="list", xpaths=["./div"], css=[":scope > div"]),
        ColumnRule(name="count", type="integer", piece=1, xpaths=["./p"], css=[":scope > p"]),
        ColumnRule(name="label", type="text", kind="attr", xpaths=["./i"], css=[":scope > i"]),
    ])
    out = portable(t, "crawl4ai")
    assert any(n.startswith("authors: ") and "'; '" in n for n in out.notes)
    assert any(n.startswith("count: ") and "text run 2" in n for n in out.notes)
    assert any(n.startswith("label: ") and "aria-label" in n for n in out.notes)
    fields = {f["name"]: f for f in json.loads(out.text())["fields"]}
    assert fields["label"] == {"name": "label", "selector": ":scope > i", "type": "attribute",
                               "attribute": "aria-label"}


def test_record_that_is_a_link_gives_the_url_field_of_the_record() -> None:
    t = _template([ColumnRule(name="title", type="text", xpaths=["."], css=[":scope"])],
                  records_css=["div.cards > a.card"], records_xpaths=["//div[@class='cards']/a"])
    schema = json.loads(export_template(t, "crawl4ai"))
    assert schema["fields"] == [{"name": "title", "type": "text"},
                                {"name": "title_url", "type": "attribute", "attribute": "href"}]
    assert json.loads(export_template(t, "xpath"))["fields"] == {"title": ".", "title_url": "."}
    page = ('<div class="cards"><a class="card" href="/a">A</a><a class="card" href="/b">B</a></div>')
    assert _run_crawl4ai(page, schema, "https://x.example/") == [
        {"title": "A", "title_url": "https://x.example/a"}, {"title": "B", "title_url": "https://x.example/b"}]


def test_shadow_root_paths_export_as_xpath_with_a_note_and_not_as_css() -> None:
    t = _template([ColumnRule(name="name", type="text", xpaths=["./#shadow-root/span"], css=[])],
                  records_css=[], records_xpaths=["//shop-list/#shadow-root/ul/li"])
    with pytest.raises(TemplateError, match="shadow root"):
        export_template(t, "crawl4ai")
    with pytest.raises(TemplateError, match="shadow root"):
        export_template(t, "css")
    data = json.loads(export_template(t, "xpath"))
    assert data["records"] == "//shop-list/#shadow-root/ul/li"
    assert data["fields"] == {"name": "./#shadow-root/span"}
    assert any(n.startswith("records: ") and "plain XPath" in n for n in data["notes"])
    assert any(n.startswith("name: ") and "plain XPath" in n for n in data["notes"])


def test_plain_xpath_is_preferred_to_a_shadow_path_of_the_queue() -> None:
    t = _template([ColumnRule(name="name", type="text", xpaths=["./#shadow-root/span", "./span"],
                              css=[":scope > span"])])
    data = json.loads(export_template(t, "xpath"))
    assert data["fields"]["name"] == "./span" and "notes" not in data


def test_split_sibling() -> None:
    assert split_sibling(":scope + * > td:nth-of-type(2) > a") == (1, ":scope > td:nth-of-type(2) > a")
    assert split_sibling(":scope + * + * span.x") == (2, ":scope span.x")
    assert split_sibling(":scope + *") == (1, ":scope")
    assert split_sibling("span.price") == (0, "span.price")


def test_unknown_format_is_an_error() -> None:
    with pytest.raises(TemplateError, match="crawl4ai, css, xpath"):
        export_template(_template([]), "yaml")


# ------------------------------------------------------------------ the command

def test_cli_export_writes_each_form(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _snap, t, _ = _learned("tables/optional_badge")
    tf = t.save(tmp_path / "shop.template.json")
    out = tmp_path / "out" / "schema.json"
    assert main(["template", "export", str(tf), "--format", "crawl4ai", "-o", str(out)]) == 0
    schema = json.loads(out.read_text(encoding="utf-8"))
    assert schema["baseSelector"] == t.records.css[0]
    assert f"wrote {out}" in capsys.readouterr().err
    assert main(["template", "export", str(tf), "--format", "xpath"]) == 0
    assert json.loads(capsys.readouterr().out)["records"] == t.records.xpaths[0]


def test_cli_export_warns_of_columns_left_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    t = _template([
        ColumnRule(name="title", type="text", xpaths=["./h3/a"], css=[":scope > h3 > a"]),
        ColumnRule(name="rating", type="rating", kind="stars", xpaths=["./div"], css=[":scope > div"]),
    ])
    tf = t.save(tmp_path / "t.json")
    assert main(["template", "export", str(tf), "--format", "css"]) == 0
    cap = capsys.readouterr()
    assert "visx: warning: column 'rating' left out: a star rating" in cap.err
    assert json.loads(cap.out)["left_out"]["rating"].startswith("a star rating")
    assert main(["template", "export", str(tf), "--format", "css", "-qq"]) == 0
    assert "rating" not in capsys.readouterr().err


def test_cli_export_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["template", "export", str(tmp_path / "none.json"), "--format", "css"]) == 2
    assert "no such template file" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    assert main(["template", "export", str(bad), "--format", "css"]) == 2
    assert "not a valid template" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["template", "export", str(bad), "--format", "yaml"])
    assert e.value.code == 2


# ------------------------------------------------------------------ in a browser

@pytest.mark.browser
def test_round_trip_on_the_html_the_browser_gives(tmp_path: Path) -> None:
    # Render with a real Chromium and keep page.content(): the HTML a crawler such as Crawl4AI
    # runs the export on. The table's tbody is the browser's, as in the template.
    from visx.config import Config, RenderConfig

    got: list[str] = []

    async def keep_html(page: Any) -> None:
        got.append(await page.content())

    snap = visx.render(FIXTURES / "mine" / "two_rows.html",
                       Config(render=RenderConfig(javascript=False, timeout_s=15.0)), action=keep_html)
    t = learn(visx.analyse(snap), 0)
    assert "<tbody>" in got[0]
    _check_round_trip(snap, t, got[0])
