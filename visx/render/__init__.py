"""Rendering: browser discovery, page loading, snapshot files."""

from visx.render.browser import find_chromium, shutdown
from visx.render.page_load import render, render_async
from visx.render.snapshot_io import load_snapshot, save_snapshot

__all__ = ["find_chromium", "load_snapshot", "render", "render_async", "save_snapshot", "shutdown"]
