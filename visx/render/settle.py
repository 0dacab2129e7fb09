"""Settle honestly: wait until the page has done what it started, and say so when it has not.

A page is settled when none of its own requests (fetch, XHR, scripts, frame
documents) are in flight, no short one-shot timer is pending (``hooks.js``),
and the DOM has been quiet for ``quiet_ms``; a visible loading indicator
("Loading…", ``aria-busy``, a skeleton) is waited for at most
``network_idle_s``. All of it is bounded by the render's deadline; a page
that is not settled by then is captured anyway and the reason becomes a
warning of the snapshot.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from visx.config import RenderConfig
from visx.errors import ConfigError, RenderTimeoutError
from visx.render.guard import STOPPED, CallTimeout, bounded, stop_scripts
from visx.render.thresholds import CALL_S, CHURN_S, LOADING_CHECK_S, POLL_S

if TYPE_CHECKING:
    from playwright.async_api import Frame, Page, Request

OWN_REQUESTS = frozenset({"fetch", "xhr", "script", "document"})
"""Request kinds whose answer can still change the list. Images, fonts and
media change boxes at most (``networkidle`` covers them); beacons, event
streams and sockets never finish by design."""

LOADING_WORDS = (
    "loading", "chargement", "laden", "wird geladen", "lädt", "cargando", "carregando", "caricamento",
    "bezig met laden", "ładowanie", "загрузка", "yükleniyor", "加载", "載入", "読み込み", "로딩",
)
"""Opening words of a loading message, in the languages the harvest words cover."""

STATUS_JS = """(a) => {
  let s = window[Symbol.for('visx.hooks')];
  if (!s) {  // set_content documents and pages where the init script did not run
    s = {lastMutation: performance.now(), timers: new Map(), later: new Map()};
    Object.defineProperty(window, Symbol.for('visx.hooks'), {value: s, configurable: true});
    new MutationObserver(() => { s.lastMutation = performance.now(); }).observe(document,
      {subtree: true, childList: true, characterData: true, attributes: true,
       attributeFilter: ['src', 'srcset', 'href', 'hidden', 'open', 'value', 'aria-busy', 'aria-hidden']});
  }
  const now = performance.now();
  const out = {quiet: now - s.lastMutation, timers: s.timers.size, later: s.later ? s.later.size : 0,
               loading: ''};
  if (!a.loading) return out;
  const shown = (el) => el && (el.checkVisibility ? el.checkVisibility({opacityProperty: true,
    visibilityProperty: true}) : el.getClientRects().length > 0);
  for (const el of document.querySelectorAll('[aria-busy="true"], [role="progressbar"], [class*="skeleton" i], [class*="spinner" i]')) {
    if (shown(el)) { out.loading = el.getAttribute('aria-label') || el.localName + (el.className ? '.' + String(el.className).split(' ')[0] : ''); return out; }
  }
  const re = new RegExp('^\\\\s*(' + a.words.join('|') + ')', 'i');
  const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const v = t.nodeValue;
    if (v.length > 40 || !re.test(v)) continue;
    const el = t.parentElement;
    if (el && !['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(el.tagName) && shown(el)) {
      out.loading = v.trim(); return out;
    }
  }
  return out;
}"""


class RequestTracker:
    """The page's own requests in flight (Playwright's request events, all frames)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.inflight: dict[Request, float] = {}
        self.last_change = time.perf_counter()
        page.on("request", self._start)
        page.on("requestfinished", self._end)
        page.on("requestfailed", self._end)

    def _start(self, req: Request) -> None:
        kind = req.resource_type
        if kind in OWN_REQUESTS and not (kind == "document" and req.frame == self.page.main_frame):
            self.inflight[req] = time.perf_counter()
            self.last_change = time.perf_counter()

    def _end(self, req: Request) -> None:
        if self.inflight.pop(req, None) is not None:
            self.last_change = time.perf_counter()

    def pending(self) -> list[str]:
        return [f"{r.method} {r.url[:120]}" for r in self.inflight]

    def detach(self) -> None:
        self.page.remove_listener("request", self._start)
        self.page.remove_listener("requestfinished", self._end)
        self.page.remove_listener("requestfailed", self._end)


@dataclass(slots=True)
class Settle:
    """How settling ended; kept in the snapshot's ``extra['settle']``."""

    settled: bool = True
    waited_s: float = 0.0
    requests: list[str] = field(default_factory=list)
    """Own requests still in flight when settling ended."""
    timers: int = 0
    """Short one-shot timers still pending."""
    later: int = 0
    """Longer one-shot timers (up to ``TIMER_LATER_MS``) pending: not waited for, only reported."""
    quiet: bool = True
    """The DOM had been quiet for ``quiet_ms``."""
    loading: str = ""
    """A loading indicator still visible (its text or element), if any."""
    churn_s: float = 0.0
    """Settling stopped early: the DOM had kept changing this long with nothing in flight."""
    stopped: bool = False
    """The page's script did not yield (an endless loop?) and was stopped."""

    @property
    def busy(self) -> bool:
        """The page showed it was still working when it was captured."""
        return bool(self.requests or self.timers or self.loading) or not self.quiet

    def reasons(self) -> list[str]:
        out = []
        if self.requests:
            out.append(f"{len(self.requests)} request(s) still in flight ({', '.join(self.requests[:2])})")
        if self.timers:
            out.append(f"{self.timers} timer(s) pending")
        if self.stopped:
            out.append(STOPPED)
        if self.churn_s:
            out.append(f"the DOM kept changing for {self.churn_s:.1f} s with nothing left to load, so it "
                       "was captured without waiting for the timeout")
        elif not self.quiet and not self.stopped:
            out.append("the DOM still changing")
        if self.loading:
            out.append(f"a loading indicator showing ({self.loading[:60]!r})")
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"settled": self.settled, "waited_s": round(self.waited_s, 3), "requests": self.requests[:10],
                "timers": self.timers, "later": self.later, "quiet": self.quiet, "loading": self.loading,
                "churn_s": round(self.churn_s, 3), "stopped": self.stopped}


