"""Hostile pages that must stay within their bounds (issue 14): endless scripts, huge
DOMs, dripping servers, pages that never settle, pictures too large to draw, and
degraded results that must say so (``partial: true`` with a reason)."""

from __future__ import annotations

import json
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler

from badinput.case import Case

T = 8.0  # the --timeout of these cases: long enough to load, short enough for CI

ITEMS = "".join(f"<li><a href='/item/{i}'>Item {i}</a> <span>${i}.99</span></li>" for i in range(1, 13))
LIST = f"<ul class='list'>{ITEMS}</ul>"


def page(body: str, head: str = "", title: str = "Bounds") -> str:
    return f"<!DOCTYPE html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


def ex(source: str, *more: str, timeout: float = T, out: str = "{tmp}/out.json") -> list[str]:
    return ["extract", source, "-o", out, "--timeout", f"{timeout:g}", *more]


def _big_dom(n: int) -> str:
    rows = "".join(f"<div class='r'><a href='/p/{i}'>Product {i}</a><span>{i}.50</span></div>" for i in range(n // 3))
    return page(LIST + rows, title="Huge")


def _nested(depth: int) -> str:
    return page("<div>" * depth + LIST + "</div>" * depth, title="Deep")


def _nan_snapshot() -> str:
    """A valid snapshot file but for one NaN box (Python's json writes NaN; JSON has none)."""
    tags = ["html", "body", "ul", "li"]
    n = 4
    dom = {"n": n, "parent": [-1, 0, 1, 2], "tag": [0, 1, 2, 3], "tags": tags, "id": [""] * n, "cls": [""] * n,
           "text": ["", "", "", "x"], "tail": [""] * n,
           "box": [0, 0, 1280, 900, 0, 0, 1280, 900, 0, 0, float("nan"), 20, 0, 0, 100, 20],
           "vis": [0] * n, "sty": [0] * n, "styles": [], "attrs": {},
           "page": {"width": 1280, "height": 900, "url": "http://x/", "title": "t", "vw": 1280, "vh": 900}}
    from visx.model import STYLE_PROPS

    dom["styles"] = [["block"] + ["visible"] + [""] * (len(STYLE_PROPS) - 2)]
    doc = {"format": "visx-snapshot", "version": 1, "source": "http://x/", "status": 200, "javascript": True,
           "timings": {}, "partial": False, "notes": [], "created": "2026-01-01T00:00:00+00:00", "dom": dom}
    return json.dumps(doc)


PAGES: dict[str, bytes | str] = {
    # An endless script before load: the parser never reaches the list's end.
    "loop-before-load.html": page(LIST + "<script>while (true) {}</script><p>never</p>"),
    # The page loads, then a timer starts an endless loop (settling must not hang on it).
    "loop-after-load.html": page(LIST + "<script>setTimeout(() => { for (;;) {} }, 300);</script>"),
    # Every DOM read the capture makes goes through page-patched slow accessors.
    "slow-getters.html": page(LIST * 40 + """<script>
      const spin = (ms) => { const t = performance.now(); while (performance.now() - t < ms) {} };
      const ga = Element.prototype.getAttribute;
      Element.prototype.getAttribute = function (n) { spin(2); return ga.call(this, n); };
      const gcs = window.getComputedStyle;
      window.getComputedStyle = function (e, p) { spin(3); return gcs.call(window, e, p); };
    </script>"""),
    "huge-dom.html": _big_dom(200_000),
    "iframes.html": page(LIST + "".join(f"<iframe src='/slow-frame?{i}' width=40 height=40></iframe>"
                                        for i in range(10_000)), title="Frames"),
    "mutating.html": page(LIST + """<p id='t'></p><script>
      let k = 0;
      setInterval(() => { const d = document.createElement('i'); d.textContent = k++;
        const t = document.getElementById('t'); t.replaceChildren(d); }, 50);
    </script>"""),
    "wide-tall.html": page(LIST + "<div style='width:30000px;height:30000px;background:linear-gradient(red,blue)'>"
                                  "</div>", title="Wide"),
    "very-tall.html": page(LIST + "<div style='height:100000px;background:linear-gradient(#eee,#999)'></div>",
                           title="Tall"),
    "deep.html": _nested(5000),
    "nan.snapshot.json": _nan_snapshot(),
    "slow-load.html": page(LIST + "<img src='/hang.png'>"),
}


def _drip(h: BaseHTTPRequestHandler) -> None:
    """An HTML page whose bytes come one small piece a second, for a minute."""
    from badinput.serve import hold

    h.send_response(200)
    h.send_header("Content-Type", "text/html; charset=utf-8")
    h.end_headers()
    h.wfile.write(b"<!DOCTYPE html><html><head><title>Drip</title></head><body>" + LIST.encode())
    h.wfile.flush()
    for i in range(60):
        if hold(1.0):
            return
        h.wfile.write(f"<p>{i}</p>".encode())
        h.wfile.flush()


def _hang(h: BaseHTTPRequestHandler) -> None:
    """Headers, then nothing until the server stops: a resource that never finishes."""
    from badinput.serve import hold

    h.send_response(200)
    h.send_header("Content-Type", "image/png")
    h.send_header("Content-Length", "100000")
    h.end_headers()
    h.wfile.flush()
    hold(120)


def _slow_frame(h: BaseHTTPRequestHandler) -> None:
    from badinput.serve import hold

    if hold(0.05):
        return
    body = b"<html><body><p>frame</p></body></html>"
    h.send_response(200)
    h.send_header("Content-Type", "text/html")
    h.send_header("Content-Length", str(len(body)))
    h.end_headers()
    h.wfile.write(body)


ROUTES: dict[str, Callable[[BaseHTTPRequestHandler], None]] = {
    "/drip": _drip,
    "/hang.png": _hang,
    "/slow-frame": _slow_frame,
}

CASES: list[Case] = [
    Case("loop-before-load", "timeout", ex("{url}/loop-before-load.html", "--partial"), "partial",
         r"load|script", timeout_s=T, output="{tmp}/out.json"),
    # --retries 0: a timeout is retried by default (visx.batch.retry), which multiplies the wall time.
    Case("loop-before-load-strict", "timeout", ex("{url}/loop-before-load.html", "--retries", "0"), "error",
         r"loop-before-load\.html.*(timeout|load|script)", timeout_s=T),
    Case("loop-after-load", "timeout", ex("{url}/loop-after-load.html"), "partial",
         r"script", timeout_s=T, output="{tmp}/out.json"),
    Case("slow-getters-capture", "timeout", ex("{url}/slow-getters.html"), "partial",
         r"capture", timeout_s=T, output="{tmp}/out.json"),
    Case("drip-bytes", "timeout", ex("{url}/drip", "--partial"), "partial", r"load",
         timeout_s=T, output="{tmp}/out.json"),
    Case("drip-bytes-strict", "timeout", ex("{url}/drip", "--retries", "0"), "error", r"drip.*--timeout", timeout_s=T),
    # --partial: on a loaded machine the 9 MB page may not even finish loading in 8 s.
    Case("huge-dom-200k", "size", ex("{url}/huge-dom.html", "--partial"), "partial", r"elements|load",
         timeout_s=T, output="{tmp}/out.json"),
    # Blink makes 1,000 frames at most; the frame cap answers loads past 128 with a 204 and
    # stops the page's loading at 256 (visx.render.guard), which is the reason given.
    Case("iframes-10k", "timeout", ex("{url}/iframes.html", "--partial"), "partial", r"frames",
         timeout_s=T, output="{tmp}/out.json"),
    Case("dom-mutating-50ms", "silent", ex("{url}/mutating.html"), "partial", r"DOM",
         timeout_s=T, output="{tmp}/out.json"),
    Case("wide-tall-debug", "crash", ex("{url}/wide-tall.html", "--debug", "{tmp}/dbg"), "ok",
         r"screenshot", timeout_s=T),
    Case("very-tall-debug", "crash", ex("{url}/very-tall.html", "--debug", "{tmp}/dbg"), "ok",
         r"screenshot", timeout_s=T, max_rss_mb=1500),
    Case("deep-nesting-output", "size", ex("{url}/deep.html"), "ok", timeout_s=T),
    Case("nan-box-snapshot", "silent", ex("{corpus}/nan.snapshot.json"), "error",
         r"nan\.snapshot\.json.*(finite|NaN)"),
    Case("partial-marked", "silent", ex("{url}/slow-load.html", "--partial", timeout=3), "partial",
         r"load", timeout_s=3, output="{tmp}/out.json"),
]
