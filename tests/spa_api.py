"""The JSON API behind the client-rendered fixture apps (``fixtures/spa/``).

Items are generated, so tests know every record without reading the apps:
``item(i)`` is what ``/api/spa/items`` serves for id ``i`` (1-based).
Every endpoint takes ``delay=MS`` (the server sleeps first, at most 30 s), so a
test can make an API slower than visx's settle wait with small numbers.

    GET /api/spa/items?offset=0&limit=20&total=100&delay=0
        -> {"items": [item, ...], "offset": 0, "total": 100}
    GET /api/spa/session?delay=0 -> {"user": "demo"}
    GET /api/spa/listing?page=1&per=10&total=30&delay=0 -> a server-rendered HTML page of the
        items, with a pager whose "Next ›" link (no rel) leads to the following page

Run alone to serve ``fixtures/`` with this API for manual work on the apps:
``python tests/spa_api.py [--port 8765]``.
"""

from __future__ import annotations

import json
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

ADJECTIVES = ("Amber", "Brisk", "Cobalt", "Dusky", "Ember", "Frosted", "Gilded", "Hazel", "Ivory", "Jade",
              "Kindled", "Lunar", "Misty", "Nimble", "Olive")
NOUNS = ("Lamp", "Kettle", "Chair", "Notebook", "Backpack", "Clock", "Mug", "Blanket", "Speaker", "Planter",
         "Easel", "Tripod", "Satchel")
CATEGORIES = ("Home", "Kitchen", "Office", "Outdoor", "Audio")
MAX_DELAY_MS = 30_000
MAX_TOTAL = 100_000


def item(i: int) -> dict[str, Any]:
    """Item ``i`` (1-based): the same every time, distinct titles for distinct ids."""
    title = f"{ADJECTIVES[i % len(ADJECTIVES)]} {NOUNS[(i * 7) % len(NOUNS)]} {i:04d}"
    return {
        "id": i,
        "title": title,
        "price": round(((i * 37) % 490) + 9 + (i % 100) / 100, 2),
        "category": CATEGORIES[i % len(CATEGORIES)],
        "rating": i % 5 + 1,
        "date": f"2026-{(i % 12) + 1:02d}-{(i % 28) + 1:02d}",
        "description": f"Hand-finished {NOUNS[(i * 7) % len(NOUNS)].lower()} number {i}, "
                       f"sold in the {CATEGORIES[i % len(CATEGORIES)].lower()} range.",
    }


def _int(q: dict[str, list[str]], name: str, default: int, lo: int, hi: int) -> int:
    try:
        v = int(q.get(name, [str(default)])[0])
    except ValueError:
        v = default
    return max(lo, min(hi, v))


def _listing(q: dict[str, list[str]]) -> str:
    """One page of a server-rendered list; the next page is a plain link, as old sites do it."""
    page = _int(q, "page", 1, 1, MAX_TOTAL)
    per = _int(q, "per", 10, 1, 1000)
    total = _int(q, "total", 30, 0, MAX_TOTAL)
    delay = _int(q, "delay", 0, 0, MAX_DELAY_MS)
    ids = range((page - 1) * per + 1, min(total, page * per) + 1)
    rows = "".join(f'<tr><td class="title"><a href="/item/{i}">{item(i)["title"]}</a></td>'
                   f'<td class="price">${item(i)["price"]:.2f}</td><td>{item(i)["category"]}</td></tr>' for i in ids)
    more = page * per < total
    nxt = f'<a href="listing?page={page + 1}&per={per}&total={total}&delay={delay}">Next ›</a>' if more else ""
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Listing page {page}</title></head>"
            f"<body><h1>Listing</h1><table class='listing'><tbody>{rows}</tbody></table>"
            f"<p class='pager'>Page {page} {nxt}</p></body></html>")


def handle(path: str) -> tuple[int, str, bytes] | None:
    """(status, content type, body) for an API path with its query, or None when not an API path."""
    parts = urlsplit(path)
    if not parts.path.startswith("/api/spa/"):
        return None
    q = parse_qs(parts.query)
    delay = _int(q, "delay", 0, 0, MAX_DELAY_MS)
    if delay:
        time.sleep(delay / 1000)
    name = parts.path[len("/api/spa/"):]
    if name == "items":
        total = _int(q, "total", 100, 0, MAX_TOTAL)
        offset = _int(q, "offset", 0, 0, MAX_TOTAL)
        limit = _int(q, "limit", 20, 0, MAX_TOTAL)
        ids = range(offset + 1, min(total, offset + limit) + 1)
        body: Any = {"items": [item(i) for i in ids], "offset": offset, "total": total}
    elif name == "session":
        body = {"user": "demo"}
    elif name == "listing":
        return 200, "text/html; charset=utf-8", _listing(q).encode()
    else:
        return 404, "application/json", b'{"error": "no such endpoint"}'
    return 200, "application/json", json.dumps(body).encode()


def serve(root: Path, port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """Serve ``root`` and the API on 127.0.0.1 from a daemon thread; (server, base URL)."""

    class Handler(SimpleHTTPRequestHandler):
        def do_GET(self) -> None:
            out = handle(self.path)
            if out is None:
                super().do_GET()
                return
            status, ctype, data = out
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", port), partial(Handler, directory=str(root)))
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, name="spa-api", daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=8765)
    args = ap.parse_args()
    root = Path(__file__).resolve().parent.parent / "fixtures"
    httpd, base = serve(root, args.port)
    print(f"serving {root} and /api/spa/ on {base}/")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        httpd.shutdown()


if __name__ == "__main__":
    main()
