"""Render ``fixtures/tables/*.html`` once into snapshots the table tests replay.

Run after changing a fixture page (needs Chromium)::

    .venv/bin/python scripts/make_table_fixtures.py [NAME ...]

Each ``NAME.html`` becomes ``NAME.json.gz`` beside it, rendered with
JavaScript off so the boxes depend only on the HTML and CSS.
"""

from __future__ import annotations

import sys
from pathlib import Path

import visx
from visx.config import Config, RenderConfig

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "tables"


def main(names: list[str]) -> int:
    pages = sorted(FIXTURES.glob("*.html"))
    if names:
        pages = [p for p in pages if p.stem in names]
    config = Config(render=RenderConfig(javascript=False))
    for page in pages:
        snap = visx.render(page, config)
        # The absolute file: URL would differ per checkout; keep the name only.
        snap.source = page.name
        snap.url = f"file:///fixtures/tables/{page.name}"
        out = page.with_suffix(".json.gz")
        snap.save(out)
        print(f"{page.name} -> {out.name}: {len(snap.nodes)} elements")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
