"""Warming the stages while the browser works (visx.prewarm)."""

from __future__ import annotations

import os
import subprocess
import sys

from visx.pipeline import analyse
from visx.prewarm import WARMUP_SNAPSHOT
from visx.render.snapshot_io import load_snapshot

PROBE = (
    "import sys, visx.prewarm as p; p.start(); p.wait(30); "
    "print(' '.join(m for m in ('visx.clean', 'visx.mine', 'visx.align', 'visx.schema', 'visx.export.formats') "
    "if m in sys.modules))"
)


def _probe(**env: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True,
                         env={**os.environ, **env})
    return set(out.stdout.split())


def test_the_bundled_page_goes_through_every_stage() -> None:
    # A stale warm-up file (say, after a snapshot format change) would warm nothing, silently.
    ex = analyse(load_snapshot(WARMUP_SNAPSHOT))
    assert ex.main is not None and len(ex.main.records) == 5
    types = {c.type for c in ex.tables[0].columns}
    assert {"price", "date", "rating"} <= types


def test_warming_imports_the_stages_in_a_fresh_process() -> None:
    assert _probe(VISX_NO_PREWARM="0") == {"visx.clean", "visx.mine", "visx.align", "visx.schema",
                                            "visx.export.formats"}


def test_warming_can_be_turned_off() -> None:
    assert "visx.mine" not in _probe(VISX_NO_PREWARM="1")
