"""A real saved list page (testbed dev copy) rendered offline with JavaScript off."""

from __future__ import annotations

import csv
import itertools
from pathlib import Path

import lxml.html
import pytest
from conftest import FIXTURES, render_config
from playwright.async_api import Page

import visx
from visx import PageSnapshot

pytestmark = pytest.mark.browser

PAGE_DIR = FIXTURES / "testbed" / "irs.gov" / "home-sales"
PAGE = PAGE_DIR / "home sales.htm"


def gold_titles() -> list[str]:
    """First-column cells; a trailing ellipsis is dropped (the page writes "...", the CSV "…")."""
    with (PAGE_DIR / "records.csv").open(encoding="utf-8", newline="") as fh:
        cells = [" ".join(row[0].split()) for row in csv.reader(fh) if row and row[0].strip()]
    return [c.rstrip("…. ") for c in cells]


def title_element(snap: PageSnapshot, title: str) -> int:
    """The deepest visible element whose text holds the gold title."""
    t = snap.nodes
    hits = [n.index for n in t.nodes if n.vis == 0 and title in t.text(n.index)]
    assert hits, f"gold title {title!r} not found on the page"
    return max(hits, key=lambda i: t[i].depth)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> tuple[PageSnapshot, str]:
    dom: list[str] = []

    async def keep_dom(page: Page) -> None:
        dom.append(await page.content())

    snap = visx.render(PAGE, render_config(javascript=False), action=keep_dom)
    return snap, dom[0]


def test_testbed_page_renders_offline(rendered: tuple[PageSnapshot, str]) -> None:
    snap, _ = rendered
    assert snap.javascript is False and not snap.partial
    assert snap.url == PAGE.resolve().as_uri()
    assert len(snap.nodes) > 100
    css = [n for n in snap.nodes.nodes if n.tag == "link" and n.attrs.get("href", "").endswith(".css")]
    assert css and all(n.attrs["href"].startswith("file://") for n in css)


def test_result_boxes_are_non_empty_and_in_reading_order(rendered: tuple[PageSnapshot, str]) -> None:
    snap, _ = rendered
    titles = gold_titles()
    assert len(titles) == 10
    boxes = [snap.nodes[title_element(snap, title)].bbox for title in titles]
    for (x, y, w, h), title in zip(boxes, titles, strict=True):
        assert w > 0 and h > 0, title
        assert 0 <= x < snap.width and 0 <= y < snap.height, title
    for (x0, y0, _, h0), (x1, y1, _, _) in itertools.pairwise(boxes):
        same_row = abs(y1 - y0) < h0 / 2
        assert y1 > y0 or (same_row and x1 > x0), "records follow in reading order"


def test_xpaths_equal_lxml_getpath_on_the_rendered_dom(rendered: tuple[PageSnapshot, str]) -> None:
    snap, html = rendered
    root = lxml.html.document_fromstring(html)
    tree = root.getroottree()
    theirs = [tree.getpath(el) for el in root.iter() if isinstance(el.tag, str)]
    assert [n.xpath for n in snap.nodes.nodes] == theirs
    assert all(snap.nodes.find_xpath(p) == i for i, p in enumerate(theirs))


def test_real_snapshot_round_trip(rendered: tuple[PageSnapshot, str], tmp_path: Path) -> None:
    snap, _ = rendered
    snap.save(tmp_path / "irs.snapshot.json.gz")
    back = visx.load_snapshot(tmp_path / "irs.snapshot.json.gz")
    assert back.nodes.nodes == snap.nodes.nodes
    assert back.nodes.styles == snap.nodes.styles
    for field in ("source", "url", "title", "status", "width", "height", "viewport", "javascript",
                  "timings", "partial", "notes", "created", "extra"):
        assert getattr(back, field) == getattr(snap, field), field
