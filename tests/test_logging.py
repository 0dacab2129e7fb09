"""The ``visx`` logger: silent by default, warnings once, render notes at INFO."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import render_config

import visx

ROOT = Path(__file__).resolve().parent.parent
SNAP = ROOT / "fixtures" / "mine" / "several_regions.json.gz"
NOSCRIPT = "<html><body><noscript><p>Turn JavaScript on</p></noscript><ul>" + "".join(
    f"<li><a href='/p{i}'>Product {i}</a> <span>${i}.99</span></li>" for i in range(6)) + "</ul></body></html>"


def warned_snapshot(tmp_path: Path) -> Path:
    """A saved snapshot that carries a warning from its render."""
    snap = visx.load_snapshot(SNAP)
    snap.warnings = [f"{snap.source}: the page had not settled when captured (a test)"]
    path = tmp_path / "warned.json.gz"
    snap.save(path)
    return path


def test_the_library_prints_nothing_by_default(tmp_path: Path) -> None:
    path = warned_snapshot(tmp_path)
    code = f"import visx; ex = visx.extract({str(path)!r}); print(len(ex.warnings))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "1" and out.stderr == ""
    assert any(isinstance(h, logging.NullHandler) for h in logging.getLogger("visx").handlers)


def test_warnings_are_logged_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = warned_snapshot(tmp_path)
    with caplog.at_level(logging.DEBUG, logger="visx"):
        ex = visx.extract(path)
    warned = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert [r.getMessage() for r in warned] == ex.warnings  # read with the snapshot, not again by analysis
    assert all(r.name.startswith("visx.") for r in caplog.records)
    debug = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG]
    assert any(m.startswith("read snapshot ") for m in debug)
    assert any(m.startswith("analysed ") and "mine" in m for m in debug)


def test_table_warnings_are_logged_at_info(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="visx"):
        ex = visx.extract(ROOT / "fixtures" / "gate" / "dailykos.com" / "culture" / "snapshot.json.gz")
    expected = [f"{ex.source}: region {rg.rank}: {w}" for rg in ex.regions if rg.table for w in rg.table.warnings]
    assert expected and [r.getMessage() for r in caplog.records if r.levelno == logging.INFO] == expected


@pytest.mark.browser
def test_analysis_warnings_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="visx"):
        ex = visx.extract("<html><body><p>Just one paragraph.</p></body></html>", render_config())
    assert ex.warnings and any("no repeated records" in w for w in ex.warnings)
    assert [r.getMessage() for r in caplog.records] == ex.warnings


@pytest.mark.browser
def test_render_notes_are_logged_at_info(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="visx"):
        snap = visx.render(NOSCRIPT, render_config(javascript=False))
    notes = [r for r in caplog.records if r.name == "visx.render.page_load" and r.levelno == logging.INFO]
    assert [r.getMessage() for r in notes] == [f"{snap.source}: {n}" for n in snap.notes]
    assert any("--keep-noscript" in r.getMessage() for r in notes)
