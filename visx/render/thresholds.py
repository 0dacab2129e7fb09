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

MAX_FRAMES = 64
"""Frames captured per page. Real pages hold a few (a list, a map, some ads); a
page of thousands would multiply capture time by as much, and the ones past
the limit are named in the snapshot's notes."""

MIN_FRAME_AREA = 400.0
"""Frames smaller than 20x20 px are tracking and sync pixels, never a list: not captured."""

MAX_FRAME_DEPTH = 4
"""Frames inside frames followed this deep: a list is rarely more than one frame
down, and a frame that embeds itself must not recurse without end."""

FRAME_ANSWER_S = 5.0
"""Time a frame gets to answer the capture. A frame busy in an endless script
(its own process when cross-origin) is left out with a note instead of
holding the whole page until the hard cap."""

TIMER_HORIZON_MS = 3000
"""One-shot timers due within this many ms count as work the page has still to
do (``hooks.js``): a client that waits 1-2.5 s before it fetches its list (a
debounce, a staged start) is waited for; a banner or retry due in 5 s or more
is not, since waiting for it would slow every page for no data."""

TIMER_LATER_MS = 30_000
"""One-shot timers due within this many ms (beyond ``TIMER_HORIZON_MS``) are not waited
for but reported: a page captured with one pending may still be about to ask for
its data, which turns a main list that looks like navigation into a warning."""

AFTER_WAIT_FOR_S = 2.0
"""After ``--wait-for`` matched, settling gets at most this long (or 4x ``quiet_ms``): the
user named what to wait for, so a page that never goes quiet (a live feed beside
the list) costs this, not the whole timeout."""

POLL_S = 0.05
"""How often settling asks the page whether it is done: short enough that a quiet
page is taken within one frame or so of going quiet, cheap (one tiny evaluate)."""

LOADING_CHECK_S = 0.25
"""How often settling looks for a visible loading indicator (it walks the page's
short text nodes, a few ms on a large page, so less often than POLL_S)."""

SCROLL_REACT_S = 0.15
"""Pause after a scroll before asking whether the page is done: scroll handlers,
IntersectionObservers and debounced loaders start within a few frames."""

SCROLL_ANSWER_S = 10.0
"""The longest one scroll step waits for the page to finish what the scroll
started (its requests, timers, DOM changes): a slow API answers a batch in
a few seconds; past this the step ends and growth is judged as it stands."""
