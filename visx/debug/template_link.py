"""The hook for a region's template download in the report (``report.html``).

:func:`region_template_json` is where learned templates (``visx/template/``,
``visx learn``) will plug in: the JSON of a template that extracts region ``k``
again. The report renders a download link for a region only when it returns a
string; until templates are wired in it returns None and no link is drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from visx.pipeline import Extraction


def region_template_json(extraction: Extraction, k: int) -> str | None:
    """The template JSON for ``extraction.regions[k]``, or None when there is none (for now, always)."""
    return None
