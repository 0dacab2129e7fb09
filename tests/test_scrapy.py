"""visx inside Scrapy (``visx.scrapy``): a real ``scrapy crawl`` of the example project
(``examples/scrapy_lists``, copied to a temporary folder) against the local test site of
``batch_site.py``, once with Scrapy's own download (the HTML body path) and once with
scrapy-playwright (the live page path); its items equal ``visx extract`` of the same pages.
"""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from batch_site import Site, records_of

pytest.importorskip("scrapy", reason="pip install 'visx[scrapy]'")
pytest.importorskip("scrapy_playwright", reason="pip install 'visx[scrapy]'")

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ROOT / "examples" / "scrapy_lists"


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    s = Site()
    yield s
    s.stop()


def _norm(row: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """A row as the CSV writes it: values as text, empty cells left out."""
    return tuple(sorted((k, str(v)) for k, v in row.items() if v is not None and v != ""))


@pytest.mark.browser
def test_crawl_items_equal_visx_extract(tmp_path: Path, site: Site) -> None:
    pages = [site.url(f"p/{n}.html") for n in (500, 501, 502, 503)]
    urls = [*pages, site.url("status/404?s=1")]  # Scrapy drops the 404: no items, no error
    project = tmp_path / "project"
    shutil.copytree(PROJECT, project, ignore=shutil.ignore_patterns("__pycache__"))
    crawl = [sys.executable, "-m", "scrapy", "crawl", "lists", "-a", "urls=" + ",".join(urls), "-s", "LOG_LEVEL=WARNING"]
    listing = tmp_path / "urls.txt"
    listing.write_text("\n".join(pages) + "\n", encoding="utf-8")
    # The three runs at once: each waits mostly on its browser.
    runs = {
        "html": subprocess.Popen([*crawl, "-O", str(tmp_path / "html.jsonl")], cwd=project,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True),
        "playwright": subprocess.Popen([*crawl, "-a", "playwright=1", "-O", str(tmp_path / "pw.jsonl")],
                                       cwd=project, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True),
        "extract": subprocess.Popen([sys.executable, "-m", "visx", "extract", "--sources-from", str(listing),
                                     "-o", str(tmp_path / "rows.csv"), "--no-js", "-q"],
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True),
    }
    for name, proc in runs.items():
        out, _ = proc.communicate(timeout=180)
        assert proc.returncode == 0, (name, out)
        assert "Traceback" not in out and "ERROR" not in out, (name, out)
    with open(tmp_path / "rows.csv", newline="", encoding="utf-8") as f:
        expected = sorted(_norm(r) for r in csv.DictReader(f))
    assert len(expected) == sum(records_of(n) for n in (500, 501, 502, 503))
    for feed in ("html.jsonl", "pw.jsonl"):
        items = [json.loads(line) for line in (tmp_path / feed).read_text(encoding="utf-8").splitlines()]
        assert {i["source"] for i in items} == set(pages), feed
        assert sorted(_norm(i) for i in items) == expected, feed


@pytest.mark.browser
def test_item_class_and_plain_response() -> None:
    """``items`` from a plain ``HtmlResponse`` (no crawl): dicts, or the Item class given."""
    import asyncio

    import scrapy
    from batch_site import page_html
    from scrapy.http import HtmlResponse

    import visx.scrapy
    from visx.config import Config, RenderConfig

    class Row(scrapy.Item):
        source = scrapy.Field()
        title = scrapy.Field()
        title_url = scrapy.Field()
        author = scrapy.Field()
        date = scrapy.Field()

    resp = HtmlResponse("http://shop.test/list/1.html", body=page_html(1).encode(), encoding="utf-8")
    cfg = Config(render=RenderConfig(javascript=False))
    rows = asyncio.run(visx.scrapy.items(resp, cfg, item_class=Row))
    assert len(rows) == records_of(1) and all(isinstance(r, Row) for r in rows)
    assert rows[0]["source"] == "http://shop.test/list/1.html"
    assert rows[0]["title_url"] == "http://shop.test/story/1/0"  # links resolved against the response's URL
