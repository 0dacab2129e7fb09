"""The page's screenshot, bounded in size, memory and time.

Playwright's ``full_page`` screenshot resizes the view to the whole page: on a
100k px tall page Chromium then paints a 1280x100000 surface (gigabytes) before
the clip is applied. Here the clip alone is asked for, beyond the viewport
(``Page.captureScreenshot`` with ``captureBeyondViewport``), so only the pixels
kept are painted; their count is capped by side and by area.
"""

from __future__ import annotations

import base64
import contextlib
import math
from typing import TYPE_CHECKING

from visx.render.guard import CallTimeout, bounded
from visx.render.thresholds import CALL_S, SCREENSHOT_MAX_PIXELS, SCREENSHOT_S

if TYPE_CHECKING:
    from playwright.async_api import Page

_DIMS_JS = "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"


def clip_size(w: int, h: int, side_cap: int, max_pixels: int = SCREENSHOT_MAX_PIXELS) -> tuple[int, int]:
    """The part of a ``w`` x ``h`` page a screenshot keeps: each side at most ``side_cap``,
    the area at most ``max_pixels`` (the height gives way first: the top of a page matters most)."""
    cw, ch = max(1, min(w, side_cap)), max(1, min(h, side_cap))
    if cw * ch > max_pixels:
        ch = max(1, max_pixels // cw)
        if ch < 100:  # absurdly wide: keep a square-ish top-left corner instead
            cw = ch = max(1, math.isqrt(max_pixels))
    return cw, ch


async def screenshot(page: Page, side_cap: int, notes: list[str]) -> bytes | None:
    """A PNG of the page from its top-left corner, within the caps; None (with a note) when
    the page could not be pictured in time: the capture is kept without a picture."""
    from playwright.async_api import Error as PlaywrightError

    try:
        dims = await bounded(page.evaluate(_DIMS_JS), CALL_S)
        w, h = max(1, int(dims[0])), max(1, int(dims[1]))
        cw, ch = clip_size(w, h, side_cap)
        if (cw, ch) != (w, h):
            notes.append(f"screenshot capped at {cw}x{ch} px (page is {w}x{h}; at most {side_cap} px a side "
                         f"and {SCREENSHOT_MAX_PIXELS // 1_000_000} M pixels)")
        session = await bounded(page.context.new_cdp_session(page), CALL_S)
        try:
            got = await bounded(session.send("Page.captureScreenshot", {
                "format": "png", "captureBeyondViewport": True, "fromSurface": True,
                "clip": {"x": 0, "y": 0, "width": cw, "height": ch, "scale": 1}}), SCREENSHOT_S)
        finally:
            with contextlib.suppress(CallTimeout, PlaywrightError):  # it goes with the page anyway
                await bounded(session.detach(), CALL_S)
    except CallTimeout:
        notes.append(f"no screenshot: the page did not paint within {SCREENSHOT_S:g} s")
        return None
    except PlaywrightError as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        notes.append(f"no screenshot: {first[:160]}")
        return None
    return base64.b64decode(got["data"])
