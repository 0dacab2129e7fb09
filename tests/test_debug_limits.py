"""The debug report on screenshots too large to draw: never a traceback, memory bounded,
and the report says what it left out (issue 14)."""

from __future__ import annotations

import dataclasses
import resource
import struct
import zlib
from pathlib import Path

from conftest import FIXTURES

from visx.debug import write_report
from visx.debug.canvas import make_canvas, png_size
from visx.debug.thresholds import MAX_DECODE_PIXELS
from visx.pipeline import analyse
from visx.render.snapshot_io import load_snapshot

NO_SHOT = FIXTURES / "mine" / "several_regions.json.gz"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def blank_png(w: int, h: int) -> bytes:
    """A valid 1-bit grey PNG of ``w`` x ``h``, built row by row (a few MB, whatever its size)."""
    comp = zlib.compressobj(9)
    row = b"\x00" + b"\x00" * ((w + 7) // 8)
    idat = b"".join(comp.compress(row) for _ in range(h)) + comp.flush()
    ihdr = struct.pack(">IIBBBBB", w, h, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", idat) + _chunk(b"IEND", b"")


def test_png_size_reads_the_header_only() -> None:
    assert png_size(blank_png(300, 200)) == (300, 200)
    assert png_size(b"not a png") is None


def test_a_screenshot_past_the_pixel_cap_becomes_a_wireframe_with_a_note() -> None:
    snap = load_snapshot(NO_SHOT)
    big = dataclasses.replace(snap, screenshot_png=blank_png(16_384, 16_384))  # 268 M px: Pillow's bomb error
    assert MAX_DECODE_PIXELS < 16_384 * 16_384
    canvas = make_canvas(big, 10_000)
    assert not canvas.screenshot
    assert any("too large to draw" in n for n in canvas.notes)


def test_the_report_of_a_huge_screenshot_is_written_with_bounded_memory(tmp_path: Path) -> None:
    ex = analyse(load_snapshot(NO_SHOT))
    ex.snapshot.screenshot_png = blank_png(20_000, 20_000)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    write_report(ex, tmp_path / "dbg")
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert (tmp_path / "dbg" / "report.html").exists()
    assert grown_mb < 500, grown_mb
    assert "too large to draw" in (tmp_path / "dbg" / "report.html").read_text(encoding="utf-8")
