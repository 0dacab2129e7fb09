"""Bad inputs of every kind (issue 14, section 3): sources, content, HTTP, stdin, outputs, options.

Each case says what a user gets: one ``visx: error:`` line naming the input and the
way out, or a result. Cases checked before any render pass ``timeout_s=0``: their
wall bound is then the allowance alone, although the page they name would hang.
"""

from __future__ import annotations

import gzip
import io
import socket
import struct
import zipfile
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler

from badinput.case import Case
from badinput.serve import hold, send

T = 5.0  # the --timeout of the cases that render: nothing here needs long


def ex(source: str, *more: str, timeout: float = T, out: str = "{tmp}/out.json") -> list[str]:
    """``extract SOURCE -o OUT --timeout T --retries 0`` plus ``more`` (one attempt: the bound is per attempt)."""
    return ["extract", source, "-o", out, "--timeout", f"{timeout:g}", "--retries", "0", *more]


LIST = "".join(f"<li><a href='/item/{i}'>Item {i}</a> <span>${i}.99</span></li>" for i in range(1, 9))
GOOD = f"<!DOCTYPE html><html><head><title>Good</title></head><body><ul>{LIST}</ul></body></html>"
# No charset declared anywhere: only the byte order mark says how to read it.
GOOD_NO_META = f"<html><head><title>Good</title></head><body><ul>{LIST}</ul></body></html>"


def _zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("a.txt", "hello " * 200)
    return buf.getvalue()


ZIP = _zip()
PNG = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + bytes(17)
BINARY = bytes((i * 7919) % 256 for i in range(4096))  # NULs and control bytes throughout
SNAPSHOT_JSON = b'{"format": "something-else", "items": [1, 2, 3]}'

PAGES: dict[str, bytes | str] = {
    "good.html": GOOD,
    "empty.html": b"",
    "blank.html": "  \n\t\n   \n",
    "utf16le.html": b"\xff\xfe" + GOOD_NO_META.encode("utf-16-le"),
    "utf16be.html": b"\xfe\xff" + GOOD_NO_META.encode("utf-16-be"),
    "utf8bom.html": b"\xef\xbb\xbf" + GOOD_NO_META.encode(),
    "bad-utf8.html": GOOD.encode().replace(b"Item 3", b"Item \xff\xfe\xc3(3"),
    "huge-text.html": "<html><body><p>" + "word " * 1_000_000 + "</p></body></html>",
    "zip.html": ZIP,
    "binary.html": BINARY,
    "archive.zip": ZIP,
    "truncated.json.gz": gzip.compress(b'{"format": "visx-snapshot"' + b" " * 5000)[:60],
    "not-snapshot.json": SNAPSHOT_JSON,
    "not-snapshot.json.gz": gzip.compress(SNAPSHOT_JSON),
    "subdir/index.html": GOOD,
    "meta-loop.html": "<html><head><meta http-equiv='refresh' content='0;url=/meta-loop.html'></head>"
                      "<body><p>again</p></body></html>",
    "js-reload.html": "<html><body><p>again</p><script>setTimeout(() => location.reload(), 10)</script>"
                      "</body></html>",
}


def _status(code: int, body: str = "") -> Callable[[BaseHTTPRequestHandler], None]:
    page = body or f"<html><head><title>Error {code}</title></head><body><h1>Error {code}</h1></body></html>"
    return lambda h: send(h, code, "text/html; charset=utf-8", page.encode())


def _redirect(to: str, code: int = 302) -> Callable[[BaseHTTPRequestHandler], None]:
    return lambda h: send(h, code, "text/html", b"", {"Location": to})


def _hang(h: BaseHTTPRequestHandler) -> None:
    hold(120)  # never answers while the corpus runs


def _drip(h: BaseHTTPRequestHandler) -> None:
    """Headers and the start of a list at once, then a byte a second: the page never ends."""
    h.send_response(200)
    h.send_header("Content-Type", "text/html; charset=utf-8")
    h.end_headers()
    h.wfile.write(f"<html><head><title>Drip</title></head><body><ul>{LIST}".encode())
    h.wfile.flush()
    while not hold(1.0):
        h.wfile.write(b" ")
        h.wfile.flush()


