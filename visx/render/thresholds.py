"""Render-stage limits that are not user settings, each with its reason."""

from __future__ import annotations

CALL_S = 2.0
"""Deadline of a control call that needs no page script to finish (open a DevTools session,
stop a script, close a tab, take a tab to about:blank): they answer in milliseconds, so
a call past this means a stuck renderer or browser, never a slow one."""

SCRIPT_PROBE_S = 2.0
"""Time a trivial ``evaluate`` gets before the capture: a page that cannot run ``0`` in two
seconds is inside an endless (or pathologically long) script, which is then stopped. Layout
of a 200k-element page holds the renderer about a second; real pages far less."""

CAPTURE_MAX_ELEMENTS = 30_000
"""Elements ``collect.js`` reads at most, in document order; the rest is cut with a
warning. Real list pages hold 1-15k elements. The analysis reads at most
``analysis.max_nodes`` (25k by default) of them, so capturing more only costs time: 60k
took 4 s to capture and 3.6 s to analyse on a loaded machine, past the page's bound;
30k leaves the analysis setting the one that cuts, with its own warning."""

LOAD_STOP_ELEMENTS = 2 * CAPTURE_MAX_ELEMENTS
"""Elements in the document at which a page still loading has its loading stopped (flagged
partial). The capture reads ``CAPTURE_MAX_ELEMENTS`` in document order, so the parser's
work past twice that is never read, yet a 200k-element (9 MB) page takes 3-7 s to parse
and lay out here, most of a page's bound. Counted every ``LOAD_WATCH_S`` while it loads."""

LOAD_WATCH_S = 0.5
"""How often a loading page's element count is read (a few ms on 100k elements)."""

CAPTURE_BUDGET_S = 3.0
"""Time ``collect.js`` may walk the page; it stops at the element it reached, with a
warning. 60k plain elements take about 2.5 s; pages whose DOM accessors are patched
to be slow are cut here instead of running for minutes."""

CAPTURE_ANSWER_S = CAPTURE_BUDGET_S + 2.0
"""Deadline of the capture call: the walk's budget plus serialising and sending the
JSON (about 1 s for 60k elements); past it the page's script is stopped."""

RETRY_BUDGET_MS = 1000
"""The walk's budget when a capture that outlived ``CAPTURE_ANSWER_S`` is run again (the
page's layout is done by then, so the second walk starts at once)."""

FRAMES_BUDGET_S = 2.5
"""Time all the frames of a page get to answer the capture, together."""

CAPTURE_ALLOWANCE_S = 10.0
"""Extra time beyond ``timeout_s`` after which a render ends whatever the page does
(its tab closed, an error raised). Each step after settling has its own, shorter bound
(the probe 2 s, the capture 5 s, frames 2.5 s, the screenshot ``SCREENSHOT_S``), so only
a renderer that ignores even ``Runtime.terminateExecution`` gets this far."""

SCREENSHOT_S = 5.0
"""Deadline of the screenshot: a 1280x16384 px one takes about 1.5 s here."""

SCREENSHOT_MAX_PIXELS = 40_000_000
"""Pixels of a screenshot at most (width x height, beyond the per-side cap): 160 MB as
RGBA while Chromium and Pillow hold it, under Pillow's 89 M "decompression bomb"
warning; a 1280 px wide page still gets 31k px of height."""

RSS_CHECK_S = 5.0
"""How often (at most) the browser's memory is measured for ``render.restart_rss_mb``: reading
``/proc`` for its few dozen processes takes a few ms, not to be paid on every page."""

RETIRE_WAIT_S = 120.0
"""A retired browser is closed once its pages in flight are done, or after this long: longer
than a render's own hard cap at the default timeout, so no page is cut short by a restart."""

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

FRAME_LOADS_MAX = 2 * MAX_FRAMES
"""Subframe documents a page may load; the ones past it get an empty answer (HTTP 204, the
frame stays blank) from the page's DevTools session. Real pages load a few dozen (ads,
embeds); 10,000 iframes each loading a document hold the browser and Playwright's driver
for over a minute (a frame event, an execution context, a request each), far past any
bound. Twice the frames captured, so nested and re-navigating ones still fit."""

FRAMES_STOP = 2 * FRAME_LOADS_MAX
"""Subframe loads after which a page's loading is stopped (its parser ends there, the capture
is partial): even a refused frame costs the browser and the driver several ms, and Blink
allows 1,000 per page, 10-30 s of work on this machine."""

MIN_FRAME_AREA = 400.0
"""Frames smaller than 20x20 px are tracking and sync pixels, never a list: not captured."""

MAX_FRAME_DEPTH = 4
"""Frames inside frames followed this deep: a list is rarely more than one frame
down, and a frame that embeds itself must not recurse without end."""

FRAME_ANSWER_S = 2.0
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

CHURN_S = 4.0
"""Settling ends early once the DOM has kept changing this long while none of the page's
requests or short timers is pending: a ticker or a DOM animation never rests, and waiting
for the whole timeout would only delay the same capture (flagged partial, with why).
Lists arriving in chunks from their own requests keep a request in flight and are waited for."""

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
