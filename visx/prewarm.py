"""Warm the analysis stages in a background thread while the browser works.

A one-page extract spends most of its time waiting for Chromium. The stages'
imports and first calls (regex compilation, rapidfuzz's dispatch, lazy
imports inside the stages) cost tens of milliseconds, paid after the render
unless they are paid during it: :func:`start` runs a whole analysis of a tiny
bundled page (``warmup.snapshot.json.gz``, made with ``visx render
fixtures/warmup/warm.html --no-js -o visx/warmup.snapshot.json.gz``) in a
daemon thread. The page's own analysis then runs warm. Warming is best effort:
any failure in it is ignored, since the real run meets and reports the same.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

WARMUP_SNAPSHOT = Path(__file__).with_name("warmup.snapshot.json.gz")
DISABLE_ENV = "VISX_NO_PREWARM"
"""Set to 1 to turn warming off (to measure without it)."""

_lock = threading.Lock()
_thread: threading.Thread | None = None


def start() -> None:
    """Start warming once per process (later calls do nothing)."""
    global _thread
    if os.environ.get(DISABLE_ENV, "") not in ("", "0"):
        return
    with _lock:
        if _thread is None:
            _thread = threading.Thread(target=_warm, name="visx-prewarm", daemon=True)
            _thread.start()


def wait(timeout: float | None = None) -> None:
    """Wait for warming to end (tests and benchmarks)."""
    if _thread is not None:
        _thread.join(timeout)


def _warm() -> None:
    try:
        from visx.export import formats  # noqa: F401  (the writers' imports)
        from visx.pipeline import analyse
        from visx.render.snapshot_io import load_snapshot

        analyse(load_snapshot(WARMUP_SNAPSHOT))
    except Exception:  # best effort: the real run meets and reports the same failure
        pass
