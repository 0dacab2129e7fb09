"""Build the three debug files for one extraction and write them into a folder."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import TYPE_CHECKING

from visx.config import Config
from visx.debug.canvas import make_canvas
from visx.debug.draw import annotate, encode_png
from visx.debug.html import render_html
from visx.debug.layers import build_layers
from visx.debug.stages import stage_dump
from visx.errors import ExportError

if TYPE_CHECKING:
    from visx.pipeline import Extraction

PAGE_PNG = "page.png"
REPORT_HTML = "report.html"
STAGES_JSON = "stages.json"
SCREENSHOT_PNG = "screenshot.png"
"""The plain picture beside the report, when it is not embedded (``debug.embed_image``)."""


def build_report(ex: Extraction, config: Config | None = None) -> dict[str, bytes]:
    """The debug files of ``ex`` by file name, in memory; ``ex`` is not modified."""
    cfg = (config or Config()).debug
    canvas = make_canvas(ex.snapshot, cfg.max_height)
    layers = build_layers(ex, canvas.image.width, canvas.image.height)
    files = {PAGE_PNG: encode_png(annotate(ex, canvas, layers))}
    shot = ex.snapshot.screenshot_png
    plain = shot if canvas.untouched and shot else encode_png(canvas.image)
    if cfg.embed_image:
        src = "data:image/png;base64," + base64.b64encode(plain).decode("ascii")
    else:
        files[SCREENSHOT_PNG] = plain
        src = SCREENSHOT_PNG
    files[REPORT_HTML] = render_html(ex, layers, src, canvas.notes).encode("utf-8")
    dump = json.dumps(stage_dump(ex), ensure_ascii=False, indent=1, default=str)
    files[STAGES_JSON] = dump.encode("utf-8")
    return files


def write_report(ex: Extraction, out_dir: str | Path, config: Config | None = None) -> Path:
    """Write ``page.png``, ``report.html`` and ``stages.json`` into ``out_dir``; return the report's path.

    Each file is written whole or not at all (temporary file, then rename).
    """
    from visx.atomic import write_bytes

    out = Path(out_dir)
    files = build_report(ex, config)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            write_bytes(out / name, data)
    except OSError as e:
        where = e.filename or out
        raise ExportError(f"{where}: cannot write the debug report ({e.strerror}); "
                          "choose a writable folder with --debug / -o") from e
    return out / REPORT_HTML
