"""visx: turn list pages on the web into clean tables, with no hand-written selectors.

``import visx`` is cheap: Playwright is imported only when a page is rendered.
"""

from __future__ import annotations

from visx.batch import BatchResult, extract_many, render_many
from visx.config import Config
from visx.errors import (
    BrowserNotFoundError,
    ConfigError,
    DnsError,
    ExportError,
    ExtractionError,
    HttpStatusError,
    NonHtmlContentError,
    PageCrashedError,
    RenderError,
    RenderTimeoutError,
    SnapshotError,
    SourceNotFoundError,
    UnreachableError,
    VisxError,
)
from visx.model import Node, NodeTable, PageSnapshot, Record, Region
from visx.pipeline import Extraction, analyse, extract

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
    "BrowserNotFoundError",
    "Config",
    "ConfigError",
    "DnsError",
    "ExportError",
    "Extraction",
    "ExtractionError",
    "HttpStatusError",
    "Node",
    "NodeTable",
    "NonHtmlContentError",
    "PageCrashedError",
    "PageSnapshot",
    "Record",
    "Region",
    "RenderError",
    "RenderTimeoutError",
    "SnapshotError",
    "SourceNotFoundError",
    "Table",
    "UnreachableError",
    "VisxError",
    "__version__",
    "analyse",
    "extract",
    "extract_many",
    "load_snapshot",
    "render",
    "render_async",
    "render_many",
]
