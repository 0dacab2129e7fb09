"""Find a node of a snapshot again in a live page, by its visx XPath.

A visx XPath (see :mod:`visx.model`) is a chain of steps ``tag`` or ``tag[k]``
(the k-th element child of that tag; no index when it is the only one),
with ``#shadow-root`` stepping into the shadow root of the element reached
so far and ``#document`` into the document of the frame reached so far.
Standard XPath cannot enter a shadow root (a shadow root is no valid
context node), so the steps are walked here one by one; a frame boundary
moves to Playwright's frame of that ``<iframe>``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from visx.model import FRAME_STEP, split_xpath

if TYPE_CHECKING:
    from playwright.async_api import ElementHandle, Frame, Page

_STEP = re.compile(r"^([^\[\]/]+)(?:\[(\d+)\])?$")

_WALK_JS = """([ctx, steps]) => {
  let node = ctx;
  for (const [name, k, intoShadow] of steps) {
    if (intoShadow) {
      const closed = window[Symbol.for('visx.closedRoots')];
      node = node.shadowRoot || (closed && closed.get(node)) || null;
      if (!node) return null;
    }
    let n = 0, found = null;
    for (const c of node.children) {
      if (c.localName === name && ++n === k) { found = c; break; }
    }
    if (!found) return null;
    node = found;
  }
  return node;
}"""


def parse_steps(path: str) -> list[tuple[str, int, bool]]:
    """``/a/b[2]/#shadow-root/c`` as ``(tag, k, enters a shadow root first)`` steps (one tree's
    worth: frame boundaries are handled by the caller)."""
    out: list[tuple[str, int, bool]] = []
    shadow = False
    for step in path.strip("/").split("/"):
        if not step:
            continue
        if step == "#shadow-root":
            shadow = True
            continue
        m = _STEP.match(step)
        if not m:
            raise ValueError(f"{path!r}: step {step!r} is not tag or tag[k]")
        out.append((m.group(1), int(m.group(2) or 1), shadow))
        shadow = False
    return out


async def locate(page: Page, xpath: str) -> ElementHandle | None:
    """The live element ``xpath`` names in ``page`` (through shadow roots and frames), or None."""
    frame: Frame | None = page.main_frame
    handle: ElementHandle | None = None
    for boundary, part in _frame_parts(xpath):
        if boundary == FRAME_STEP:
            if handle is None:
                return None
            frame = await handle.content_frame()
            handle = None
        if frame is None:
            return None
        start = handle if handle is not None else await frame.evaluate_handle("() => document")
        found = await frame.evaluate_handle(_WALK_JS, [start, parse_steps(part)])
        element = found.as_element()
        if element is None:
            return None
        handle = element
    return handle


def _frame_parts(xpath: str) -> list[tuple[str, str]]:
    """``split_xpath`` parts regrouped by document: shadow parts stay with their document's
    path (the walk enters shadow roots itself), frame boundaries start a new part."""
    out: list[tuple[str, str]] = []
    for boundary, part in split_xpath(xpath):
        if boundary == FRAME_STEP or not out:
            out.append((boundary, part))
        else:
            prev_boundary, prev = out[-1]
            out[-1] = (prev_boundary, f"{prev}/{boundary}{part}")
    return out
