"""Finding Chromium, and the one browser a process shares.

All browser work runs on one private event-loop thread that owns one
Playwright driver and its browsers. The sync API submits coroutines to that
loop and waits; the async API awaits the same futures from the caller's
loop. So one browser serves both APIs and any number of threads, and it is
closed once, at exit or on :func:`shutdown`.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import logging
import os
import shutil
import threading
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from visx.errors import BrowserNotFoundError
from visx.render import procs
from visx.render.thresholds import CALL_S, IDLE_PAGES_MAX, RETIRE_WAIT_S, RSS_CHECK_S

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Page, Playwright

T = TypeVar("T")
_log = logging.getLogger(__name__)

DEBIAN_CHROMIUM = Path("/usr/lib/chromium/chromium")
PATH_NAMES = ("chromium", "chromium-browser", "google-chrome")
# Keeps files and HTML strings private: no host resolves but the loopback.
OFFLINE_ARGS = ('--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',)
# Passed on every launch. Shared memory goes to /tmp, not /dev/shm, which is 64 MB in a
# Docker container by default: large pages crash the renderer there. Playwright (every
# release visx supports) passes it too; it is named here so it does not rest on that.
LAUNCH_ARGS = ("--disable-dev-shm-usage",)
INSTALL_HINT = (
    "install one with `sudo apt-get install -y --no-install-recommends chromium "
    "fonts-liberation fonts-dejavu-core` (Debian/Ubuntu), or point VISX_CHROMIUM "
    "(or --chromium / RenderConfig.chromium) at a Chromium or Chrome binary"
)


def _is_exe(p: Path) -> bool:
    return p.is_file() and os.access(p, os.X_OK)


def find_chromium(explicit: Path | str | None = None, playwright_path: str | None = None) -> Path:
    """Return a Chromium binary, in the documented order of discovery.

    1. ``explicit`` (config value), 2. ``$VISX_CHROMIUM``, 3. Playwright's own
    installed browser, 4. Debian's real binary, 5. names on ``PATH``.
    """
    for label, cand in (("the configured chromium", explicit), ("VISX_CHROMIUM", os.environ.get("VISX_CHROMIUM"))):
        if cand:
            p = Path(cand)
            if not _is_exe(p):
                raise BrowserNotFoundError(f"{label} {str(p)!r} is not an executable file; {INSTALL_HINT}")
            return p
    if playwright_path and _is_exe(Path(playwright_path)):
        return Path(playwright_path)
    if _is_exe(DEBIAN_CHROMIUM):
        return DEBIAN_CHROMIUM
    for name in PATH_NAMES:
        found = shutil.which(name)
        if found:
            return Path(found)
    raise BrowserNotFoundError(f"no Chromium found; {INSTALL_HINT}")


class Engine:
    """The process's browser thread, driver and browsers (one per network mode)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._pw: Playwright | None = None
        self._browsers: dict[tuple[str, tuple[str, ...]], Browser] = {}
        self._launch_lock: asyncio.Lock | None = None
        self._closing: set[asyncio.Future[None]] = set()
        self._idle: dict[tuple[Any, ...], list[tuple[BrowserContext, Page]]] = {}
        """Pages left open after a clean render, by (browser, viewport, JS): the next render
        with the same settings navigates one instead of opening a tab (~0.25 s saved)."""
        self._served: dict[Browser, int] = {}
        """Pages started on each live browser (for ``RenderConfig.restart_every``)."""
        self._pids: dict[Browser, int] = {}
        """Each browser's main process, to measure its memory and to kill it if it hangs."""
        self._leases: dict[Browser, int] = {}
        """Renders handed each browser and not yet done (their tab closed or kept): a retired
        browser is closed only when it has none, even before they opened a context."""
        self._rss_checked = 0.0
        self.restarts = 0
        """Browsers retired so far (restarts for memory, age or a hang), for reports and tests."""

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                ready = threading.Event()

                def run() -> None:
                    asyncio.set_event_loop(loop)
                    loop.call_soon(ready.set)
                    loop.run_forever()

                t = threading.Thread(target=run, name="visx-browser", daemon=True)
                t.start()
                ready.wait()
                self._loop, self._thread = loop, t
            return self._loop

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        return asyncio.run_coroutine_threadsafe(coro, self._ensure_loop())

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on the browser thread and wait for its result."""
        if self._thread is not None and threading.current_thread() is self._thread:
            raise RuntimeError("visx.render() called from the browser thread; await render_async()")
        return self.submit(coro).result()

    async def arun(self, coro: Coroutine[Any, Any, T]) -> T:
        """Await ``coro`` (run on the browser thread) from any event loop."""
        return await asyncio.wrap_future(self.submit(coro))

    async def browser(self, explicit: Path | None, args: tuple[str, ...], *, restart_every: int = 0,
                      restart_rss_mb: int = 0) -> tuple[Browser, float]:
        """The shared browser for these launch args; (browser, seconds spent launching).

        A browser that has served ``restart_every`` pages, or whose processes hold more than
        ``restart_rss_mb`` MB, is retired first: new pages go to a fresh one, while pages in
        flight finish on the old one, which is closed once they have (:meth:`_retire`).
        """
        if self._launch_lock is None:
            self._launch_lock = asyncio.Lock()
        async with self._launch_lock:
            t0 = time.perf_counter()
            if self._pw is None:
                from playwright.async_api import async_playwright

                self._pw = await async_playwright().start()
            pw_path: str | None
            try:
                pw_path = self._pw.chromium.executable_path
            except Exception:  # driver may not know any browser build
                pw_path = None
            exe = find_chromium(explicit, pw_path)
            key = (str(exe), args)
            b = self._browsers.get(key)
            if b is not None and b.is_connected():
                why = self._restart_reason(b, restart_every, restart_rss_mb)
                if not why:
                    self._served[b] = self._served.get(b, 0) + 1
                    self._leases[b] = self._leases.get(b, 0) + 1
                    return b, 0.0
                _log.info("restarting the browser: %s", why)
                self._retire(b)
            from playwright.async_api import Error as PlaywrightError

            before = procs.browser_pids()
            try:
                b = await self._pw.chromium.launch(executable_path=str(exe), args=[*LAUNCH_ARGS, *args],
                                                   headless=True)
            except PlaywrightError as e:
                raise BrowserNotFoundError(
                    f"Chromium at {exe} failed to start ({str(e).splitlines()[0]}); {INSTALL_HINT}"
                ) from e
            new = procs.browser_pids() - before
            if len(new) == 1:
                self._pids[b] = new.pop()
            self._browsers[key] = b
            self._served[b] = 1
            self._leases[b] = 1
            return b, time.perf_counter() - t0

    def _restart_reason(self, b: Browser, every: int, rss_mb: int) -> str:
        if every and self._served.get(b, 0) >= every:
            return f"it has rendered {self._served[b]} pages (render.restart_every={every})"
        pid = self._pids.get(b)
        if rss_mb and pid is not None and time.monotonic() - self._rss_checked >= RSS_CHECK_S:
            self._rss_checked = time.monotonic()
            held = procs.tree_rss_mb(pid)
            if held > rss_mb:
                return f"its processes hold {held:.0f} MB (render.restart_rss_mb={rss_mb})"
        return ""

    def _retire(self, b: Browser, *, kill: bool = False) -> None:
        """Take ``b`` out of service: no new page goes to it; closed once its pages are done
        (at once, its processes killed, with ``kill``: it stopped answering)."""
        self.restarts += 1
        for key, b2 in list(self._browsers.items()):
            if b2 is b:
                del self._browsers[key]
        idle = [page for key, pages in self._idle.items() if key and key[0] is b for page in pages]
        self._idle = {key: pages for key, pages in self._idle.items() if not (key and key[0] is b)}
        self._served.pop(b, None)
        pid = self._pids.pop(b, None)
        task = asyncio.ensure_future(self._close_when_done(b, pid, idle, kill))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def _close_when_done(self, b: Browser, pid: int | None, idle: list[tuple[BrowserContext, Page]],
                               kill: bool) -> None:
        for context, _page in idle:
            with contextlib.suppress(Exception):  # it goes with the browser anyway
                await asyncio.wait_for(context.close(), CALL_S)
        end = time.monotonic() + RETIRE_WAIT_S
        while not kill and (self._leases.get(b, 0) > 0 or b.contexts) and time.monotonic() < end:
            await asyncio.sleep(0.2)
        self._leases.pop(b, None)
        try:
            await asyncio.wait_for(b.close(), CALL_S * 2)
        except Exception:  # it does not answer: end it
            if pid is not None:
                procs.kill_tree(pid)

    def _release(self, context: BrowserContext) -> None:
        if context.browser is not None:
            self.release(context.browser)

    def release(self, b: Browser) -> None:
        """End one render's lease on ``b`` (a retired browser closes when none is left)."""
        if self._leases.get(b, 0) > 0:
            self._leases[b] -= 1

    async def discard(self, context: BrowserContext) -> None:
        """Close a render's context; a browser that cannot even do that is retired and killed."""
        self._release(context)
        try:
            await asyncio.wait_for(context.close(), CALL_S * 2)
        except TimeoutError:
            b = context.browser
            if b is not None and any(b2 is b for b2 in self._browsers.values()):
                _log.warning("the browser stopped answering; it is restarted")
                self._retire(b, kill=True)
        except Exception:  # closed already, with a crashed page or the browser
            pass

    def take_page(self, key: tuple[Any, ...]) -> tuple[BrowserContext, Page] | None:
        """An idle open page for these settings, if one is left (browser thread only)."""
        idle = self._idle.get(key, [])
        while idle:
            context, page = idle.pop()
            if not page.is_closed():
                return context, page
        return None

    def give_back(self, key: tuple[Any, ...], context: BrowserContext, page: Page) -> bool:
        """Keep ``page`` for a later render; False when enough are kept (close it then)."""
        if not any(b is context.browser for b in self._browsers.values()):
            return False  # its browser is retired: the tab is closed, so the browser can be
        idle = self._idle.setdefault(key, [])
        if len(idle) >= IDLE_PAGES_MAX:
            return False
        idle.append((context, page))
        self._release(context)
        return True

    async def _aclose(self) -> None:
        self._idle.clear()  # their contexts close with the browsers
        for task in list(self._closing):
            with contextlib.suppress(Exception):  # a retired browser that will not close is killed below
                await asyncio.wait_for(task, CALL_S * 3)
        for b in list(self._browsers.values()):
            try:
                await asyncio.wait_for(b.close(), CALL_S * 5)
            except Exception:  # already gone, or hung: nothing may be left behind
                pid = self._pids.get(b)
                if pid is not None:
                    procs.kill_tree(pid)
        self._browsers.clear()
        self._pids.clear()
        self._served.clear()
        if self._pw is not None:
            with contextlib.suppress(Exception):  # driver already exited
                await self._pw.stop()
            self._pw = None

    def close(self) -> None:
        """Close every browser and the driver, and stop the thread."""
        with self._lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        with contextlib.suppress(Exception):  # best effort at shutdown
            asyncio.run_coroutine_threadsafe(self._aclose(), loop).result(timeout=30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        self._launch_lock = None
        if thread.is_alive():  # never collect a running loop: its __del__ would fail at exit
            _STUCK.append(loop)
            return
        # An unclosed loop is closed by its __del__, with a ResourceWarning: at interpreter exit
        # that ran inside an import's lock and hung the process (a run that never rendered too).
        loop.close()


_STUCK: list[asyncio.AbstractEventLoop] = []
"""Loops whose thread did not stop in time, kept referenced until the process ends."""


ENGINE = Engine()


def shutdown() -> None:
    """Close the shared browser now (it is also closed at interpreter exit)."""
    ENGINE.close()


def _at_exit() -> None:
    # A warming thread (visx.prewarm) still importing at exit, while the main thread's garbage
    # collection runs a finalizer that imports inside the import lock, deadlocks the process:
    # a run that failed at once (a ZIP file, an unreadable one) hung there now and then.
    from visx import prewarm

    prewarm.wait(PREWARM_WAIT_S)
    shutdown()


PREWARM_WAIT_S = 10.0
"""How long exit waits for the warming thread; it analyses a tiny page, well under a second."""


atexit.register(_at_exit)
