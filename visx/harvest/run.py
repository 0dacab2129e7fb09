"""Harvest every page of the main list into one capture (``RenderConfig.pages``).

The first view is captured and mined; its main region's parent element is
the *anchor*, whose children are the list's rows. Then, step by step, the
list is made to show more:

- **scroll**: the anchor's scroll box, or the window, is scrolled (to the
  end for an infinite list; a view at a time for a virtualised one, whose
  rows are recycled);
- **load more**: a "Load more" control after the list is clicked;
- **next**: a next link (``rel=next``, a next word, the following page
  number) on the same site is followed, or a next button clicked.

After each action the page gets time to answer (its requests, short
timers, DOM changes; at least a little longer than its slowest answer so
far), and the rows not seen before are captured. Rows are keyed by an index
attribute (``aria-rowindex``, ``data-index``, ``row-index``, ``data-id``...)
when they have one, else by their text and first link; a key seen at two
scroll positions is one row, and a key seen twice in one view is two.

When rows only ever accumulated, the final page is captured whole. When
rows were recycled or pages replaced, the rows of every step are stitched
under the first view's list (:mod:`visx.harvest.stitch`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

from visx.config import Config, RenderConfig
from visx.harvest.stitch import Batch, stitch
from visx.harvest.thresholds import (
    GROWTH_MIN_WAIT_S,
    GROWTH_POLL_S,
    GROWTH_WAIT_FACTOR,
    MAX_ROWS,
    MORE_WORDS,
    NEXT_TERMS,
    NEXT_WORDS,
    PAGE_TERMS,
    STEP_QUIET_MS,
    VIRTUAL_CONTENT_RATIO,
    VIRTUAL_MAX_STEPS,
    VIRTUAL_MIN_WAIT_S,
    VIRTUAL_POLL_S,
    VIRTUAL_SETTLE_MS,
    VIRTUAL_STEP_SHARE,
)
from visx.model import SCOPE_FRAME, PageSnapshot
from visx.render.capture import FrameLog, capture, collect_args, script
from visx.render.columns import Columns, concat, split_roots
from visx.render.locate import locate
from visx.render.settle import RequestTracker, settle
from visx.render.snapshot_io import snapshot_from_dom
from visx.render.thresholds import SCROLL_REACT_S

if TYPE_CHECKING:
    from playwright.async_api import Frame, Page

_JS: list[str] = []
_H = "window[Symbol.for('visx.harvest')]"


def _harvest_js() -> str:
    if not _JS:
        _JS.append(resources.files("visx.harvest").joinpath("harvest.js").read_text(encoding="utf-8"))
    return _JS[0]


def _words(words: tuple[str, ...]) -> list[str]:
    """Words as JavaScript regex alternatives (escaped, spaces flexible)."""
    return [re.escape(w).replace(r"\ ", r"\s+") for w in words]


@dataclass(slots=True)
class Harvested:
    columns: str | Columns
    log: dict[str, Any]


@dataclass(slots=True)
class _Progress:
    fresh: int = 0
    removed: int = 0
    lost: bool = False
    navigated: bool = False


@dataclass(slots=True)
class _State:
    anchor_xpath: str = ""
    page: int = 1
    step: int = 0
    batches: list[Batch] = field(default_factory=list)
    rows: int = 0
    recycled: bool = False
    flipped: bool = False
    slowest: float = 0.0
    counts: dict[str, int] = field(default_factory=dict)
    steps: list[dict[str, Any]] = field(default_factory=list)
    visited: set[str] = field(default_factory=set)
    pages_seen: list[frozenset[str]] = field(default_factory=list)
    page_keys: set[str] = field(default_factory=set)
    """Keys of the rows of every page taken so far (a row of a later page with one is left out)."""
    late_warned: bool = False


async def harvest(page: Page, tracker: RequestTracker, cfg: RenderConfig, frames: FrameLog,
                  notes: list[str], warnings: list[str], config: Config | None = None) -> Harvested:
    """Harvest up to ``cfg.pages`` batches of the main list; the capture and a log of the steps."""
    return await _Harvest(page, tracker, cfg, frames, notes, warnings, config or Config(render=cfg)).run()


class _Harvest:
    def __init__(self, page: Page, tracker: RequestTracker, cfg: RenderConfig, frames: FrameLog,
                 notes: list[str], warnings: list[str], config: Config) -> None:
        self.page = page
        self.frame: Frame = page.main_frame
        """The frame whose document holds the list (the page's own, or an iframe's)."""
        self.tracker = tracker
        self.cfg = cfg
        self.frames = frames
        self.notes = notes
        self.warnings = warnings
        self.config = config
        self.state = _State()
        self.deadline = time.perf_counter() + cfg.timeout_s * cfg.pages

    async def run(self) -> Harvested:
        base = await self._capture()
        found = self._main_list(base)
        log: dict[str, Any] = {"steps": self.state.steps, "stitched": False}
        if found is None:
            self.notes.append("harvest: no list on the first view to take further; captured it as it is")
            return Harvested(base, log)
        anchor, xpath = found
        self.state.anchor_xpath = xpath
        if not await self._install(xpath):
            self.notes.append("harvest: the list could not be found again in the page; captured the first view")
            return Harvested(base, log)
        self.state.visited.add(address(self.frame.url))
        layout = await self._eval("layout")
        first = await self._take(0)
        clip = self._clip(base, anchor, layout, first[1])
        self.state.batches.append(Batch(first[0], 0, 1, first[1]))
        self.state.pages_seen.append(frozenset(first[2]))
        self.state.page_keys.update(first[2])
        self.state.rows = _roots(first[0])
        await self._loop(layout)
        log.update(self._summary())
        # Stitched when rows went (recycled, pages replaced), when the list scrolls in a box of
        # its own (unrolled, the page below it moved down) or lives in a frame.
        boxed = bool(layout and layout.get("box"))
        if self.state.flipped or self.state.recycled or boxed or self.frame != self.page.main_frame:
            log["stitched"] = True
            out = stitch(base, anchor, self.state.batches, clip)
            out["page"]["url"] = base["page"]["url"]
            return Harvested(out, log)
        await self._eval("top")
        final = await self._capture()
        _mark_steps(final, await self._eval("steps"))
        return Harvested(final, log)

    # -- the loop ---------------------------------------------------------------------

    async def _loop(self, layout: dict[str, Any] | None) -> None:
        st = self.state
        batches = 1
        virtual_steps = 0
        # Without JavaScript nothing on the page answers a scroll or a click: only links lead on.
        order = ["scroll", "more", "next"] if self.cfg.javascript else ["next"]
        while time.perf_counter() < self.deadline and st.rows < MAX_ROWS:
            virtual = self._virtual(layout)
            if not virtual and batches >= self.cfg.pages:
                break
            if virtual and virtual_steps >= VIRTUAL_MAX_STEPS:
                self.notes.append(f"harvest: stopped scrolling the list after {VIRTUAL_MAX_STEPS} steps")
                break
            took = ""
            for mode in order:
                if mode == "next" and (virtual and not layout_at_end(layout)):
                    continue
                if mode != "scroll" and batches >= self.cfg.pages:
                    continue
                got = await self._try(mode, virtual)
                if got:
                    took = mode
                    break
            if not took:
                break
            order = [took] + [m for m in order if m != took]
            if took == "scroll" and virtual:
                virtual_steps += 1
            else:
                batches += 1
            layout = await self._eval("layout")
        if st.rows >= MAX_ROWS:
            self.notes.append(f"harvest: stopped at {MAX_ROWS} rows (the most one harvest keeps)")
        if time.perf_counter() >= self.deadline:
            self.warnings.append(
                f"harvest stopped at its time limit ({self.cfg.timeout_s * self.cfg.pages:g} s = "
                "--timeout x --pages) with more possibly left; raise --timeout for more")

    async def _try(self, mode: str, virtual: bool) -> bool:
        """One action of ``mode``; True when it brought new rows (taken into a batch)."""
        st = self.state
        t0 = time.perf_counter()
        if mode == "scroll":
            moved = await self._eval("scroll", {"stepwise": virtual, "share": VIRTUAL_STEP_SHARE, "nudge": False})
            if not moved["moved"] and moved["atEnd"]:
                # At the end already: a nudge up and back re-triggers an observer at the bottom.
                await self._eval("scroll", {"stepwise": False, "share": 1, "nudge": True})
                await asyncio.sleep(SCROLL_REACT_S)
                await self._eval("scroll", {"stepwise": False, "share": 1, "nudge": False})
            action = "scroll-box" if (await self._eval("layout") or {}).get("box") else "scroll-page"
            prog = await self._wait(virtual)
        elif mode == "more":
            found = await self._eval("findMore")
            if not found:
                return False
            action = f"load-more {found['text']!r}"
            try:
                await self._eval("clickMore")
                prog = await self._wait(False)
            except _Navigated:  # the control was a link to another page
                prog = _Progress(navigated=True)
        else:
            return await self._next(t0)
        if prog.navigated:
            return await self._arrived(t0, action)
        if prog.removed:
            st.recycled = True
        if prog.fresh <= 0:
            return False
        await self._batch(action, t0)
        return True

    async def _wait(self, virtual: bool) -> _Progress:
        """Until new rows show and the page is done with them, or nothing came in time."""
        start = time.perf_counter()
        step_deadline = min(self.deadline, start + self.cfg.timeout_s)
        if virtual:
            least = VIRTUAL_MIN_WAIT_S
        else:
            least = max(GROWTH_MIN_WAIT_S, self.state.slowest * GROWTH_WAIT_FACTOR)
        quiet = VIRTUAL_SETTLE_MS if virtual else STEP_QUIET_MS
        await asyncio.sleep(SCROLL_REACT_S if not virtual else 0.03)
        while True:
            try:
                s = await self._eval("status")
            except _Navigated:
                return _Progress(navigated=True)
            now = time.perf_counter()
            busy = bool(self.tracker.inflight) or s["timers"] > 0 or s["quiet"] < quiet
            if s["fresh"] > 0 and not busy:
                if not virtual:
                    self.state.slowest = max(self.state.slowest, now - start)
                return _Progress(s["fresh"], s["removed"], s["lost"])
            if s["lost"] and not busy and now - start >= least:
                return _Progress(0, s["removed"], True)
            if s["fresh"] == 0 and not busy and now - start >= least:
                return _Progress(0, s["removed"])
            if now >= step_deadline:
                if busy and s["fresh"] == 0 and not self.state.late_warned:
                    self.state.late_warned = True
                    self.warnings.append(
                        f"harvest: the page was still loading when a step ran out of time "
                        f"({self.cfg.timeout_s:g} s); more of the list may be left: raise --timeout")
                return _Progress(s["fresh"], s["removed"], s["lost"])
            await asyncio.sleep(VIRTUAL_POLL_S if virtual else GROWTH_POLL_S)

    async def _next(self, t0: float) -> bool:
        found = await self._eval("findNext")
        if not found:
            return False
        href = address(str(found.get("href") or ""))
        if href and href in self.state.visited and not href.startswith("javascript:"):
            self.notes.append(f"harvest: the next link leads to a page already taken ({href[:120]}); stopped")
            return False
        before = address(self.frame.url)
        leaves = bool(href) and not href.startswith("javascript:") and href != before
        with contextlib.suppress(_Navigated):
            await self._eval("clickNext")
        if leaves and not await self._left(before):
            self.notes.append(f"harvest: the next link to {href[:120]} led nowhere in {self.cfg.timeout_s:g} s; "
                              "stopped")
            return False
        await asyncio.sleep(SCROLL_REACT_S)
        return await self._arrived(t0, f"next {found['how']} {found['text']!r}")

    async def _left(self, before: str) -> bool:
        """Wait until the page is at another address (a new document, or a route of the same one)."""
        deadline = min(self.deadline, time.perf_counter() + self.cfg.timeout_s)
        while time.perf_counter() < deadline:
            if address(self.frame.url) != before:
                return True
            await asyncio.sleep(GROWTH_POLL_S)
        return False

    async def _arrived(self, t0: float, action: str) -> bool:
        """After a next link or a navigating click: settle, find the list again, take its rows."""
        from playwright.async_api import Error as PlaywrightError

        step_deadline = min(self.deadline, time.perf_counter() + self.cfg.timeout_s)
        with contextlib.suppress(PlaywrightError):
            await self.frame.wait_for_load_state("load", timeout=max(1.0, (step_deadline - time.perf_counter()) * 1000))
        if self.cfg.javascript:
            await settle(self.frame, self.tracker, self.cfg, step_deadline)
        url = address(self.frame.url)
        dom = await self._capture()
        found = self._main_list(dom, prefer=self.state.anchor_xpath)
        if found is None:
            self.notes.append(f"harvest: no list after '{action}' on {url[:120]}; stopped")
            return False
        if not await self._install(found[1]):
            return False
        self.state.page += 1
        taken = await self._take(self.state.step + 1)
        if not _roots(taken[0]):
            return False
        signature = frozenset(taken[2])
        fresh = [k for k, key in enumerate(taken[2]) if key not in self.state.page_keys]
        if signature in self.state.pages_seen or not fresh:
            self.notes.append(f"harvest: '{action}' showed a page already taken ({url[:120]}); stopped")
            self.state.page -= 1
            return False
        self.state.pages_seen.append(signature)
        if len(fresh) < len(taken[2]):
            # Rows already taken from an earlier page (a pager or a header row inside the
            # list, a pinned item) count once.
            trees = split_roots(taken[0])
            taken = (concat([(trees[k], 0.0, 0.0) for k in fresh], taken[0]), taken[1],
                     [taken[2][k] for k in fresh], taken[3])
        self.state.page_keys.update(taken[2])
        self.state.visited.add(url)
        self.state.flipped = True
        self.state.step += 1
        self._keep(taken, action, t0)
        return True

    # -- rows -------------------------------------------------------------------------

    async def _batch(self, action: str, t0: float) -> None:
        self.state.step += 1
        taken = await self._take(self.state.step)
        self._keep(taken, action, t0)

    def _keep(self, taken: tuple[Columns, tuple[float, float, float, float], list[str], int],
              action: str, t0: float) -> None:
        st = self.state
        forest, anchor_box, _keys, removed = taken
        n = _roots(forest)
        if removed:
            st.recycled = True
        st.batches.append(Batch(forest, st.step, st.page, anchor_box))
        st.rows += n
        kind = action.split(" ")[0]
        st.counts[kind] = st.counts.get(kind, 0) + 1
        st.steps.append({"step": st.step, "action": action, "page": st.page, "rows": n,
                         "seconds": round(time.perf_counter() - t0, 3)})

    async def _take(self, step: int) -> tuple[Columns, tuple[float, float, float, float], list[str], int]:
        """The rows not handed over before, captured now: (forest, anchor box, keys, rows removed)."""
        handle = await self.frame.evaluate_handle(f"(s) => {_H}.take(s)", step)
        try:
            rows = await handle.get_property("rows")
            meta = await (await handle.get_property("meta")).json_value()
            text = await self.frame.evaluate(script("collect.js"), collect_args(rows))
        finally:
            await handle.dispose()
        forest: Columns = json.loads(text)
        box = tuple(float(v) for v in (meta["anchor"] or (0, 0, 0, 0)))
        return forest, (box[0], box[1], box[2], box[3]), list(meta["keys"]), int(meta["removed"])

    # -- page helpers -----------------------------------------------------------------

    async def _capture(self) -> Columns:
        got = await capture(self.page, self.frames, self.notes, javascript=self.cfg.javascript)
        return json.loads(got) if isinstance(got, str) else got

    def _main_list(self, dom: Columns, prefer: str = "") -> tuple[int, str] | None:
        """(index, xpath) of the main region's parent in ``dom``, or None."""
        from visx.clean import clean
        from visx.mine import mine

        snap: PageSnapshot = snapshot_from_dom(dict(dom), source="harvest", status=0, javascript=True)
        cleaned = clean(snap, self.config.clean) if self.config.clean.enabled else None
        regions = mine(snap, cleaned, self.config.mine)
        nodes = snap.nodes
        ok = regions
        if not ok:
            return None
        pick = next((r for r in ok if nodes[r.parent].xpath == prefer), ok[0]) if prefer else ok[0]
        return pick.parent, nodes[pick.parent].xpath

    async def _install(self, xpath: str) -> bool:
        """Point the in-page half at the list, found again by its XPath (through shadow roots
        and frames: the frame that holds it becomes the one the harvest works in)."""
        from playwright.async_api import Error as PlaywrightError

        try:
            handle = await locate(self.page, xpath)
            if handle is None:
                return False
            self.frame = await handle.owner_frame() or self.page.main_frame
            await self.frame.evaluate(_harvest_js(), {"more": _words(MORE_WORDS), "next": _words(NEXT_WORDS),
                                                      "nextWords": _words(NEXT_TERMS),
                                                      "pageWords": _words(PAGE_TERMS)})
            return bool(await self.frame.evaluate(f"(a) => {_H}.install(a)", {"el": handle, "page": self.state.page}))
        except PlaywrightError:  # the frame went away meanwhile
            return False

    async def _eval(self, fn: str, arg: Any = None) -> Any:
        from playwright.async_api import Error as PlaywrightError

        try:
            if arg is None:
                return await self.frame.evaluate(f"() => {_H} ? {_H}.{fn}() : null")
            return await self.frame.evaluate(f"(a) => {_H} ? {_H}.{fn}(a) : null", arg)
        except PlaywrightError as e:
            if "context was destroyed" in str(e) or "navigat" in str(e).lower():
                raise _Navigated from e
            raise

    def _virtual(self, layout: dict[str, Any] | None) -> bool:
        if not layout or not layout.get("rows"):
            return False
        return float(layout["content"]) > VIRTUAL_CONTENT_RATIO * max(1.0, float(layout["span"])) \
            and float(layout["content"]) > float(layout["viewH"])

    def _clip(self, base: Columns, anchor: int, layout: dict[str, Any] | None,
              seen_at: tuple[float, float, float, float]) -> float:
        """Where the list's visible part ends on the first view (page coordinates): its scroll
        box's bottom, or its own. ``seen_at`` is the anchor's box as its own frame saw it."""
        b = base["box"]
        if layout and layout.get("boxRect"):
            r = layout["boxRect"]
            # A frame's coordinates start at its iframe: the anchor's two boxes give the shift.
            shift = float(b[4 * anchor + 1]) - seen_at[1]
            return float(r[1]) + float(r[3]) + shift
        return float(b[4 * anchor + 1]) + float(b[4 * anchor + 3])

    def _summary(self) -> dict[str, Any]:
        st = self.state
        parts = []
        c = st.counts
        if c.get("scroll-box"):
            parts.append(f"scrolled the list box {c['scroll-box']} time(s)")
        if c.get("scroll-page"):
            parts.append(f"scrolled the page {c['scroll-page']} time(s)")
        if c.get("load-more"):
            parts.append(f"clicked 'Load more' {c['load-more']} time(s)")
        if c.get("next"):
            parts.append(f"followed {c['next']} next link(s)")
        rows = f"{st.rows:,} row(s) over {st.page} page(s)" if st.page > 1 else f"{st.rows:,} row(s)"
        self.notes.append("harvest: " + (", ".join(parts) if parts else "nothing more to show") + f"; {rows}")
        return {"rows": st.rows, "pages": st.page, "actions": dict(c)}


class _Navigated(Exception):
    """The page left for another document during a step."""


def address(url: str) -> str:
    """A page's address for telling pages apart: without an in-page fragment (#reviews), with a
    hash route (#/page/2, #!/p2), which is a page of its own in a client-side router."""
    base, sep, frag = url.partition("#")
    return url if sep and frag.startswith(("/", "!")) else base


def layout_at_end(layout: dict[str, Any] | None) -> bool:
    return bool(layout and layout.get("atEnd"))


def _roots(forest: Columns) -> int:
    return sum(1 for p in forest.get("parent", []) if p < 0)


def _mark_steps(dom: Columns, pairs: list[int] | None) -> None:
    """Set the harvest step of the rows named by main-document index in ``pairs``."""
    if not pairs:
        return
    framed = {int(k) for k, f in zip(dom.get("scope", [])[0::2], dom.get("scope", [])[1::2], strict=True)
              if int(f) & SCOPE_FRAME}
    own = [i for i in range(dom["n"]) if i not in framed] if framed else None
    out: list[int] = []
    for k, st in zip(pairs[0::2], pairs[1::2], strict=True):
        i = own[k] if own is not None and k < len(own) else k
        if 0 <= i < dom["n"]:
            out.extend((i, st))
    dom["step"] = out
