"""A region's learned template, offered as a download in the report (``report.html``).

:func:`region_template_json` learns the template that extracts region ``k``
again (:func:`visx.template.learn.learn`), so a user picks a list by looking
at the page and takes its template with them. A region that cannot be
learned (no records, no path to its records) gets no link.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from visx.errors import TemplateError

if TYPE_CHECKING:
    from visx.pipeline import Extraction
    from visx.template.tree import PageTree


def region_template_json(extraction: Extraction, k: int) -> str | None:
    """The template JSON for ``extraction.regions[k]``, or None when it cannot be learned."""
    from visx.template.learn import learn
    from visx.template.tree import from_snapshot

    rg = extraction.regions[k] if 0 <= k < len(extraction.regions) else None
    if rg is None or not rg.records or k >= len(extraction.tables):
        return None
    tree = _trees.get(id(extraction))
    if tree is None or tree[0] is not extraction:
        _trees.clear()  # one report at a time: keep only the page being drawn
        tree = _trees[id(extraction)] = (extraction, from_snapshot(extraction.snapshot.nodes))
    try:
        return learn(extraction, k, tree=tree[1]).to_json()
    except TemplateError:
        return None


_trees: dict[int, tuple[Extraction, PageTree]] = {}
