"""visx: turn list pages on the web into clean tables, with no hand-written selectors.

``import visx`` is cheap: Playwright is imported only when a page is rendered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
from visx.model import Node, NodeTable, PageSnapshot

if TYPE_CHECKING:
    from visx.render.page_load import render, render_async
    from visx.render.snapshot_io import load_snapshot

__version__ = "0.1.0"

__all__ = [
    "BrowserNotFoundError",
    "Config",
    "ConfigError",
    "DnsError",
    "ExportError",
    "ExtractionError",
    "HttpStatusError",
    "Node",
    "NodeTable",
    "NonHtmlContentError",
    "PageCrashedError",
    "PageSnapshot",
    "RenderError",
    "RenderTimeoutError",
    "SnapshotError",
    "SourceNotFoundError",
    "UnreachableError",
    "VisxError",
    "__version__",
    "load_snapshot",
    "render",
    "render_async",
]

_LAZY = {
    "render": "visx.render.page_load",
    "render_async": "visx.render.page_load",
    "load_snapshot": "visx.render.snapshot_io",
}


def __getattr__(name: str) -> Any:
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'visx' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(mod), name)
