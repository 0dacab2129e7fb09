"""A local site for batch tests and ``scripts/bench_batch.py``: list pages of three record
schemas, and misbehaving URLs of every kind a batch meets.

``/p/<n>.html``: page ``n``, a product, article or job list (``n % 3``) of 6 to 11 records,
each record's first field ``P<n>-R<k> ...`` so a test can find every page's records.
``/status/<code>``: that HTTP status. ``/flaky/<n>.html``: 503 on the first request, then
page ``n``. ``/hang``: never answers (until the site stops). ``/pdf``: a PDF.
``/reset``: the connection is reset without an answer. ``requests`` counts every path.
"""

from __future__ import annotations

import collections
import socket
import struct
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from visx.batch.retry import RetryPolicy
from visx.config import Config, RenderConfig

FAST = RetryPolicy(retries=2, initial=0.05, max_wait=0.1, jitter=0.0)
"""A batch's retries with waits of a twentieth of a second, for tests."""
CFG = Config(render=RenderConfig(javascript=False, timeout_s=4.0))
"""The site's pages need no scripts; a short timeout keeps a hanging URL short."""

KINDS = ("products", "articles", "jobs")


def records_of(n: int) -> int:
    return 6 + n % 6


def page_html(n: int) -> str:
    kind = KINDS[n % 3]
    items = []
    for k in range(records_of(n)):
        key = f"P{n}-R{k}"
        if kind == "products":
            body = (f'<h3><a href="/item/{n}/{k}">{key} Garden chair model {k}</a></h3>'
                    f'<span class="price">${10 + k}.{n % 100:02d}</span><span class="stock">{k + 2} in stock</span>')
        elif kind == "articles":
            body = (f'<h3><a href="/story/{n}/{k}">{key} Council votes on the new bridge plan</a></h3>'
                    f'<span class="by">by Writer {k}</span><time>2025-0{1 + k % 9}-1{k % 10}</time>')
        else:
            body = (f'<h3><a href="/job/{n}/{k}">{key} Senior engineer, platform team</a></h3>'
                    f'<span class="city">City {k}</span><span class="pay">{50 + k},000 a year</span>')
        items.append(f'<li class="item">{body}</li>')
    style = ("body{font:16px sans-serif;margin:0} header,footer{background:#eee;padding:20px}"
             "ul{list-style:none;padding:0;margin:20px auto;width:700px} li{border:1px solid #ccc;"
             "margin:8px 0;padding:10px;height:70px} span,time{margin-right:20px}")
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Page {n}: {kind}</title>"
            f"<style>{style}</style></head><body><header><a href='/'>Home</a> <a href='/about'>About</a>"
            f"</header><main><h1>{kind.title()} {n}</h1><ul>{''.join(items)}</ul></main>"
            "<footer>Footer text</footer></body></html>")


class Site:
    """The running site: ``url(path)``, ``requests`` (path -> count), ``stop()``."""

    def __init__(self, port: int = 0, delay: float = 0.0) -> None:
        self.delay = delay
        """Seconds every page waits before its answer (a remote server's latency)."""
        self.requests: collections.Counter[str] = collections.Counter()
        self.release = threading.Event()
        self._lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def send(self, status: int, ctype: str, body: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                path = self.path.split("?")[0]
                with site._lock:
                    site.requests[path] += 1
                    seen = site.requests[path]
                if path.startswith(("/p/", "/flaky/")) and path.endswith(".html"):
                    if path.startswith("/flaky/") and seen == 1:
                        self.send(503, "text/html", b"<html><body><h1>Busy, try again</h1></body></html>")
                        return
                    n = int(path.rsplit("/", 1)[1].split(".")[0])
                    time.sleep(site.delay)
                    self.send(200, "text/html; charset=utf-8", page_html(n).encode())
                elif path.startswith("/status/"):
                    code = int(path.rsplit("/", 1)[1])
                    self.send(code, "text/html", f"<html><body><h1>Error {code}</h1></body></html>".encode())
                elif path == "/hang":
                    site.release.wait(300)
                elif path == "/pdf":
                    self.send(200, "application/pdf", b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")
                elif path == "/drip":  # the start of a page at once, then a byte a second, never the end
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                    self.end_headers()
                    self.wfile.write(b"<html><head><title>Drip</title></head><body><ul><li>first</li>")
                    self.wfile.flush()
                    while not site.release.wait(1.0):
                        try:
                            self.wfile.write(b" ")
                            self.wfile.flush()
                        except OSError:  # the browser gave up
                            return
                elif path == "/loop":  # a redirect to itself
                    self.send_response(302)
                    self.send_header("Location", self.path)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                elif path == "/js-loop":  # a script that never yields, before the page is loaded
                    self.send(200, "text/html", b"<html><body><h1>Busy</h1><script>while (true) {}</script>"
                                                b"<p>never</p></body></html>")
                elif path == "/js-reload":  # a script that reloads the page again and again
                    self.send(200, "text/html", b"<html><body><h1>Again</h1><script>setTimeout(() => "
                                                b"location.reload(), 50)</script></body></html>")
                elif path == "/reset":
                    # SO_LINGER 0: close() sends a RST, the browser sees a reset connection.
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    self.connection.close()
                else:
                    self.send(404, "text/html", b"<html><body><h1>Not found</h1></body></html>")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.httpd.daemon_threads = True
        self.port = int(self.httpd.server_address[1])
        self.base = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="batch-site", daemon=True)
        self._thread.start()

    def url(self, path: str) -> str:
        return self.base + "/" + path.lstrip("/")

    def stop(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()


FAULTS = ("status/404", "status/500", "pdf", "reset", "hang", "status/410", "status/502", "drip", "loop",
          "js-loop", "js-reload")
"""The misbehaving paths, in the order batches cycle through them (the last two only misbehave
with JavaScript on: see ``js``)."""
JS_FAULTS = ("js-loop", "js-reload")


def batch_urls(site: Site, pages: int, faulty_every: int = 10, *, hang: bool = True,
               js: bool = False) -> tuple[list[str], list[str]]:
    """``pages`` URLs, every ``faulty_every``-th one a misbehaving URL (made unique by a
    query); returns (all URLs, the faulty ones). Without ``hang`` no URL waits out the
    timeout (hang, drip); without ``js`` no script misbehaves (a batch rendered with --no-js)."""
    faults = [f for f in FAULTS if (hang or f not in ("hang", "drip")) and (js or f not in JS_FAULTS)]
    urls, bad = [], []
    for i in range(pages):
        if faulty_every and i % faulty_every == faulty_every - 1:
            u = site.url(f"{faults[len(bad) % len(faults)]}?i={i}")
            bad.append(u)
        else:
            u = site.url(f"p/{i}.html")
        urls.append(u)
    return urls, bad


if __name__ == "__main__":  # serve the site by hand: python tests/batch_site.py [PORT]
    import sys

    s = Site(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    print(s.base, flush=True)
    while True:
        time.sleep(3600)
