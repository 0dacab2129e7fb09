"""Plain words for the report: what each removal reason and score part means,
and why a region ranks where it does.

The explanation compares a region's ``evidence`` with the region ranked just
above it; it reads the evidence, not the ranking formula, so it stays true
when the formula changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from visx.model import Region

REASONS: Final[dict[str, str]] = {
    "invisible:non-content": "holds no page content (head, script, style, template...)",
    "invisible:display-none": "not displayed (display: none)",
    "invisible:visibility-hidden": "hidden (visibility: hidden)",
    "invisible:opacity-0": "fully transparent (opacity: 0)",
    "invisible:zero-size": "has no area on the page",
    "invisible:off-page": "lies outside the page",
    "overlay:fixed": "fixed to the window: it floats over the content as you scroll",
    "overlay:sticky": "sticky: it stays on screen over the content",
    "overlay:consent": "a cookie or consent banner",
    "overlay:modal-backdrop": "a modal backdrop covering the page",
    "band:header": "in the header band above the main content",
    "band:footer": "in the footer band below the main content",
    "column:left": "a narrow column at the left edge beside the main content",
    "column:right": "a narrow column at the right edge beside the main content",
    "ad:iframe": "an embedded frame (iframe) whose document was not captured, the usual carrier of ads",
    "ad:standard-size": "has the size of a standard ad slot (300x250, 728x90, ...)",
    "ad:class-hint": "looks like an ad slot by its id or class",
    "ad:frame-hint": "an embedded frame whose id, class, name or address says ad",
}


@dataclass(frozen=True, slots=True)
class Part:
    """How to read one evidence value."""

    text: str
    better: int
    """+1: higher ranks higher; -1: lower ranks higher; 0: not comparable."""
    unit: str = ""
    penalty: bool = False
    """The value is a multiplier (< 1) applied to the score."""


PARTS: Final[dict[str, Part]] = {
    "records": Part("number of records", +1),
    "mean_chars": Part("text per record", +1, " chars"),
    "mean_text_leaves": Part("text pieces per record", +1),
    "mean_media": Part("images per record", +1),
    "area_share": Part("share of the page area", +1, "%"),
    "tag_distance": Part("difference between records (tag edit distance)", -1),
    "merged_blocks": Part("blocks merged across separators", +1),
    "menu_like": Part("penalty: short linked items, like a menu", 0, penalty=True),
    "in_nav_container": Part("penalty: inside a nav, header, footer or aside", 0, penalty=True),
    "at_page_bottom": Part("penalty: at the bottom of the page", 0, penalty=True),
    "dr_h": Part("DRMining similarity height", 0),
    "dr_ocq": Part("DRMining Ocq criterion", +1),
    "dr_leaves": Part("DRMining leaves per record", +1),
}


def reason_text(reason: str) -> str:
    return REASONS.get(reason, reason)


def part_text(key: str) -> str:
    p = PARTS.get(key)
    return p.text if p else key.replace("_", " ")


def fmt_value(key: str, value: float) -> str:
    p = PARTS.get(key)
    if p is not None and p.unit == "%":
        return f"{value * 100:.3g}%"
    if p is not None and p.penalty:
        return f"x{value:g}"
    return f"{value:g}{p.unit if p else ''}"


def why_rank(region: Region, above: Region | None, below: Region | None) -> str:
    """One or two sentences: why ``region`` sits where it does among its neighbours (data lists
    rank before the other regions whatever their scores)."""
    penalties = [f"{part_text(k).removeprefix('penalty: ')} (x{v:g})"
                 for k, v in region.evidence.items() if k in PARTS and PARTS[k].penalty]
    pen = f" Penalised: {'; '.join(penalties)}." if penalties else ""
    if above is None:
        if below is None:
            return f"The only region found (score {region.score:.4g}).{pen}"
        ratio = region.score / below.score if below.score > 0 else float("inf")
        lead = "" if ratio == float("inf") else f", {_times(ratio)} the next"
        wins = _differences(region, below, want=+1)
        why = f" Ahead of #{below.rank} on {', '.join(wins)}." if wins else ""
        return f"Ranked first: score {region.score:.4g}{lead}.{why}{pen}"
    worse = _differences(region, above, want=-1)
    why = f" Behind #{above.rank} on {', '.join(worse)}." if worse else ""
    return f"Score {region.score:.4g} against {above.score:.4g} for #{above.rank}.{why}{pen}"


def _times(ratio: float) -> str:
    return f"{ratio:,.0f}x" if ratio >= 10 else f"{ratio:.2g}x"


def _differences(a: Region, b: Region, *, want: int) -> list[str]:
    """Parts on which ``a`` is better (want=+1) or worse (want=-1) than ``b``, biggest gaps first."""
    found: list[tuple[float, str]] = []
    for key, part in PARTS.items():
        if part.better == 0 or key not in a.evidence or key not in b.evidence:
            continue
        va, vb = float(a.evidence[key]), float(b.evidence[key])
        if va == vb:
            continue
        sign = (1 if va > vb else -1) * part.better
        if sign != want:
            continue
        gap = abs(va - vb) / max(abs(va), abs(vb), 1e-9)
        found.append((gap, f"{part.text} ({fmt_value(key, va)} vs {fmt_value(key, vb)})"))
    found.sort(key=lambda t: -t[0])
    return [t for _, t in found[:3]]
