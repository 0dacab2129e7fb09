"""Capture a page: ``collect.js`` in the main frame and in every frame below it.

Each frame's document is collected on its own (same-origin and cross-origin
alike, through Playwright's frame tree) and spliced under its ``<iframe>``
node, its boxes moved to page coordinates. Frames that failed to load, did
not answer, or lie past the limits are left out with a note.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

from visx.errors import RenderTimeoutError
from visx.model import (
    ATTR_NAMES,
    SCOPE_FRAME,
    STYLE_PROPS,
    VIS_DISPLAY_NONE,
    VIS_HIDDEN,
    VIS_TRANSPARENT,
    VIS_ZERO_SIZE,
)
from visx.render.columns import Columns, insert_forest
from visx.render.guard import CallTimeout, bounded, responsive, stop_scripts, unstick
from visx.render.thresholds import (
    CALL_S,
    CAPTURE_ANSWER_S,
    CAPTURE_BUDGET_S,
    CAPTURE_MAX_ELEMENTS,
    FRAME_ANSWER_S,
    FRAMES_BUDGET_S,
    MAX_FRAME_DEPTH,
    MAX_FRAMES,
    MIN_FRAME_AREA,
    RETRY_BUDGET_MS,
)

if TYPE_CHECKING:
    from playwright.async_api import Frame, Page

_JS: dict[str, str] = {}
_CLOSED = re.compile(r'"closed":(\d+),"cut":"[^"]*"\}\}$')

_UNSEEN = VIS_DISPLAY_NONE | VIS_HIDDEN | VIS_TRANSPARENT | VIS_ZERO_SIZE
_OWNER_JS = """(el) => { const s = window[Symbol.for('visx.els')];
  return s && s.index.has(el) ? s.index.get(el) : -1; }"""


def script(name: str) -> str:
    """A page script shipped beside this module (``collect.js``, ``hooks.js``...)."""
    if name not in _JS:
        _JS[name] = resources.files("visx.render").joinpath(name).read_text(encoding="utf-8")
    return _JS[name]


def collect_args(roots: Any = None, *, bounded: bool = False, cut: str = "") -> dict[str, Any]:
    """``collect.js``'s arguments; ``bounded``: with the element and time limits of a whole-page
    capture; ``cut``: a reason the capture is already known to be partial."""
    args: dict[str, Any] = {"props": list(STYLE_PROPS), "attrs": list(ATTR_NAMES)}
    if roots is not None:
        args["roots"] = roots
    if bounded:
        args["maxEls"] = CAPTURE_MAX_ELEMENTS
        args["budgetMs"] = int(CAPTURE_BUDGET_S * 1000)
    if cut:
        args["cut"] = cut
    return args


@dataclass(slots=True)
class FrameLog:
    """What the response listener saw of frame navigations: status codes and failures."""

    status: dict[Any, int] = field(default_factory=dict)
    failed: dict[Any, tuple[str, str]] = field(default_factory=dict)
    """frame -> (the URL it tried, why it failed)."""


async def capture(page: Page, log: FrameLog, notes: list[str], *, javascript: bool = True) -> str | Columns:
    """The page as columns: the JSON text when no frame holds content, else a dict with frames spliced.

    Frames are read at the same time (one that hangs costs its own time limit once,
    not once per frame). Hidden and tiny frames (trackers, sync pixels) are skipped:
    nothing in them is seen; so are blank ones with JavaScript off, which nothing filled."""

    label = page.url[:200]
    stopped = await unstick(page)  # a page still inside an endless script answers nothing (reported as a cut)
    text = await _collect_main(page, label, stopped)
    m = _CLOSED.search(text[-600:])
    if m and int(m.group(1)):
        notes.append(f"walked {m.group(1)} closed shadow root(s), recorded as the page attached them")
    kids = [f for f in page.main_frame.child_frames if not f.is_detached()]
    if not kids:
        return text
    dom: Columns = json.loads(text)
    if not dom.get("n"):
        return text
    budget = [MAX_FRAMES]
    try:
        # All frames together get one budget: thousands of frames must not add up.
        return await asyncio.wait_for(_with_frames(page.main_frame, dom, log, notes, 1, budget, javascript),
                                      FRAMES_BUDGET_S)
    except TimeoutError:
        notes.append(f"frames left out: they did not all answer within {FRAMES_BUDGET_S:g} s")
        return text


async def _collect_main(page: Page, label: str, stopped: str) -> str:
    """``collect.js`` on the main frame, within ``CAPTURE_ANSWER_S``.

    A walk that outlives its deadline (layout of a huge page before it even starts, accessors
    the page made slow) is stopped and run once more with a short budget: the top of the page,
    flagged partial, rather than nothing. A stop still pending in the renderer ends the
    first script after it ("execution context destroyed"): that one is simply run again.
    """
    from playwright.async_api import Error as PlaywrightError

    args = collect_args(bounded=True, cut=stopped)
    end = time.perf_counter() + CAPTURE_ANSWER_S
    retried = False
    while True:
        try:
            text: str = await bounded(page.main_frame.evaluate(script("collect.js"), args), end - time.perf_counter())
            return text
        except PlaywrightError:
            if time.perf_counter() > end - 0.5 or retried:
                raise
            retried = True
        except CallTimeout as e:
            await stop_scripts(page)
            if args.get("budgetMs") == RETRY_BUDGET_MS or not await responsive(page, CALL_S):
                raise RenderTimeoutError(
                    f"{label}: the capture did not finish within {CAPTURE_ANSWER_S:g} s (the page's scripts "
                    "kept it from running); retry, or try --no-js", source=label) from e
            args = {**args, "budgetMs": RETRY_BUDGET_MS,
                    "cut": "; ".join(x for x in (stopped, f"the capture took over {CAPTURE_ANSWER_S:g} s and "
                                                 "was run again with a shorter budget") if x)}
            end = time.perf_counter() + RETRY_BUDGET_MS / 1000 + CALL_S


async def _with_frames(frame: Frame, dom: Columns, log: FrameLog, notes: list[str], depth: int,
                       budget: list[int], javascript: bool) -> Columns:
    offsets = {int(i): (x, y) for i, x, y in zip(dom["frames"][0::3], dom["frames"][1::3], dom["frames"][2::3],
                                                  strict=True)}
    todo = []
    for child in frame.child_frames:
        if child.is_detached() or (not javascript and child.url.startswith(("about:blank", "javascript:"))):
            continue
        label = _frame_label(child)
        if depth > MAX_FRAME_DEPTH:
            notes.append(f"frame {label} left out: frames nest deeper than {MAX_FRAME_DEPTH}")
            continue
        if budget[0] <= 0:
            notes.append(f"frame {label} left out: more than {MAX_FRAMES} frames on the page")
            continue
        budget[0] -= 1
        todo.append((child, label))
    got = await asyncio.gather(*(_frame_columns(frame, child, label, log, notes, dom)
                                 for child, label in todo))
    pieces: list[tuple[int, Columns]] = []
    for (child, _label), sub in zip(todo, got, strict=True):
        if sub is None:
            continue
        at, sub_dom = sub
        if at not in offsets:
            continue
        if child.child_frames:
            sub_dom = await _with_frames(child, sub_dom, log, notes, depth + 1, budget, javascript)
        pieces.append((at, sub_dom))
    # From the last <iframe> to the first, so the indices of earlier ones stay right.
    for at, sub_dom in sorted(pieces, key=lambda p: -p[0]):
        x, y = offsets[at]
        page = sub_dom.get("page", {})
        inherited = dom["vis"][at] & (VIS_DISPLAY_NONE | VIS_HIDDEN | VIS_TRANSPARENT)
        dom = insert_forest(dom, at, sub_dom, dx=x - float(page.get("sx", 0)), dy=y - float(page.get("sy", 0)),
                            scope=SCOPE_FRAME, vis=inherited, root_step="#document/html")
    return dom


async def _frame_columns(parent: Frame, child: Frame, label: str, log: FrameLog, notes: list[str],
                         dom: Columns) -> tuple[int, Columns] | None:
    """(index of the child's <iframe> in the parent's capture ``dom``, the child's columns), or None
    (with a note when something went wrong, silently for a frame nobody can see)."""
    from playwright.async_api import Error as PlaywrightError

    try:
        owner = await asyncio.wait_for(child.frame_element(), FRAME_ANSWER_S)
        at = int(await asyncio.wait_for(parent.evaluate(_OWNER_JS, owner), FRAME_ANSWER_S))
        if at < 0 or not _seen(dom, at):
            return None
        if child in log.failed or child.url.startswith("chrome-error:"):
            url, why = log.failed.get(child, (child.url, "unknown error"))
            notes.append(f"frame {url[:160]!r} left out: it failed to load ({why})")
            return None
        status = log.status.get(child, 0)
        if status >= 400:
            notes.append(f"frame {label} left out: it answered HTTP {status}")
            return None
        text = await asyncio.wait_for(child.evaluate(script("collect.js"), collect_args(bounded=True)),
                                      FRAME_ANSWER_S)
    except TimeoutError:
        notes.append(f"frame {label} left out: it did not answer within {FRAME_ANSWER_S:g} s")
        return None
    except PlaywrightError as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        notes.append(f"frame {label} left out: it could not be read ({first[:160]})")
        return None
    if at < 0:
        return None
    sub: Columns = json.loads(text)
    if not sub.get("n"):
        return None
    return at, sub


def _seen(dom: Columns, at: int) -> bool:
    """The <iframe> at ``at`` is shown and larger than a tracking pixel."""
    w, h = dom["box"][4 * at + 2], dom["box"][4 * at + 3]
    return not dom["vis"][at] & _UNSEEN and w * h >= MIN_FRAME_AREA


def _frame_label(frame: Frame) -> str:
    url = frame.url or "about:blank"
    return f"{url[:160]!r}" + (f" (name {frame.name!r})" if frame.name else "")
