"""Render-stage limits that are not user settings, each with its reason."""

from __future__ import annotations

CAPTURE_ALLOWANCE_S = 30.0
"""Extra time beyond ``timeout_s`` for the ``action`` hook and the capture.

``timeout_s`` bounds navigation and settling; the capture of a 50k-element
page takes about 2 s here, so 30 s only trips on a hung renderer (an endless
script loop, a crash Chromium did not report), never on a slow capture.
"""

IDLE_PAGES_MAX = 4
"""Open pages kept per render settings for reuse. A batch renders two at a time
(``visx.batch.DEFAULT_WORKERS``); four covers a few more workers, and each idle
tab (on about:blank) holds only a few MB of the renderer's memory."""

PARK_TIMEOUT_MS = 5000
"""Time allowed to take a finished page to about:blank for reuse; a blank page loads
in milliseconds, so hitting this means the tab is unwell and is closed instead."""