def _reset(h: BaseHTTPRequestHandler) -> None:
    """Close the connection without a response (RST, not FIN)."""
    h.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    h.close_connection = True


LOGIN = ("<html><head><title>Sign in</title></head><body><form><input name=user><input name=pass "
         "type=password><button>Sign in</button></form></body></html>")

ROUTES: dict[str, Callable[[BaseHTTPRequestHandler], None]] = {
    "/status/401": _status(401, LOGIN),
    "/status/403": _status(403),
    "/status/410": _status(410),
    "/status/500": _status(500),
    "/status/503": _status(503),
    "/png-as-png": lambda h: send(h, 200, "image/png", PNG),
    "/zip-as-html": lambda h: send(h, 200, "text/html", ZIP),
    "/binary-as-html": lambda h: send(h, 200, "text/html; charset=utf-8", BINARY),
    "/empty-200": lambda h: send(h, 200, "text/html", b""),
    "/blank-200": lambda h: send(h, 200, "text/html", b"  \n\n  "),
    "/utf16-as-html": lambda h: send(h, 200, "text/html", b"\xff\xfe" + GOOD_NO_META.encode("utf-16-le")),
    "/loop": _redirect("/loop"),
    "/ping": _redirect("/pong", 301),
    "/pong": _redirect("/ping", 301),
    "/to-ftp": _redirect("ftp://127.0.0.1/list.html"),
    "/to-file": _redirect("file:///etc/passwd"),
    "/hang": _hang,
    "/drip-head": _drip,
    "/reset": _reset,
}

QUICK = 0.0  # timeout_s of cases that must fail before any render (see the module docstring)

