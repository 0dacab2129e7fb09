"""The HTML of a page without a browser, for ``visx apply --static``.

Plain HTTP(S) with the request options of :class:`visx.config.RenderConfig`
(user agent, headers, cookies, timeout), or a local file. Errors are the
render errors a browser load would raise, so callers handle one tree.
"""

from __future__ import annotations

import socket
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from visx.config import Config
from visx.errors import (
    NonHtmlContentError,
    RenderTimeoutError,
    SourceNotFoundError,
    UnreachableError,
)
from visx.version import __version__

MAX_BYTES = 64 * 1024 * 1024
"""Larger answers are not list pages; reading on would only hold memory."""
_HTML_TYPES = ("text/html", "application/xhtml+xml", "text/plain", "")
_SNIFF_BYTES = 4096
"""Bytes sniffed for a binary answer, as a browser load does (``visx.sniff``)."""


@dataclass(slots=True)
class Fetched:
    body: bytes
    url: str
    status: int


def fetch_html(source: str, cfg: Config) -> Fetched:
    """The bytes of ``source`` (URL, ``file:`` URL, path, ``data:`` URL, or HTML text).

    Everything but http(s) goes through the render's :func:`~visx.render.page_load.classify`,
    so a missing file, a folder, an empty or binary file, a bad scheme say what they say
    without ``--static``.
    """
    from visx.render.page_load import classify

    s = source.strip()
    if s.startswith("<"):
        return Fetched(source.encode("utf-8"), cfg.render.base_url or "about:blank", 200)
    if urlsplit(s).scheme.lower() in ("http", "https"):
        return _http(s, cfg)
    src = classify(s)
    if src.kind == "html":  # a data: URL or HTML text: already decoded
        return Fetched(src.value.encode("utf-8"), cfg.render.base_url or "about:blank", 200)
    path = Path(urllib.request.url2pathname(urlsplit(src.value).path))
    try:
        return Fetched(path.read_bytes(), src.value, 200)
    except OSError as e:  # gone or unreadable since it was checked
        raise SourceNotFoundError(f"{src.label}: cannot read the file ({e.strerror or e}); check its permissions",
                                  source=src.label) from e


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Follows redirects like a browser, keeping where they led; a non-http(s) target is refused
    with the render's message (urllib's own says only that it "is not allowed")."""

    max_redirections = 20  # Chromium's limit, so a loop is named after the same number of hops

    def __init__(self, label: str) -> None:
        self.label = label
        self.chain: list[str] = []

    def redirect_request(self, req: urllib.request.Request, fp: Any, code: int, msg: str,
                         headers: Any, newurl: str) -> urllib.request.Request | None:
        from visx.render.page_load import scheme_redirect_error

        self.chain.append(newurl)
        if (err := scheme_redirect_error(self.label, newurl)) is not None:
            raise err
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _http(url: str, cfg: Config) -> Fetched:
    from visx.render.page_load import redirect_loop_error, scheme_redirect_error, status_error

    rc = cfg.render
    headers = {"User-Agent": rc.user_agent or f"visx/{__version__} (+static)", **rc.headers}
    if rc.cookies:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in rc.cookies.items())
    req = urllib.request.Request(url, headers=headers)
    redirects = _Redirects(url)
    opener = urllib.request.build_opener(redirects)
    try:
        with opener.open(req, timeout=rc.timeout_s) as resp:
            return _read(url, resp.headers, resp, resp.status, resp.geturl())
    except urllib.error.HTTPError as e:
        if 300 <= e.code < 400:  # urllib gives up on a loop, or on a scheme it refuses itself (file:)
            target = urljoin(e.geturl() or url, e.headers.get("Location", ""))
            if (err := scheme_redirect_error(url, target)) is not None:
                raise err from e
            raise redirect_loop_error(url, redirects.chain) from e
        if rc.allow_http_errors:
            with e:
                return _read(url, e.headers, e, e.code, e.geturl())
        raise status_error(url, e.code) from e
    except TimeoutError as e:
        raise _timeout(url, rc.timeout_s) from e
    except urllib.error.URLError as e:
        reason = e.reason
        if isinstance(reason, TimeoutError | socket.timeout):
            raise _timeout(url, rc.timeout_s) from e
        raise UnreachableError(f"{url}: cannot connect ({reason}); check that the server is up and the URL "
                               "is right", source=url) from e


def _read(url: str, headers: Any, fp: Any, status: int, final: str) -> Fetched:
    """The body of an answer, refused when it is not an HTML page (its type, its bytes, its size)."""
    from visx.render.page_load import check_content, empty_body_error, server_type_error
    from visx.sniff import is_blank

    ctype = (headers.get_content_type() or "").lower()
    if headers.get("Content-Type") and ctype not in _HTML_TYPES:
        raise server_type_error(url, ctype)
    body: bytes = fp.read(MAX_BYTES + 1)
    if len(body) > MAX_BYTES:
        raise NonHtmlContentError(f"{url}: the server sent over {MAX_BYTES // 2**20} MB; not a page visx reads",
                                  source=url, content_type=ctype)
    if is_blank(body[:1 << 20]):
        raise empty_body_error(url, status, body)
    check_content(url, body[:_SNIFF_BYTES], "", "the server sent")
    return Fetched(body, final, status)


def _timeout(url: str, timeout_s: float) -> RenderTimeoutError:
    return RenderTimeoutError(f"{url}: no response from the server within {timeout_s:g} s; check that the "
                              "server is up and the URL is right, or raise the timeout (--timeout)", source=url)
