"""Render-stage limits that are not user settings, each with its reason."""

from __future__ import annotations

CAPTURE_ALLOWANCE_S = 30.0
"""Extra time beyond ``timeout_s`` for the ``action`` hook and the capture.

``timeout_s`` bounds navigation and settling; the capture of a 50k-element
page takes about 2 s here, so 30 s only trips on a hung renderer (an endless
script loop, a crash Chromium did not report), never on a slow capture.
"""
