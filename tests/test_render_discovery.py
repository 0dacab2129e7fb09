"""Browser discovery order (issue 2 §2), on real files: explicit, env, Playwright's, Debian's, PATH."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from visx import BrowserNotFoundError
from visx.render import browser
from visx.render.browser import find_chromium
from visx.render.check import main as check_main


def exe(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def no_system_browser(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Hide the machine's browsers: no Debian binary, an empty PATH, no VISX_CHROMIUM."""
    monkeypatch.setattr(browser, "DEBIAN_CHROMIUM", tmp_path / "no-debian" / "chromium")
    monkeypatch.setenv("PATH", str(tmp_path / "empty-path"))
    monkeypatch.delenv("VISX_CHROMIUM", raising=False)
    return tmp_path


def test_explicit_beats_everything(no_system_browser: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mine = exe(no_system_browser / "mine")
    monkeypatch.setenv("VISX_CHROMIUM", str(exe(no_system_browser / "env")))
    assert find_chromium(mine, str(exe(no_system_browser / "pw"))) == mine


def test_env_beats_playwright(no_system_browser: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = exe(no_system_browser / "env")
    monkeypatch.setenv("VISX_CHROMIUM", str(env))
    assert find_chromium(None, str(exe(no_system_browser / "pw"))) == env


def test_playwright_beats_debian_and_path(no_system_browser: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser, "DEBIAN_CHROMIUM", exe(no_system_browser / "debian" / "chromium"))
    exe(no_system_browser / "empty-path" / "chromium")
    pw = exe(no_system_browser / "pw")
    assert find_chromium(None, str(pw)) == pw


def test_debian_beats_path(no_system_browser: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    debian = exe(no_system_browser / "debian" / "chromium")
    monkeypatch.setattr(browser, "DEBIAN_CHROMIUM", debian)
    exe(no_system_browser / "empty-path" / "chromium")
    assert find_chromium(None, str(no_system_browser / "pw-not-installed")) == debian


@pytest.mark.parametrize("name", ["chromium", "chromium-browser", "google-chrome"])
def test_path_names(no_system_browser: Path, name: str) -> None:
    found = exe(no_system_browser / "empty-path" / name)
    assert find_chromium() == found


def test_nothing_found_says_how_to_install(no_system_browser: Path) -> None:
    with pytest.raises(BrowserNotFoundError) as err:
        find_chromium()
    assert "apt-get install" in str(err.value) and "VISX_CHROMIUM" in str(err.value)


def test_bad_explicit_value_is_not_skipped_over(no_system_browser: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A wrong explicit setting is an error, not a reason to quietly use another browser.
    monkeypatch.setenv("VISX_CHROMIUM", str(exe(no_system_browser / "env")))
    with pytest.raises(BrowserNotFoundError, match="the configured chromium"):
        find_chromium(no_system_browser / "missing")


def test_check_command_exit_codes(no_system_browser: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert check_main(["--quiet"]) == 1
    assert "no Chromium found" in capsys.readouterr().err
