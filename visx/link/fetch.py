"""The two ways of fetching a page: plain HTTP (default, httpx) and the browser (``--render``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from visx.errors import HttpStatusError, RenderError, RenderTimeoutError, UnreachableError
from visx.link import thresholds as T
from visx.link.crawl import FetchError
from visx.link.parse import PageLinks, clean_text, parse_html
from visx.link.urls import absolute, normal

if TYPE_CHECKING:
    from visx.config import Config

_RETRY_STATUS = frozenset({408, 429})


class HttpFetcher:
    """GET with httpx: redirects followed, bodies cut at ``max_bytes``, only HTML parsed.

    httpx because it is well kept, typed, and has one client for sync and async code;
    connections are pooled and kept alive, which matters more than the client for a crawl."""

    def __init__(self, *, timeout_s: float = T.TIMEOUT_S, user_agent: str = T.USER_AGENT,
                 total: int = T.TOTAL, max_bytes: int = T.MAX_BYTES) -> None:
        import httpx

        self._httpx = httpx
        self.max_bytes = max_bytes
        self.client = httpx.AsyncClient(
            follow_redirects=True, timeout=timeout_s, headers={"User-Agent": user_agent},
            limits=httpx.Limits(max_connections=total, max_keepalive_connections=total))

    async def _get(self, url: str) -> tuple[int, str, str, bytes, str]:
        """Status, final URL, content type, body (cut), declared encoding."""
        httpx = self._httpx
        try:
            async with self.client.stream("GET", url) as r:
                ctype = r.headers.get("content-type", "")
                body = bytearray()
                if r.status_code < 400 and _is_html(ctype):
                    async for chunk in r.aiter_bytes():
                        body += chunk
                        if len(body) >= self.max_bytes:
                            break
                return r.status_code, str(r.url), ctype, bytes(body), r.encoding or ""
        except httpx.TimeoutException as e:
            raise FetchError(f"timed out ({type(e).__name__})", transient=True) from e
        except httpx.TooManyRedirects as e:
            raise FetchError("too many redirects", transient=False) from e
        except (httpx.TransportError, httpx.InvalidURL) as e:
            raise FetchError(f"connection failed: {e or type(e).__name__}",
                             transient=isinstance(e, httpx.TransportError)) from e

    async def fetch(self, url: str) -> PageLinks:
        status, final, ctype, body, _ = await self._get(url)
        if status >= 400:
            raise FetchError(f"HTTP {status}", transient=status >= 500 or status in _RETRY_STATUS,
                             status=status)
        if not _is_html(ctype):
            raise FetchError(f"not HTML ({ctype.split(';')[0] or 'no content type'})", transient=False)
        return parse_html(final, body)

    async def robots_txt(self, url: str) -> tuple[int, str]:
        try:
            async with self.client.stream("GET", url) as r:
                if r.status_code >= 400:
                    return r.status_code, ""
                text = (await r.aread())[: self.max_bytes]
                return r.status_code, text.decode(r.encoding or "utf-8", errors="replace")
        except (self._httpx.TransportError, self._httpx.TooManyRedirects):
            return 0, ""

    async def aclose(self) -> None:
        await self.client.aclose()


def _is_html(ctype: str) -> bool:
    """HTML or XHTML, or no content type at all (some servers send none for .html files)."""
    c = ctype.split(";")[0].strip().lower()
    return not c or c in ("text/html", "application/xhtml+xml")


class RenderFetcher:
    """Pages rendered by Chromium through :func:`visx.render_async`, for sites that build their
    links with JavaScript; robots.txt is still read over plain HTTP."""

    def __init__(self, config: Config | None = None, *, timeout_s: float = T.TIMEOUT_S,
                 user_agent: str = T.USER_AGENT) -> None:
        from visx.config import Config

        self.config = config or Config()
        self.http = HttpFetcher(timeout_s=timeout_s, user_agent=user_agent)

    async def fetch(self, url: str) -> PageLinks:
        from visx.render.page_load import render_async

        try:
            snap = await render_async(url, self.config)
        except RenderError as e:
            raise FetchError(str(e), transient=_transient(e), status=getattr(e, "status", 0)) from e
        return links_of_snapshot(snap)

    async def robots_txt(self, url: str) -> tuple[int, str]:
        return await self.http.robots_txt(url)

    async def aclose(self) -> None:
        await self.http.aclose()


def _transient(e: Exception) -> bool:
    if isinstance(e, HttpStatusError):
        return e.status >= 500 or e.status in _RETRY_STATUS
    return isinstance(e, RenderTimeoutError | UnreachableError)


def links_of_snapshot(snap: Any) -> PageLinks:
    """Title, first heading and links of a rendered page (its node table)."""
    nodes = snap.nodes
    page = PageLinks(normal(snap.url), title=clean_text(snap.title or ""))
    heading = {"h1": "", "h2": ""}
    for n in nodes.nodes:
        if n.tag in heading and not heading[n.tag]:
            heading[n.tag] = clean_text(nodes.text(n.index))
        if n.tag not in ("a", "area"):
            continue
        href = n.attrs.get("href")
        if not href:
            continue
        target = absolute(page.url, href)
        if target is None:
            continue
        text = clean_text(nodes.text(n.index))
        if not text:
            for c in range(n.index + 1, n.end):
                if nodes[c].tag == "img" and (alt := clean_text(nodes[c].attrs.get("alt", ""))):
                    text = alt
                    break
        if not text:
            text = clean_text(n.attrs.get("aria-label", "") or n.attrs.get("title", ""))
        page.links.append((target, text))
    page.heading = heading["h1"] or heading["h2"]
    return page
