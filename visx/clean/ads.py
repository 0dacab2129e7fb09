"""Ad slots: empty iframes and boxes of the standard IAB ad sizes.

Size decides; an ad-like id/class only breaks ties: it lets a slot with
text, or one a little off the unit (a label, padding), count as an ad.
"""

from __future__ import annotations

import math
import re

from visx.clean.guard import Guard
from visx.clean.page import Marks, PageView
from visx.clean.reasons import AD_CLASS_HINT, AD_FRAME_HINT, AD_IFRAME, AD_STANDARD_SIZE
from visx.clean.thresholds import AD_LOOSE_SLACK_PX, AD_MAX_TEXT, AD_SIZE_TOL_PX, AD_SIZES, AD_WORDS
from visx.model import Node

_TOKEN_SPLIT = re.compile(r"[-_\s:.]+|(?<=[a-z])(?=[A-Z])")


def remove_ads(view: PageView, marks: Marks, guard: Guard) -> None:
    nodes = view.nodes.nodes
    dropped, end, tlen = marks.dropped, view.end, view.tlen
    n = len(nodes)
    i = 0
    while i < n:
        nd = nodes[i]
        if dropped[i]:
            i = end[i]
            continue
        i += 1
        if nd.vis or nd.w <= 0 or nd.h <= 0 or (nd.tag != "iframe" and (nd.w < _MIN_W or nd.h < _MIN_H)):
            continue
        reason = _ad_reason(nd, tlen[nd.index])
        if reason == AD_CLASS_HINT and guard.in_slot(nd.index):
            continue
        if reason and (reason == AD_IFRAME or not guard.vetoes(nd.index)):
            marks.drop(nd.index, reason, f"{nd.w:.0f}x{nd.h:.0f}")
            i = end[nd.index]


def _ad_reason(nd: Node, text_len: int) -> str | None:
    if nd.tag == "iframe":
        if not nd.children:
            # A frame whose document was not captured (failed, blocked, empty) holds no record.
            return AD_IFRAME
        # One with content is judged by size like any box, and by its names: an ad
        # network's frame says so in its id, name or address (google_ads_iframe, /ads.htm).
        if has_ad_hint(nd.id, (*nd.classes, nd.attrs.get("name", "")[:200], *_url_tokens(nd.attrs.get("src", "")))):
            return AD_FRAME_HINT
    exact = _fits(_EXACT, nd.w, nd.h)
    if exact and text_len <= AD_MAX_TEXT:
        return AD_STANDARD_SIZE
    if (nd.id or nd.classes) and (exact or _fits(_LOOSE, nd.w, nd.h)) and has_ad_hint(nd.id, nd.classes):
        return AD_CLASS_HINT
    return None


_Unit = tuple[float, float, float, float]
"""An ad unit with its tolerances: width, width tolerance, height, height tolerance."""


def _by_width(tol: float) -> dict[int, list[_Unit]]:
    """Ad units indexed by every whole width within ``tol``, so a box is compared
    with the few units of about its width, not with all of them."""
    out: dict[int, list[_Unit]] = {}
    for aw, ah in AD_SIZES:
        for w in range(math.floor(aw - tol), math.ceil(aw + tol) + 1):
            out.setdefault(w, []).append((aw, tol, ah, tol))
    return out


_EXACT = _by_width(AD_SIZE_TOL_PX)
_LOOSE = _by_width(AD_LOOSE_SLACK_PX)
_MIN_W = min(_LOOSE) - 1
_MIN_H = min(ah - ht for units in _LOOSE.values() for _, _, ah, ht in units) - 1
"""Boxes smaller than every unit (most of a page) are passed over at once."""


def _fits(table: dict[int, list[_Unit]], w: float, h: float) -> bool:
    units = table.get(round(w))
    if units:
        for aw, wt, ah, ht in units:
            if abs(h - ah) <= ht and abs(w - aw) <= wt:
                return True
    return False


def match_size(w: float, h: float, *, loose: bool = False) -> bool:
    """Is ``w`` x ``h`` a standard ad unit (``loose``: give or take a label or padding)?"""
    return _fits(_LOOSE if loose else _EXACT, w, h)


def _url_tokens(url: str) -> tuple[str, ...]:
    """The host labels and path segments of a frame's address (no query: it carries anything)."""
    rest = url.split("?", 1)[0].split("#", 1)[0]
    rest = rest.split("://", 1)[-1]
    return tuple(part for part in re.split(r"[/.]", rest) if part)


def has_ad_hint(ident: str, classes: tuple[str, ...]) -> bool:
    for name in (ident, *classes):
        if not name:
            continue
        for tok in _TOKEN_SPLIT.split(name):
            if tok.lower() in AD_WORDS:
                return True
    return False
