"""The cleaner on saved fixture pages: exact removals, each with its reason.

The pages (fixtures/clean/*.html) are rendered to snapshots by
scripts/make_clean_fixtures.py, so these tests need no browser.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from visx.clean import clean
from visx.clean.bands import remove_footer, remove_header
from visx.clean.guard import Guard
from visx.clean.page import Marks, PageView
from visx.clean.reasons import REASONS
from visx.clean.thresholds import SIDE_MAIN_RATIO, SIDE_MAX_FRAC, SIDE_MIN_HEIGHT_PX
from visx.clean.visibility import remove_invisible
from visx.config import CleanConfig
from visx.model import Cleaned, PageSnapshot
from visx.render.snapshot_io import load_snapshot

FIX = Path(__file__).resolve().parent.parent / "fixtures" / "clean"
PAGES = sorted(p.name.removesuffix(".json.gz") for p in FIX.glob("*.json.gz"))


def load(name: str) -> PageSnapshot:
    return load_snapshot(FIX / f"{name}.json.gz")


def removals(snap: PageSnapshot, cleaned: Cleaned) -> dict[str, str]:
    """``tag#id.class`` -> reason, leaving out head, scripts and styles."""
    return {
        snap.nodes[r.node].label: r.reason
        for r in cleaned.removed
        if r.reason != "invisible:non-content"
    }


def by_id(snap: PageSnapshot, ident: str) -> int:
    return next(n.index for n in snap.nodes.nodes if n.id == ident)


def results(snap: PageSnapshot) -> list[int]:
    return [n.index for n in snap.nodes.nodes if "result" in n.classes]


def test_fixture_pages_are_present() -> None:
    assert PAGES == ["ads", "bands", "guard", "hidden", "overlays", "small"]


def test_hidden_elements() -> None:
    snap = load("hidden")
    cleaned = clean(snap, CleanConfig())
    assert removals(snap, cleaned) == {
        "div#none": "invisible:display-none",
        "div#vh": "invisible:visibility-hidden",
        "span#vh-other": "invisible:visibility-hidden",
        "div#transparent": "invisible:opacity-0",
        "div#empty": "invisible:zero-size",
        "a#offpage": "invisible:off-page",
    }
    # A visible child inside a hidden parent is shown, so the parent is kept.
    assert not cleaned.dropped[by_id(snap, "vh-child")]
    assert not cleaned.dropped[by_id(snap, "vh-parent")]
    scripts = [n.index for n in snap.nodes.nodes if n.tag in ("script", "head")]
    assert scripts and all(cleaned.dropped[i] for i in scripts)
    assert not any(cleaned.dropped[i] for i in results(snap))


def test_fixed_and_sticky_overlays() -> None:
    snap = load("overlays")
    cleaned = clean(snap, CleanConfig())
    assert removals(snap, cleaned) == {
        "div#sortbar": "overlay:sticky",
        "div#cookie": "overlay:consent",
        "div#backdrop": "overlay:modal-backdrop",
        "a#chat": "overlay:fixed",
    }
    assert len(results(snap)) == 10
    assert not any(cleaned.dropped[i] for i in results(snap))


def test_header_footer_bands_and_left_column() -> None:
    snap = load("bands")
    cleaned = clean(snap, CleanConfig())
    assert removals(snap, cleaned) == {
        "header#top": "band:header",
        "aside#nav": "column:left",
        "footer#bottom": "band:footer",
    }
    # The page title above the list is the main column's, not the header's.
    h1 = next(n.index for n in snap.nodes.nodes if n.tag == "h1")
    assert not cleaned.dropped[h1]
    assert not any(cleaned.dropped[i] for i in results(snap))


def test_ad_slots() -> None:
    snap = load("ads")
    cleaned = clean(snap, CleanConfig())
    assert removals(snap, cleaned) == {
        "iframe#frame": "ad:iframe",
        "div#leader": "ad:standard-size",
        "div#slot.ad-slot": "ad:class-hint",
    }
    # 300x250 with a paragraph of text and no ad-like name: a widget, kept.
    assert not cleaned.dropped[by_id(snap, "promo")]
    assert not any(cleaned.dropped[i] for i in results(snap))