CASES: list[Case] = [
    # -- local files ---------------------------------------------------------
    Case("missing-file", "message", ex("{corpus}/no-such-page.html"), "error",
         r"no-such-page\.html: no such file", timeout_s=QUICK),
    Case("missing-file-url", "message", ex("file://{corpus}/gone.html"), "error", r"gone\.html: no such file",
         timeout_s=QUICK),
    Case("directory", "message", ex("{corpus}/subdir"), "error", r"subdir: is a directory", timeout_s=QUICK),
    Case("unreadable-file", "message", ex("/proc/self/mem"), "error", r"/proc/self/mem: cannot read",
         timeout_s=QUICK),
    Case("empty-file", "message", ex("{corpus}/empty.html"), "error", r"empty\.html: the file is empty",
         timeout_s=QUICK),
    Case("whitespace-file", "message", ex("{corpus}/blank.html"), "error",
         r"blank\.html: the file holds only whitespace", timeout_s=QUICK),
    Case("utf16-le-bom-file", "message", ex("{corpus}/utf16le.html"), "ok", r"8 record"),
    Case("utf16-be-bom-file", "message", ex("{corpus}/utf16be.html"), "ok", r"8 record"),
    Case("utf8-bom-file", "message", ex("{corpus}/utf8bom.html"), "ok", r"8 record"),
    Case("invalid-utf8-file", "message", ex("{corpus}/bad-utf8.html"), "ok", r"8 record"),
    Case("huge-text-node", "size", ex("{corpus}/huge-text.html", "--no-js"), "ok"),
    Case("zip-named-html", "silent", ex("{corpus}/zip.html"), "error", r"zip\.html: is application/zip",
         timeout_s=QUICK),
    Case("binary-named-html", "silent", ex("{corpus}/binary.html"), "error",
         r"binary\.html: is binary data .*not an HTML page", timeout_s=QUICK),
    Case("zip-file", "message", ex("{corpus}/archive.zip"), "error", r"is application/zip", timeout_s=QUICK),
    Case("truncated-snapshot", "message", ex("{corpus}/truncated.json.gz"), "error",
         r"truncated\.json\.gz: not a visx snapshot.*visx render", timeout_s=QUICK),
    Case("json-not-snapshot", "message", ex("{corpus}/not-snapshot.json"), "error",
         r"not-snapshot\.json: is application/json, not an HTML page", timeout_s=QUICK),
    Case("gzip-json-not-snapshot", "message", ex("{corpus}/not-snapshot.json.gz"), "error",
         r"not a visx snapshot \(no 'format", timeout_s=QUICK),
    # -- schemes -------------------------------------------------------------
    Case("ftp-scheme", "message", ex("ftp://example.org/list"), "error", r"unsupported scheme.*http",
         timeout_s=QUICK),
    Case("unknown-scheme", "message", ex("gopher://example.org/1"), "error", r"unsupported scheme",
         timeout_s=QUICK),
    Case("javascript-url", "message", ex("javascript:alert(1)"), "error",
         r"javascript: URLs are not supported.*http\(s\) URL", timeout_s=QUICK),
    Case("mailto-url", "message", ex("mailto:someone@example.org"), "error", r"mailto: URLs are not supported",
         timeout_s=QUICK),
    Case("data-url-html", "message", ex("data:text/html," + GOOD.replace("#", "%23")), "ok", r"8 record"),
    Case("data-url-base64-png", "message", ex("data:image/png;base64,iVBORw0KGgo="), "error",
         r"data: URL is image/png, not an HTML page", timeout_s=QUICK),
    # -- HTTP ----------------------------------------------------------------
    Case("closed-port", "message", ex("http://127.0.0.1:9/list"), "error", r"cannot connect|refuses"),
    Case("unresolvable-host", "message", ex("http://visx-corpus.invalid/list"), "error", r"does not resolve"),
    Case("http-404", "message", ex("{url}/no-such-page.html"), "error", r"HTTP 404.*--allow-http-errors"),
    Case("http-410", "message", ex("{url}/status/410"), "error", r"/status/410: HTTP 410"),
    Case("http-500", "message", ex("{url}/status/500"), "error", r"HTTP 500.*retry"),
    Case("http-503", "message", ex("{url}/status/503"), "error", r"HTTP 503.*retry"),
    Case("http-401-login", "message", ex("{url}/status/401"), "error", r"HTTP 401.*--cookie|--storage-state"),
    Case("http-403", "message", ex("{url}/status/403"), "error", r"HTTP 403"),
    Case("png-content-type", "message", ex("{url}/png-as-png"), "error", r"server sent image/png"),
    Case("zip-as-text-html", "silent", ex("{url}/zip-as-html"), "error",
         r"zip-as-html: .*application/zip.*not an HTML page"),
    Case("binary-as-text-html", "silent", ex("{url}/binary-as-html"), "error",
         r"binary-as-html: .*binary data"),
    Case("empty-200", "message", ex("{url}/empty-200"), "error", r"empty-200: the server sent an empty page"),
    Case("whitespace-200", "message", ex("{url}/blank-200"), "error", r"blank-200: the server sent an empty page"),
    Case("utf16-over-http", "message", ex("{url}/utf16-as-html"), "ok", r"8 record"),
    Case("redirect-loop", "message", ex("{url}/loop"), "error", r"/loop: redirect loop"),
    Case("redirect-ping-pong", "message", ex("{url}/ping"), "error", r"/ping: redirect loop"),
    Case("redirect-to-ftp", "message", ex("{url}/to-ftp"), "error",
         r"redirected to ftp://127\.0\.0\.1/list\.html.*not supported"),
    Case("redirect-to-file", "message", ex("{url}/to-file"), "error",
         r"/to-file: redirected to a local file or another URL the browser may not follow"),
    Case("meta-refresh-loop", "timeout", ex("{url}/meta-loop.html"), "error",
         r"meta-loop\.html: the page keeps navigating .*loop"),
    Case("js-reload-loop", "timeout", ex("{url}/js-reload.html"), "error", r"js-reload\.html: the page keeps navigating"),
    Case("server-never-answers", "timeout", ex("{url}/hang", "--partial", timeout=3), "error",
         r"/hang: no response from the server within 3 s \(--partial keeps nothing", timeout_s=3),
    Case("server-never-answers-plain", "timeout", ex("{url}/hang", timeout=3), "error",
         r"/hang: no response from the server within 3 s; check that the server is up", timeout_s=3),
    Case("connection-reset", "message", ex("{url}/reset"), "error", r"/reset: .*(closed|reset)"),
    Case("drip-feed-timeout", "timeout", ex("{url}/drip-head", timeout=3), "error",
         r"/drip-head: page did not finish loading within 3 s.*--partial", timeout_s=3),
    # -- standard input ------------------------------------------------------
    Case("empty-stdin", "message", ex("-"), "error", r"standard input was empty; pipe an HTML page",
         stdin=b"", timeout_s=QUICK),
    Case("binary-stdin", "message", ex("-"), "error", r"standard input: is application/zip", stdin=ZIP,
         timeout_s=QUICK),
    Case("utf16-stdin", "message", ex("-"), "ok", r"8 record", stdin=b"\xff\xfe" + GOOD.encode("utf-16-le")),
    Case("text-stdin", "message", ex("-"), "error", r"standard input: does not look like HTML",
         stdin=b"just some words\n", timeout_s=QUICK),
    # -- outputs: checked before any render (the source would hang) ------------
    Case("output-is-directory", "message", ex("{url}/hang", out="{tmp}"), "error",
         r"is a folder; give a file name inside it", timeout_s=QUICK),
    Case("output-in-proc", "message", ex("{url}/hang", out="/proc/x.csv"), "error",
         r"/proc/x\.csv: .*(cannot write|not writable)", timeout_s=QUICK),
    Case("output-missing-folder", "message", ex("{url}/hang", out="{tmp}/nope/out.csv"), "error",
         r"folder .*nope does not exist", timeout_s=QUICK),
    Case("output-unknown-extension", "message", ex("{url}/hang", out="{tmp}/out.xlsx"), "error",
         r"unknown output", timeout_s=QUICK),
    Case("batch-output-in-proc", "message", ["extract", "{url}/hang", "{url}/good.html", "-o", "/proc/x.csv",
                                                 "--timeout", "5"], "error",
         r"/proc/x\.csv: .*(cannot write|not writable)", timeout_s=QUICK),
    Case("render-output-in-proc", "message",
         ["render", "{url}/hang", "-o", "/proc/visx/x.snapshot.json.gz", "--timeout", "5"], "error",
         r"/proc/visx/x\.snapshot\.json\.gz: cannot write there", timeout_s=QUICK),
    Case("report-output-in-proc", "message", ["report", "{url}/hang", "-o", "/proc/visx-report"], "error",
         r"/proc/visx-report: cannot write there", timeout_s=QUICK),
    # -- options -------------------------------------------------------------
    Case("bad-set-key", "message", ex("{url}/hang", "--set", "mine.nope=1"), "error", r"mine\.nope.*threshold",
         timeout_s=QUICK),
    Case("bad-set-value", "message", ex("{url}/hang", "--set", "mine.threshold=abc"), "error",
         r"mine\.threshold", timeout_s=QUICK),
    Case("timeout-zero", "message", ex("{url}/hang", timeout=0), "error", r"--timeout.*greater than 0",
         timeout_s=QUICK),
    Case("timeout-negative", "message", ex("{url}/hang", timeout=-1), "error", r"--timeout.*greater than 0",
         timeout_s=QUICK),
    Case("bad-viewport", "message", ex("{url}/hang", "--viewport", "huge"), "error", r"viewport",
         timeout_s=QUICK),
    Case("jobs-zero", "message", ["extract", "{url}/hang", "{url}/good.html", "-j", "0"], "error", r"--jobs",
         timeout_s=QUICK),
    Case("bad-header", "message", ex("{url}/hang", "--header", "novalue"), "error", r"--header",
         timeout_s=QUICK),
    Case("bad-hint", "message", ex("{url}/hang", "--hint", "li[[["), "error", r"hint", timeout_s=QUICK),
    Case("missing-sources-from", "message", ["extract", "--sources-from", "{tmp}/none.txt"], "error",
         r"none\.txt: cannot read the source list", timeout_s=QUICK),
    Case("report-missing-source", "message", ["report", "{corpus}/nothing.html", "-o", "{tmp}/r"], "error",
         r"nothing\.html: no such file", timeout_s=QUICK),
]
