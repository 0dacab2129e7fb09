"""Render ``fixtures/debug/*.html`` once, with a screenshot, into snapshots the debug tests replay.

Run after changing a fixture page (needs Chromium)::

    .venv/bin/python scripts/make_debug_fixtures.py

Each ``NAME.html`` becomes ``NAME.json.gz`` beside it, rendered with
JavaScript off so boxes and picture depend only on the HTML and CSS.
"""

from __future__ import annotations

import sys
from pathlib import Path

import visx
from visx.config import Config, RenderConfig

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "debug"


def main() -> int:
    config = Config(render=RenderConfig(javascript=False, screenshot=True))
    for page in sorted(FIXTURES.glob("*.html")):
        snap = visx.render(page, config)
        # The absolute file: URL would differ per checkout; keep the name only.
        snap.source = page.name
        snap.url = f"file:///fixtures/debug/{page.name}"
        out = page.with_suffix(".json.gz")
        snap.save(out)
        shot = len(snap.screenshot_png or b"")
        print(f"{page.name} -> {out.name}: {len(snap.nodes)} elements, screenshot {shot} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
