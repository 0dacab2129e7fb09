"""Shared fixtures: a local HTTP server over ``fixtures/`` and the browser gate.

Browser tests (``@pytest.mark.browser``) never skip silently: when no
Chromium can be found they fail with the reason, unless ``VISX_SKIP_BROWSER=1``
is set, and then the skip names that variable.
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import spa_api

from visx.config import Config, RenderConfig

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
RENDER_FIXTURES = FIXTURES / "render"
SKIP_VAR = "VISX_SKIP_BROWSER"

_browser_problem: list[str | None] = []


def _find_browser_problem() -> str | None:
    """None when a Chromium is found, else the library's own reason."""
    if not _browser_problem:
        from visx.errors import BrowserNotFoundError
        from visx.render.browser import find_chromium

        try:
            find_chromium()
            _browser_problem.append(None)
        except BrowserNotFoundError as e:
            _browser_problem.append(str(e))
    return _browser_problem[0]


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("browser") is None:
        return
    problem = _find_browser_problem()
    if problem is None:
        return
    if os.environ.get(SKIP_VAR) == "1":
        pytest.skip(f"no Chromium ({problem}); skipped because {SKIP_VAR}=1")
    pytest.fail(f"browser tests need a Chromium: {problem} (set {SKIP_VAR}=1 to skip them)", pytrace=False)


def render_config(**kw: Any) -> Config:
    """A Config whose render section has ``kw``; short timeouts keep tests quick."""
    kw.setdefault("timeout_s", 15.0)
    return Config(render=RenderConfig(**kw))


def closed_port() -> int:
    """A high port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LocalServer:
    """The running fixture server: ``url(path)`` and the paths it was asked for."""

    base: str
    port: int
    requests: list[str] = field(default_factory=list)

    def url(self, path: str) -> str:
        return self.base + "/" + path.lstrip("/")


# The handler reaches the server's state through these class attributes.
class _Handler(SimpleHTTPRequestHandler):
    state: LocalServer
    release: threading.Event

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, directory=str(FIXTURES), **kwargs)

    def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
        pass

    def _send(self, status: int, ctype: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        path = self.path.split("?")[0]
        self.state.requests.append(path)
        api = spa_api.handle(self.path)
        if api is not None:
            self._send(*api)
            return
        if path == "/hang":
            # Never answers while the tests run: the timeout path.
            self.release.wait(120)
            return
        if path.startswith("/status/"):
            code = int(path.rsplit("/", 1)[1])
            body = f"<html><head><title>Error {code}</title></head><body><h1>Error {code}</h1><p>Not here.</p></body></html>"
            self._send(code, "text/html; charset=utf-8", body.encode())
            return
        if path == "/api/items":
            self._send(200, "application/json", (RENDER_FIXTURES / "items.json").read_bytes())
            return
        if path == "/pdf":  # a PDF behind a URL without a .pdf suffix
            self._send(200, "application/pdf", (RENDER_FIXTURES / "document.pdf").read_bytes())
            return
        if path == "/beacon.png":
            self._send(200, "image/png", (RENDER_FIXTURES / "image.png").read_bytes())
            return
        if path == "/echo":
            # What the request carried (server side) and what the page sees (script side).
            import html

            def para(ident: str, value: str | None) -> str:
                return f'<p id="{ident}">{html.escape(value or "-")}</p>'

            xs = sorted((k.lower(), v) for k, v in self.headers.items() if k.lower().startswith("x-"))
            body = "".join([
                "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Echo</title></head><body>",
                para("ua", self.headers.get("User-Agent")),
                para("lang", self.headers.get("Accept-Language")),
                para("xh", "; ".join(f"{k}={v}" for k, v in xs)),
                para("cookie", self.headers.get("Cookie")),
                *(para(i, None) for i in ("js-ua", "js-lang", "js-tz", "js-offset", "js-storage")),
                "<script>const put = (id, v) => { document.getElementById(id).textContent = String(v); };",
                "put('js-ua', navigator.userAgent); put('js-lang', navigator.language);",
                "put('js-tz', Intl.DateTimeFormat().resolvedOptions().timeZone);",
                "put('js-offset', new Date(0).getTimezoneOffset());",
                "put('js-storage', localStorage.getItem('visx-test'));</script></body></html>",
            ])
            self._send(200, "text/html; charset=utf-8", body.encode())
            return
        super().do_GET()


@pytest.fixture(scope="session")
def server() -> Iterator[LocalServer]:
    """A real ThreadingHTTPServer on 127.0.0.1 serving ``fixtures/``."""
    release = threading.Event()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    port = int(httpd.server_address[1])
    state = LocalServer(base=f"http://127.0.0.1:{port}", port=port)
    _Handler.state = state
    _Handler.release = release
    thread = threading.Thread(target=httpd.serve_forever, name="fixture-http", daemon=True)
    thread.start()
    try:
        yield state
    finally:
        release.set()
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


@pytest.fixture
def fresh_typing_caches() -> Iterator[None]:
    """Empty the typer's per-text caches, so every case runs the typing rules themselves
    (an answer cached by an earlier test would hide a broken rule)."""
    from visx.schema import entities
    from visx.schema.numbers import text_counts

    entities._type_default.cache_clear()
    entities._type_text.cache_clear()
    text_counts.cache_clear()
    yield
