"""Client-rendered apps built from npm packages (``fixtures/spa/``), rendered for real.

Each app fetches its items from the test server's ``/api/spa/`` (``spa_api``),
so the expected records are known: item ``i``'s title is unique and the tests
read it back from each record's text. Delays are small so CI stays quick.
"""

from __future__ import annotations

import json
import re
from itertools import pairwise
from pathlib import Path

import pytest
import spa_api
from conftest import LocalServer

import visx
from visx.cli import main
from visx.config import Config, RenderConfig
from visx.errors import ConfigError, RenderTimeoutError
from visx.model import SCOPE_CLOSED, SCOPE_FRAME, SCOPE_SHADOW
from visx.pipeline import Extraction

pytestmark = pytest.mark.browser

TITLE = re.compile(r"\b([A-Z][a-z]+ [A-Z][a-z]+ (\d{4}))\b")


def spa(server: LocalServer, page: str) -> str:
    return server.url(f"spa/dist/{page}")


def cfg(**kw: object) -> Config:
    kw.setdefault("timeout_s", 15.0)
    return Config(render=RenderConfig(**kw))  # type: ignore[arg-type]


def ids_of(ex: Extraction, rank: int = 1) -> list[int]:
    """The item ids of a region's records, read from their titles."""
    region = ex.regions[rank - 1]
    out = []
    for rec in region.records:
        m = TITLE.search(rec.text)
        assert m, f"record without an item title: {rec.text[:80]!r}"
        assert m.group(1) == spa_api.item(int(m.group(2)))["title"], rec.text[:80]
        out.append(int(m.group(2)))
    return out


# -- 1. capture everything the user sees --------------------------------------------------


def test_web_components_in_shadow_roots_are_records(server: LocalServer) -> None:
    ex = visx.extract(spa(server, "shadow.html"), cfg())
    assert ids_of(ex) == list(range(1, 31))
    nodes = ex.snapshot.nodes
    main = ex.regions[0]
    assert all(nodes[r.parts[0]].scope & SCOPE_SHADOW for r in main.records)
    assert all("#shadow-root" in nodes[r.parts[0]].xpath for r in main.records)
    # Slotted light-DOM content (the category badge) is part of the card.
    first = main.records[0].text
    assert spa_api.item(1)["category"] in first and "$46.01" in first
    # The closed root was walked and said so.
    assert any("closed shadow root" in n for n in ex.snapshot.notes)
    sealed = [n for n in nodes.nodes if n.scope & SCOPE_CLOSED and "VAT" in nodes.text(n.index)]
    assert sealed, "the closed shadow root's text is in the snapshot"
    # The sidebar filters are a region, but not the main one.
    assert all(nodes[r.parent].xpath != nodes[main.parent].xpath for r in ex.regions[1:])


def test_shadow_xpaths_find_the_live_element_again(server: LocalServer) -> None:
    from playwright.async_api import Page

    from visx.render.locate import locate

    snap = visx.render(spa(server, "shadow.html"), cfg())
    title = next(n for n in snap.nodes.nodes if n.tag == "h3" and "title" in n.classes and n.scope)
    seen: list[str] = []

    async def check(page: Page) -> None:
        el = await locate(page, title.xpath)
        assert el is not None
        seen.append(await el.inner_text())

    visx.render(spa(server, "shadow.html"), cfg(), action=check)
    assert seen == [snap.nodes.text(title.index)]


def test_lists_in_frames_are_captured_with_page_coordinates(server: LocalServer) -> None:
    ex = visx.extract(spa(server, "frames.html"), cfg())
    nodes = ex.snapshot.nodes
    assert ids_of(ex, 1) == list(range(1, 26))
    main = ex.regions[0]
    assert "/iframe" in nodes[main.parent].xpath and "#document" in nodes[main.parent].xpath
    assert all(nodes[r.parts[0]].scope & SCOPE_FRAME for r in main.records)
    # The cross-origin frame (localhost vs 127.0.0.1) is captured too, as a list of its own.
    cross = [k for k in range(1, len(ex.regions) + 1) if ex.regions[k - 1].records
             and TITLE.search(ex.regions[k - 1].records[0].text)
             and ids_of(ex, k)[0] == 101]
    assert cross and ids_of(ex, cross[0]) == list(range(101, 113))
    # Page coordinates: the first record sits inside its iframe's box.
    frame = next(n for n in nodes.nodes if n.tag == "iframe" and n.id == "list-frame")
    x, y, _, _ = main.records[0].bbox
    assert frame.x <= x < frame.x + frame.w and frame.y <= y < frame.y + frame.h
    # An iframe with content is not an ad; the broken one is noted.
    assert frame.index not in {r.node for r in ex.cleaned.removed}
    assert any("missing-frame" in n and "404" in n for n in ex.snapshot.notes)


