"""Bad inputs of every kind (issue 14, section 3): sources, content, outputs and options."""

from __future__ import annotations

from collections.abc import Callable
from http.server import BaseHTTPRequestHandler

from badinput.case import Case

T = 5.0  # the --timeout of the cases that render: nothing here needs long


def ex(source: str, *more: str, timeout: float = T, out: str = "{tmp}/out.json") -> list[str]:
    """``extract SOURCE -o OUT --timeout T`` plus ``more``."""
    return ["extract", source, "-o", out, "--timeout", f"{timeout:g}", *more]


LIST = "".join(f"<li><a href='/item/{i}'>Item {i}</a> <span>${i}.99</span></li>" for i in range(1, 9))
GOOD = f"<!DOCTYPE html><html><head><title>Good</title></head><body><ul>{LIST}</ul></body></html>"

PAGES: dict[str, bytes | str] = {
    "good.html": GOOD,
}

ROUTES: dict[str, Callable[[BaseHTTPRequestHandler], None]] = {}

CASES: list[Case] = [
    Case("missing-file", "message", ex("{corpus}/no-such-page.html"), "error", r"no-such-page\.html: no such file"),
    Case("http-404", "message", ex("{url}/no-such-page.html"), "error", r"HTTP 404.*--allow-http-errors"),
    Case("good-page", "message", ex("{url}/good.html"), "ok"),
]
