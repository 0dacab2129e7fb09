"""Every tuned value of the mining stage, with the reason for it.

User-facing knobs (K, T, the miner) are in ``visx.config.MineConfig``.
"""

from __future__ import annotations

# Tag strings longer than this are cut: records rarely hold more elements,
# and edit distance cost grows with the product of the lengths.
TAG_STRING_CAP = 400

# MDR's length cut-off: strings whose lengths differ by more than this factor
# cannot be within T=0.3 of each other, so they are not compared.
LENGTH_RATIO_CUTOFF = 2.0

# When the generalized nodes line up on screen (same width or left edge,
# regular gaps) the tag-string threshold may be relaxed by this much: the
# rendering is evidence that the structure repeats even when optional parts
# make the tag strings drift.
VISUAL_RELAX = 0.15

# In IdentDRs a run whose mean tag distance is above T (alike only with the
# visual relaxation) counts this share of its coverage against strict runs.
RELAXED_COVERAGE = 0.5

# Geometry counts as "regular" at this score (0..1, see geometry.regularity).
REGULAR_GEOMETRY = 0.75

# A single dissimilar node (an ad, a separator) between two similar runs of
# the same combination length is skipped when it is at most this many
# children long, so the runs join into one region.
MAX_SKIPPED_GAP = 1

# A generalized node whose children are mutually similar is a row of several
# records (a grid row) only when each child looks like a record, not a
# table cell: at least this many elements in its subtree and text or image.
MIN_RECORD_ELEMENTS = 3

# A generalized node that holds two or more members of the template most
# children carry (in no period) folds several records; this share of the
# content children must carry it, so the odd ends (a heading, a box) stay few.
FOLD_TEMPLATE_SHARE = 0.5

# Generalized nodes of several children are split into single records when
# this share of the children share one template (same tag and classes, or
# similar tag strings): the long combination only won because odd items
# broke the runs of single ones.
HOMOGENEOUS_SHARE = 0.6
# When this share carries one class, they are like items whatever their order.
SAME_TEMPLATE_SHARE = 0.9

# Alike regions inside several records of an outer region replace it when
# they hold at least this share of those records' text: the outer records
# were containers (a grid cut into blocks), not records with a nested list.
CONTAINER_TEXT_SHARE = 0.6
# ... and when each container holds at least this many records on average:
# two or three alike items per record are that record's fields.
MIN_BLOCK_RECORDS = 3
# ... and only when the outer records are few: a page is cut into a handful of
# blocks, while this many alike outer records are a list of their own whose
# inner lists are fields (a profile's "Current / Past / Education" rows).
MAX_CONTAINERS = 8
# ... beyond which the outer records are only blocks when the inner lists are nearly all
# their text and sit in nearly every one of them (blocks of four headlines: every headline
# is a record), not fields beside each record's own text.
BLOCK_ONLY_TEXT_SHARE = 0.9
BLOCK_ONLY_HOLDERS = 0.8

# Generalized nodes stay whole when their members at the same place are
# closer (by this margin of mean tag distance) than neighbours inside one.
PERIOD_MARGIN = 0.05

# Grid rows must hold this share of a region's text for their cells to be
# the records; the rest are spacer or control rows between them.
GRID_TEXT_SHARE = 0.7

# Cells of one row belong to one column across rows when their horizontal
# extents overlap by at least this share of the narrower one.
COLUMN_OVERLAP = 0.8

# Sections of one list (sponsored results above and below organic ones) share
# the column: their horizontal overlap is at least this share of the wider one.
SECTION_OVERLAP = 0.9

# A pagination row at the edge of a list is dropped from its records only when
# the list keeps at least this many others (two records are too few to tell).
PAGER_MIN_RECORDS = 4

