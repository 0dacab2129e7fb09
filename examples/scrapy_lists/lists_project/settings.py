"""A Scrapy project whose spider yields visx records: see ``spiders/lists.py`` and the README."""

from visx.render.browser import find_chromium

BOT_NAME = "lists_project"
SPIDER_MODULES = ["lists_project.spiders"]
ROBOTSTXT_OBEY = False
# visx's callbacks await asyncio (visx.scrapy.items); scrapy-playwright needs this reactor too.
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
DOWNLOAD_HANDLERS = {
    "http": "scrapy_playwright.handler.ScrapyPlaywrightDownloadHandler",
    "https": "scrapy_playwright.handler.ScrapyPlaywrightDownloadHandler",
}
# Requests without meta["playwright"] go through Scrapy's own downloader: the plain HTML path.
# The browser Playwright drives is the one visx finds (VISX_CHROMIUM, Playwright's, Debian's).
PLAYWRIGHT_BROWSER_TYPE = "chromium"
PLAYWRIGHT_LAUNCH_OPTIONS = {"executable_path": str(find_chromium()), "args": ["--disable-dev-shm-usage"]}
CONCURRENT_REQUESTS = 4
LOG_LEVEL = "INFO"
FEED_EXPORT_ENCODING = "utf-8"
