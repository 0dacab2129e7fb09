"""Rendering real pages: scripts, fetch, file:// sub-resources, HTML strings, privacy."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from conftest import RENDER_FIXTURES, LocalServer, render_config

import visx
from visx.model import (
    SCOPE_CLOSED,
    SCOPE_FRAME,
    SCOPE_SHADOW,
    VIS_DISPLAY_NONE,
    VIS_HIDDEN,
    VIS_OFFPAGE,
    VIS_TRANSPARENT,
    VIS_ZERO_SIZE,
    PageSnapshot,
)

pytestmark = pytest.mark.browser


def texts_of(snap: PageSnapshot, tag: str, cls: str) -> list[str]:
    t = snap.nodes
    return [t.text(n.index) for n in t.nodes if n.tag == tag and cls in n.classes]


def find_id(snap: PageSnapshot, ident: str) -> int:
    return next(n.index for n in snap.nodes.nodes if n.id == ident)


def test_list_built_by_timers_is_fully_captured(server: LocalServer) -> None:
    snap = visx.render(server.url("render/delayed_list.html"), render_config())
    assert texts_of(snap, "li", "item") == [f"Delayed item {i}" for i in range(1, 13)]
    assert snap.status == 200 and not snap.partial and snap.extra["settled"] is True
    assert snap.title == "Delayed list"
    assert set(snap.timings) >= {"launch", "navigate", "settle", "snapshot"}
    assert all(v >= 0 for v in snap.timings.values())


def test_list_filled_by_fetch_is_fully_captured(server: LocalServer) -> None:
    snap = visx.render(server.url("render/fetch_list.html"), render_config())
    assert texts_of(snap, "div", "product") == [f"Fetched product {i} ${i}.99" for i in range(1, 16)]
    links = [n.attrs["href"] for n in snap.nodes.nodes if n.tag == "a"]
    assert links[0] == server.url("p/1"), "href is resolved against the page URL"
    assert "/render/items.json" in server.requests


def test_javascript_off_shows_the_servers_html(server: LocalServer) -> None:
    snap = visx.render(server.url("render/delayed_list.html"), render_config(javascript=False))
    assert texts_of(snap, "li", "item") == []
    assert snap.javascript is False


def test_file_page_with_relative_css(tmp_path: Path) -> None:
    snap = visx.render(RENDER_FIXTURES / "styled.html", render_config(javascript=False, screenshot=True))
    t = snap.nodes
    cards = [find_id(snap, f"c{i}") for i in (1, 2, 3)]
    boxes = [t[i].bbox for i in cards]
    # Sizes come from styled.css: they prove the relative stylesheet loaded.
    assert [(w, h) for _, _, w, h in boxes] == [(321.0, 47.0)] * 3
    assert [x for x, _, _, _ in boxes] == [20.0] * 3
    assert [y for _, y, _, _ in boxes] == [0.0, 57.0, 114.0]
    assert t.style(cards[0], "color") == "rgb(200, 10, 20)"
    assert t.style(cards[0], "display") == "block"
    c1 = t[cards[0]]
    assert (c1.text, t[c1.children[0]].text, t[c1.children[0]].tail) == ("First ", "bold", " tail one")
    assert t.text(cards[0]) == "First bold tail one"
    assert c1.xpath == "/html/body/div[1]/div[1]"
    flags = {n.classes[0]: n.vis for n in t.nodes if n.classes and n.classes[0] != "card"}
    assert flags["gone"] & VIS_DISPLAY_NONE
    assert t[find_id(snap, "inside-gone")].vis & VIS_DISPLAY_NONE, "display:none is inherited"
    assert flags["ghost"] == VIS_HIDDEN
    assert flags["clear"] == VIS_TRANSPARENT
    assert flags["flat"] == VIS_ZERO_SIZE
    assert flags["away"] == VIS_OFFPAGE
    assert all(t[i].vis == 0 for i in cards)
    rel = t[find_id(snap, "rel")]
    assert rel.attrs == {"href": (RENDER_FIXTURES / "detail.html").as_uri() + "?x=1", "title": "Details"}
    assert snap.url == (RENDER_FIXTURES / "styled.html").as_uri()
    assert snap.viewport == (1280, 900) and snap.width == 1280
    assert snap.screenshot_png is not None and snap.screenshot_png[:4] == b"\x89PNG"


def test_html_string_with_base_url_stays_private(server: LocalServer) -> None:
    html = (
        "<html><head><title>Inline</title></head><body>"
        '<a href="page/2">next</a>'
        f'<img src="{server.url("beacon.png")}" width="5" height="5" alt="beacon">'
        "<script>fetch('http://127.0.0.1:%d/beacon.png?from=script').catch(() => {});</script>"
        "</body></html>" % server.port
    )
    before = server.requests.count("/beacon.png")
    snap = visx.render(html, render_config(base_url="https://example.org/list/"))
    assert snap.title == "Inline" and snap.source == "<html string>"
    href = next(n.attrs["href"] for n in snap.nodes.nodes if n.tag == "a")
    assert href == "https://example.org/list/page/2"
    assert server.requests.count("/beacon.png") == before, "an HTML string must not reach the network"


def test_auto_scroll_loads_lazy_rows(server: LocalServer) -> None:
    snap = visx.render(server.url("render/lazy.html"), render_config(scroll=True, quiet_ms=200))
    rows = texts_of(snap, "div", "row")
    assert rows == [f"Row {i}" for i in range(1, 21)]
    assert any(n.startswith("auto-scrolled") for n in snap.notes)
    assert snap.height > 20 * 300


def test_async_api_shares_the_browser() -> None:
    async def two() -> list[PageSnapshot]:
        cfg = render_config(javascript=False)
        return list(await asyncio.gather(
            visx.render_async("<html><body><p>one</p></body></html>", cfg),
            visx.render_async("<html><body><p>two</p><p>2</p></body></html>", cfg),
        ))

    a, b = asyncio.run(two())
    assert [len(a.nodes), len(b.nodes)] == [4, 5]
    launched = [s.timings["launch"] > 0 for s in (a, b)]
    assert launched.count(True) <= 1, "concurrent renders share one browser launch"


def test_saved_page_is_not_carried_away_by_meta_refresh() -> None:
    page = RENDER_FIXTURES / "refresh.html"
    snap = visx.render(page, render_config(javascript=False))
    assert snap.url == page.as_uri() and snap.title == "Stays put"
    assert "Saved result one Saved result two" in snap.nodes.text(0)
    assert any("javascript_disabled.html" in n for n in snap.notes), snap.notes


def test_reused_tab_starts_clean(server: LocalServer) -> None:
    # Renders with the same settings reuse an open tab (~0.25 s saved a page); what one
    # render set up must not reach the next: its cookies, its redirect guard, its listeners.
    cfg = render_config()
    first = visx.render(server.url("render/cookie.html"), cfg)
    second = visx.render(server.url("render/cookie.html"), cfg)
    for snap in (first, second):
        assert snap.nodes.text(find_id(snap, "seen")) == "none"
    refresh = visx.render(RENDER_FIXTURES / "refresh.html", render_config(javascript=False))
    assert refresh.title == "Stays put"
    # The guard of the saved page (which blocks its second navigation) is gone for the next one.
    after = visx.render(RENDER_FIXTURES / "styled.html", render_config(javascript=False))
    assert after.url == (RENDER_FIXTURES / "styled.html").as_uri() and len(after.nodes) > 5
    assert not any("blocked a redirect" in n for n in after.notes), after.notes


def test_shadow_roots_and_slots_are_captured_in_rendered_order() -> None:
    snap = visx.render(RENDER_FIXTURES / "shadow.html", render_config())
    t = snap.nodes
    cards = [n for n in t.nodes if n.tag == "card-item"]
    assert [t.text(n.index) for n in cards[:2]] == ["Card 1 $1.50 Category 1", "Card 2 $2.50 Category 2"]
    assert all(n.scope & SCOPE_SHADOW for n in cards)
    assert cards[2].xpath == "/html/body/main/card-list/#shadow-root/div/card-item[3]"
    # A slotted element keeps its DOM path (under its host), and sits under its slot.
    price = next(n for n in t.nodes if "price" in n.classes and t.text(n.index) == "$3.50")
    assert price.xpath == "/html/body/main/card-list/#shadow-root/div/card-item[3]/span"
    assert t[price.parent].tag == "slot" and price.bbox[2] > 0
    sealed = next(n for n in t.nodes if "sealed" in n.classes)
    assert sealed.scope == SCOPE_SHADOW | SCOPE_CLOSED and t.text(sealed.index) == "Prices include VAT"
    assert any("walked 1 closed shadow root" in note for note in snap.notes)


def test_declarative_shadow_dom_is_captured_with_javascript_off() -> None:
    snap = visx.render(RENDER_FIXTURES / "shadow.html", render_config(javascript=False))
    t = snap.nodes
    dsd = next(n for n in t.nodes if "dsd" in n.classes)
    assert dsd.xpath == "/html/body/main/div/#shadow-root/p" and t.text(dsd.index) == "Declared shadow text"
    light = next(n for n in t.nodes if "light" in n.classes)
    assert t[light.parent].tag == "slot" and light.xpath == "/html/body/main/div/span"


def test_a_list_in_a_frame_is_the_main_list() -> None:
    ex = visx.extract(RENDER_FIXTURES / "frames.html", render_config())
    t = ex.snapshot.nodes
    main = ex.regions[0]
    assert len(main.records) == 15 and main.records[0].text.startswith("Framed item 1 ")
    assert t[main.parent].xpath == "/html/body/iframe[1]/#document/html/body/ul"
    assert all(t[r.parts[0]].scope & SCOPE_FRAME for r in main.records)
    assert any("no-such-frame.html" in n and "failed to load" in n for n in ex.snapshot.notes)
    # The empty (failed) frame is still an ad slot; the one with the list is not.
    removed = {t[r.node].id: r.reason for r in ex.cleaned.removed}
    assert removed.get("missing") == "ad:iframe" and "list-frame" not in removed


def test_line_breaks_are_kept_only_where_css_keeps_them() -> None:
    html = (
        "<html><body><pre id='a'>one  two\n<b>three</b>\n four</pre>"
        "<div id='b' style='white-space: pre-line'>x\ny</div>"
        "<p id='c'>five\n six</p></body></html>"
    )
    snap = visx.render(html, render_config(javascript=False))
    t = snap.nodes
    pre, div, p = (t[find_id(snap, k)] for k in "abc")
    assert pre.text == "one  two\n" and t[pre.index + 1].tail == "\n four"
    assert div.text == "x\ny" and p.text == "five six"
    assert t.text(pre.index) == "one two three four"  # the subtree's text stays one line
