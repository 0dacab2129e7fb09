"""Limits and looks of the debug outputs, each with its reason."""

from __future__ import annotations

from typing import Final

MAX_WIDTH: Final = 4096
"""Wider pages are cropped at the right: layout bugs (a 20 000 px carousel) must not
blow up the image; content that matters sits in the first viewport widths."""

MAX_DECODE_PIXELS: Final = 64_000_000
"""Screenshots larger than this (width x height) are not decoded: 256 MB as RGBA, under
Pillow's "decompression bomb" limit (179 M pixels, an error), which a 16384x16384 capture
passed. visx's own captures stay under 40 M (``visx.render.thresholds``); a larger one comes
from another tool or an old snapshot, and is drawn as a wireframe with a note."""

PNG_COMPRESS_LEVEL: Final = 1
"""zlib level for the written PNGs: on annotated 1280x4160 and 1280x7171 screenshots level 1
was never slower than the default 6 and up to 1.8x faster (0.15 s vs 0.27 s), for files
5-9% larger; encoding is a third of a report's time."""

LEGEND_FONT_PX: Final = 14
LABEL_FONT_PX: Final = 13
"""Readable at 100% and still legible when the README scales the image down by half."""

REGION_OUTLINE_PX: Final = 4
RECORD_OUTLINE_PX: Final = 2
"""Regions are drawn thicker than their records so both read where they coincide."""

REMOVED_ALPHA: Final = 70
CELL_ALPHA: Final = 80
"""Out of 255: tints light enough that the page's own text stays readable underneath."""

MIN_LABEL_W: Final = 160
MIN_LABEL_H: Final = 40
"""Removed areas smaller than this get no reason text drawn on the PNG (the report
lists them all): on a small area the label would hide more than it tells."""

TEXT_LIMIT: Final = 400
"""Characters of record text kept in stages.json and the report: enough to recognise a
record, short enough that a 500-record page stays a small file."""

WIREFRAME_MAX_TEXTS: Final = 20_000
"""Text leaves drawn on a blank canvas (no screenshot); beyond this the wireframe
costs more than it helps and the boxes alone are drawn."""

README_IMAGE_WIDTH: Final = 900
"""Width of the README's demo image (scripts/demo_image.py): GitHub's text column, and
with 256 colours the file stays near 70 KB, far under the ~300 KB budget."""
