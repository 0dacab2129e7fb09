"""See what visx saw: an annotated screenshot, an HTML report, per-stage dumps.

``write_report(extraction, folder, config)`` writes ``page.png`` (the page with
removed areas shaded, regions outlined and ranked, records boxed and
numbered, column cells tinted, a legend), ``report.html`` (one
self-contained file with clickable boxes, every region's table and score
parts, and why each area was removed) and ``stages.json``. Overlays are
painted with Pillow on the snapshot's screenshot, or on a wireframe when the
snapshot has none, so a saved snapshot needs no browser.
"""

from visx.debug.report import build_report, write_report
from visx.debug.stages import stage_dump

__all__ = ["build_report", "stage_dump", "write_report"]
