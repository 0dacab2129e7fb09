"""``visx render``: files written, options honoured, every failure one line and non-zero."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import RENDER_FIXTURES, ROOT, closed_port

import visx
from visx.cli import main


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "visx", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120)


def assert_one_line_failure(proc: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert proc.returncode == 2, proc
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("visx: error: "), proc.stderr
    assert "Traceback" not in proc.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


def test_help_explains_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["render", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for option in ("-o", "--screenshot", "--no-js", "--timeout", "--viewport", "--scroll",
                   "--partial", "--allow-http-errors", "--chromium"):
        assert option in out, option
    assert "JavaScript off" in out


@pytest.mark.browser
def test_render_writes_snapshot_and_screenshot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, png = tmp_path / "sub" / "page.snapshot.json.gz", tmp_path / "page.png"
    code = main(["render", str(RENDER_FIXTURES / "styled.html"), "-o", str(out),
                 "--screenshot", str(png), "--no-js", "--viewport", "1024x700", "--timeout", "20"])
    assert code == 0
    printed = capsys.readouterr().out
    assert f"wrote {out}:" in printed and f"wrote {png}" in printed
    snap = visx.load_snapshot(out)
    assert snap.viewport == (1024, 700) and snap.javascript is False
    assert snap.title == "Styled page"
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_bad_viewport_is_a_config_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["render", "<p>x</p>", "-o", str(tmp_path / "x.json.gz"), "--viewport", "wide"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("visx: error: viewport 'wide'") and "1280x900" in err


def test_bad_timeout_is_a_config_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["render", "<p>x</p>", "-o", str(tmp_path / "x.json.gz"), "--timeout", "0"])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("visx: error: option --timeout: ") and "greater than 0" in err and "\n" not in err


@pytest.mark.browser
def test_unwritable_output_is_an_export_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("in the way")
    code = main(["render", "<html><body><p>x</p></body></html>", "--no-js",
                 "-o", str(blocker / "page.json.gz")])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("visx: error: ") and str(blocker) in err and "writable" in err


def test_missing_file_subprocess(tmp_path: Path) -> None:
    proc = run_cli("render", "no/such/page.html", "-o", str(tmp_path / "x.json.gz"))
    assert_one_line_failure(proc, "no/such/page.html", "no such file")
    assert not (tmp_path / "x.json.gz").exists()


def test_pdf_file_subprocess(tmp_path: Path) -> None:
    proc = run_cli("render", str(RENDER_FIXTURES / "document.pdf"), "-o", str(tmp_path / "x.json.gz"))
    assert_one_line_failure(proc, "document.pdf", "application/pdf")


@pytest.mark.browser
def test_unreachable_subprocess(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{closed_port()}/"
    proc = run_cli("render", url, "-o", str(tmp_path / "x.json.gz"), "--timeout", "10")
    assert_one_line_failure(proc, url, "cannot connect")


@pytest.mark.browser
def test_html_from_stdin_subprocess(tmp_path: Path) -> None:
    out = tmp_path / "stdin.json.gz"
    proc = run_cli("render", "-", "-o", str(out), "--no-js",
                   stdin="<html><head><title>From stdin</title></head><body><p>hi</p></body></html>")
    assert proc.returncode == 0, proc.stderr
    assert visx.load_snapshot(out).title == "From stdin"
