"""``visx check``: a page held to what its template promises, with a diff and JUnit XML for CI.

A template learned from a saved snapshot of a hand-written page (``fixtures/tables/
missing_field``: five books, a rating in three) is checked against that page's HTML read
with ``--static`` (no browser) and against copies changed the way sites change: a field's
values reformatted, a field gone, the list restructured, the list repeated. Real files,
real runs through ``visx.cli.main``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import visx
from visx.cli import main
from visx.template import Template
from visx.template.check import MAX_RECORDS_FACTOR, aimed_at, check_page
from visx.template.learn import learn

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SNAPSHOT = FIXTURES / "tables" / "missing_field.json.gz"
PAGE = FIXTURES / "tables" / "missing_field.html"
OTHER_SITE = FIXTURES / "gate" / "yelp.com" / "home-furniture" / "snapshot.json.gz"


@pytest.fixture(scope="module")
def template() -> Template:
    return learn(visx.analyse(visx.load_snapshot(SNAPSHOT)), 0)


@pytest.fixture
def template_file(template: Template, tmp_path: Path) -> Path:
    return template.save(tmp_path / "books.template.json")


def _changed(tmp_path: Path, name: str, edit: object) -> Path:
    html = PAGE.read_text(encoding="utf-8")
    out = tmp_path / name
    out.write_text(edit(html) if callable(edit) else html, encoding="utf-8")
    return out


def test_the_template_learns_what_the_checks_rely_on(template: Template) -> None:
    assert template.records.counts == [5]
    cols = {c.name: (c.type, c.fill) for c in template.columns}
    assert cols == {"title": ("text", 1.0), "author": ("text", 1.0), "rating": ("rating", 0.6),
                    "year": ("integer", 1.0)}


@pytest.mark.parametrize("source", [str(PAGE), str(SNAPSHOT)])
def test_the_page_it_was_learned_on_passes(template_file: Path, source: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", source, "--template", str(template_file), "--static"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"PASS {source}: 5 record(s); 5 promise(s) kept")


def test_a_reformatted_field_breaks_its_type(tmp_path: Path, template_file: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    page = _changed(tmp_path, "books.html", lambda h: re.sub(r'<div class="year">\d+</div>',
                                                             '<div class="year">n/a</div>', h))
    junit = tmp_path / "ci" / "check.xml"
    assert main(["check", str(page), "--template", str(template_file), "--static",
                 "--junit", str(junit)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"FAIL {page}: 5 record(s); 1 of 5 promise(s) broken")
    assert "- year: type integer, filled 100%\n+ year: type text, filled 100%\n" in out
    assert "its values read as text, not integer" in out
    root = ET.parse(junit).getroot()
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("5", "1", "0")
    suite = root.find("testsuite")
    assert suite is not None and suite.get("name") == str(page)
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert list(cases) == ["records", "column title", "column author", "column rating", "column year"]
    failure = cases["column year"].find("failure")
    assert failure is not None and failure.text is not None
    assert failure.text.startswith("- year: type integer, filled 100%\n+ year: type text")
    assert all(c.find("failure") is None for name, c in cases.items() if name != "column year")
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props["template"] == str(template_file) and props["records"] == "5"


def test_a_field_gone_from_the_page(tmp_path: Path, template_file: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    page = _changed(tmp_path, "books.html", lambda h: re.sub(r'<div class="year">\d+</div>', "", h))
    assert main(["check", str(page), "--template", str(template_file), "--static"]) == 1
    out = capsys.readouterr().out
    assert "- year: type integer, filled 100%\n+ year: not found (filled 0%)\n    no value in any of 5" in out


def test_a_field_whose_paths_now_reach_another_field(tmp_path: Path, template_file: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    # Without its author, a record's first div is the rating: the author's fallback path
    # (./div[1]) reads the rating there.
    page = _changed(tmp_path, "books.html", lambda h: re.sub(r'<div class="author">[^<]*</div>', "", h))
    assert main(["check", str(page), "--template", str(template_file), "--static"]) == 1
    out = capsys.readouterr().out
    assert "- author: type text, filled 100%" in out
    assert "finds the same values as 'rating'" in out


def test_a_renamed_class_the_template_outlives(tmp_path: Path, template_file: Path) -> None:
    # The queue's structural path still finds the authors: the promise is kept.
    page = _changed(tmp_path, "books.html", lambda h: h.replace('class="author"', 'class="writer"'))
    assert main(["check", str(page), "--template", str(template_file), "--static"]) == 0


def test_a_restructured_list_loses_its_records(tmp_path: Path, template_file: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    page = _changed(tmp_path, "books.html", lambda h: h.replace('id="results"', 'id="hits"')
                    .replace('class="result"', 'class="hit"').replace("<div ", "<section ")
                    .replace("</div>", "</section>"))
    junit = tmp_path / "check.xml"
    assert main(["check", str(page), "--template", str(template_file), "--static", "--junit", str(junit)]) == 1
    out = capsys.readouterr().out
    assert "- records: 5 usually (from 3 to 15)\n+ records: 0\n    no record found" in out
    root = ET.parse(junit).getroot()
    assert (root.get("failures"), root.get("skipped")) == ("1", "4")


def test_a_list_repeated_over_the_bound(tmp_path: Path, template_file: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    def repeat(h: str) -> str:
        rows = re.findall(r'  <div class="result">.*\n', h)
        return h.replace("".join(rows), "".join(rows) * 4)

    page = _changed(tmp_path, "books.html", repeat)
    assert MAX_RECORDS_FACTOR * 5 < 20
    assert main(["check", str(page), "--template", str(template_file), "--static"]) == 1
    assert "+ records: 20\n    20 record(s), over the 15 it promises" in capsys.readouterr().out


def test_another_site_keeps_nothing(template_file: Path, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    # A saved page of another site: the template runs on it (check names its template); its
    # structural record path finds one element there, without the books' fields.
    junit = tmp_path / "check.xml"
    assert main(["check", str(OTHER_SITE), "--template", str(template_file), "--junit", str(junit)]) == 1
    out = capsys.readouterr().out
    assert "- records: 5 usually (from 3 to 15)\n+ records: 1\n    1 record(s), under the 3 it promises" in out
    assert "- year: type integer, filled 100%\n+ year: not found (filled 0%)" in out
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None
    failed = [c.get("name") for c in suite.iter("testcase") if c.find("failure") is not None]
    assert failed == ["records", "column rating", "column year"]


def test_several_sources_a_summary_and_the_worst_status(tmp_path: Path, template_file: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    bad = _changed(tmp_path, "bad.html", lambda h: h.replace("2019", "n/a").replace("2021", "n/a")
                   .replace("2017", "n/a").replace("2023", "n/a").replace("2020", "n/a"))
    listing = tmp_path / "pages.txt"
    listing.write_text(f"# pages\n{PAGE}\n\n{bad}\n", encoding="utf-8")
    assert main(["check", "--sources-from", str(listing), "--template", str(template_file), "--static"]) == 1
    out = capsys.readouterr().out
    assert f"[1/2] PASS {PAGE}" in out and f"[2/2] FAIL {bad}" in out
    assert out.rstrip().endswith("visx check: 1 of 2 page(s) keep every promise; 1 break some")

    junit = tmp_path / "all.xml"
    missing = tmp_path / "gone.html"
    assert main(["check", str(PAGE), str(missing), str(bad), "--template", str(template_file), "--static",
                 "--junit", str(junit)]) == 2
    cap = capsys.readouterr()
    assert f"visx: error: [2/3] {missing}: no such file" in cap.err
    assert "1 break some; 1 could not be checked" in cap.out
    root = ET.parse(junit).getroot()
    assert [s.get("name") for s in root.iter("testsuite")] == [str(PAGE), str(missing), str(bad)]
    assert (root.get("errors"), root.get("failures")) == ("1", "1")
    error = root.findall("testsuite")[1].find("testcase/error")
    assert error is not None and error.get("type") == "SourceNotFoundError"


def test_errors_exit_2(tmp_path: Path, template_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(PAGE), "--template", str(tmp_path / "none.json"), "--static"]) == 2
    assert "no such template file" in capsys.readouterr().err
    assert main(["check", "--template", str(template_file)]) == 2
    assert "no SOURCE given" in capsys.readouterr().err


def test_hidden_columns_with_all_columns(template: Template) -> None:
    shown = check_page(PAGE, template, static=True)
    assert [p.name for p in shown.promises] == ["records", "column title", "column author", "column rating",
                                                "column year"]
    hidden = template.model_copy(deep=True)
    hidden.columns[2].hidden = True
    assert "column rating" not in [p.name for p in check_page(PAGE, hidden, static=True).promises]
    assert "column rating" in [p.name for p in check_page(PAGE, hidden, static=True, all_columns=True).promises]


def test_a_template_of_another_host_checks_a_copy_of_its_page(template: Template) -> None:
    # Learned on a live site, checked on a saved copy (or a staging host): the one template
    # named is applied, whatever the page's host.
    live = template.model_copy(update={"url": "https://www.books.example/search?q=x", "site": "books.example"})
    res = check_page(PAGE, live, static=True)
    assert res.ok and res.records == 5
    staging = aimed_at(live, "https://staging.books.example/search?q=y")
    assert staging.url == "https://staging.books.example/search?q=x"
    assert aimed_at(live, "https://www.books.example/other") is live


@pytest.mark.browser
def test_check_renders_the_page(template_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(PAGE), "--template", str(template_file), "--no-js", "--timeout", "15"]) == 0
    assert capsys.readouterr().out.startswith(f"PASS {PAGE}: 5 record(s)")


def test_html_text_is_checked_as_a_page(template: Template) -> None:
    live = template.model_copy(update={"url": "https://www.books.example/search?q=x", "site": "books.example"})
    res = check_page(PAGE.read_text(encoding="utf-8"), live, static=True)
    assert res.ok and res.source == "(HTML text)" and res.records == 5


def test_junit_holds_only_characters_xml_can(tmp_path: Path) -> None:
    from visx.template.check import CheckResult, Promise, write_junit

    res = CheckResult(source="page\x0b.html", records=3, promises=[
        Promise("column price", "price: type price, filled 100%", "price: type text, filled 100%",
                ["only 0 of 3 value(s) read as price (e.g. 'call\x01us')"])])
    root = ET.parse(write_junit([res], tmp_path / "j.xml")).getroot()
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None and "call\ufffdus" in (failure.text or "")
    suite = root.find("testsuite")
    assert suite is not None and suite.get("name") == "page\ufffd.html"
