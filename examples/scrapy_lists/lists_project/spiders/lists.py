"""``scrapy crawl lists -a urls=URL,URL -O items.jsonl``: every list page's records as items.

``-a playwright=1`` renders each page with scrapy-playwright first and hands visx the live page
(for pages whose list is drawn by scripts); without it, Scrapy's own download is used and visx
lays out the HTML body. To follow links (a pager, categories), yield ``response.follow(...)``
requests from ``parse`` as in any spider.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import scrapy

import visx.scrapy
from visx.config import Config, RenderConfig

# Scrapy fetched the page already: visx's own timeout only bounds the layout of the body.
CFG = Config(render=RenderConfig(javascript=False, timeout_s=20))


class ListsSpider(scrapy.Spider):
    name = "lists"

    def __init__(self, urls: str = "", playwright: str = "", **kw: Any) -> None:
        super().__init__(**kw)
        self.urls = [u for u in urls.split(",") if u]
        self.playwright = playwright not in ("", "0")

    def request(self, url: str) -> scrapy.Request:
        # playwright_include_page: the callback gets the live page (and must close it: visx does).
        meta = {"playwright": True, "playwright_include_page": True} if self.playwright else {}
        return scrapy.Request(url, callback=self.parse, meta=meta, errback=self.close_page)

    async def start(self) -> AsyncIterator[scrapy.Request]:  # Scrapy 2.13 and later
        for req in self.start_requests():
            yield req

    def start_requests(self) -> Iterator[scrapy.Request]:  # earlier Scrapy
        for url in self.urls:
            yield self.request(url)

    async def parse(self, response: scrapy.http.Response) -> AsyncIterator[Any]:
        for item in await visx.scrapy.items(response, CFG):
            yield item

    async def close_page(self, failure: Any) -> None:  # a failed request's page is still open
        page = failure.request.meta.get("playwright_page")
        if page is not None:
            await page.close()
