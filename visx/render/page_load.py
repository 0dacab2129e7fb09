"""Load one page in the shared browser and capture it as a :class:`PageSnapshot`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, unquote_to_bytes, urljoin, urlparse

from visx import sniff
from visx.config import Config, RenderConfig
from visx.errors import (
    ConfigError,
    DnsError,
    EmptyContentError,
    HttpStatusError,
    NonHtmlContentError,
    NoResponseError,
    PageCrashedError,
    RedirectError,
    RenderError,
    RenderTimeoutError,
    SnapshotError,
    SourceNotFoundError,
    UnreachableError,
)
from visx.log import log_snapshot
from visx.model import PageSnapshot
from visx.render.browser import ENGINE, OFFLINE_ARGS
from visx.render.capture import FrameLog, capture
from visx.render.context import context_options, cookie_list, hooks_script, reuse_key
from visx.render.guard import FrameCap, attach, frame_cap, watch_size
from visx.render.settle import RequestTracker, Settle, network_idle, settle, wait_for_selector
from visx.render.shot import screenshot
from visx.render.snapshot_io import snapshot_from_dom
from visx.render.thresholds import (
    AFTER_WAIT_FOR_S,
    CAPTURE_ALLOWANCE_S,
    PARK_TIMEOUT_MS,
    SCROLL_ANSWER_S,
    SCROLL_REACT_S,
)

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Page, Request, Response, Route

    from visx.render.columns import Columns

PageAction = Callable[["Page"], Awaitable[None]]
"""``async def action(page) -> None``: run on the settled page before the capture."""

_log = logging.getLogger(__name__)

_HTML_TYPES = ("text/html", "application/xhtml+xml")
SUPPORTED = "give an http(s) URL, a local HTML file, HTML text, or - for standard input"
NAVIGATION_LOOP = 8
"""Main-frame navigations after the first that make a page one that never stays
(a meta refresh or a script sending it to itself, or between pages, again and again)."""
# With JavaScript off Chromium applies <noscript> content, and pages saved
# after their scripts ran often hide their content from that branch.
_DROP_NOSCRIPT_JS = """() => { const els = Array.from(document.querySelectorAll('noscript'));
  els.forEach((e) => e.remove()); return els.length; }"""

_SCROLL_JS = """() => { window.scrollTo(0, document.documentElement.scrollHeight);
  return document.documentElement.scrollHeight; }"""


@dataclass(slots=True, frozen=True)
class Source:
    """What to render: ``kind`` is ``url``, ``file`` or ``html``."""

    kind: str
    value: str
    label: str


def looks_like_html(text: str) -> bool:
    """HTML given as text rather than a path or URL: it opens with a tag, or spans lines and holds one."""
    s = text.strip()
    return s.startswith("<") or ("\n" in s and "<" in s)


def classify(source: str | Path) -> Source:
    """Tell a URL, a local file and an HTML string apart."""
    if isinstance(source, Path):
        return _file_source(source)
    s = source.strip()
    if looks_like_html(s):
        return Source("html", source, "<html string>")
    low = s.lower()
    if low.startswith(("http://", "https://")):
        return Source("url", s, s)
    if low.startswith("file://"):
        return _file_source(Path(unquote(urlparse(s).path)))
    if low.startswith("data:"):
        return _data_source(s)
    scheme = re.match(r"^([a-z][a-z0-9+.-]+):", low)  # two letters at least: C:\ is a path
    if scheme and (low.startswith(f"{scheme[1]}://") or not Path(s).exists()):
        name = scheme[1]
        what = "unsupported scheme" if "://" in low else f"{name}: URLs are not supported"
        raise ConfigError(f"{_short(s)}: {what}; {SUPPORTED}")
    return _file_source(Path(s))


def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _data_source(url: str) -> Source:
    """An HTML ``data:`` URL renders like HTML text; any other type is refused, naming it."""
    label = "data: URL"
    meta, comma, payload = url[5:].partition(",")
    if not comma:
        raise ConfigError(f"{_short(url)}: not a data: URL (no comma before the content); {SUPPORTED}")
    params = [p.strip() for p in meta.split(";")]
    mime = (params[0] or "text/plain").lower()
    if mime not in _HTML_TYPES:
        raise NonHtmlContentError(f"{label} is {mime}, not an HTML page; use data:text/html,... or {SUPPORTED}",
                                  source=label, content_type=mime)
    raw = unquote_to_bytes(payload)
    if "base64" in (p.lower() for p in params[1:]):
        import base64
        import binascii

        try:
            raw = base64.b64decode(raw, validate=False)
        except (binascii.Error, ValueError) as e:
            raise ConfigError(f"{label}: its base64 content is corrupt ({e}); {SUPPORTED}") from e
    charset = next((p.split("=", 1)[1] for p in params[1:] if p.lower().startswith("charset=")), "")
    text = _decode_html(raw, charset)
    if not text.strip():
        raise EmptyContentError(f"{label} holds no content; put the page after the comma", source=label)
    return Source("html", text, label)


def _decode_html(raw: bytes, charset: str = "") -> str:
    if charset and sniff.bom(raw) is None:
        try:
            return raw.decode(charset, errors="replace")
        except LookupError:
            pass  # an unknown charset: read as UTF-8 like a browser falls back
    return sniff.decode(raw)


def _file_source(p: Path) -> Source:
    label = str(p)
    if not p.exists():
        raise SourceNotFoundError(
            f"{label}: no such file; check the path (URLs need http:// or https://, "
            "HTML text must start with '<')",
            source=label,
        )
    if not p.is_file():
        raise SourceNotFoundError(f"{label}: is a directory, not an HTML file", source=label)
    try:
        with p.open("rb") as fh:
            head = fh.read(4096)
            blank = sniff.is_blank(head)
            while blank and len(head) < _BLANK_SCAN:  # whitespace so far: is there anything after it?
                more = fh.read(65536)
                if not more:
                    break
                head += more
                blank = sniff.is_blank(more)
    except OSError as e:
        raise SourceNotFoundError(f"{label}: cannot read the file ({e.strerror}); check its permissions", source=label) from e
    if not head:
        raise EmptyContentError(f"{label}: the file is empty (0 bytes); give a saved HTML page", source=label)
    if blank:
        raise EmptyContentError(f"{label}: the file holds only whitespace; give a saved HTML page",
                                source=label)
    check_content(label, head[:4096], p.suffix.lower(), "is")
    return Source("file", p.resolve().as_uri(), label)


_BLANK_SCAN = 1 << 20
"""How far into a file of whitespace to look for content before calling it blank."""


def check_content(label: str, head: bytes, suffix: str = "", verb: str = "is") -> None:
    """Raise :class:`NonHtmlContentError` when ``head`` is not the start of an HTML page."""
    ctype = sniff.sniff(head, suffix)
    if ctype:
        raise NonHtmlContentError(
            f"{label}: {verb} {sniff.describe(ctype)}, not an HTML page; visx extracts from HTML list pages",
            source=label,
            content_type=ctype,
        )


def _with_base(html: str, base_url: str) -> str:
    tag = f'<base href="{base_url}">'
    m = re.search(r"<head[^>]*>", html, re.I)
    if m:
        return html[: m.end()] + tag + html[m.end() :]
    return tag + html


def _is_local_url(url: str) -> bool:
    host = (urlparse(url).hostname or "").lower()
    return host in {"localhost", "127.0.0.1", "::1"}


async def render_page(
    source: str | Path,
    config: Config | None = None,
    action: PageAction | None = None,
) -> PageSnapshot:
    """Render ``source`` on the browser thread (see :func:`visx.render`)."""
    cfg = (config or Config()).render
    src = classify(source)
    block = cfg.block_network if cfg.block_network is not None else src.kind != "url"
    offline = block or (src.kind == "url" and _is_local_url(src.value))
    args = tuple(cfg.browser_args) + (OFFLINE_ARGS if offline else ())
    from playwright.async_api import Error as PlaywrightError

    options = context_options(cfg)  # a bad storage state fails here, before any launch
    browser, launch_s = await ENGINE.browser(cfg.chromium, args, restart_every=cfg.restart_every,
                                             restart_rss_mb=cfg.restart_rss_mb)
    key = (browser, *reuse_key(cfg))
    reuse = action is None  # a caller's action may leave listeners or state on the page
    lease = ENGINE.take_page(key) if reuse else None
    try:
        context, page = lease if lease is not None else await _open_page(browser, cfg, src, options)
    except BaseException:  # no context to discard: end the lease, or a retired browser waits on it
        ENGINE.release(browser)
        raise
    crash = asyncio.Event()
    detach: list[Callable[[], Awaitable[None]]] = []
    kept = False
    try:
        await attach(context, page)  # bounds: lets a page stuck in a script be stopped (visx.render.guard)
        snap = await _bounded(_load(context, page, src, config or Config(), block, launch_s, action, crash,
                                    detach), src, cfg, crash)
        kept = reuse and await _park(context, page, detach)
        if kept:
            kept = ENGINE.give_back(key, context, page)
        return snap
    except PlaywrightError as e:  # set-up steps of _load before its own error mapping
        raise _map_error(src, e, [], []) from e
    finally:
        if not kept:
            await ENGINE.discard(context)  # bounded; a browser that hangs here is restarted


async def _open_page(browser: Browser, cfg: RenderConfig, src: Source,
                     options: dict[str, Any]) -> tuple[BrowserContext, Page]:
    """A new tab in its own context (cookies, storage) with the render settings."""
    from playwright.async_api import Error as PlaywrightError

    try:
        context = await browser.new_context(**options)
        if cfg.javascript:
            await context.add_init_script(hooks_script())
    except PlaywrightError as e:  # the browser went away since it was checked
        raise _map_error(src, e, [], []) from e
    try:
        return context, await context.new_page()
    except PlaywrightError as e:
        with contextlib.suppress(Exception):
            await context.close()
        raise _map_error(src, e, [], []) from e


async def _park(context: BrowserContext, page: Page, detach: list[Callable[[], Awaitable[None]]]) -> bool:
    """Ready a page for the next render: this render's hooks off, cookies cleared, on about:blank.

    False when any step fails; the page is closed then. The HTTP cache and site storage
    stay, as in one browsing session (a batch of one site's pages loads its CSS once).
    """
    try:
        for undo in detach:
            await undo()
        await context.clear_cookies()
        await page.goto("about:blank", timeout=PARK_TIMEOUT_MS)
    except Exception:  # any failure only means this page is not reused
        return False
    return True


def hard_cap_s(cfg: RenderConfig) -> float:
    """The most a render may take, whatever the page does: the first view and each
    harvest step have ``timeout_s``; capture and the ``action`` hook an allowance."""
    steps = 1 if cfg.pages <= 1 else cfg.pages + 1
    return cfg.timeout_s * steps + CAPTURE_ALLOWANCE_S


async def _bounded(
    load: Coroutine[Any, Any, PageSnapshot], src: Source, cfg: RenderConfig, crash: asyncio.Event
) -> PageSnapshot:
    """Run ``load`` until it ends, the page crashes, or the hard time cap passes.

    A crashed tab leaves pending calls (a CDP command, an evaluate) waiting
    forever, and the ``action`` hook and the capture have no timeout of
    their own; racing against the crash event and a cap keeps every render finite.
    """
    task = asyncio.ensure_future(load)
    crashed = asyncio.ensure_future(crash.wait())
    cap = hard_cap_s(cfg)
    try:
        await asyncio.wait({task, crashed}, timeout=cap, return_when=asyncio.FIRST_COMPLETED)
    finally:
        crashed.cancel()
    if task.done():
        return task.result()
    task.cancel()
    with contextlib.suppress(BaseException):
        await task
    if crash.is_set():
        raise _crash_error(src)
    raise RenderTimeoutError(
        f"{src.label}: the page stopped responding ({cap:g} s without finishing); "
        "retry, raise the timeout (--timeout), or try --no-js",
        source=src.label,
    )


@dataclass(slots=True)
class _Watch:
    """What the page's listeners saw during one render."""

    notes: list[str]
    crashed: list[bool]
    main_response: list[Response]
    frames: FrameLog
    redirects: list[str] = field(default_factory=list)  # where the main frame's 3xx answers sent it
    navigations: list[str] = field(default_factory=list)  # main-frame documents committed


async def _listen(context: BrowserContext, page: Page, block: bool, crash: asyncio.Event,
                  detach: list[Callable[[], Awaitable[None]]]) -> _Watch:
    """Route guard (offline sources), dialogs, crashes and responses; their removal goes to ``detach``."""
    from playwright.async_api import Error as PlaywrightError

    watch = _Watch([], [], [], FrameLog())
    notes = watch.notes
    if block:
        navigations: list[str] = []

        async def guard(route: Route) -> None:
            req = route.request
            if req.is_navigation_request() and req.frame.parent_frame is None:
                # A local page renders as saved: a <meta refresh> (followed even
                # with JS off) must not carry the main frame to another page.
                if navigations:
                    # 204 keeps the current document; an abort would commit an error page.
                    notes.append(f"blocked a redirect of the page to {req.url[:200]}")
                    await route.fulfill(status=204)
                    return
                navigations.append(req.url)
            if req.url.startswith(("file:", "data:", "blob:", "about:")):
                await route.continue_()
            else:
                await route.abort("blockedbyclient")

        await context.route("**/*", guard)

        async def unroute() -> None:
            await context.unroute("**/*", guard)

        detach.append(unroute)

    async def on_dialog(d: Any) -> None:
        notes.append(f"dialog {d.type} dismissed: {d.message[:200]}")
        with contextlib.suppress(PlaywrightError):  # page closed meanwhile
            await d.dismiss()

    def on_crash(_p: Any) -> None:
        watch.crashed.append(True)
        crash.set()

    def on_response(r: Response) -> None:
        if not r.request.is_navigation_request():
            return
        if r.frame == page.main_frame:
            location = r.headers.get("location")
            if 300 <= r.status < 400 and location:
                watch.redirects.append(urljoin(r.url, location))
            elif not watch.main_response:
                watch.main_response.append(r)
        else:
            watch.frames.status[r.frame] = r.status

    def on_failed(req: Request) -> None:
        if req.is_navigation_request() and req.frame != page.main_frame:
            watch.frames.failed[req.frame] = (req.url, (req.failure or "unknown error")[:80])

    page.on("dialog", on_dialog)
    page.on("crash", on_crash)
    page.on("response", on_response)
    page.on("requestfailed", on_failed)

    def on_navigated(frame: Any) -> None:
        if frame == page.main_frame:
            watch.navigations.append(frame.url)

    page.on("framenavigated", on_navigated)

    async def unlisten() -> None:
        page.remove_listener("dialog", on_dialog)
        page.remove_listener("crash", on_crash)
        page.remove_listener("response", on_response)
        page.remove_listener("requestfailed", on_failed)
        page.remove_listener("framenavigated", on_navigated)

    detach.append(unlisten)
    return watch


async def _navigate(context: BrowserContext, page: Page, src: Source, cfg: RenderConfig,
                    remaining_ms: Callable[[], float]) -> int:
    """Open the source in ``page``; the main response's status (0 without one)."""
    if src.kind == "html":
        if not cfg.base_url:
            await page.set_content(src.value, wait_until="load", timeout=remaining_ms())
            return 0
        # Served at its base URL: relative links resolve, location is that URL, and
        # with the network allowed its stylesheets and scripts load from there.
        base = cfg.base_url
        body = src.value
        doc_url = base.split("#", 1)[0]  # a request never carries the fragment

        async def serve(route: Route) -> None:
            await route.fulfill(status=200, content_type="text/html; charset=utf-8", body=body)

        cookies = cookie_list(cfg, doc_url)
        if cookies:
            await context.add_cookies(cookies)  # type: ignore[arg-type]
        await page.route(doc_url, serve)
        try:
            await page.goto(base, wait_until="load", timeout=remaining_ms())
        finally:
            await page.unroute(doc_url, serve)
        return 0
    cookies = cookie_list(cfg, src.value)
    if cookies:
        await context.add_cookies(cookies)  # type: ignore[arg-type]
    resp = await page.goto(src.value, wait_until="domcontentloaded", timeout=remaining_ms())
    status = 0
    if resp is not None:
        status = resp.status
        _check_response(src, resp.status, resp.headers.get("content-type", ""), cfg)
    await page.wait_for_load_state("load", timeout=remaining_ms())
    if resp is not None:
        await _check_body(src, resp, remaining_ms)
    return status


async def _check_body(src: Source, resp: Response, remaining_ms: Callable[[], float]) -> None:
    """The body a server called HTML is not empty and not binary (a ZIP sent as text/html
    would render as a page of noise and be mined into "records")."""
    from playwright.async_api import Error as PlaywrightError

    try:  # loaded by now; a body Chromium no longer holds is simply not checked
        body = await asyncio.wait_for(resp.body(), remaining_ms() / 1000)
    except (PlaywrightError, TimeoutError):
        return
    if sniff.is_blank(body[:_BLANK_SCAN]):
        raise empty_body_error(src.label, resp.status, body)
    check_content(src.label, body[:4096], "", "the server sent")


async def _load(
    context: BrowserContext,
    page: Page,
    src: Source,
    full: Config,
    block: bool,
    launch_s: float,
    action: PageAction | None,
    crash: asyncio.Event,
    detach: list[Callable[[], Awaitable[None]]],
) -> PageSnapshot:
    """Navigate ``page``, settle and capture it; ``detach`` gets the steps that remove
    this render's route and listeners (for a page that is reused)."""
    cfg = full.render
    from playwright.async_api import Error as PlaywrightError
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    watch = await _listen(context, page, block, crash, detach)
    notes = watch.notes
    frames_cap = frame_cap(page)
    warnings: list[str] = []
    tracker = RequestTracker(page)

    async def untrack() -> None:
        tracker.detach()

    detach.append(untrack)
    deadline = time.perf_counter() + cfg.timeout_s

    def remaining_ms() -> float:
        return max(1.0, (deadline - time.perf_counter()) * 1000)

    def fail(e: Exception) -> RenderError:
        return _map_error(src, e, watch.crashed, watch.main_response, watch)

    t0 = time.perf_counter()
    partial = False
    status = 0
    try:
        status = await _navigate_capped(_navigate(context, page, src, cfg, remaining_ms), frames_cap)
        if frames_cap.stopped.is_set():  # stopped by the frame cap: nothing more will load
            partial = True
            status = watch.main_response[0].status if watch.main_response else status
    except PlaywrightTimeout as e:
        if not cfg.partial_on_timeout or not watch.main_response:
            raise _load_timeout(src, cfg, watch) from e
        partial = True
        status = watch.main_response[0].status
        notes.append("load timed out; snapshot is partial")
    except PlaywrightError as e:
        raise fail(e) from e
    t_nav = time.perf_counter()
    done = Settle()
    harvest_log: dict[str, Any] | None = None
    try:
        if not partial:
            if cfg.javascript:
                await network_idle(page, cfg, remaining_ms, notes)
            settle_by = deadline
            if cfg.wait_for:
                await wait_for_selector(page, cfg, src.label, remaining_ms, warnings)
                # The page showed what the user waits for: settling only lets it finish rendering.
                settle_by = min(deadline, time.perf_counter() + max(AFTER_WAIT_FOR_S, 4 * cfg.quiet_ms / 1000))
            if cfg.javascript and cfg.quiet_ms > 0:
                done = await settle(page, tracker, cfg, settle_by)
                done.waited_s = time.perf_counter() - t_nav
                if not done.settled and settle_by < deadline:
                    done.settled = True  # the selector matched: what still moves is not the list
        if not cfg.javascript and not cfg.keep_noscript:
            removed = await page.evaluate(_DROP_NOSCRIPT_JS)
            if removed:
                notes.append(f"removed {removed} <noscript> element(s): JS is off (--keep-noscript keeps them)")
        if cfg.scroll and cfg.javascript and not partial:
            await _autoscroll(page, tracker, cfg, deadline, notes)
        if action is not None:
            await action(page)
    except PlaywrightError as e:
        raise fail(e) from e
    loaded = not partial
    if not done.settled:
        partial = True
        why = "; ".join(done.reasons()) or "it kept changing"
        notes.append(f"not settled after {cfg.timeout_s:g} s ({why}); snapshot taken anyway (partial)")
        warnings.append(
            f"{src.label}: the page had not settled when captured ({why}); the list may be incomplete or "
            "another one: raise --timeout, or wait for the list with --wait-for SELECTOR")
    if len(watch.navigations) > NAVIGATION_LOOP:  # still going round: what is on screen will be gone
        raise _navigation_loop(src, watch)
    t_settle = time.perf_counter()
    dom: str | Columns
    shot: bytes | None = None
    try:
        if cfg.pages > 1 and not loaded:
            notes.append("harvest skipped: the page did not finish loading (--pages needs a loaded page)")
        if cfg.pages > 1 and loaded:
            from visx.harvest import harvest

            # The first view's screenshot is kept for a stitched harvest, whose layout the
            # page never shows at once (the last step is on screen by then).
            first_view = await _screenshot(page, cfg, []) if cfg.screenshot else None
            got = await harvest(page, tracker, cfg, watch.frames, notes, warnings, full)
            dom, harvest_log = got.columns, got.log
            if first_view is not None and harvest_log.get("stitched"):
                shot = first_view
                notes.append("the screenshot shows the first view; rows of later steps lie below it")
        else:
            dom = await capture(page, watch.frames, notes, javascript=cfg.javascript)
        t_eval = time.perf_counter()
        if cfg.screenshot and shot is None:
            shot = await _screenshot(page, cfg, notes)
    except PlaywrightError as e:
        raise fail(e) from e
    if frames_cap.refused or frames_cap.stopped.is_set():  # what those frames held is missing
        partial = True
        notes.append(frames_cap.reason())
        warnings.append(f"{src.label}: the capture is partial: {frames_cap.reason()}")
    t_shot = time.perf_counter()
    try:
        snap = snapshot_from_dom(
            dom,
            source=src.label if src.kind != "url" else src.value,
            status=status,
            javascript=cfg.javascript,
            partial=partial,
            notes=notes,
            created=datetime.now(UTC).isoformat(timespec="seconds"),
            warnings=warnings,
        )
    except SnapshotError:
        raise
    except ValueError as e:  # pydantic's ValidationError is a ValueError
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise RenderError(
            f"{src.label}: the page could not be captured ({first}); retry, or try --no-js", source=src.label
        ) from e
    t_end = time.perf_counter()
    snap.screenshot_png = shot
    snap.timings = {
        "launch": round(launch_s, 4),
        "navigate": round(t_nav - t0, 4),
        "settle": round(t_settle - t_nav, 4),
        "snapshot": round((t_eval - t_settle) + (t_end - t_shot), 4),
    }
    if shot:
        snap.timings["screenshot"] = round(t_shot - t_eval, 4)
    snap.extra["settled"] = done.settled
    snap.extra["settle"] = done.to_dict()
    if harvest_log is not None:
        snap.extra["harvest"] = harvest_log
    return snap


async def _navigate_capped(nav: Coroutine[Any, Any, int], cap: FrameCap) -> int:
    """``nav``'s status, or 0 as soon as the page's loading is stopped (too many frames, too many
    elements: a stopped load never reaches its load events, so the navigation would only wait
    out the timeout)."""
    task = asyncio.ensure_future(nav)
    stopped = asyncio.ensure_future(cap.stopped.wait())
    size = asyncio.ensure_future(watch_size(cap))
    try:
        await asyncio.wait({task, stopped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopped.cancel()
        size.cancel()
    if task.done():
        return task.result()
    task.cancel()
    with contextlib.suppress(BaseException):
        await task
    return 0


def _load_timeout(src: Source, cfg: RenderConfig, watch: _Watch) -> RenderError:
    """The timeout message advises only what helps: --partial keeps what arrived, so
    it is advised only when something did."""
    t = f"{cfg.timeout_s:g} s"
    if len(watch.navigations) > NAVIGATION_LOOP:
        return _navigation_loop(src, watch)
    if not watch.main_response and src.kind == "url":
        kept = " (--partial keeps nothing here: no part of the page had arrived)" if cfg.partial_on_timeout else ""
        return NoResponseError(
            f"{src.label}: no response from the server within {t}{kept}; check that the server is up "
            "and the URL is right, or raise the timeout (--timeout)", source=src.label)
    if cfg.partial_on_timeout or not watch.main_response:
        return RenderTimeoutError(f"{src.label}: page did not finish loading within {t}; raise the "
                                  "timeout (--timeout)", source=src.label)
    return RenderTimeoutError(
        f"{src.label}: page did not finish loading within {t}; raise the timeout (--timeout), "
        "or keep what had arrived (--partial)", source=src.label)


def _navigation_loop(src: Source, watch: _Watch) -> RedirectError:
    hops = len(watch.navigations)
    where = sorted(set(watch.navigations[-NAVIGATION_LOOP:]))
    shown = ", ".join(_short(u, 100) for u in where[:3]) + (", ..." if len(where) > 3 else "")
    return RedirectError(
        f"{src.label}: the page keeps navigating ({hops} loads of {shown}: a meta refresh or script "
        "loop), so there is no page to capture; retrying does not help: give the URL of the page "
        "it should end on, or render it with --no-js if a script does the navigating", source=src.label)


def _redirect_error(src: Source, msg: str, watch: _Watch) -> RedirectError | None:
    """A redirect loop, or a redirect to a scheme visx does not render; None otherwise."""
    target = watch.redirects[-1] if watch.redirects else ""
    if target and (err := scheme_redirect_error(src.label, target)) is not None:
        return err
    if "ERR_TOO_MANY_REDIRECTS" in msg:
        return redirect_loop_error(src.label, watch.redirects)
    if "ERR_UNSAFE_REDIRECT" in msg:
        return RedirectError(f"{src.label}: redirected to a local file or another URL the browser may "
                             "not follow; give the http(s) URL of an HTML page", source=src.label)
    return None


def scheme_redirect_error(label: str, target: str) -> RedirectError | None:
    """A redirect to ``target`` when its scheme is not http(s) (also for ``visx apply --static``)."""
    scheme = urlparse(target).scheme.lower()
    if scheme in ("http", "https"):
        return None
    what = ("a local file, which a web page may not open" if scheme == "file"
            else f"a {scheme}: URL, a scheme visx does not render")
    return RedirectError(f"{label}: redirected to {_short(target, 200)}, {what}; it is not "
                         f"supported: give the http(s) URL of an HTML page", source=label)


def redirect_loop_error(label: str, redirects: list[str]) -> RedirectError:
    """The server kept redirecting (``redirects``: where its answers sent the client)."""
    hops = len(redirects) or 20
    cycle = sorted(set(redirects))
    via = ", ".join(_short(u, 100) for u in cycle[:3]) + (", ..." if len(cycle) > 3 else "")
    return RedirectError(
        f"{label}: redirect loop at {via or label} ({hops} hops); the server keeps "
        "redirecting, so retrying or --no-js does not help: check the URL, and whether the site "
        "wants cookies first (--cookie, --storage-state)", source=label)


def empty_body_error(label: str, status: int, body: bytes) -> EmptyContentError:
    """The server's answer holds nothing but whitespace."""
    return EmptyContentError(
        f"{label}: the server sent an empty page (HTTP {status}, {len(body)} bytes"
        f"{', whitespace only' if body else ''}); check the URL, or whether the site needs a login "
        "(--cookie, --storage-state)", source=label, content_type="")


def server_type_error(label: str, mime: str) -> NonHtmlContentError:
    """The server's Content-Type is not HTML."""
    return NonHtmlContentError(f"{label}: server sent {mime}, not an HTML page; visx extracts from HTML list pages",
                               source=label, content_type=mime)


def status_error(label: str, status: int) -> HttpStatusError:
    """An HTTP error status, with the way out that fits it."""
    if status in (401, 403, 407):
        why = ("the site wants a login or refuses visx: pass a logged-in session with --cookie "
               "NAME=VALUE or --storage-state FILE, or render the page anyway with --allow-http-errors")
    elif status >= 500 or status in (408, 429):
        why = "a server-side or temporary failure: retry later, or render the error page anyway with --allow-http-errors"
    else:
        why = "check the URL, or render the error page anyway with --allow-http-errors"
    return HttpStatusError(f"{label}: HTTP {status}; {why}", source=label, status=status)


def _check_response(src: Source, status: int, ctype: str, cfg: RenderConfig) -> None:
    mime = ctype.split(";")[0].strip().lower()
    if mime and mime not in _HTML_TYPES:
        raise server_type_error(src.label, mime)
    if status >= 400 and not cfg.allow_http_errors:
        raise status_error(src.label, status)


def _map_error(src: Source, e: Exception, crashed: list[bool], responses: list[Response],
               watch: _Watch | None = None) -> RenderError:
    msg = str(e)
    label = src.label
    if crashed or ("crash" in msg.lower() and "Target" in msg):
        return _crash_error(src)
    if watch is not None:
        if len(watch.navigations) > NAVIGATION_LOOP:
            return _navigation_loop(src, watch)
        redirect = _redirect_error(src, msg, watch)
        if redirect is not None:
            return redirect
    if responses:
        ctype = responses[0].headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype and ctype not in _HTML_TYPES:
            return NonHtmlContentError(
                f"{label}: server sent {ctype}, not an HTML page; visx extracts from HTML list pages",
                source=label,
                content_type=ctype,
            )
    if "Download is starting" in msg or ("ERR_ABORTED" in msg and responses):
        return NonHtmlContentError(f"{label}: the server sent a download, not an HTML page", source=label)
    if "ERR_UNSAFE_PORT" in msg:
        port = urlparse(src.value).port
        return UnreachableError(
            f"{label}: Chromium refuses to connect to port {port} (ERR_UNSAFE_PORT, a port "
            "reserved for other protocols); serve the page on another port",
            source=label,
        )
    if "ERR_NAME_NOT_RESOLVED" in msg or "ERR_NAME_RESOLUTION_FAILED" in msg:
        host = urlparse(src.value).hostname or label
        return DnsError(f"{label}: host {host!r} does not resolve; check the spelling and your network", source=label)
    for code in ("ERR_CONNECTION_RESET", "ERR_EMPTY_RESPONSE", "ERR_CONNECTION_CLOSED"):
        if code in msg:
            return UnreachableError(f"{label}: the server closed the connection without an answer ({code}); "
                                    "retry, or check the server", source=label)
    for code in ("ERR_CONNECTION_REFUSED", "ERR_CONNECTION_RESET", "ERR_ADDRESS_UNREACHABLE",
                 "ERR_CONNECTION_TIMED_OUT", "ERR_INTERNET_DISCONNECTED", "ERR_CONNECTION_CLOSED",
                 "ERR_EMPTY_RESPONSE", "ERR_TUNNEL_CONNECTION_FAILED", "ERR_BLOCKED_BY_CLIENT"):
        if code in msg:
            return UnreachableError(
                f"{label}: cannot connect ({code}); check that the server is up and the URL is right",
                source=label,
            )
    if "ERR_FILE_NOT_FOUND" in msg:
        return SourceNotFoundError(f"{label}: no such file", source=label)
    if "Execution context was destroyed" in msg or "because of a navigation" in msg:
        to = watch.navigations[-1] if watch is not None and watch.navigations else ""
        return RenderError(f"{label}: the page went on to another page while it was rendered"
                           f"{' (' + _short(to, 150) + ')' if to else ''}; render that page's URL, "
                           "or this one with --no-js if a script moved it", source=label)
    first = msg.strip().splitlines()[0] if msg.strip() else type(e).__name__
    return RenderError(f"{label}: rendering failed ({first}); retry, or try --no-js", source=label)


def _crash_error(src: Source) -> PageCrashedError:
    return PageCrashedError(
        f"{src.label}: the browser tab crashed while rendering; retry, or try --no-js", source=src.label
    )


async def _autoscroll(page: Page, tracker: RequestTracker, cfg: RenderConfig, deadline: float,
                      notes: list[str]) -> None:
    """Scroll to the bottom until the page stops growing (lazy loading), then back to the top.

    After each scroll the page gets time to answer: its requests, short timers and
    DOM changes are waited for (a batch that takes a second is not taken for the end).
    """
    last = -1
    steps = 0
    for steps in range(1, cfg.scroll_max_steps + 1):  # noqa: B007 - reported below
        if deadline - time.perf_counter() < 0.3:
            notes.append("auto-scroll stopped at the timeout")
            break
        height = await page.evaluate(_SCROLL_JS)
        step_deadline = min(deadline, time.perf_counter() + SCROLL_ANSWER_S)
        await asyncio.sleep(SCROLL_REACT_S)  # scroll handlers and observers fire on the next frames
        await settle(page, tracker, cfg, step_deadline, quiet_ms=min(cfg.quiet_ms, 300) or 150, loading_s=0)
        grown = await page.evaluate("() => document.documentElement.scrollHeight")
        if grown == height and height == last:
            break
        last = grown
    notes.append(f"auto-scrolled {steps} step(s)")
    await page.evaluate("() => window.scrollTo(0, 0)")


async def _screenshot(page: Page, cfg: RenderConfig, notes: list[str]) -> bytes | None:
    return await screenshot(page, cfg.screenshot_max_height, notes)  # bounds: visx.render.shot


def render(source: str | Path, config: Config | None = None, *, action: PageAction | None = None) -> PageSnapshot:
    """Render ``source`` (URL, file path or HTML string) to a :class:`PageSnapshot`.

    ``action``, if given, is a coroutine function taking the Playwright ``Page``, run on
    the settled page before the capture (click "load more", dismiss a banner, fill a
    search form, ...). It runs on visx's browser thread: await Playwright's async API
    in it, and do not call :func:`render` from it. A page given an action gets a fresh
    tab, never a reused one. The capture follows it at once (after the harvest, with
    ``pages``): wait inside the action for what it triggers
    (``await page.wait_for_selector(...)``).

    Notes on what was done are logged at INFO, warnings at WARNING (:mod:`visx.log`).
    """
    snap = ENGINE.run(render_page(source, config, action))
    log_snapshot(_log, snap, "rendered")
    return snap


async def render_async(
    source: str | Path, config: Config | None = None, *, action: PageAction | None = None
) -> PageSnapshot:
    """Async twin of :func:`render`, sharing the same browser."""
    snap = await ENGINE.arun(render_page(source, config, action))
    log_snapshot(_log, snap, "rendered")
    return snap


def file_is_html(path: Path) -> bool:
    """True when ``path`` looks like an HTML file (used by batch commands)."""
    try:
        with path.open("rb") as fh:
            return not sniff.sniff(fh.read(4096), path.suffix.lower())
    except OSError:
        return False
