"""The corpus server: a real ThreadingHTTPServer over the corpus folder plus every ``ROUTES`` handler.

A route handler writes the whole response itself (status, headers, body), so it can
drip bytes, hang, reset the connection or redirect forever. A handler that hangs waits
on :data:`RELEASE` (see :func:`hold`), which is set when the server shuts down.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

from badinput.generate import Route

RELEASE = threading.Event()
"""Set at shutdown: handlers that hang wait on it, so the server stops at once."""


def hold(seconds: float) -> bool:
    """Wait up to ``seconds`` or until shutdown; True when the server is shutting down."""
    return RELEASE.wait(seconds)


def send(h: Any, status: int, ctype: str, body: bytes, headers: dict[str, str] | None = None) -> None:
    """A whole, ordinary response (for route handlers)."""
    h.send_response(status)
    if ctype:
        h.send_header("Content-Type", ctype)
    for k, v in (headers or {}).items():
        h.send_header(k, v)
    h.send_header("Content-Length", str(len(body)))
    h.end_headers()
    h.wfile.write(body)


class _Handler(SimpleHTTPRequestHandler):
    routes: ClassVar[dict[str, Route]] = {}

    def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
        pass

    def do_GET(self) -> None:
        route = self.routes.get(self.path.split("?", 1)[0].split("#", 1)[0])
        if route is None:
            super().do_GET()
            return
        with contextlib.suppress(ConnectionError, TimeoutError):  # the browser hung up: fine
            route(self)


@contextlib.contextmanager
def serve(folder: Path, routes: dict[str, Route]) -> Iterator[str]:
    """Serve ``folder`` and ``routes`` on 127.0.0.1; yields the base URL (no trailing slash)."""
    RELEASE.clear()
    handler = type("CorpusHandler", (_Handler,), {"routes": dict(routes)})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(folder)))
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, name="badinput-http", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        RELEASE.set()
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)
