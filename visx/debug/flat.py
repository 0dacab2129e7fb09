"""The report's flat-miner section: why a flat region ranks where it does, its key type,
its patterns and every entity with its type (``visx report``)."""

from __future__ import annotations

from html import escape

from visx.model import Region

REC = ' class="rec"'
MAX_ENTITIES = 300
"""Entities listed at most: a long page's text would make the report heavy to open."""


def flat_section(region: Region) -> str:
    """HTML for a flat region ('' for the DOM miner's regions)."""
    from visx.flat.model import FlatRegion

    if not isinstance(region, FlatRegion):
        return ""
    pats = "".join(f"<li><code>&lt;{escape(', '.join(p.types))}&gt;</code> support {p.support}, simplified "
                   f"<code>&lt;{escape(', '.join(p.simple))}&gt;</code></li>" for p in region.patterns)
    in_record = {id(e) for r in region.records for e in getattr(r, "entities", [])}
    rows = "".join(
        f"<tr{REC if id(e) in in_record else ''}><td>{k}</td><td>{escape(t.decided or '?')}</td>"
        f"<td>{escape(', '.join(sorted(t.candidates)))}</td><td>{escape(e.text[:120])}</td></tr>"
        for k, (e, t) in enumerate(zip(region.entities[:MAX_ENTITIES], region.typings, strict=False)))
    more = (f"<p class=\"sub\">{len(region.entities) - MAX_ENTITIES} more entities not shown.</p>"
            if len(region.entities) > MAX_ENTITIES else "")
    return (f"<details class=\"flat\"><summary>flat miner: key type {escape(region.key)}, "
            f"{len(region.patterns)} pattern(s), {len(region.entities)} entities</summary>"
            f"<p class=\"why\">{escape(region.reason)}</p><ul>{pats}</ul>"
            f"<table class=\"ev\"><thead><tr><th>#</th><th>type</th><th>recall candidates</th><th>text</th></tr>"
            f"</thead><tbody>{rows}</tbody></table>{more}</details>")
