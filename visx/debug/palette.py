"""Colours of the overlays: one per region rank, per column, per removal family."""

from __future__ import annotations

from typing import Final

Rgb = tuple[int, int, int]

# Tableau 10 without its grey: distinct from each other and from the greys of removed areas.
REGION_COLOURS: Final[tuple[str, ...]] = (
    "#e15759", "#4e79a7", "#59a14f", "#f28e2b", "#b07aa1",
    "#76b7b2", "#edc948", "#ff9da7", "#9c755f",
)

# Light qualitative colours (ColorBrewer Set3-like): tints that keep text readable.
COLUMN_COLOURS: Final[tuple[str, ...]] = (
    "#8dd3c7", "#ffed6f", "#bebada", "#fb8072", "#80b1d3", "#fdb462",
    "#b3de69", "#fccde5", "#bc80bd", "#ccebc5", "#ffffb3", "#d9d9d9",
)

FAMILY_COLOURS: Final[dict[str, str]] = {
    "invisible": "#7f7f7f",
    "overlay": "#8e44ad",
    "band": "#2c3e50",
    "column": "#16a085",
    "ad": "#d35400",
}
OTHER_FAMILY_COLOUR: Final = "#555555"


def region_colour(rank: int) -> str:
    return REGION_COLOURS[(max(rank, 1) - 1) % len(REGION_COLOURS)]


def column_colour(col: int) -> str:
    return COLUMN_COLOURS[col % len(COLUMN_COLOURS)]


def family_colour(family: str) -> str:
    return FAMILY_COLOURS.get(family, OTHER_FAMILY_COLOUR)


def rgb(hex_colour: str) -> Rgb:
    h = hex_colour.lstrip("#")
    return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))
