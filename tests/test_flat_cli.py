"""``visx extract`` and ``visx report`` on a flat page, rendered in a real browser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import render_config

import visx
from visx.cli import main
from visx.flat import FlatRegion

PAGE = Path(__file__).parent.parent / "fixtures" / "flat" / "forum.html"


@pytest.mark.browser
@pytest.mark.parametrize("miner", ["mdr", "flat"])
def test_extract_flat_page_end_to_end(tmp_path: Path, miner: str) -> None:
    out = tmp_path / "out.json"
    assert main(["extract", str(PAGE), "--no-js", "--miner", miner, "-o", str(out)]) == 0
    region = json.loads(out.read_text())["regions"][0]
    assert len(region["records"]) == 5
    rec = region["records"][0]
    assert rec["text"].startswith("Carburetor keeps flooding on cold mornings Posted by mike_r")
    assert any(c["text"] == "Mar 14, 2003" and c["value"] == "2003-03-14" for c in rec["cells"])
    assert all(x.startswith("/html/body") for x in rec["xpaths"])


@pytest.mark.browser
def test_report_shows_entity_types_and_pattern(tmp_path: Path) -> None:
    assert main(["report", str(PAGE), "--no-js", "-o", str(tmp_path / "rep")]) == 0
    html = (tmp_path / "rep" / "report.html").read_text()
    assert "flat miner: key type title" in html
    assert "&lt;title, author, count, date&gt;" in html


@pytest.mark.browser
def test_pre_rows_with_tab_columns_are_records() -> None:
    rows = [("Oak table", "$120", "Apr 2, 2004", "Portland, OR"), ("Desk lamp", "$15", "Apr 1, 2004", "Salem, OR"),
            ("Bookcase, pine", "$60", "Mar 30, 2004", "Eugene, OR"), ("Armchair", "$85", "Mar 28, 2004", "Bend, OR")]
    body = "\n".join("\t".join(r) for r in rows)
    snap = visx.render(f"<html><body><h3>For sale</h3><pre>\n{body}\n</pre><p>4 ads</p></body></html>",
                       render_config(javascript=False))
    main = visx.analyse(snap).main
    assert isinstance(main, FlatRegion)
    assert [r.text for r in main.records] == [" ".join(r) for r in rows]
    assert main.records[0].types == ["title", "price", "date", "place"]  # type: ignore[attr-defined]
