"""visx: turn list pages on the web into clean tables, with no hand-written selectors.

``import visx`` is cheap: Playwright is imported only when a page is rendered.
Messages go to the ``visx`` logger (:mod:`visx.log`), which prints nothing unless
the application configures logging.
"""

from __future__ import annotations

import visx.log  # noqa: F401  (the "visx" logger and its NullHandler)
from visx.batch import BatchResult, extract_many, render_many
from visx.batch.run import BatchSummary, run_batch
from visx.batch_async import extract_many_async, render_many_async
from visx.config import Config
from visx.errors import (
    BrowserNotFoundError,
    ConfigError,
    DnsError,
    EmptyContentError,
    ExportError,
    ExtractionError,
    HttpStatusError,
    LinkError,
    NonHtmlContentError,
    NoResponseError,
    PageCrashedError,
    RedirectError,
    RenderError,
    RenderTimeoutError,
    SelectionError,
    SnapshotError,
    SourceNotFoundError,
    UnreachableError,
    VisxError,
)
from visx.link.api import LinkOptions, LinkResult, link
from visx.model import Node, NodeTable, PageSnapshot, Record, Region
from visx.pipeline import Extraction, analyse, extract, extract_async

# Bound eagerly: importing the ``visx.render`` subpackage sets the attribute
# ``visx.render`` to that module, so a lazy ``render`` function would be
# replaced by the module after first use. These modules import Playwright
# only inside the functions that launch a browser.
from visx.render.page_load import render, render_async
from visx.render.snapshot_io import load_snapshot
from visx.schema.table import Table
from visx.version import __version__

__all__ = [
    "BatchResult",
    "BatchSummary",
    "BrowserNotFoundError",
    "Config",
    "ConfigError",
    "DnsError",
    "EmptyContentError",
    "ExportError",
    "Extraction",
    "ExtractionError",
    "HttpStatusError",
    "LinkError",
    "LinkOptions",
    "LinkResult",
    "NoResponseError",
    "Node",
    "NodeTable",
    "NonHtmlContentError",
    "PageCrashedError",
    "PageSnapshot",
    "Record",
    "RedirectError",
    "Region",
    "RenderError",
    "RenderTimeoutError",
    "SelectionError",
    "SnapshotError",
    "SourceNotFoundError",
    "Table",
    "UnreachableError",
    "VisxError",
    "__version__",
    "analyse",
    "extract",
    "extract_async",
    "extract_many",
    "extract_many_async",
    "link",
    "load_snapshot",
    "render",
    "render_async",
    "render_many",
    "render_many_async",
    "run_batch",
]
