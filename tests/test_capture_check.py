"""Frames as ads or content, and the warnings a page captured while busy gets (no browser)."""

from __future__ import annotations

from typing import Any

from test_columns import Builder

from visx.capture_check import capture_warnings, navigation_like
from visx.clean import clean
from visx.model import SCOPE_FRAME, Record, Region
from visx.pipeline import analyse
from visx.render.columns import insert_forest
from visx.render.snapshot_io import snapshot_from_dom


def framed_page(frame_attrs: dict[str, str], size: tuple[float, float] = (600.0, 400.0)) -> Any:
    """A page with a list of results and, beside it, an iframe holding a list of five short links."""
    b = Builder()
    html = b.add(-1, "html", box=(0, 0, 1000, 1200))
    body = b.add(html, "body", box=(0, 0, 1000, 1200))
    b.add(body, "h1", "Title", box=(10, 10, 500, 40))
    results = b.add(body, "ol", box=(10, 100, 600, 800))
    for k in range(8):
        li = b.add(results, "li", box=(10, 100 + 100 * k, 600, 100))
        b.add(li, "a", f"Result {k} about something long enough to read", box=(15, 105 + 100 * k, 400, 20),
              href=f"http://x/r{k}")
        b.add(li, "p", f"Snippet of result {k}, a sentence or two.", box=(15, 130 + 100 * k, 500, 40))
    iframe = b.add(body, "iframe", box=(650, 100, *size))
    for k, v in frame_attrs.items():
        b.d["attrs"].setdefault(k, []).extend((iframe, v))
    b.d["frames"] = [iframe, 650.0, 100.0]
    inner = Builder()
    ih = inner.add(-1, "html", box=(0, 0, size[0], size[1]))
    ib = inner.add(ih, "body", box=(0, 0, size[0], size[1]))
    ul = inner.add(ib, "ul", box=(0, 0, size[0], 300))
    for k in range(5):
        li = inner.add(ul, "li", box=(0, 60 * k, size[0], 60))
        inner.add(li, "a", f"Offer {k}", box=(5, 60 * k + 5, 200, 20), href=f"http://x/{k}")
    d = insert_forest(b.d, iframe, inner.d, dx=650.0, dy=100.0, scope=SCOPE_FRAME, root_step="#document/html")
    return snapshot_from_dom(d, source="page", status=200, javascript=True), iframe


def test_an_iframe_with_content_is_not_an_ad_for_being_a_frame() -> None:
    snap, iframe = framed_page({"src": "http://x/list.html"})
    removed = {r.node: r.reason for r in clean(snap).removed}
    assert iframe not in removed
    # The same frame with nothing captured in it is an ad slot, as before.
    empty = snapshot_from_dom(_without_frame_content(snap), source="page", status=200, javascript=True)
    assert {r.node: r.reason for r in clean(empty).removed}.get(iframe) == "ad:iframe"


def _without_frame_content(snap: Any) -> dict[str, Any]:
    from visx.render.columns import drop_children
    from visx.render.snapshot_io import columns_from_table

    iframe = next(n.index for n in snap.nodes.nodes if n.tag == "iframe")
    page = {"width": snap.width, "height": snap.height, "url": snap.url, "title": snap.title,
            "vw": snap.viewport[0], "vh": snap.viewport[1]}
    return drop_children(columns_from_table(snap.nodes, page), iframe)


def test_an_iframe_named_as_ads_is_removed_with_its_content() -> None:
    for attrs in ({"src": "http://x/ads.htm"}, {"name": "google_ads_iframe_1"},
                  {"src": "https://googleads.g.doubleclick.net/pagead/x"}):
        snap, iframe = framed_page(attrs)
        removed = {r.node: r.reason for r in clean(snap).removed}
        assert removed.get(iframe) == "ad:frame-hint", attrs


def test_an_iframe_of_a_standard_ad_size_is_judged_by_size() -> None:
    snap, iframe = framed_page({"src": "http://x/box.html"}, size=(300.0, 250.0))
    removed = {r.node: r.reason for r in clean(snap).removed}
    assert removed.get(iframe) == "ad:standard-size"


def _filters_page(settle: dict[str, Any] | None) -> Any:
    b = Builder()
    html = b.add(-1, "html", box=(0, 0, 1200, 900))
    body = b.add(html, "body", box=(0, 0, 1200, 900))
    aside = b.add(body, "aside", box=(0, 100, 200, 400))
    ul = b.add(aside, "ul", box=(0, 100, 200, 400))
    for k, name in enumerate(["Lamps", "Chairs", "Mugs", "Tables", "Rugs"]):
        li = b.add(ul, "li", box=(0, 100 + 30 * k, 200, 30))
        inp = b.add(li, "input", box=(2, 105 + 30 * k, 12, 12))
        b.d["attrs"].setdefault("type", []).extend((inp, "checkbox"))
        b.add(li, "label", f"{name} ({k + 3})", box=(20, 102 + 30 * k, 150, 20))
    snap = snapshot_from_dom(b.d, source="shop", status=200, javascript=True)
    if settle is not None:
        snap.extra["settle"] = settle
    return snap, ul


def test_filters_as_main_list_on_a_busy_page_warn() -> None:
    busy = {"settled": True, "requests": ["GET http://x/api/items"], "timers": 0, "quiet": True, "loading": ""}
    snap, ul = _filters_page(busy)
    region = Region(parent=ul, records=[Record([c], text=snap.nodes.text(c)) for c in snap.nodes[ul].children],
                    bbox=(0, 100, 200, 150))
    assert navigation_like(snap.nodes, region, snap.width).startswith("filters")
    warnings = capture_warnings(snap, [region])
    assert len(warnings) == 1 and "looks like filters" in warnings[0] and "--wait-for" in warnings[0]
    assert "1 request(s) in flight" in warnings[0]


def test_a_quiet_page_or_a_real_list_gets_no_warning() -> None:
    calm = {"settled": True, "requests": [], "timers": 0, "quiet": True, "loading": ""}
    snap, ul = _filters_page(calm)
    region = Region(parent=ul, records=[Record([c]) for c in snap.nodes[ul].children], bbox=(0, 100, 200, 150))
    assert capture_warnings(snap, [region]) == []
    # A saved snapshot without settle information (JS off, old files) is left alone.
    bare, _ = _filters_page(None)
    assert capture_warnings(bare, [region]) == []


def test_busy_page_without_any_list_warns_through_analyse() -> None:
    snap, _ = _filters_page({"settled": False, "requests": [], "timers": 2, "quiet": True, "loading": "Loading…"})
    snap.warnings.append("shop: the page had not settled when captured")
    ex = analyse(snap)
    assert ex.warnings[0] == "shop: the page had not settled when captured"
    assert any("2 timer(s) pending" in w and "'Loading…'" in w for w in ex.warnings)


def test_a_long_timer_pending_makes_a_filters_list_suspect() -> None:
    # Nothing in flight, but a one-shot timer of a few seconds was still to fire (a client
    # that waits 4 s before it fetches): not waited for, yet reason enough to warn.
    snap, ul = _filters_page({"settled": True, "requests": [], "timers": 0, "later": 1, "quiet": True,
                              "loading": ""})
    region = Region(parent=ul, records=[Record([c], text=snap.nodes.text(c)) for c in snap.nodes[ul].children],
                    bbox=(0, 100, 200, 150))
    (warning,) = capture_warnings(snap, [region])
    assert "1 timer(s) due within 30 s" in warning and "--wait-for" in warning
