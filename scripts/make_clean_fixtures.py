"""Render the cleaner's fixture pages (fixtures/clean/*.html) to snapshots.

    .venv/bin/python scripts/make_clean_fixtures.py [NAME ...]

Each page isolates what one part of the cleaner must do (hidden elements,
overlays, bands and columns, ads, the over-cleaning guard, a short page);
tests/test_clean*.py assert exact removals on the saved ``.json.gz``
snapshots, so the tests need no browser. Pages render with JavaScript and
the network off, one after the other in one browser.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from visx.config import Config, RenderConfig  # noqa: E402
from visx.render import render, shutdown  # noqa: E402

FIXTURES = ROOT / "fixtures" / "clean"


def main(names: list[str]) -> int:
    pages = sorted(FIXTURES.glob("*.html"))
    if names:
        pages = [p for p in pages if p.stem in names]
    if not pages:
        print(f"no fixture pages under {FIXTURES} match {names}", file=sys.stderr)
        return 1
    cfg = Config(render=RenderConfig(javascript=False))
    try:
        for page in pages:
            snap = render(page, cfg)
            out = page.with_suffix(".json.gz")
            snap.save(out)
            print(f"{out.relative_to(ROOT)}: {len(snap.nodes)} elements")
    finally:
        shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
