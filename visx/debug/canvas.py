"""The picture under the overlays: the screenshot, or a wireframe when there is none.

Both are in page px (1 image px = 1 CSS px) and cropped at the configured
height and :data:`~visx.debug.thresholds.MAX_WIDTH`; :class:`Canvas` says
what was cropped or missing so the outputs can say it too.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from visx.debug.thresholds import MAX_DECODE_PIXELS, MAX_WIDTH, WIREFRAME_MAX_TEXTS
from visx.model import NON_CONTENT_TAGS

if TYPE_CHECKING:
    from PIL import Image, ImageFont

    from visx.model import PageSnapshot

# Glyph coverage beyond Latin for page titles and wireframe text; Pillow's
# bundled font is the fallback when none of these is installed.
_FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
)


if TYPE_CHECKING:
    Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@lru_cache(maxsize=64)
def font(size: int) -> Font:
    from PIL import ImageFont

    for path in _FONT_FILES:
        if Path(path).is_file():
            return ImageFont.truetype(path, size)
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1 has only the fixed bitmap font
        return ImageFont.load_default()


@dataclass(slots=True)
class Canvas:
    image: Image.Image
    """RGB, in page px."""
    screenshot: bool
    """False: a wireframe drawn from the snapshot's boxes and text."""
    notes: list[str] = field(default_factory=list)
    """What a reader must know: a cut, a missing screenshot."""
    untouched: bool = False
    """True when ``image`` is the snapshot's PNG as is (its bytes can be reused)."""


def make_canvas(snap: PageSnapshot, max_height: int) -> Canvas:
    """The screenshot of ``snap`` cropped at ``max_height``, or a wireframe of it."""
    page_w, page_h = _page_size(snap)
    notes: list[str] = []
    if snap.screenshot_png:
        size = png_size(snap.screenshot_png)
        if size is not None and size[0] * size[1] > MAX_DECODE_PIXELS:
            notes.append(f"the screenshot is {size[0]}x{size[1]} px, too large to draw (more than "
                         f"{MAX_DECODE_PIXELS // 1_000_000} M pixels): boxes are drawn on a wireframe of the page's text")
        else:
            shot = _open_png(snap.screenshot_png)
            if shot is not None:
                return _from_screenshot(shot, page_w, page_h, max_height)
    w, h = min(page_w, MAX_WIDTH), min(page_h, max_height)
    if not notes:
        notes.append("no screenshot in this snapshot: boxes are drawn on a wireframe of the page's text; "
                     "run `visx report` on the page itself (or with --rerender) for the real picture")
    if h < page_h or w < page_w:
        notes.append(_cut_note(w, h, page_w, page_h))
    return Canvas(_wireframe(snap, w, h), screenshot=False, notes=notes)


def _page_size(snap: PageSnapshot) -> tuple[int, int]:
    return max(1, math.ceil(snap.width)), max(1, math.ceil(snap.height))


def png_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG's header, without decoding it; None when it is not a PNG."""
    if len(data) < 24 or not data.startswith(b"\x89PNG\r\n\x1a\n") or data[12:16] != b"IHDR":
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def _open_png(data: bytes) -> Image.Image | None:
    """The decoded image, or None when it cannot be (corrupt, or a "decompression bomb" that
    slipped past :func:`png_size`): the report then falls back to a wireframe, never fails."""
    import warnings

    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            img = Image.open(io.BytesIO(data))
            img.load()
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError,
            Image.DecompressionBombWarning):
        return None
    return img


def _from_screenshot(img: Image.Image, page_w: int, page_h: int, max_height: int) -> Canvas:
    notes: list[str] = []
    # A device scale factor above 1 gives more image px than page px: scale back.
    ratio = img.width / page_w if page_w else 1.0
    untouched = True
    if ratio > 1.2:
        img = img.resize((round(img.width / ratio), round(img.height / ratio)))
        untouched = False
    w, h = min(img.width, MAX_WIDTH), min(img.height, max_height)
    if (w, h) != img.size:
        img = img.crop((0, 0, w, h))
        untouched = False
    if img.mode != "RGB":
        img = img.convert("RGB")
        untouched = False
    if h < page_h - 1 or w < page_w - 1:
        notes.append(_cut_note(w, h, page_w, page_h))
    return Canvas(img, screenshot=True, notes=notes, untouched=untouched)


def _cut_note(w: int, h: int, page_w: int, page_h: int) -> str:
    return (f"the page is {page_w}x{page_h} px; the picture stops at {w}x{h} px "
            "(raise debug.max_height / --max-height to see more); boxes beyond it are listed, not drawn")


def _wireframe(snap: PageSnapshot, w: int, h: int) -> Image.Image:
    """Grey text and image placeholders where the snapshot says they are."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    nodes = snap.nodes
    drawn = 0
    for n in nodes.nodes:
        if n.vis or n.w <= 0 or n.h <= 0 or n.y >= h or n.x >= w:
            continue
        if n.tag in ("img", "svg", "video", "canvas", "picture"):
            box = (n.x, n.y, n.x + n.w - 1, n.y + n.h - 1)
            d.rectangle(box, outline=(200, 200, 200), fill=(242, 242, 242))
            d.line(box, fill=(215, 215, 215))
            continue
        if drawn >= WIREFRAME_MAX_TEXTS:
            continue
        text = nodes.own_text(n.index).strip()
        if not text or n.tag in NON_CONTENT_TAGS:
            continue
        size = _font_px(nodes.style(n.index, "font-size"))
        f = font(size)
        # One line clipped to the box width: a wireframe shows where text is, not all of it.
        chars = max(1, int(n.w / _char_width(size)))
        d.text((n.x, n.y), " ".join(text.split())[:chars], fill=(120, 120, 120), font=f)
        drawn += 1
    return img


@lru_cache(maxsize=64)
def _char_width(size: int) -> float:
    """Mean advance of a character of the wireframe font at ``size`` px."""
    sample = "The quick brown fox jumps over the lazy dog 0123456789"
    return max(1.0, float(font(size).getlength(sample)) / len(sample))


def _font_px(value: str) -> int:
    try:
        px = float(value.removesuffix("px"))
    except ValueError:
        return 13
    return max(8, min(40, round(px)))
