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
from urllib.parse import urlsplit

from visx.config import Config
from visx.errors import (
    HttpStatusError,
    NonHtmlContentError,
    RenderTimeoutError,
    SourceNotFoundError,
    UnreachableError,
)
from visx.version import __version__

MAX_BYTES = 64 * 1024 * 1024
"""Larger answers are not list pages; reading on would only hold memory."""
_HTML_TYPES = ("text/html", "application/xhtml+xml", "text/plain", "")


@dataclass(slots=True)
class Fetched:
    body: bytes
    url: str
    status: int


def fetch_html(source: str, cfg: Config) -> Fetched:
    """The bytes of ``source`` (URL, ``file:`` URL, path, or HTML text starting with ``<``)."""
    s = source.strip()
    if s.startswith("<"):
        return Fetched(source.encode("utf-8"), cfg.render.base_url or "about:blank", 200)
    scheme = urlsplit(s).scheme.lower()
    if scheme in ("http", "https"):
        return _http(s, cfg)
    path = Path(urllib.request.url2pathname(urlsplit(s).path)) if scheme == "file" else Path(s)
    try:
        data = path.read_bytes()
    except FileNotFoundError as e:
        raise SourceNotFoundError(f"{source}: no such file; give a path to an HTML file or an http(s) URL",
                                  source=source) from e
    except (IsADirectoryError, PermissionError, OSError) as e:
        raise SourceNotFoundError(f"{source}: cannot read it ({e.strerror or e})", source=source) from e
    return Fetched(data, path.resolve().as_uri(), 200)


def _http(url: str, cfg: Config) -> Fetched:
    rc = cfg.render
    headers = {"User-Agent": rc.user_agent or f"visx/{__version__} (+static)", **rc.headers}
    if rc.cookies:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in rc.cookies.items())
    req = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=rc.timeout_s) as resp:
            ctype = (resp.headers.get_content_type() or "").lower()
            if resp.headers.get("Content-Type") and ctype not in _HTML_TYPES:
                raise NonHtmlContentError(f"{url}: the server sent {ctype}, not HTML; visx reads HTML pages",
                                          source=url, content_type=ctype)
            body = resp.read(MAX_BYTES + 1)
            if len(body) > MAX_BYTES:
                raise NonHtmlContentError(f"{url}: over {MAX_BYTES // 2**20} MB; not a page visx reads",
                                          source=url, content_type=ctype)
            return Fetched(body, resp.geturl(), resp.status)
    except urllib.error.HTTPError as e:
        raise HttpStatusError(f"{url}: HTTP {e.code} {e.reason}; check the address (--static reads "
                              "the page as a plain client would)", source=url, status=e.code) from e
    except TimeoutError as e:
        raise RenderTimeoutError(f"{url}: no answer within {rc.timeout_s:g} s; raise --timeout",
                                 source=url) from e
    except urllib.error.URLError as e:
        reason = e.reason
        if isinstance(reason, TimeoutError | socket.timeout):
            raise RenderTimeoutError(f"{url}: no answer within {rc.timeout_s:g} s; raise --timeout",
                                     source=url) from e
        raise UnreachableError(f"{url}: cannot connect ({reason}); check the address and the network",
                               source=url) from e
