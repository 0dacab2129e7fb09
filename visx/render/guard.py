"""Stopping a page whose script never yields, and deadlines on calls to the page.

A renderer busy in an endless script answers no ``page.evaluate`` until the
script ends, so every call on the control path is bounded here. The DevTools
session that can stop the script (``Runtime.terminateExecution``, which the
renderer serves between two JS instructions) must be attached while the page
is still responsive: :func:`attach` runs when a tab is opened or reused, before
any page script runs; a session attached to a stuck renderer never answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

from visx.render.thresholds import (
    CALL_S,
    FRAME_LOADS_MAX,
    FRAMES_STOP,
    LOAD_STOP_ELEMENTS,
    LOAD_WATCH_S,
    SCRIPT_PROBE_S,
)

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, CDPSession, Frame, Page

T = TypeVar("T")

_SESSIONS: weakref.WeakKeyDictionary[Any, CDPSession] = weakref.WeakKeyDictionary()
"""page -> its DevTools session (a reused tab keeps the one it was opened with)."""


class FrameCap:
    """Subframe documents one render let load, and how many past ``FRAME_LOADS_MAX`` it refused."""

    def __init__(self) -> None:
        self.main = ""  # the page's main frame id (its target id), never counted
        self.frames: set[str] = set()
        self.refused = 0
        self.stopped = asyncio.Event()  # set when the page's loading was stopped (frames or elements)
        self.elements = 0  # the element count that stopped it (LOAD_STOP_ELEMENTS), else 0
        self.session: CDPSession | None = None

    def reset(self) -> None:
        self.frames.clear()
        self.refused = 0
        self.elements = 0
        self.stopped = asyncio.Event()

    def reason(self) -> str:
        """Why the capture is partial ('' when no frame was refused)."""
        if self.elements:
            return (f"the page had {self.elements} elements while still loading (over {LOAD_STOP_ELEMENTS}, "
                    "more than the capture reads): its loading was stopped there")
        if self.stopped.is_set():
            return (f"the page creates more than {FRAMES_STOP} frames: its loading was stopped there "
                    f"(what had not loaded by then is missing), frames past the first {FRAME_LOADS_MAX} "
                    "refused (left blank)")
        if self.refused:
            return (f"{self.refused} frame load(s) refused: the page loads more than {FRAME_LOADS_MAX} "
                    "frames; the ones past that were left blank")
        return ""


_DECIDING: set[asyncio.Future[None]] = set()
_CAPS: weakref.WeakKeyDictionary[Any, FrameCap] = weakref.WeakKeyDictionary()
"""page -> its frame cap (installed with its DevTools session)."""

STOPPED = ("the page's script was still running at capture time (an endless loop?); "
           "it was stopped and the page captured as it stood")
"""Why a capture is partial when the page's script had to be stopped."""


class CallTimeout(Exception):
    """A call to the page did not answer within its deadline."""


async def bounded(call: Awaitable[T], seconds: float) -> T:
    """``call`` or :class:`CallTimeout` after ``seconds``: no call on a page may wait forever."""
    try:
        return await asyncio.wait_for(call, max(0.05, seconds))
    except TimeoutError as e:
        raise CallTimeout(f"no answer within {seconds:.1f} s") from e


async def attach(context: BrowserContext, page: Page) -> None:
    """Open the page's DevTools session now, while the page still answers (best effort)."""
    if page in _SESSIONS:
        return
    with contextlib.suppress(Exception):  # without it a stuck page is still closed at the cap
        _SESSIONS[page] = await bounded(context.new_cdp_session(page), CALL_S)
        await _cap_frames(page, _SESSIONS[page])


def frame_cap(page: Page) -> FrameCap:
    """The page's frame cap, reset for a new render (a detached one when no session could be opened)."""
    cap = _CAPS.get(page) or FrameCap()
    cap.reset()
    return cap


