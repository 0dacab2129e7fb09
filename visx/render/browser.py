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
import os
import shutil
import threading
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from visx.errors import BrowserNotFoundError
from visx.render.thresholds import IDLE_PAGES_MAX

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Page, Playwright

T = TypeVar("T")

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
        self._idle: dict[tuple[Any, ...], list[tuple[BrowserContext, Page]]] = {}
        """Pages left open after a clean render, by (browser, viewport, JS): the next render
        with the same settings navigates one instead of opening a tab (~0.25 s saved)."""

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

    async def browser(self, explicit: Path | None, args: tuple[str, ...]) -> tuple[Browser, float]:
        """The shared browser for these launch args; (browser, seconds spent launching)."""
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
                return b, 0.0
            from playwright.async_api import Error as PlaywrightError

            try:
                b = await self._pw.chromium.launch(executable_path=str(exe), args=[*LAUNCH_ARGS, *args],
                                                   headless=True)
            except PlaywrightError as e:
                raise BrowserNotFoundError(
                    f"Chromium at {exe} failed to start ({str(e).splitlines()[0]}); {INSTALL_HINT}"
                ) from e
            self._browsers[key] = b
            return b, time.perf_counter() - t0

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
        idle = self._idle.setdefault(key, [])
        if len(idle) >= IDLE_PAGES_MAX:
            return False
        idle.append((context, page))
        return True

    async def _aclose(self) -> None:
        self._idle.clear()  # their contexts close with the browsers
        for b in list(self._browsers.values()):
            with contextlib.suppress(Exception):  # already gone: nothing left to close
                await b.close()
        self._browsers.clear()
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


ENGINE = Engine()


def shutdown() -> None:
    """Close the shared browser now (it is also closed at interpreter exit)."""
    ENGINE.close()


atexit.register(shutdown)
