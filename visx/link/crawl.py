"""Breadth-first crawl from the source page to depth h (the paper's h-reachable set).

Polite by default: robots.txt is obeyed (``urllib.robotparser``, with its ``Crawl-delay``),
at most ``per_host`` requests are in flight to one host, each has a timeout, and transient
failures are retried with backoff. A page that fails is listed in :attr:`Crawl.failed`, never
fatal; only a source that cannot be fetched stops the crawl (nothing could be linked).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol
from urllib.robotparser import RobotFileParser

from visx.errors import ConfigError, HttpStatusError, RenderError, UnreachableError
from visx.link import thresholds as T
from visx.link.parse import PageLinks
from visx.link.urls import host_key, normal, site

_log = logging.getLogger("visx.link")


class FetchError(Exception):
    """One page could not be fetched; ``transient`` failures are retried."""

    def __init__(self, reason: str, *, transient: bool, status: int = 0) -> None:
        super().__init__(reason)
        self.transient = transient
        self.status = status


class Fetcher(Protocol):
    """Turns a URL into the page's links: plain HTTP (:class:`visx.link.fetch.HttpFetcher`) or
    the browser (:class:`visx.link.fetch.RenderFetcher`)."""

    async def fetch(self, url: str) -> PageLinks: ...

    async def robots_txt(self, url: str) -> tuple[int, str]:
        """Status and body of ``url`` (a robots.txt); status 0 when it could not be fetched."""
        ...

    async def aclose(self) -> None: ...


@dataclass(slots=True)
class Crawl:
    """The h-reachable set of a source page."""

    source: str
    pages: dict[str, PageLinks] = field(default_factory=dict)
    """Fetched HTML pages by their (final) URL, in the order they were reached."""
    depth: dict[str, int] = field(default_factory=dict)
    """BFS depth of every fetched page: 0 for the source."""
    alias: dict[str, str] = field(default_factory=dict)
    """Requested URL -> the URL it redirected to."""
    failed: list[tuple[str, str]] = field(default_factory=list)
    """(URL, reason) of the pages that could not be fetched."""
    disallowed: list[str] = field(default_factory=list)
    """URLs robots.txt asked not to fetch."""
    notes: list[str] = field(default_factory=list)
    elapsed_s: float = 0.0
    requests: int = 0

    def resolve(self, url: str) -> str:
        return self.alias.get(url, url)


@dataclass(slots=True)
class CrawlOptions:
    depth: int = T.DEPTH
    same_site: bool = True
    per_host: int = T.PER_HOST
    total: int = T.TOTAL
    retries: int = T.RETRIES
    max_pages: int = T.MAX_PAGES
    robots: bool = True
    user_agent: str = T.USER_AGENT

    def check(self) -> None:
        for name in ("per_host", "total", "max_pages"):
            if getattr(self, name) < 1:
                raise ConfigError(f"link: {name.replace('_', '-')} must be 1 or more (got {getattr(self, name)})")
        if self.depth < 0 or self.retries < 0:
            raise ConfigError(f"link: depth and retries must be 0 or more (got {self.depth}, {self.retries})")


class _Host:
    """Per-host politeness: a semaphore, robots.txt rules and the crawl delay."""

    def __init__(self, per_host: int) -> None:
        self.slots = asyncio.Semaphore(per_host)
        self.rules: RobotFileParser | None = None
        self.delay = 0.0
        self.next_start = 0.0
        self.lock = asyncio.Lock()
        self.ready = asyncio.Event()
        self.unreadable = ""
        """Why robots.txt could not be read (then nothing is fetched from the host)."""


async def crawl_async(source: str, fetcher: Fetcher, options: CrawlOptions | None = None,
                      progress: Callable[[int, int], None] | None = None) -> Crawl:
    """Crawl breadth first from ``source`` to ``options.depth`` hops."""
    opt = options or CrawlOptions()
    opt.check()
    start = time.perf_counter()
    src = normal(source)
    out = Crawl(src)
    hosts: dict[str, _Host] = {}
    everywhere = asyncio.Semaphore(opt.total)
    home = site(src)

    async def host_of(url: str) -> _Host:
        key = host_key(url)
        h = hosts.get(key)
        if h is None:
            h = hosts[key] = _Host(opt.per_host)
            if opt.robots:
                await _load_robots(h, key, fetcher, opt.user_agent, out)
            h.ready.set()
        await h.ready.wait()
        return h

    async def visit(url: str) -> PageLinks | None:
        h = await host_of(url)
        if h.rules is not None and not h.rules.can_fetch(opt.user_agent, url):
            out.disallowed.append(url)
            return None
        err = FetchError("not tried", transient=False)
        for attempt in range(opt.retries + 1):
            async with h.slots, everywhere:
                if h.delay:
                    async with h.lock:  # Crawl-delay: one start per delay on this host
                        wait = h.next_start - time.monotonic()
                        if wait > 0:
                            await asyncio.sleep(wait)
                        h.next_start = time.monotonic() + h.delay
                out.requests += 1
                try:
                    return await fetcher.fetch(url)
                except FetchError as e:
                    err = e
            if not err.transient or attempt == opt.retries:
                break
            await asyncio.sleep(T.BACKOFF_S * 2 ** attempt)
        out.failed.append((url, str(err)))
        if url == src:
            raise _source_error(src, err)
        return None

    frontier = [src]
    seen = {src}
    full = False
    for d in range(opt.depth + 1):
        if not frontier:
            break
        got = await asyncio.gather(*(visit(u) for u in frontier))
        nxt: list[str] = []
        for url, page in zip(frontier, got, strict=True):
            if page is None:
                continue
            final = normal(page.url)
            if final != url:
                out.alias[url] = final
                if final in out.pages or (opt.same_site and site(final) != home):
                    continue  # two links to one page, or a redirect off the site
            page.url = final
            out.pages[final] = page
            out.depth[final] = d
            if d == opt.depth:
                continue
            for target, _ in page.links:
                if target in seen or (opt.same_site and site(target) != home):
                    continue
                if len(seen) >= opt.max_pages:
                    full = True
                    continue
                seen.add(target)
                nxt.append(target)
        if progress is not None:
            progress(len(out.pages), len(nxt))
        frontier = nxt
    if src in out.disallowed:
        why = hosts[host_key(src)].unreadable
        if why:
            raise UnreachableError(f"{src}: the source page could not be fetched (its robots.txt: {why}); "
                                   "check the URL and your connection, or raise --timeout", source=src)
        raise ConfigError(f"{src}: robots.txt of {host_key(src)} asks crawlers not to fetch the source "
                          "page; pass --ignore-robots (robots=False) only if you may crawl that site")
    if full:
        out.notes.append(f"stopped at {opt.max_pages} pages (max_pages); pages past it were not crawled")
    if out.source not in out.pages and src in out.alias:
        out.source = out.alias[src]
    out.elapsed_s = time.perf_counter() - start
    return out


async def _load_robots(h: _Host, key: str, fetcher: Fetcher, agent: str, out: Crawl) -> None:
    """Rules of one host, after RFC 9309: no robots.txt (4xx) allows everything; a server error
    or no answer disallows everything, since the site may be unable to say what it forbids."""
    status, text = await fetcher.robots_txt(key + "/robots.txt")
    rules = RobotFileParser(key + "/robots.txt")
    if 400 <= status < 500:
        rules.parse([])
    elif status == 0 or status >= 500:
        rules.parse(["User-agent: *", "Disallow: /"])
        h.unreadable = f"HTTP {status}" if status else "no answer"
        out.notes.append(f"{key}/robots.txt could not be read (status {status or 'none'}): "
                         "nothing fetched from that host (RFC 9309); pass robots=False (--ignore-robots) "
                         "if you may crawl it")
    else:
        rules.parse(text.splitlines())
    h.rules = rules
    delay = float(rules.crawl_delay(agent) or 0)
    rate = rules.request_rate(agent)
    if rate is not None and rate.requests:
        delay = max(delay, rate.seconds / rate.requests)
    if delay:
        h.delay = min(float(delay), T.MAX_CRAWL_DELAY_S)
        _log.info("%s asks for %.3g s between requests (robots.txt)", key, h.delay)


def _source_error(src: str, err: FetchError) -> RenderError:
    if err.status:
        return HttpStatusError(f"{src}: the source page answered {err}; nothing can be linked from it. "
                               "Check the URL, or pass --render if the site needs a browser",
                               source=src, status=err.status)
    return UnreachableError(f"{src}: the source page could not be fetched ({err}); check the URL and "
                            "your connection, or raise --timeout / --retries", source=src)
