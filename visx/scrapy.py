"""visx inside Scrapy: a page's records as Scrapy items, from a callback.

    import visx.scrapy

    class Lists(scrapy.Spider):
        name = "lists"

        def start_requests(self):
            for url in self.urls:
                yield scrapy.Request(url, meta={"playwright": True, "playwright_include_page": True})

        async def parse(self, response):
            for item in await visx.scrapy.items(response):   # dicts, or item_class=MyItem
                yield item

With scrapy-playwright (``meta["playwright_page"]``, given by ``playwright_include_page``) the
records come from the page as its scripts left it: its live DOM (``page.content()``) is laid out
again in visx's own browser, scripts off so they do not run twice, links resolved against the
page's URL. The page is closed afterwards (``close_page=False`` keeps it). With a plain HTML
response the body is laid out the same way against ``response.url``. visx needs the boxes and
styles of its own capture, which a foreign browser's page cannot give it, so the layout is always
visx's (:func:`visx.extract_async`, one shared browser per Scrapy process, closed at exit).

Each item is a row of the main list (:meth:`visx.Extraction.to_records`; ``all_regions=True``:
every data list's, each with its ``region`` rank) with a ``source`` key, the page's URL, as in a
batch's CSV. A page with no list yields no items. The callback must be ``async def`` and Scrapy
must run on the asyncio reactor (scrapy-playwright requires it anyway)::

    TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"

``pip install 'visx[scrapy]'`` installs Scrapy and scrapy-playwright; visx itself needs neither.
``examples/scrapy_lists/`` is a whole project.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from visx.config import Config
from visx.errors import ConfigError

SOURCE_KEY = "source"
"""The page's URL in every item, the name a batch's CSV and Parquet give it."""


async def records(response: Any, config: Config | None = None, *, all_regions: bool = False,
                  close_page: bool = True, region: int | None = None, hint: str | None = None,
                  example: str | None = None) -> list[dict[str, Any]]:
    """The rows of ``response``'s main list (every data list with ``all_regions``), each with
    ``source``. ``response`` is a Scrapy response: its ``meta["playwright_page"]`` when present,
    else its HTML body. ``region``/``hint``/``example`` choose the list as in :func:`visx.extract`."""
    from visx.pipeline import extract_async

    page = (getattr(response, "meta", None) or {}).get("playwright_page")
    cfg = config or Config()
    if page is not None:
        try:
            html, url = await page.content(), page.url
        finally:
            if close_page:
                await page.close()
        # The page's scripts have run already; running them again on its DOM could add or move
        # records (a second render of a client-side list, say).
        render = cfg.render.model_copy(update={"base_url": url, "javascript": False})
    else:
        text = getattr(response, "text", None)
        if not isinstance(text, str):
            raise ConfigError(f"{getattr(response, 'url', response)!r}: visx.scrapy needs an HTML response "
                              "(or a scrapy-playwright page in meta['playwright_page'])")
        html, url = text, str(response.url)
        render = cfg.render.model_copy(update={"base_url": url})
    ex = await extract_async(html, cfg.model_copy(update={"render": render}), region=region, hint=hint,
                             example=example)
    rows = ex.to_records(all_regions=all_regions)
    return [{SOURCE_KEY: url, **row} for row in rows]


async def items(response: Any, config: Config | None = None, *, item_class: Callable[..., Any] | None = None,
                **options: Any) -> list[Any]:
    """:func:`records` as Scrapy items: dicts, or ``item_class(**row)`` (a ``scrapy.Item`` subclass
    declaring the fields, a dataclass, an attrs class)."""
    rows = await records(response, config, **options)
    return rows if item_class is None else [item_class(**row) for row in rows]
