"""The report in a real Chromium: it loads clean, runs nothing from the page, and links
boxes and rows both ways."""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest
from conftest import FIXTURES

from visx.cli import report_cmd
from visx.config import Config, RenderConfig
from visx.debug import write_report
from visx.pipeline import Extraction, analyse
from visx.render import render
from visx.render.browser import ENGINE, OFFLINE_ARGS
from visx.render.snapshot_io import load_snapshot

pytestmark = pytest.mark.browser

HOSTILE_PAGE = FIXTURES / "debug" / "hostile.html"
HOSTILE = FIXTURES / "debug" / "hostile.json.gz"
MANY_REGIONS = FIXTURES / "gate" / "etsy.com" / "christmas-shopping" / "snapshot.json.gz"

T = TypeVar("T")


@dataclass
class Seen:
    """What the browser reported while the report was open."""

    console: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)


def view(report: Path, probe: Callable[[Any], Awaitable[T]]) -> tuple[T, Seen]:
    """Open ``report`` in the shared (offline) browser, run ``probe(page)``, collect errors."""

    async def go() -> tuple[T, Seen]:
        browser, _ = await ENGINE.browser(None, OFFLINE_ARGS)
        ctx = await browser.new_context(viewport={"width": 1400, "height": 900})
        seen = Seen()
        try:
            page = await ctx.new_page()
            page.on("console", lambda m: seen.console.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
            page.on("pageerror", lambda e: seen.console.append(f"pageerror: {e}"))

            async def on_dialog(d: Any) -> None:
                seen.dialogs.append(d.message)
                await d.dismiss()

            page.on("dialog", on_dialog)
            await page.goto(report.resolve().as_uri(), wait_until="load")
            await page.wait_for_timeout(200)  # let late errors (onerror, onload) surface
            return await probe(page), seen
        finally:
            await ctx.close()

    return ENGINE.run(go())


@pytest.fixture(scope="module")
def hostile_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Extraction]:
    ex = analyse(load_snapshot(HOSTILE))
    return write_report(ex, tmp_path_factory.mktemp("hostile"), Config()), ex


def test_hostile_page_runs_nothing_in_the_report(hostile_report: tuple[Path, Extraction]) -> None:
    path, ex = hostile_report

    async def probe(page: Any) -> dict[str, Any]:
        return dict(await page.evaluate("""() => ({
            pwned: window.__pwned === undefined ? null : window.__pwned,
            scripts: document.scripts.length,
            handlers: Array.from(document.querySelectorAll('*')).filter(
                (el) => Array.from(el.attributes).some((a) => a.name.startsWith('on'))).length,
            title: document.title,
            cells: Array.from(document.querySelectorAll('table.data td')).map((td) => td.textContent),
        })"""))

    got, seen = view(path, probe)
    assert got["pwned"] is None
    assert seen.console == [] and seen.dialogs == []
    assert got["scripts"] == 2 and got["handlers"] == 0
    assert got["title"] == f"visx report: {ex.title}"
    assert "<script>window.__pwned=8</script> Desk lamp" in got["cells"]
    assert "--> <!-- ]]> <svg onload=window.__pwned=11> Wool rug" in got["cells"]


def test_record_boxes_and_rows_highlight_each_other(hostile_report: tuple[Path, Extraction]) -> None:
    path, ex = hostile_report
    records = sum(len(rg.records) for rg in ex.regions)

    async def probe(page: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"boxes": await page.locator(".box.rec").count()}
        await page.locator('.box.rec[data-key="g1r3"]').click()
        out["rows_after_box"] = await page.locator("tr.sel").evaluate_all("rs => rs.map(r => r.dataset.key)")
        out["status"] = await page.locator("#status").text_content()
        await page.locator('tr[data-key="g1r5"]').click()
        out["boxes_after_row"] = await page.locator(".box.sel").evaluate_all("bs => bs.map(b => b.dataset.key)")
        out["rows_after_row"] = await page.locator("tr.sel").evaluate_all("rs => rs.map(r => r.dataset.key)")
        await page.locator('tr[data-key="rm2"]').click()
        out["removed_box"] = await page.locator(".box.sel").evaluate_all("bs => bs.map(b => b.dataset.key)")
        await page.locator('input[data-layer="records"]').uncheck()
        out["visible_after_hide"] = await page.locator(".box.rec").first.is_visible()
        return out

    got, seen = view(path, probe)
    assert seen.console == []
    assert got["boxes"] == records == 6
    assert got["rows_after_box"] == ["g1r3"]
    assert "region #1, record 3" in got["status"] and "Book shelf" in got["status"]
    assert got["boxes_after_row"] == ["g1r5"] and got["rows_after_row"] == ["g1r5"]
    assert got["removed_box"] == ["rm2"]
    assert got["visible_after_hide"] is False


def test_many_regions_without_screenshot(tmp_path: Path) -> None:
    ex = analyse(load_snapshot(MANY_REGIONS))
    path = write_report(ex, tmp_path, Config())
    records = sum(len(rg.records) for rg in ex.regions)
    last = ex.regions[-1]

    async def probe(page: Any) -> tuple[int, int, list[str]]:
        n = await page.locator(".box.rec").count()
        rows = await page.locator("tr[data-key^='g'][data-key*='r']").count()
        await page.locator(f'.box.rec[data-key="g{last.rank}r1"]').click()
        return n, rows, await page.locator("tr.sel").evaluate_all("rs => rs.map(r => r.dataset.key)")

    (n, rows, selected), seen = view(path, probe)
    assert len(ex.regions) >= 3 and seen.console == []
    assert n == rows == records
    assert selected == [f"g{last.rank}r1"]


def run_report(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="visx")
    report_cmd.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["report", *argv])
    return int(args.run(args))


def test_cli_renders_page_and_rerenders_snapshot(tmp_path: Path) -> None:
    # A page: rendered with a screenshot, so no wireframe note.
    assert run_report(str(HOSTILE_PAGE), "--no-js", "-o", str(tmp_path / "page")) == 0
    doc = (tmp_path / "page" / "report.html").read_text()
    assert "no screenshot" not in doc and "data:image/png;base64," in doc
    # A snapshot saved without a screenshot whose page is still there: --rerender gets one.
    snap = render(HOSTILE_PAGE, Config(render=RenderConfig(javascript=False)))
    assert snap.screenshot_png is None
    saved = tmp_path / "bare.json.gz"
    snap.save(saved)
    assert run_report(str(saved), "-o", str(tmp_path / "again"), "--rerender") == 0
    assert "no screenshot" not in (tmp_path / "again" / "report.html").read_text()
    assert run_report(str(saved), "-o", str(tmp_path / "bare")) == 0
    assert "no screenshot in this snapshot" in (tmp_path / "bare" / "report.html").read_text()