# -- 2. settle honestly ---------------------------------------------------------------------


def test_an_api_slower_than_network_idle_is_waited_for(server: LocalServer) -> None:
    # network_idle_s is far below the API's delay: the in-flight request is what waits.
    ex = visx.extract(spa(server, "late.html?delay=1500"), cfg(network_idle_s=0.3))
    assert ids_of(ex) == list(range(1, 25))
    assert not ex.warnings


def test_a_client_that_waits_before_fetching_is_waited_for(server: LocalServer) -> None:
    # The page sleeps 1.5 s (setTimeout) before it fetches: a pending short timer.
    ex = visx.extract(spa(server, "late.html?wait=1500&delay=200"), cfg(network_idle_s=0.3))
    assert ids_of(ex) == list(range(1, 25))


def test_data_later_than_the_timeout_is_a_warning_not_a_silent_answer(server: LocalServer) -> None:
    ex = visx.extract(spa(server, "late.html?delay=6000"), cfg(timeout_s=2.5))
    assert ex.snapshot.partial
    text = " ".join(ex.warnings)
    assert "not settled" in text or "had not settled" in text
    assert "looks like filters" in text and "--wait-for" in text


def test_wait_for_a_selector_gets_a_list_started_late(server: LocalServer) -> None:
    # A 3.5 s wait before the fetch is longer than the timers settling waits for.
    url = spa(server, "late.html?wait=3500&delay=100")
    early = visx.extract(url, cfg(network_idle_s=0.3))
    assert any("--wait-for" in w for w in early.warnings), early.warnings
    ex = visx.extract(url, cfg(network_idle_s=0.3, wait_for="article.card", wait_for_count=24))
    assert ids_of(ex) == list(range(1, 25))
    assert not ex.warnings


def test_wait_for_that_never_matches(server: LocalServer) -> None:
    url = spa(server, "shadow.html")
    with pytest.raises(RenderTimeoutError) as err:
        visx.render(url, cfg(timeout_s=2, wait_for=".no-such-thing"))
    assert "'.no-such-thing' matched 0 element(s)" in str(err.value) and "--partial" in str(err.value)
    snap = visx.render(url, cfg(timeout_s=2, wait_for=".no-such-thing", partial_on_timeout=True))
    assert any(".no-such-thing" in w for w in snap.warnings)
    with pytest.raises(ConfigError, match="not a valid selector"):
        visx.render(url, cfg(timeout_s=2, wait_for="div[[["))


def test_a_list_after_a_client_side_route_change(server: LocalServer) -> None:
    ex = visx.extract(spa(server, "route.html"), cfg())
    assert ids_of(ex) == list(range(1, 21))
    assert ex.url.split("?")[0].endswith("/route.html/products")


# -- 3. every page of a list ------------------------------------------------------------------


def test_infinite_scroll_with_slow_batches(server: LocalServer) -> None:
    ex = visx.extract(spa(server, "infinite.html?delay=800"), cfg(pages=10))
    assert ids_of(ex) == list(range(1, 101))
    steps = [r.step for r in ex.regions[0].records]
    assert steps == sorted(steps) and steps[0] == 0 and steps[-1] == 4
    assert any("scrolled the page 4 time(s)" in n for n in ex.snapshot.notes)


def test_pages_limits_the_batches(server: LocalServer) -> None:
    ex = visx.extract(spa(server, "infinite.html?delay=300"), cfg(pages=3))
    assert ids_of(ex) == list(range(1, 61))


def test_scroll_waits_for_slow_batches(server: LocalServer) -> None:
    ex = visx.extract(spa(server, "infinite.html?delay=800"), cfg(scroll=True))
    assert ids_of(ex) == list(range(1, 101))