def test_guard_keeps_a_side_column_that_holds_the_results() -> None:
    snap = load("guard")
    view = PageView(snap)
    column, wrap = by_id(snap, "results"), by_id(snap, "wrap")
    width, row = view.ext_width(column), view.ext_width(wrap)
    # By position alone this is a left column: narrow, tall, beside a wider block.
    assert width <= SIDE_MAX_FRAC * row
    assert view.ext_width(by_id(snap, "map")) >= SIDE_MAIN_RATIO * width
    assert view.ext[column][3] - view.ext[column][1] >= SIDE_MIN_HEIGHT_PX
    marks = Marks(view.end)
    remove_invisible(view, marks)
    guard = Guard(view, marks.dropped)
    assert guard.vetoes(column)
    assert all(guard.vetoes(i) for i in results(snap))

    cleaned = clean(snap, CleanConfig())
    assert removals(snap, cleaned) == {"header#top": "band:header", "footer#bottom": "band:footer"}
    assert len(results(snap)) == 10
    assert not any(cleaned.dropped[i] for i in results(snap))


def test_header_band_does_not_swallow_results_on_a_short_page() -> None:
    snap = load("small")
    cleaned = clean(snap, CleanConfig())
    assert removals(snap, cleaned) == {"header#top": "band:header", "footer#bottom": "band:footer"}
    assert len(results(snap)) == 3
    assert not any(cleaned.dropped[i] for i in results(snap))


def test_band_passes_alone_remove_exactly_the_bands() -> None:
    """Header and footer passes without the others, on a page whose list reaches
    into both zones."""
    snap = load("small")
    view = PageView(snap)
    marks = Marks(view.end)
    remove_invisible(view, marks)
    guard = Guard(view, marks.dropped)
    remove_header(view, marks, guard)
    remove_footer(view, marks, guard)
    assert {snap.nodes[r.node].label for r in marks.top_most() if r.reason.startswith("band")} == {
        "header#top",
        "footer#bottom",
    }


@pytest.mark.parametrize("name", PAGES)
def test_reasons_are_known_and_removals_top_most(name: str) -> None:
    snap = load(name)
    cleaned = clean(snap, CleanConfig())
    assert cleaned.removed, "every fixture page has something to remove"
    assert {r.reason for r in cleaned.removed} <= REASONS
    nodes = [r.node for r in cleaned.removed]
    assert nodes == sorted(set(nodes))
    for a, b in pairwise(nodes):
        assert not snap.nodes.is_ancestor(a, b), f"{snap.nodes[b].label} lies inside {snap.nodes[a].label}"
    expected = bytearray(len(snap.nodes))
    for i in nodes:
        e = snap.nodes[i].end
        expected[i:e] = b"\x01" * (e - i)
    assert cleaned.dropped == expected


def test_switches_turn_passes_off() -> None:
    snap = load("bands")
    off = clean(snap, CleanConfig(enabled=False))
    assert off.removed == [] and not any(off.dropped)
    no_bands = removals(snap, clean(snap, CleanConfig(bands=False)))
    assert "header#top" not in no_bands and "footer#bottom" not in no_bands
    assert no_bands["aside#nav"] == "column:left"
    no_columns = removals(snap, clean(snap, CleanConfig(side_columns=False)))
    assert "aside#nav" not in no_columns and no_columns["header#top"] == "band:header"
    overlays = load("overlays")
    assert not any(r.startswith("overlay") for r in removals(overlays, clean(overlays, CleanConfig(overlays=False))).values())
    ads = load("ads")
    assert not any(r.startswith("ad:") for r in removals(ads, clean(ads, CleanConfig(ads=False))).values())


def test_clean_does_not_change_the_snapshot() -> None:
    snap = load("bands")
    before = [(n.vis, n.x, n.y, n.w, n.h, n.end, tuple(n.children)) for n in snap.nodes.nodes]
    clean(snap, CleanConfig())
    clean(snap)
    assert [(n.vis, n.x, n.y, n.w, n.h, n.end, tuple(n.children)) for n in snap.nodes.nodes] == before
