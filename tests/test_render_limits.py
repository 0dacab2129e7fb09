"""Hard bounds of a render and an analysis (issue 14): hostile pages end within the timeout
plus a stated allowance, flagged partial with the reason, and the output stays small.

Pages are served by this module's own HTTP server (a thread); the browser is the real one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import render_config

import visx
from visx.config import AnalysisConfig, Config, RenderConfig
from visx.debug.canvas import png_size
from visx.errors import SnapshotError
from visx.export.contract import REMOVED_MAX, json_schema, to_json_dict
from visx.render import procs
from visx.render.browser import ENGINE
from visx.render.shot import clip_size
from visx.render.snapshot_io import load_snapshot
from visx.render.thresholds import SCREENSHOT_MAX_PIXELS

ALLOWANCE_S = 10.0
"""Beyond the timeout: browser launch, the probe of a stuck page (2 s), capture, analysis."""

ITEMS = "".join(f"<li><a href='/item/{i}'>Item {i}</a> <span>${i}.99</span></li>" for i in range(1, 13))


def page(body: str) -> bytes:
    return f"<!DOCTYPE html><html><head><title>t</title></head><body><ul>{ITEMS}</ul>{body}</body></html>".encode()


PAGES = {
    "/loop-after-load": page("<script>setTimeout(() => { for (;;) {} }, 200);</script>"),
    "/loop-before-load": page("<script>while (true) {}</script><p>never</p>"),
    "/mutating": page("<p id='t'></p><script>let k = 0; setInterval(() => {"
                      "document.getElementById('t').textContent = ''; const i = document.createElement('i');"
                      "i.textContent = k++; document.getElementById('t').append(i); }, 50);</script>"),
    "/hidden-boxes": page("".join("<div style='height:0;overflow:hidden'><b>x</b></div>" for _ in range(300))),
    "/deep": f"<!DOCTYPE html><html><body>{'<div>' * 1500}<ul>{ITEMS}</ul>{'</div>' * 1500}</body></html>".encode(),
    "/tall": page("<div style='height:60000px'></div>"),
    "/wide-tall": page("<div style='width:30000px;height:30000px'></div>"),
    "/frames-200": page("".join(f"<iframe src='/frame?{i}' width=40 height=40></iframe>" for i in range(200))),
    "/frames-400": page("".join(f"<iframe src='/frame?{i}' width=40 height=40></iframe>" for i in range(400))
                        + "<p id='after'>after the frames</p>"),
}
FRAME_HITS: list[str] = []
"""Frame documents the server was asked for (``/frame?N``)."""


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        body = PAGES.get(self.path)
        if self.path.startswith("/frame?"):
            FRAME_HITS.append(self.path)
            body = b"<html><body><p>frame</p></body></html>"
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        with contextlib.suppress(ConnectionError):
            self.wfile.write(body)


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _timed(source: str, config: Config) -> tuple[visx.PageSnapshot, float]:
    t0 = time.perf_counter()
    snap = visx.render(source, config)
    return snap, time.perf_counter() - t0


@pytest.mark.browser
def test_a_script_loop_after_load_is_stopped_and_flagged(site: str) -> None:
    snap, wall = _timed(f"{site}/loop-after-load", render_config(timeout_s=4.0))
    assert wall <= 4.0 + ALLOWANCE_S, wall
    assert snap.partial and "stopped" in snap.partial_reason
    assert sum(n.tag == "li" for n in snap.nodes.nodes) == 12
    # The tab that ran the loop is usable no more, but the browser is: the next page renders.
    again, _ = _timed(f"{site}/hidden-boxes", render_config(timeout_s=4.0))
    assert not again.partial


@pytest.mark.browser
def test_a_script_loop_before_load_is_kept_with_partial(site: str) -> None:
    snap, wall = _timed(f"{site}/loop-before-load", render_config(timeout_s=3.0, partial_on_timeout=True))
    assert wall <= 3.0 + ALLOWANCE_S, wall
    assert snap.partial and "load timed out" in snap.partial_reason and "stopped" in snap.partial_reason
    assert sum(n.tag == "li" for n in snap.nodes.nodes) == 12


@pytest.mark.browser
def test_a_dom_that_never_rests_ends_settling_early_and_says_so(site: str) -> None:
    snap, wall = _timed(f"{site}/mutating", render_config(timeout_s=20.0))
    assert wall < 12.0, wall  # CHURN_S (4 s) after load, not the 20 s timeout
    assert snap.partial and "DOM kept changing" in snap.partial_reason
    assert snap.extra["settle"]["churn_s"] >= 4.0


@pytest.mark.browser
def test_the_capture_stops_at_its_element_limit_with_a_whole_tree(site: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from visx.render import capture

    monkeypatch.setattr(capture, "CAPTURE_MAX_ELEMENTS", 20)
    snap = visx.render(f"{site}/hidden-boxes", render_config(timeout_s=5.0))
    assert len(snap.nodes) == 20 and snap.partial
    assert "more than 20 elements" in snap.partial_reason
    assert any("capture is partial" in w for w in snap.warnings)


@pytest.mark.browser
def test_analysis_input_is_cut_and_the_json_says_partial(site: str) -> None:
    snap = visx.render(f"{site}/hidden-boxes", render_config(timeout_s=5.0))
    assert not snap.partial
    cfg = Config(analysis=AnalysisConfig(max_nodes=100))
    ex = visx.analyse(snap, cfg)
    assert len(ex.snapshot.nodes) == 100 and ex.partial and "analysis.max_nodes" in ex.partial_reason
    doc = to_json_dict(ex)
    assert doc["partial"] is True and "max_nodes" in doc["partial_reason"]
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(doc, json_schema())
    whole = to_json_dict(visx.analyse(snap))
    assert whole["partial"] is False and whole["partial_reason"] == ""


@pytest.mark.browser
def test_removed_list_is_capped_and_counted(site: str) -> None:
    # Chromium's parser stops nesting at depth 512: the rest become empty siblings, each removed.
    ex = visx.extract(f"{site}/deep", render_config(timeout_s=5.0))
    doc = to_json_dict(ex)
    assert doc["removed_total"] >= 300 and len(doc["removed"]) == REMOVED_MAX


def test_screenshot_clip_is_capped_by_side_and_area() -> None:
    assert clip_size(1280, 900, 16_384) == (1280, 900)
    assert clip_size(1280, 100_000, 16_384) == (1280, 16_384)
    w, h = clip_size(30_000, 30_000, 16_384)
    assert w == 16_384 and w * h <= SCREENSHOT_MAX_PIXELS
    w, h = clip_size(10_000_000, 200, 65_000, max_pixels=1_000_000)
    assert w * h <= 1_000_000


@pytest.mark.browser
@pytest.mark.parametrize("path", ["/tall", "/wide-tall"])
def test_screenshots_of_huge_pages_stay_within_the_pixel_cap(site: str, path: str) -> None:
    snap = visx.render(f"{site}{path}", render_config(timeout_s=8.0, screenshot=True))
    assert snap.screenshot_png is not None
    size = png_size(snap.screenshot_png)
    assert size is not None and size[0] * size[1] <= SCREENSHOT_MAX_PIXELS
    assert any("screenshot capped" in n for n in snap.notes)


def test_a_snapshot_with_a_nan_box_is_refused_naming_the_file(tmp_path: Path) -> None:
    src = Path(__file__).parent / "badinput" / "cases_bounds.py"
    assert src.exists()
    import sys

    sys.path.insert(0, str(src.parent.parent))
    from badinput.cases_bounds import PAGES as CORPUS

    path = tmp_path / "nan.snapshot.json"
    path.write_text(str(CORPUS["nan.snapshot.json"]))
    assert math.isnan(json.loads(path.read_text())["dom"]["box"][10])
    with pytest.raises(SnapshotError, match=r"nan\.snapshot\.json: invalid snapshot.*not a finite number"):
        load_snapshot(path)


@pytest.mark.browser
def test_the_browser_restarts_every_n_pages_without_failing_pages_in_flight(site: str) -> None:
    cfg = Config(render=RenderConfig(timeout_s=10.0, restart_every=2))

    async def many() -> list[visx.PageSnapshot]:
        return list(await asyncio.gather(*(visx.render_async(f"{site}/hidden-boxes", cfg) for _ in range(6))))

    before = ENGINE.restarts
    # In the whole suite, browsers of other settings (other launch flags) are up and stay up.
    others = procs.browser_pids()
    snaps = asyncio.run(many())
    assert all(len(s.nodes) > 300 for s in snaps)
    assert ENGINE.restarts - before >= 2
    end = time.monotonic() + 15  # the retired browsers close once their pages are done
    while len(procs.browser_pids() - others) > 1 and time.monotonic() < end:
        time.sleep(0.2)
    assert len(procs.browser_pids() - others) == 1  # of those this test started, only the live one is left


@pytest.mark.browser
def test_frame_loads_past_the_cap_are_refused_and_flagged(site: str) -> None:
    from visx.render.thresholds import FRAME_LOADS_MAX, FRAMES_STOP

    FRAME_HITS.clear()
    snap, wall = _timed(f"{site}/frames-200", render_config(timeout_s=8.0))
    assert len(set(FRAME_HITS)) == FRAME_LOADS_MAX  # the server never saw the others
    assert snap.partial and f"{200 - FRAME_LOADS_MAX} frame load(s) refused" in snap.partial_reason
    assert sum(n.tag == "li" for n in snap.nodes.nodes) == 12
    # Past FRAMES_STOP the page's loading is stopped (a small document is parsed by then).
    FRAME_HITS.clear()
    snap, wall = _timed(f"{site}/frames-400", render_config(timeout_s=8.0))
    assert wall <= 8.0 + ALLOWANCE_S, wall
    assert len(set(FRAME_HITS)) <= FRAME_LOADS_MAX
    assert snap.partial and f"more than {FRAMES_STOP} frames" in snap.partial_reason
    assert sum(n.tag == "li" for n in snap.nodes.nodes) == 12  # parsed before the stop: kept
    # A reused tab starts the next render with a fresh count.
    again, _ = _timed(f"{site}/hidden-boxes", render_config(timeout_s=4.0))
    assert not again.partial
