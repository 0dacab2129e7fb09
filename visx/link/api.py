"""``visx.link``: crawl from a source page, build anchor-text bags, match a table's rows.

The whole method in :func:`link_crawl`: graph -> K shortest paths -> bags -> match.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from visx.errors import LinkError
from visx.link import thresholds as T

# The crawl, graph and matching modules (httpx, networkx, rapidfuzz) are imported when used:
# ``import visx`` binds :func:`link` and stays cheap.
if TYPE_CHECKING:
    from visx.config import Config
    from visx.link.bags import Bag
    from visx.link.crawl import Crawl, CrawlOptions

_log = logging.getLogger("visx.link")
_T = TypeVar("_T")

URL_COLUMN = "page_url"
SCORE_COLUMN = "link_score"


@dataclass(slots=True)
class LinkOptions:
    """How to crawl and match; the defaults are the paper's (K = 10) and polite crawling."""

    depth: int = T.DEPTH
    k: int = T.K
    render: bool = False
    """Fetch pages with the browser (JavaScript sites) instead of plain HTTP."""
    same_site: bool = True
    robots: bool = True
    per_host: int = T.PER_HOST
    timeout_s: float = T.TIMEOUT_S
    retries: int = T.RETRIES
    max_pages: int = T.MAX_PAGES
    titles: bool = True
    headings: bool = True
    paths: str = "layers"
    """``layers`` (all pages at once) or ``yen`` (networkx, per page); see :mod:`visx.link.paths`."""

    def crawl_options(self) -> CrawlOptions:
        from visx.link.crawl import CrawlOptions

        return CrawlOptions(depth=self.depth, same_site=self.same_site, per_host=self.per_host,
                            retries=self.retries, max_pages=self.max_pages, robots=self.robots)


@dataclass(slots=True)
class LinkResult:
    """The table with ``page_url`` and ``link_score`` added, and what could not be done."""

    columns: list[str]
    rows: list[dict[str, Any]]
    key: str
    unmatched: list[int] = field(default_factory=list)
    """Rows left without a page (indices into ``rows``)."""
    near_misses: dict[int, tuple[str, float]] = field(default_factory=dict)
    """For unmatched rows: the closest page and its score, when there was one."""
    failed: list[tuple[str, str]] = field(default_factory=list)
    """Pages that could not be fetched: (URL, reason)."""
    pages: int = 0
    crawl_s: float = 0.0
    link_s: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def matched(self) -> int:
        return len(self.rows) - len(self.unmatched)


def link(source: str, table: str | Path | Sequence[Mapping[str, Any]], key: str, *,
         depth: int | None = None, k: int | None = None, options: LinkOptions | None = None,
         sql_table: str | None = None, config: Config | None = None) -> LinkResult:
    """Fill each row's own page from the links of the site under ``source``.

    ``table`` is a CSV or SQLite path (``sql_table`` names the table when the file holds
    several) or a sequence of dicts; ``key`` is the column naming each row (a person, a film,
    a product). ``config`` is the render configuration used with ``options.render``.
    Rows without a confident match keep an empty ``page_url`` and are in ``unmatched``.
    """
    opt = options or LinkOptions()
    if depth is not None:
        opt.depth = depth
    if k is not None:
        opt.k = k
    columns, rows = load_rows(table, sql_table)
    check_key(columns, key, table)
    crawl = crawl_site(source, opt, config)
    return link_crawl(crawl, columns, rows, key, opt)


def load_rows(table: str | Path | Sequence[Mapping[str, Any]],
              sql_table: str | None = None) -> tuple[list[str], list[dict[str, Any]]]:
    if isinstance(table, str | Path):
        from visx.link.table_io import read_table

        return read_table(Path(table), sql_table)
    rows = [dict(r) for r in table]
    columns: dict[str, None] = {}
    for r in rows:
        columns.update(dict.fromkeys(r))
    return list(columns), rows


