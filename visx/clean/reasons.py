"""The vocabulary of removal reasons: ``family:detail``.

A report groups removals by family (the part before the colon); tests pin
that every removal the cleaner makes uses one of these names.
"""

from __future__ import annotations

from typing import Final

from visx.model import VIS_DISPLAY_NONE, VIS_HIDDEN, VIS_OFFPAGE, VIS_TRANSPARENT, VIS_ZERO_SIZE

INVISIBLE_NON_CONTENT: Final = "invisible:non-content"
INVISIBLE_DISPLAY_NONE: Final = "invisible:display-none"
INVISIBLE_VISIBILITY_HIDDEN: Final = "invisible:visibility-hidden"
INVISIBLE_OPACITY_0: Final = "invisible:opacity-0"
INVISIBLE_ZERO_SIZE: Final = "invisible:zero-size"
INVISIBLE_OFF_PAGE: Final = "invisible:off-page"

OVERLAY_FIXED: Final = "overlay:fixed"
OVERLAY_STICKY: Final = "overlay:sticky"
OVERLAY_CONSENT: Final = "overlay:consent"
OVERLAY_MODAL_BACKDROP: Final = "overlay:modal-backdrop"

BAND_HEADER: Final = "band:header"
BAND_FOOTER: Final = "band:footer"
COLUMN_LEFT: Final = "column:left"
COLUMN_RIGHT: Final = "column:right"

AD_IFRAME: Final = "ad:iframe"
AD_STANDARD_SIZE: Final = "ad:standard-size"
AD_CLASS_HINT: Final = "ad:class-hint"
AD_FRAME_HINT: Final = "ad:frame-hint"

REASONS: Final = frozenset(
    {
        INVISIBLE_NON_CONTENT,
        INVISIBLE_DISPLAY_NONE,
        INVISIBLE_VISIBILITY_HIDDEN,
        INVISIBLE_OPACITY_0,
        INVISIBLE_ZERO_SIZE,
        INVISIBLE_OFF_PAGE,
        OVERLAY_FIXED,
        OVERLAY_STICKY,
        OVERLAY_CONSENT,
        OVERLAY_MODAL_BACKDROP,
        BAND_HEADER,
        BAND_FOOTER,
        COLUMN_LEFT,
        COLUMN_RIGHT,
        AD_IFRAME,
        AD_STANDARD_SIZE,
        AD_CLASS_HINT,
        AD_FRAME_HINT,
    }
)

# The snapshot's visibility flags, most telling first: display:none hides the
# whole subtree for sure, off-page is the weakest claim.
VIS_FLAG_REASONS: Final = (
    (VIS_DISPLAY_NONE, INVISIBLE_DISPLAY_NONE),
    (VIS_TRANSPARENT, INVISIBLE_OPACITY_0),
    (VIS_HIDDEN, INVISIBLE_VISIBILITY_HIDDEN),
    (VIS_ZERO_SIZE, INVISIBLE_ZERO_SIZE),
    (VIS_OFFPAGE, INVISIBLE_OFF_PAGE),
)

# Removals by invisibility are always allowed; the others judge position or
# looks and are subject to the over-cleaning guard.
INVISIBLE_FAMILY: Final = "invisible"


def family(reason: str) -> str:
    return reason.partition(":")[0]
