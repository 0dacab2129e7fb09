"""``extract_async``, the async batch (``extract_many_async``, ``render_many_async``) and
``progress=`` on every batch: the same results and failures as the sync API.

Saved snapshots and files that fail before a render need no browser; the tests
marked ``browser`` render real pages.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import LocalServer, render_config

import visx
from visx.batch import BatchResult
from visx.errors import ConfigError, SnapshotError, SourceNotFoundError
from visx.export import to_json_dict

ROOT = Path(__file__).resolve().parent.parent
SNAP = ROOT / "fixtures" / "mine" / "several_regions.json.gz"
ADS = ROOT / "fixtures" / "mine" / "ads_between.json.gz"
PAGE = ROOT / "fixtures" / "mine" / "several_regions.html"


def _stable(ex: visx.Extraction) -> Any:
    """The JSON form without what differs between two runs (time of day, stage timings)."""
    doc = to_json_dict(ex)
    del doc["created"], doc["timings"]
    return json.loads(json.dumps(doc))


class Calls:
    """A progress callback that keeps what it was given."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, int | None, BatchResult]] = []

    def __call__(self, done: int, total: int | None, result: BatchResult) -> None:
        self.seen.append((done, total, result))


def test_extract_async_equals_extract_on_a_snapshot() -> None:
    got = asyncio.run(visx.extract_async(SNAP))
    assert _stable(got) == _stable(visx.extract(SNAP))
    assert got.main is not None and got.main.table is not None and len(got.to_records()) == 10


def test_extract_async_raises_the_same_errors(tmp_path: Path) -> None:
    with pytest.raises(SourceNotFoundError, match=r"nowhere\.html"):
        asyncio.run(visx.extract_async(tmp_path / "nowhere.html"))


def test_async_batch_keeps_order_and_failures_apart(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json.gz"
    broken.write_bytes(b"\x1f\x8b\x08\x00 not really gzip")
    sources = [SNAP, tmp_path / "missing.html", broken, ADS]
    calls = Calls()

    async def run() -> list[BatchResult]:
        return [r async for r in visx.extract_many_async(sources, workers=2, progress=calls)]

    got = asyncio.run(run())
    sync = list(visx.extract_many(sources, workers=2))
    assert [r.index for r in got] == [0, 1, 2, 3]
    assert [r.ok for r in got] == [r.ok for r in sync] == [True, False, False, True]
    assert isinstance(got[1].error, SourceNotFoundError) and isinstance(got[2].error, SnapshotError)
    assert [str(r.error) for r in got] == [str(r.error) for r in sync]
    for a, b in zip(got, sync, strict=True):
        if a.extraction is not None and b.extraction is not None:
            assert _stable(a.extraction) == _stable(b.extraction)
    assert [(d, t) for d, t, _ in calls.seen] == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert [r for _, _, r in calls.seen] == got


def _gen(items: list[Path]) -> Iterator[Path]:
    yield from items


def test_progress_of_the_sync_batches() -> None:
    calls = Calls()
    got = list(visx.extract_many([SNAP, ADS, SNAP], progress=calls))
    assert [(d, t) for d, t, _ in calls.seen] == [(1, 3), (2, 3), (3, 3)]
    assert [r for _, _, r in calls.seen] == got and all(r.extraction is not None for r in got)
    rendered = Calls()
    snaps = list(visx.render_many(_gen([SNAP, ADS]), progress=rendered))
    assert [(d, t) for d, t, _ in rendered.seen] == [(1, None), (2, None)]  # a generator has no length
    assert [r for _, _, r in rendered.seen] == snaps and all(r.extraction is None for r in snaps)


def test_a_failing_progress_callback_ends_the_batch() -> None:
    def fail(done: int, total: int | None, result: BatchResult) -> None:
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        list(visx.extract_many([SNAP, ADS], progress=fail))


def test_async_batch_checks_workers() -> None:
    async def run() -> None:
        async for _ in visx.render_many_async([SNAP], workers=0):
            pass

    with pytest.raises(ConfigError, match="at least 1"):
        asyncio.run(run())


@pytest.mark.browser
def test_extract_async_renders_with_an_action_and_keeps_the_loop_free() -> None:
    async def drop_two(page: Any) -> None:
        await page.evaluate("document.querySelectorAll('#main-list > .res').forEach((e, i) => i < 2 && e.remove())")

    async def run() -> tuple[visx.Extraction, int]:
        ticks = 0
        done = asyncio.Event()

        async def tick() -> None:
            nonlocal ticks
            while not done.is_set():
                ticks += 1
                await asyncio.sleep(0.01)

        ticker = asyncio.create_task(tick())
        ex = await visx.extract_async(PAGE, render_config(javascript=True), action=drop_two)
        done.set()
        await ticker
        return ex, ticks

    ex, ticks = asyncio.run(run())
    assert ex.main is not None and len(ex.main.records) == 8
    assert ex.main.records[0].text.startswith("Main result 2")
    assert ticks >= 5  # the loop ran other tasks while the page rendered


@pytest.mark.browser
def test_async_batch_renders_and_stops_early(server: LocalServer) -> None:
    urls = [server.url("mine/several_regions.html"), server.url("status/404"), server.url("mine/ads_between.html")]
    calls = Calls()

    async def run() -> list[BatchResult]:
        return [r async for r in visx.extract_many_async(urls, render_config(), progress=calls)]

    got = asyncio.run(run())
    assert [r.ok for r in got] == [True, False, True]
    assert got[0].extraction is not None and len(got[0].extraction.to_records()) == 10
    assert "404" in str(got[1].error)
    assert [d for d, _, _ in calls.seen] == [1, 2, 3]

    async def first_only() -> BatchResult:
        async with contextlib.aclosing(visx.render_many_async(urls * 3, render_config(), workers=1)) as it:
            async for res in it:
                return res
        raise AssertionError("no result")

    first = asyncio.run(first_only())
    assert first.index == 0 and first.snapshot is not None