def check_key(columns: Sequence[str], key: str, table: object) -> None:
    if key not in columns:
        name = table if isinstance(table, str | Path) else "the table"
        raise LinkError(f"{name}: no column {key!r} to match on; its columns are "
                        f"{', '.join(repr(c) for c in columns) or 'none'}: pass one of them as --key")


def crawl_site(source: str, opt: LinkOptions, config: Config | None = None,
               progress: Callable[[int, int], None] | None = None) -> Crawl:
    """The h-reachable set of ``source`` (blocking; runs its own event loop)."""
    from visx.link.crawl import crawl_async
    from visx.link.fetch import HttpFetcher, RenderFetcher

    async def go() -> Crawl:
        fetcher = (RenderFetcher(config, timeout_s=opt.timeout_s) if opt.render
                   else HttpFetcher(timeout_s=opt.timeout_s))
        try:
            return await crawl_async(source, fetcher, opt.crawl_options(), progress)
        finally:
            await fetcher.aclose()

    crawl = run_sync(go())
    _log.info("crawled %d page(s) from %s in %.1f s (%d failed)", len(crawl.pages), crawl.source,
              crawl.elapsed_s, len(crawl.failed))
    for url, reason in crawl.failed:
        _log.warning("%s: %s", url, reason)
    return crawl


def page_bags(crawl: Crawl, opt: LinkOptions) -> dict[str, Bag]:
    """EA(u, v) of every page within ``opt.depth`` hops."""
    from visx.link.bags import BagSettings, anchor_targets, bag_of
    from visx.link.graph import site_graph
    from visx.link.paths import k_shortest_paths

    g = site_graph(crawl, opt.depth)
    paths = k_shortest_paths(g, crawl.source, opt.k, opt.depth, opt.paths)
    settings = BagSettings(titles=opt.titles, headings=opt.headings)
    targets = anchor_targets(g)
    return {url: bag_of(url, ps, g, crawl.pages[url].title, crawl.pages[url].heading, targets, settings)
            for url, ps in paths.items() if url != crawl.source}


def link_crawl(crawl: Crawl, columns: list[str], rows: list[dict[str, Any]], key: str,
               opt: LinkOptions) -> LinkResult:
    """Match ``rows`` to the crawled pages; returns new rows (the inputs are not changed)."""
    import time

    from visx.link.match import match_rows

    start = time.perf_counter()
    check_key(columns, key, "the table")
    bags = page_bags(crawl, opt)
    keys = ["" if r.get(key) is None else str(r[key]) for r in rows]
    contexts = [[str(v) for c, v in r.items() if c != key and v not in (None, "")] for r in rows]
    found = match_rows(keys, contexts, bags)
    out_cols = [*columns, *(c for c in (URL_COLUMN, SCORE_COLUMN) if c not in columns)]
    out_rows: list[dict[str, Any]] = []
    res = LinkResult(out_cols, out_rows, key, failed=list(crawl.failed), pages=len(crawl.pages),
                     crawl_s=crawl.elapsed_s, notes=list(crawl.notes))
    for i, (r, m) in enumerate(zip(rows, found, strict=True)):
        new = dict(r)
        new[URL_COLUMN] = m.page
        new[SCORE_COLUMN] = round(m.score, 3) if m.page else None
        out_rows.append(new)
        if m.page is None:
            res.unmatched.append(i)
            if m.best_miss is not None:
                res.near_misses[i] = m.best_miss
    res.link_s = time.perf_counter() - start
    return res


def run_sync(coro: Coroutine[Any, Any, _T]) -> _T:
    """Run ``coro`` to its end, also when called from inside a running event loop (a notebook)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    box: list[Any] = []

    def worker() -> None:
        try:
            box.append((True, asyncio.run(coro)))
        except BaseException as e:  # re-raised in the caller's thread
            box.append((False, e))

    t = threading.Thread(target=worker, name="visx-link")
    t.start()
    t.join()
    ok, value = box[0]
    if not ok:
        raise value
    return value  # type: ignore[no-any-return]