# Ranking ------------------------------------------------------------------
# Records whose text is on average shorter than this (characters) and made
# of one link look like menu entries, pagination or breadcrumbs.
MENU_TEXT_CHARS = 25
# Records made of many links and nothing else (a column of a footer's site map,
# a category directory) are navigation however long their text: at least this
# many links a record, at most this many text leaves per link (nearly every
# piece of text is a link), and no picture. Product and app cards can be all
# links too (title, brand, rating, price), but they carry an image: on the dev
# pages every main list that passes the first two tests has one per record.
LINK_LIST_MIN_LINKS = 5
LINK_LIST_LEAVES_PER_LINK = 1.25
LINK_LIST_MAX_MEDIA = 0.5
LINK_LIST_PENALTY = 0.35
# Weight of a region inside <nav>, <header>, <footer>, <aside>, role=navigation.
NAV_CONTAINER_PENALTY = 0.3
# Weight of a region of menu-like records (short single links).
MENU_PENALTY = 0.35
# Weight of a region entirely in the lowest share of the page (footer lists).
BOTTOM_SHARE = 0.12
BOTTOM_PENALTY = 0.5
# Weight of a region of only two records: two alike blocks are often layout
# (two page columns, two promo boxes) rather than a list.
TWO_RECORD_WEIGHT = 0.5
# ... weighed again when the two are alike only with the visual relaxation
# (tag distance above MDR's default T).
STRICT_DISTANCE = 0.3

# Roles (visx.mine.roles) ------------------------------------------------------
# Share of a region's records that must read as a role (pager entries, facets,
# toggles) for the region to take it: a list of results may hold a stray one.
ROLE_SHARE = 0.6
# Breadcrumbs are short trails; a longer list under a "breadcrumb" class is something else.
BREADCRUMB_MAX = 8
# Short single links laid out in wrapping rows are a tag cloud from this many on.
TAG_CLOUD_MIN = 5
# Records with fewer characters on average, and no picture, are scraps (a count
# split into pieces, single letters of an index), not records.
FRAGMENT_CHARS = 8
# Two or three blocks are layout (promo boxes, page columns) unless each holds
# this many text leaves, a picture, or this much text.
LAYOUT_MIN_LEAVES = 2
LAYOUT_MAX_CHARS = 60
# A filter entry is a toggle with a short label; records with a checkbox and more text
# than this are cards with a "Compare" or "Select" box.
FILTER_MAX_CHARS = 40
# A region of more records than this is a list, whatever lies inside its records.
LAYOUT_MAX_BLOCKS = 3
# Records of fewer words than this on average, without a picture, are controls (tabs,
# sort options, "All", "Recommended") or one-word links; records name several things.
CONTROL_MAX_WORDS = 3.5
# Two records of fewer words than this are two boxes of a layout ("Help / Contact",
# two promo lines), not a list.
PAIR_MIN_WORDS = 12
# Short link lists in the page's lowest band of this share are the footer's.
FOOTER_BAND = 0.1
# A list of at least this many records inside a single one of a region's few records
# makes that region a layout of boxes, the list its content.
LAYOUT_INNER_MIN = 5
# Sections of one list written two ways (sponsored above organic results) join when
# they follow each other within this many record heights ...
SECTION_GAP_RECORDS = 1.5
# ... and their records' shapes (text, link and picture leaves in order) are this close
# (normalised edit distance): the markup differs, what a reader sees does not.
SHAPE_DISTANCE = 0.25
# Shapes are read from this many records.
SHAPE_SAMPLE = 8
# Class words that set a section of one list apart (its records are otherwise the list's):
# paid placements and highlighted items. Other class differences between two adjacent
# lists (video / text, news / opinion) are two kinds of content, kept apart.
SECTION_MARKERS = frozenset({
    "ad", "ads", "adv", "advert", "advertisement", "sponsored", "sponsor", "promoted", "promo", "paid",
    "featured", "feature", "highlight", "highlighted", "premium", "spotlight", "pinned", "top", "sticky",
})
# Two-row records: the same rows of consecutive pairs are within this tag distance (the
# same template, rendered again) ...
TWO_ROW_ALIKE = 0.05
# ... and the two rows of a pair are further apart than that by at least this much.
TWO_ROW_UNLIKE = 0.15
# Cards of one template (same tag and classes) whose boxes agree within this share in
# width and height are alike however their tag strings differ: a grid renders every card
# the same size while the lists inside them (swatches, badges, slides) vary.
TWIN_BOX_SLACK = 0.02
