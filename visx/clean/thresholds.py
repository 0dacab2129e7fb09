"""Every tuned number and word list of the cleaner, each with its reason.

Lengths are CSS pixels at the default 1280x900 viewport; fractions are of
the page's content frame (the horizontal extent of visible content) or of
the content height (the bottom of the lowest visible content).
"""

from __future__ import annotations

from typing import Final

# --- Invisibility -----------------------------------------------------------

NON_CONTENT_TAGS: Final = frozenset(
    {"head", "script", "style", "template", "meta", "link", "title", "base"}
)
"""Elements that never show content; dropped up front so no later stage sees them."""

# --- Overlays ---------------------------------------------------------------

OVERLAY_POSITIONS: Final = frozenset({"fixed", "sticky"})
"""Computed ``position`` values that pin an element to the viewport, not the flow."""

MODAL_MIN_VIEWPORT_COVER: Final = 0.5
"""A fixed element covering half the viewport is a dialog or its backdrop, not a bar."""

MODAL_MIN_Z_INDEX: Final = 100
"""Dialogs sit above the page; a z-index this high (or covering the page) says overlay."""

MODAL_FULL_COVER: Final = 0.9
"""Covering (nearly) the whole viewport is a backdrop whatever its z-index."""

CONSENT_WORDS: Final = ("cookie", "consent", "gdpr", "privacy", "onetrust", "cookiebot")
"""Substrings of a pinned element's id/class that mark a consent banner (a tie-breaker:
the element is already fixed or sticky)."""

CONSENT_TEXT_WORDS: Final = ("cookie", "consent")
"""Words of a pinned element's text that mark a consent banner; "privacy" alone is not
one (pinned headers link to the privacy policy)."""

CONSENT_TEXT_SCAN: Final = 400
"""Characters of a candidate's text scanned for consent words (banners say it early)."""

# --- Header and footer bands ------------------------------------------------

BAND_WIDE_FRAC: Final = 0.6
"""A band spans most of the frame; a narrower box at the top is a column or a logo."""

HEADER_ZONE_MAX_PX: Final = 420.0
"""Tallest header seen on real pages (top bar + logo row + nav row) with some slack."""

HEADER_ZONE_MAX_FRAC: Final = 0.3
"""On short pages the header may not take more than this share of the content height,
so that a result list starting high on a small page is not taken for a header."""

BAND_START_MAX_PX: Final = 160.0
"""A header starts this close to the top of the content (a footer ends this close to
its bottom): below a removed bar, an ad slot or an empty banner at most."""

FOOTER_ZONE_MAX_PX: Final = 900.0
"""Tallest footer (sitemap columns, legal lines) seen on real pages, with slack."""

FOOTER_ZONE_MAX_FRAC: Final = 0.35
"""On short pages the footer may not take more than this share of the content height."""

BAND_EDGE_TOL_PX: Final = 4.0
"""Slack for borders and rounding when testing whether a box lies inside a band."""

BAND_CHAIN_GAP_PX: Final = 24.0
"""Blocks of one band follow each other closely; a wider vertical gap ends the band
(headers and footers are dense, the content is set apart by margins)."""

BAND_CUT_MIN_PX: Final = 60.0
"""An element reaching this far past a band's edge is content the edge would cut
through (a column, the main column's first block); less is a logo hanging over it."""

SEMANTIC_BAND_MIN_FRAC: Final = 0.35
"""A ``<header>``/``<footer>`` (or banner/contentinfo role) may be narrower than a
geometric band, but not as narrow as a column: the element is a hint, geometry decides."""

# --- Side columns -----------------------------------------------------------

SIDE_ROW_MIN_FRAC: Final = 0.5
"""Columns live in a layout row that spans at least half the frame."""

SIDE_MAX_FRAC: Final = 0.34
"""A side column takes at most a third of its row; wider is a second main column."""

SIDE_MAIN_RATIO: Final = 1.6
"""The main column beside it is clearly wider, so equal grid cells are never columns."""

SIDE_MIN_HEIGHT_PX: Final = 240.0
"""A column is tall: shorter boxes beside a text block are thumbnails or widgets."""

SIDE_ROW_MIN_HEIGHT_FRAC: Final = 0.25
"""The row holding columns spans a good part of the page; a record rarely does."""

SIDE_MIN_OVERLAP: Final = 0.5
"""The column runs beside the main column for at least half the shorter of the two."""

SIDE_ANCHOR_MIN_FRAC: Final = 0.3
"""Columns are judged beside the page's best list only when that list is wide enough to
be the main column; a narrow best list is itself likely a side panel."""

SIDE_ANCHOR_MIN_OVERLAP_PX: Final = 40.0
"""Beside the best list it is enough to run alongside it for a few lines: the list is
only the lower part of the main column, below its title and search box."""

SIDE_MIN_WIDTH_PX: Final = 40.0
"""Thinner boxes are gutters or borders, not worth a removal."""

# --- Ads --------------------------------------------------------------------

AD_SIZES: Final = (
    (300, 250), (728, 90), (160, 600), (320, 50), (300, 600), (970, 90), (970, 250),
    (336, 280), (468, 60), (120, 600), (250, 250), (180, 150),
    (320, 100), (300, 50), (234, 60), (120, 240), (300, 1050), (970, 66),
)  # fmt: skip
"""IAB standard ad units (and the common legacy ones)."""

AD_SIZE_TOL_PX: Final = 3.0
"""Rendered ad slots match the unit to the pixel, give or take a border."""

AD_LOOSE_SLACK_PX: Final = 40.0
"""With an ad-like id/class, a slot may exceed or trail the unit by a label line and
some padding (absolute: a label is as tall on a 50px unit as on a 600px one)."""

AD_MAX_TEXT: Final = 60
"""A slot of an ad size holding more visible text is a widget or a record, not an ad,
unless its id/class also says ad."""

AD_WORDS: Final = frozenset(
    {
        "ad", "ads", "adv", "advert", "adverts", "advertisement", "advertising", "adslot",
        "adunit", "adsense", "adsbygoogle", "dfp", "gpt", "doubleclick", "sponsor",
        "sponsored", "adbox", "adcontainer", "adwrapper", "leaderboard",
        "skyscraper", "mpu",
    }
)  # fmt: skip
"""Whole id/class tokens (split on - _ space and case changes) that say ad."""

# --- Over-cleaning guard ----------------------------------------------------

GUARD_MIN_MEMBERS: Final = 3
"""Fewer similar siblings are not a list (MDR needs two; we ask one more)."""

GUARD_SIZE_TOL: Final = 0.25
"""Similar box sizes: width (lists) or height (rows) within this share of the median."""

GUARD_OTHER_RATIO: Final = 3.0
"""The other dimension may vary (records have optional parts), but not like a page's
header, content and footer do, which share a width and nothing else."""

GUARD_SUBTREE_RATIO: Final = 3.0
"""Similar tag strings, cheaply: subtree element counts within this factor of the median."""

GUARD_TEXT_FULL: Final = 40
"""Mean visible characters per member at which a list counts fully; link menus carry less."""

GUARD_LINK_FLOOR: Final = 0.25
"""Weight left to a list whose text is all links: menus and footer columns are, but so
are product cards wrapped in one link, so links discount a list without voiding it."""

GUARD_REL_SCORE: Final = 0.2
"""A list scoring this share of the page's best list is protected: the best list is the
likely main content, and a near rival may be it. (On the dev pages the gold list, where
it is a list at all, scores at least 0.46 of the best: a margin of more than 2x.)"""

GUARD_MIN_AREA_FRAC: Final = 0.01
"""Lists smaller than this share of the page area are menus or tag clouds."""