async def settle(page: Page | Frame, tracker: RequestTracker, cfg: RenderConfig, deadline: float,
                 *, quiet_ms: float | None = None, loading_s: float | None = None) -> Settle:
    """Wait until the page is done or ``deadline`` (a ``perf_counter`` time) passes."""
    from playwright.async_api import Error as PlaywrightError

    t0 = time.perf_counter()
    quiet = float(cfg.quiet_ms if quiet_ms is None else quiet_ms)
    loading_cap = t0 + (cfg.network_idle_s if loading_s is None else loading_s)
    state: dict[str, Any] = {}
    next_loading = t0
    busy_since = t0
    while True:
        now = time.perf_counter()
        check_loading = now >= next_loading and now < loading_cap
        if check_loading:
            next_loading = now + LOADING_CHECK_S
        try:
            # A page inside an endless script answers nothing: wait for it until the deadline only.
            state = await bounded(page.evaluate(STATUS_JS, {"loading": check_loading, "words": list(LOADING_WORDS)}),
                                  deadline - now + POLL_S)
        except CallTimeout:
            await stop_scripts(page)
            return Settle(settled=False, waited_s=time.perf_counter() - t0, requests=tracker.pending(),
                          quiet=False, stopped=True)
        except PlaywrightError:  # a navigation replaced the document: start over on the new one
            state = {"quiet": 0.0, "timers": 0, "later": 0, "loading": ""}
        loading = str(state.get("loading") or "") if check_loading else ""
        idle = not tracker.inflight and not state["timers"] and (not loading or now >= loading_cap)
        done = idle and state["quiet"] >= quiet
        # Nothing in flight yet the DOM never rests (a ticker, an animation written in the DOM):
        # waiting longer gains nothing, so settling ends early and says why.
        if not idle or state["quiet"] >= quiet:
            busy_since = now
        churn = now - busy_since if now - busy_since >= CHURN_S else 0.0
        if done or now >= deadline or churn:
            if not check_loading:  # say whether a loading indicator shows at capture time
                with contextlib.suppress(PlaywrightError, CallTimeout):
                    last = await bounded(page.evaluate(STATUS_JS, {"loading": True, "words": list(LOADING_WORDS)}),
                                         CALL_S)
                    loading = str(last.get("loading") or "")
            return Settle(settled=done, waited_s=now - t0, requests=tracker.pending(), timers=int(state["timers"]),
                          later=int(state.get("later") or 0), quiet=state["quiet"] >= quiet, loading=loading,
                          churn_s=0.0 if done else churn)
        await asyncio.sleep(min(POLL_S, max(0.0, deadline - now)))


async def network_idle(page: Page, cfg: RenderConfig, remaining_ms: Callable[[], float], notes: list[str]) -> None:
    """Playwright's ``networkidle`` (no connection for 500 ms), at most ``network_idle_s``:
    late images and fonts change boxes."""
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    if cfg.network_idle_s <= 0:
        return
    try:
        await page.wait_for_load_state("networkidle", timeout=min(cfg.network_idle_s * 1000, remaining_ms()))
    except PlaywrightTimeout:
        notes.append(f"network not idle after {cfg.network_idle_s:g} s; went on (the page's own requests "
                     "are waited for up to --timeout)")


async def wait_for_selector(page: Page, cfg: RenderConfig, label: str, remaining_ms: Callable[[], float],
                            warnings: list[str]) -> None:
    """``--wait-for SELECTOR`` (``--wait-for-count N``): wait until N elements match.

    Playwright selectors: CSS (piercing open shadow roots), ``xpath=...``, ``text=...``.
    Runs out: an error, or with ``partial_on_timeout`` a warning.
    """
    from playwright.async_api import Error as PlaywrightError
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    assert cfg.wait_for is not None
    loc = page.locator(cfg.wait_for)
    want = cfg.wait_for_count
    try:
        await loc.nth(want - 1).wait_for(state="attached", timeout=remaining_ms())
        return
    except PlaywrightTimeout:
        pass
    except PlaywrightError as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        if "selector" in first.lower() or "unexpected" in first.lower() or "parse" in first.lower():
            raise ConfigError(f"--wait-for {cfg.wait_for!r}: not a valid selector ({first[:160]}); use CSS, "
                              "xpath=//... or text=...") from e
        raise
    try:
        got = await loc.count()
    except PlaywrightError:
        got = 0
    msg = (f"--wait-for {cfg.wait_for!r} matched {got} element(s), not {want}, within {cfg.timeout_s:g} s")
    if cfg.partial_on_timeout:
        warnings.append(f"{msg}; captured what was there (--partial)")
        return
    raise RenderTimeoutError(f"{label}: {msg}; check the selector, raise --timeout, or keep what rendered "
                             "with --partial", source=label)