async def _cap_frames(page: Page, session: CDPSession) -> None:
    """Answer subframe document requests past ``FRAME_LOADS_MAX`` with an empty 204.

    Done in the renderer's network stack (the DevTools Fetch domain, documents only) so
    that nothing else is intercepted: no other request pays a round trip, the HTTP cache
    stays on, and Playwright's own routes (offline sources) still see every request.
    """
    cap = FrameCap()
    cap.session = session
    info = await bounded(session.send("Target.getTargetInfo"), CALL_S)
    cap.main = str(info.get("targetInfo", {}).get("targetId", ""))

    async def decide(ev: dict[str, Any]) -> None:
        frame, rid = str(ev.get("frameId", "")), ev["requestId"]
        with contextlib.suppress(Exception):  # the page closed meanwhile: nothing to answer
            if frame == cap.main or frame in cap.frames or len(cap.frames) < FRAME_LOADS_MAX:
                if frame != cap.main:
                    cap.frames.add(frame)
                await session.send("Fetch.continueRequest", {"requestId": rid})
                return
            cap.refused += 1
            if cap.refused == FRAMES_STOP - FRAME_LOADS_MAX:
                # Each frame costs the browser milliseconds even left blank: 1,000 (Blink's limit
                # per page) hold it 10-30 s. Stopping the load ends the parser that makes them.
                cap.stopped.set()
                await bounded(session.send("Page.stopLoading"), CALL_S)
            await session.send("Fetch.fulfillRequest", {"requestId": rid, "responseCode": 204})

    def on_paused(ev: dict[str, Any]) -> None:
        task = asyncio.ensure_future(decide(ev))
        _DECIDING.add(task)  # held until done: the loop keeps only weak references to tasks
        task.add_done_callback(_DECIDING.discard)

    session.on("Fetch.requestPaused", on_paused)
    await bounded(session.send("Fetch.enable", {"patterns": [
        {"urlPattern": "*", "resourceType": "Document", "requestStage": "Request"}]}), CALL_S)
    _CAPS[page] = cap


async def stop_scripts(page: Page | Frame) -> bool:
    """Stop the script running in the page (a frame's page); False when that could not be done."""
    session = _SESSIONS.get(getattr(page, "page", page))
    if session is None:
        return False
    try:
        await bounded(session.send("Runtime.terminateExecution"), CALL_S)
    except Exception:  # the session is gone with its renderer: the caller closes the page
        return False
    return True


async def responsive(page: Page, seconds: float = SCRIPT_PROBE_S) -> bool:
    """The page's main frame runs a trivial script within ``seconds``.

    A stop requested while the renderer was busy outside JS (parsing, layout) is served
    at the next script, which it ends: such a failed probe is retried, so the stop is
    spent on the probe, never on the capture that follows.
    """
    from playwright.async_api import Error as PlaywrightError

    end = time.perf_counter() + seconds
    while True:
        try:
            await bounded(page.evaluate("0"), end - time.perf_counter())
            return True
        except CallTimeout:
            return False
        except PlaywrightError:  # the stop landed on this probe, or a navigation: ask again
            if time.perf_counter() >= end:
                return True
            await asyncio.sleep(0.02)


async def unstick(page: Page) -> str:
    """When the page's script does not yield, stop it: the reason to report ('' when the page answered)."""
    if await responsive(page):
        return ""
    # A timer or an interval may start the loop again between the stop and the next call;
    # all the stops together get 2 * CALL_S, so a renderer that ignores them costs little.
    end = time.perf_counter() + 2 * CALL_S
    while time.perf_counter() < end:
        if not await stop_scripts(page):
            break
        if await responsive(page, max(0.2, min(CALL_S / 2, end - time.perf_counter()))):
            break
    # Still no answer: the caller's own deadline ends the render.
    return STOPPED


async def watch_size(cap: FrameCap) -> None:
    """While the page loads: stop its loading once its document holds over ``LOAD_STOP_ELEMENTS``
    elements (run as a task, cancelled when the navigation ends). Read through the DevTools
    session, so a page's own scripts cannot fake or block the count beyond one reading."""
    session = cap.session
    if session is None:
        return
    count = {"expression": "document.getElementsByTagName('*').length", "returnByValue": True}
    while not cap.stopped.is_set():
        await asyncio.sleep(LOAD_WATCH_S)
        try:  # not bounded: a parser holds the renderer seconds at a time; the task ends with the load
            got = await session.send("Runtime.evaluate", count)
            n = int(got.get("result", {}).get("value") or 0)
        except Exception:  # busy, navigating, closed: try again at the next tick
            continue
        if n > LOAD_STOP_ELEMENTS:
            cap.elements = n
            cap.stopped.set()
            with contextlib.suppress(Exception):
                await bounded(session.send("Page.stopLoading"), CALL_S)
            return
