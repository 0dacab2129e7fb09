"""Paint the layers on the canvas with Pillow: ``page.png``.

Translucent fills (removed areas, column cells) are blended in place;
outlines and labels are drawn opaque on top. A legend band
above the page and a note band below it (when cut or without screenshot)
extend the image rather than hide any of the page.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from visx.clean.reasons import family
from visx.debug import thresholds as th
from visx.debug.canvas import Canvas, font
from visx.debug.layers import Box, Layers
from visx.debug.palette import column_colour, family_colour, region_colour, rgb

if TYPE_CHECKING:
    from PIL import Image, ImageDraw

    from visx.debug.canvas import Font
    from visx.pipeline import Extraction

_PAD = 8
_SWATCH = 14


@dataclass(slots=True)
class _Item:
    """One legend entry: a swatch (outline or fill) and its text."""

    colour: str
    text: str
    style: str  # "outline", "fill" or "none" (a heading)


def annotate(ex: Extraction, canvas: Canvas, layers: Layers) -> Image.Image:
    """The annotated picture: legend band, page with overlays, note band."""
    from PIL import ImageDraw

    page = canvas.image.copy()
    # An RGBA draw on an RGB image blends each fill in place: no full-page alpha layer.
    td = ImageDraw.Draw(page, "RGBA")
    for b in layers.removed:
        if not layers.beyond(b):
            td.rectangle(_xy(b), fill=(*rgb(b.colour), th.REMOVED_ALPHA), outline=(*rgb(b.colour), 200))
    for b in layers.cells:
        if not layers.beyond(b):
            td.rectangle(_xy(b), fill=(*rgb(b.colour), th.CELL_ALPHA))
    d = ImageDraw.Draw(page)
    label_font = font(th.LABEL_FONT_PX)
    for b in layers.removed:
        if not layers.beyond(b) and b.bbox[2] >= th.MIN_LABEL_W and b.bbox[3] >= th.MIN_LABEL_H:
            _tag(d, (b.bbox[0] + 2, b.bbox[1] + 2), b.label, b.colour, label_font)
    for b in layers.records:
        if not layers.beyond(b):
            d.rectangle(_xy(b), outline=rgb(b.colour), width=th.RECORD_OUTLINE_PX)
    for b in layers.regions:
        if not layers.beyond(b):
            d.rectangle(_xy(b, grow=th.REGION_OUTLINE_PX), outline=rgb(b.colour), width=th.REGION_OUTLINE_PX)
    for b in layers.records:  # numbers last, so no outline crosses them
        if not layers.beyond(b):
            _tag(d, (b.bbox[0] + 1, b.bbox[1] + 1), b.label, b.colour, label_font)
    for b, rg in zip(layers.regions, ex.regions, strict=True):
        if not layers.beyond(b):
            text = f"{b.label}  {len(rg.records)} records  score {rg.score:.3g}"
            y = b.bbox[1] - th.REGION_OUTLINE_PX - th.LABEL_FONT_PX - 6
            _tag(d, (b.bbox[0] - th.REGION_OUTLINE_PX, max(0.0, y)), text, b.colour, label_font)
    return _frame(page, _legend(ex, layers), canvas.notes)


def encode_png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=th.PNG_COMPRESS_LEVEL)
    return buf.getvalue()


def _xy(b: Box, grow: float = 0.0) -> tuple[float, float, float, float]:
    x, y, w, h = b.bbox
    return (x - grow, y - grow, x + max(w, 1.0) - 1 + grow, y + max(h, 1.0) - 1 + grow)


def _tag(d: ImageDraw.ImageDraw, at: tuple[float, float], text: str, colour: str, f: Font) -> None:
    """White text on a solid chip of ``colour``."""
    x, y = at
    box = d.textbbox((x + 3, y + 1), text, font=f)
    d.rectangle((x, y, box[2] + 3, box[3] + 2), fill=rgb(colour))
    d.text((x + 3, y + 1), text, fill=(255, 255, 255), font=f)


def _legend(ex: Extraction, layers: Layers) -> list[list[_Item]]:
    """Legend lines: title, regions, removal families, columns of the main table."""
    snap = ex.snapshot
    title = " ".join((snap.title or "(no title)").split())[:120]
    lines: list[list[_Item]] = [[_Item("#000000", f"visx  {title}  -  {snap.source}"[:200], "none")]]
    regions = [_Item(region_colour(rg.rank), f"#{rg.rank} {rg.kind if rg.data else rg.role}, {len(rg.records)} records", "outline")
               for rg in ex.regions]
    lines.append([_Item("#000000", "regions (outlined, records numbered):", "none"),
                  *(regions or [_Item("#000000", "none found", "none")])])
    fams = Counter(family(ex.cleaned.removed[int(b.key[2:])].reason) for b in layers.removed)
    if fams:
        lines.append([_Item("#000000", "removed (shaded):", "none"),
                      *(_Item(family_colour(f), f"{f} x{n}", "fill") for f, n in sorted(fams.items()))])
    if ex.tables and ex.regions:
        t = ex.tables[0]
        cols = [_Item(column_colour(c), f"{t.columns[c].name}: {t.columns[c].type}", "fill")
                for c in t.default_columns()]
        if cols:
            lines.append([_Item("#000000", f"columns of #{ex.regions[0].rank} (tinted):", "none"), *cols])
    return lines


def _frame(page: Image.Image, legend: list[list[_Item]], notes: list[str]) -> Image.Image:
    """Stack legend band, page and note band into one image."""
    from PIL import Image, ImageDraw

    f = font(th.LEGEND_FONT_PX)
    line_h = th.LEGEND_FONT_PX + 10
    width = page.width
    rows = _wrap(legend, width, f)
    notes = [line for note in notes for line in _wrap_text("NOTE: " + note, width - 2 * _PAD, f)]
    top_h = _PAD * 2 + line_h * len(rows)
    notes_h = (_PAD * 2 + line_h * len(notes)) if notes else 0
    out = Image.new("RGB", (width, top_h + page.height + notes_h), (250, 250, 250))
    out.paste(page, (0, top_h))
    d = ImageDraw.Draw(out)
    y = _PAD
    for row in rows:
        x = _PAD
        for item in row:
            if item.style != "none":
                sw = (x, y + 2, x + _SWATCH, y + 2 + _SWATCH)
                if item.style == "fill":
                    d.rectangle(sw, fill=rgb(item.colour), outline=(80, 80, 80))
                else:
                    d.rectangle(sw, outline=rgb(item.colour), width=3)
                x += _SWATCH + 5
            d.text((x, y), item.text, fill=(20, 20, 20), font=f)
            x += int(d.textlength(item.text, font=f)) + 16
        y += line_h
    d.line((0, top_h - 1, width, top_h - 1), fill=(160, 160, 160))
    if notes:
        y0 = top_h + page.height
        d.rectangle((0, y0, width, out.height), fill=(255, 236, 179))
        d.line((0, y0, width, y0), fill=(200, 120, 0), width=3)
        for k, note in enumerate(notes):
            d.text((_PAD, y0 + _PAD + k * line_h), note, fill=(90, 50, 0), font=f)
    return out


def _wrap(lines: list[list[_Item]], width: int, f: Font) -> list[list[_Item]]:
    """Break legend lines that do not fit ``width``."""
    rows: list[list[_Item]] = []
    for line in lines:
        row: list[_Item] = []
        x = _PAD
        for item in line:
            w = int(f.getlength(item.text)) + 16 + (0 if item.style == "none" else _SWATCH + 5)
            if row and x + w > width - _PAD:
                rows.append(row)
                row, x = [], _PAD + 20
            row.append(item)
            x += w
        rows.append(row)
    return rows


def _wrap_text(text: str, width: int, f: Font) -> list[str]:
    """Greedy word wrap of ``text`` to ``width`` px."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        cand = f"{line} {word}" if line else word
        if line and f.getlength(cand) > width:
            lines.append(line)
            cand = "    " + word
        line = cand
    return [*lines, line] if line else lines
