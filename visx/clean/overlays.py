"""Fixed and sticky elements: bars, consent banners, dialogs and their backdrops.

The computed ``position`` decides; size and z-index tell a dialog from a bar,
and consent words in id/class/text (a tie-breaker) tell a consent banner.
"""

from __future__ import annotations

from visx.clean.guard import Guard
from visx.clean.page import Marks, PageView
from visx.clean.reasons import (
    OVERLAY_CONSENT,
    OVERLAY_FIXED,
    OVERLAY_MODAL_BACKDROP,
    OVERLAY_STICKY,
)
from visx.clean.thresholds import (
    CONSENT_TEXT_SCAN,
    CONSENT_TEXT_WORDS,
    CONSENT_WORDS,
    MODAL_FULL_COVER,
    MODAL_MIN_VIEWPORT_COVER,
    MODAL_MIN_Z_INDEX,
    OVERLAY_POSITIONS,
)
from visx.model import STYLE_INDEX


def remove_overlays(view: PageView, marks: Marks, guard: Guard) -> None:
    table = view.nodes
    nodes = table.nodes
    pos_i = STYLE_INDEX["position"]
    pinned = {k for k, st in enumerate(table.styles) if st[pos_i] in OVERLAY_POSITIONS}
    if not pinned:
        return
    dropped, end = marks.dropped, view.end
    n = len(nodes)
    i = 0
    while i < n:
        if dropped[i]:
            i = end[i]
            continue
        nd = nodes[i]
        if nd.style in pinned and view.has_extent(i) and not guard.vetoes(i):
            marks.drop(i, classify(view, i), table.styles[nd.style][pos_i])
            i = end[i]
            continue
        i += 1


def classify(view: PageView, i: int) -> str:
    table = view.nodes
    nd = table[i]
    names = (nd.id + " " + " ".join(nd.classes)).lower()
    if any(w in names for w in CONSENT_WORDS):
        return OVERLAY_CONSENT
    text = table.text(i)[:CONSENT_TEXT_SCAN].lower()
    if any(w in text for w in CONSENT_TEXT_WORDS):
        return OVERLAY_CONSENT
    vw, vh = view.vw_vh
    e = view.ext[i]
    cover = min(max(nd.w, e[2] - e[0]), vw) * min(max(nd.h, e[3] - e[1]), vh) / (vw * vh)
    z = _z_index(table.style(i, "z-index"))
    if cover >= MODAL_MIN_VIEWPORT_COVER and (z >= MODAL_MIN_Z_INDEX or cover >= MODAL_FULL_COVER):
        return OVERLAY_MODAL_BACKDROP
    return OVERLAY_STICKY if table.style(i, "position") == "sticky" else OVERLAY_FIXED


def _z_index(v: str) -> int:
    try:
        return int(v)
    except ValueError:
        return 0