@pytest.mark.parametrize("label", ["Load more", "Mehr laden", "Voir plus"])
def test_load_more_buttons(server: LocalServer, label: str) -> None:
    ex = visx.extract(spa(server, f"loadmore.html?delay=300&label={label}"), cfg(pages=10))
    assert ids_of(ex) == list(range(1, 49))
    assert any("clicked 'Load more' 3 time(s)" in n for n in ex.snapshot.notes)


@pytest.mark.parametrize("query", ["", "&relnext=1"])
def test_next_links_of_a_client_side_router(server: LocalServer, query: str) -> None:
    ex = visx.extract(spa(server, f"paged.html?delay=100{query}"), cfg(pages=10))
    assert ids_of(ex) == list(range(1, 101))
    doc = _json(ex)
    pages = [r["page"] for r in doc["regions"][0]["records"]]
    assert pages == [k // 20 + 1 for k in range(100)]
    assert any("followed 4 next link(s)" in n for n in ex.snapshot.notes)


def test_next_pages_stop_at_pages(server: LocalServer) -> None:
    ex = visx.extract(spa(server, "paged.html?delay=100"), cfg(pages=3))
    assert ids_of(ex) == list(range(1, 61))


def test_next_buttons_of_a_paginated_table(server: LocalServer) -> None:
    ex = visx.extract(spa(server, "table.html?delay=100"), cfg(pages=10))
    assert ids_of(ex) == list(range(1, 126))


@pytest.mark.parametrize("app", ["virtual-window.html", "virtual-tanstack.html", "virtual-page.html",
                                 "aggrid.html"])
def test_virtualised_lists_are_scrolled_to_their_end(server: LocalServer, app: str) -> None:
    ex = visx.extract(spa(server, f"{app}?total=300"), cfg(pages=2))
    assert ids_of(ex) == list(range(1, 301))
    # Unrolled as if every row were mounted: one below the other, and the page as tall.
    boxes = [r.bbox for r in ex.regions[0].records]
    assert all(b[1] >= a[1] + a[3] - 1 for a, b in pairwise(boxes))
    assert ex.snapshot.height >= boxes[-1][1] + boxes[-1][3]
    steps = [r.step for r in ex.regions[0].records]
    assert steps == sorted(steps) and steps[-1] > 5
    assert ex.snapshot.extra["harvest"]["stitched"] is True
    assert any("300 row(s)" in n for n in ex.snapshot.notes)


def test_extract_pages_from_the_cli(server: LocalServer, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.json"
    code = main(["extract", spa(server, "loadmore.html?delay=100"), "--pages", "10", "-o", str(out)])
    assert code == 0
    doc = json.loads(out.read_text())
    records = doc["regions"][0]["records"]
    assert len(records) == 48
    assert [r["step"] for r in records] == [k // 12 for k in range(48)]
    assert "harvest: clicked 'Load more' 3 time(s)" not in capsys.readouterr().out


def test_a_harvested_snapshot_replays(server: LocalServer, tmp_path: Path) -> None:
    path = tmp_path / "grid.json.gz"
    code = main(["render", spa(server, "virtual-window.html?total=200"), "--pages", "2", "-o", str(path)])
    assert code == 0
    again = visx.extract(str(path))
    assert ids_of(again) == list(range(1, 201))
    assert again.snapshot.extra["harvest"]["rows"] == 200


def test_late_data_warning_reaches_the_cli(server: LocalServer, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "late.json"
    code = main(["extract", spa(server, "late.html?delay=6000"), "--timeout", "2.5", "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 0
    assert "visx: warning:" in err and "--wait-for" in err
    assert any("--wait-for" in w for w in json.loads(out.read_text())["warnings"])


def _json(ex: Extraction) -> dict[str, object]:
    from visx.export.contract import to_json_dict

    return to_json_dict(ex)


@pytest.mark.parametrize("javascript", [True, False])
def test_server_rendered_pages_by_rel_next_and_next_words(server: LocalServer, javascript: bool) -> None:
    # Page 1 links on with rel=next, page 2 with "Next ›", page 3's "Next" leads back to page 1.
    ex = visx.extract(server.url("render/paged/page1.html"), cfg(pages=10, javascript=javascript))
    texts = [r.text.split(" Filed")[0] for r in ex.regions[0].records]
    assert texts == [f"Result number {k}" for k in range(1, 31)]
    assert any("followed 2 next link(s)" in n for n in ex.snapshot.notes)
    assert any("already taken" in n for n in ex.snapshot.notes)
    assert [r.step for r in ex.regions[0].records] == [k // 10 for k in range(30)]


def test_next_links_to_a_slow_server(server: LocalServer) -> None:
    # Each page takes 0.8 s to answer: the harvest waits for the new document, not the old one.
    ex = visx.extract(server.url("api/spa/listing?page=1&per=10&total=30&delay=800"), cfg(pages=10))
    assert ids_of(ex) == list(range(1, 31))
    assert any("followed 2 next link(s)" in n for n in ex.snapshot.notes)


def test_a_virtualised_list_without_pages_says_what_it_missed(server: LocalServer) -> None:
    ex = visx.extract(spa(server, "aggrid.html?total=300"), cfg())
    assert 0 < len(ex.regions[0].records) < 50
    assert any("looks virtualised" in w and "--pages 2" in w for w in ex.warnings)
    # Once harvested, the warning is gone.
    full = visx.extract(spa(server, "aggrid.html?total=300"), cfg(pages=2))
    assert not any("virtualised" in w for w in full.warnings)


# -- apps written apart from visx's development (unseen markup when the harvest was built) --


def test_virtual_rows_flowing_in_a_moved_wrapper(server: LocalServer) -> None:
    # TanStack's other pattern: rows in flow inside one wrapper translated within a tall spacer.
    url = spa(server, "tvwrap.html?total=300")
    assert any("looks virtualised" in w for w in visx.extract(url, cfg()).warnings)
    assert ids_of(visx.extract(url, cfg(pages=2))) == list(range(1, 301))


def test_infinite_list_inside_a_shadow_root(server: LocalServer) -> None:
    ex = visx.extract(spa(server, "litinf.html?delay=300"), cfg(pages=10))
    assert ids_of(ex) == list(range(1, 61))


def test_load_more_link_inside_the_list(server: LocalServer) -> None:
    ex = visx.extract(spa(server, "morelink.html?delay=200"), cfg(pages=10))
    assert ids_of(ex) == list(range(1, 41))


def test_page_number_buttons_only(server: LocalServer) -> None:
    ex = visx.extract(spa(server, "pagernum.html?delay=100"), cfg(pages=10))
    assert ids_of(ex) == list(range(1, 61))
    # The pager sits inside the list on every page: it is kept once, not once a page.
    assert sum(1 for rg in ex.regions if "4" in rg.records[-1].text and len(rg.records) == 4) <= 1


def test_infinite_list_in_its_own_scroll_box(server: LocalServer) -> None:
    # The page never scrolls; rows load as the box nears its end. They are kept though they
    # lie below the page, and the box is unrolled.
    ex = visx.extract(spa(server, "boxinf.html?delay=200"), cfg(pages=10))
    assert ids_of(ex) == list(range(1, 76))
    assert ex.snapshot.extra["harvest"]["stitched"] is True


def test_next_links_of_a_hash_router(server: LocalServer) -> None:
    ex = visx.extract(spa(server, "hashpage.html"), cfg(pages=10))
    assert ids_of(ex) == list(range(1, 101))
    assert ex.url.endswith("#/page/1")


def test_load_more_inside_a_cross_origin_frame(server: LocalServer) -> None:
    ex = visx.extract(spa(server, "crossmain.html"), cfg(pages=10))
    assert ids_of(ex) == list(range(1, 31))
    assert "#document" in ex.snapshot.nodes[ex.regions[0].parent].xpath


def test_grid_pagination_buttons_and_slotted_light_dom_cards(server: LocalServer) -> None:
    assert ids_of(visx.extract(spa(server, "agpage.html"), cfg(pages=10))) == list(range(1, 101))
    assert ids_of(visx.extract(spa(server, "slotgrid.html"), cfg())) == list(range(1, 25))


def test_react_virtuoso(server: LocalServer) -> None:
    assert ids_of(visx.extract(spa(server, "virtuoso.html?total=300"), cfg(pages=2))) == list(range(1, 301))
