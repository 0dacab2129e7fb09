"""Options every subcommand shares: -q/-v, --set, --keep-noscript, and what --help says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import visx
from visx.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
SNAP = ROOT / "fixtures" / "mine" / "several_regions.json.gz"
COMMANDS = tuple(sorted({a for a in next(
    act for act in build_parser()._actions if act.dest == "command").choices}))  # type: ignore[union-attr]
"""Every subcommand: each one must carry the shared options."""


def help_of(command: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    return " ".join(capsys.readouterr().out.split())


def test_every_subcommand_has_the_shared_options(capsys: pytest.CaptureFixture[str]) -> None:
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert {"render", "extract", "report", "eval", "learn", "apply"} <= set(sub.choices)  # type: ignore[arg-type]
    for command in COMMANDS:
        text = help_of(command, capsys)
        for option in ("-q, --quiet", "-v, --verbose", "--set SECTION.KEY=VALUE"):
            assert option in text, (command, option)
    for command in ("render", "extract", "report"):
        assert "--keep-noscript" in help_of(command, capsys)


def test_miner_help_says_what_drmining_does(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("extract", "report", "eval"):
        text = help_of(command, capsys)
        assert "seed 003" not in text
        assert "leaf-path similarities" in text and "no visual evidence" in text


def warned(tmp_path: Path) -> Path:
    snap = visx.load_snapshot(SNAP)
    snap.warnings = [f"{snap.source}: a warning saved with the page"]
    path = tmp_path / "warned.json.gz"
    snap.save(path)
    return path


def test_verbosity_levels(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src, out = str(warned(tmp_path)), str(tmp_path / "out.csv")
    assert main(["extract", src, "-o", out]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err.count("visx: warning: " + visx.load_snapshot(SNAP).source + ": a warning saved with the page") == 1
    assert any(line.startswith(f"wrote {out}: ") for line in err)
    assert not any(line.startswith("visx: debug:") for line in err)

    assert main(["extract", src, "-o", out, "-q"]) == 0
    assert [line.split(":")[1].strip() for line in capsys.readouterr().err.splitlines()] == ["warning"]
    assert main(["extract", src, "-o", out, "-qq"]) == 0
    assert capsys.readouterr().err == ""

    assert main(["extract", src, "-o", out, "-v"]) == 0
    err = capsys.readouterr().err
    assert "visx: debug: read snapshot " in err and "visx: debug: analysed " in err


def test_the_cli_leaves_the_logger_as_it_found_it(tmp_path: Path) -> None:
    import logging

    log = logging.getLogger("visx")
    before = (log.level, log.propagate, list(log.handlers))
    assert main(["extract", str(SNAP), "-o", str(tmp_path / "o.json"), "-v"]) == 0
    assert (log.level, log.propagate, list(log.handlers)) == before


def test_set_changes_any_section(tmp_path: Path) -> None:
    plain, raw = tmp_path / "plain.json", tmp_path / "raw.json"
    assert main(["extract", str(SNAP), "-o", str(plain)]) == 0
    assert main(["extract", str(SNAP), "-o", str(raw), "--set", "clean.enabled=false",
                 "--set", "mine.miner=drmining"]) == 0
    assert json.loads(plain.read_text())["removed"] != []
    assert json.loads(raw.read_text())["removed"] == []


@pytest.mark.parametrize(("argv", "needles"), [
    (["extract", str(SNAP), "--set", "mine.nope=1"], ["mine has no 'nope'", "threshold", "join_shapes"]),
    (["extract", str(SNAP), "--set", "mine.threshold=7"], ["mine.threshold", "check the value"]),
    (["extract", str(SNAP), "--set", "tidy"], ["is not SECTION.KEY=VALUE"]),
    (["render", "<p>x</p>", "-o", "x.json.gz", "--set", "mine.visual=false"], ["section 'mine'", "render"]),
    (["report", str(SNAP), "-o", "rep", "--set", "debug.max_height=5"], ["debug.max_height"]),
])
def test_set_errors_name_the_key(argv: list[str], needles: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("visx: error: setting ") and "\n" not in err
    for needle in needles:
        assert needle in err, (needle, err)


@pytest.mark.browser
def test_keep_noscript_and_render_notes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "page.html"
    page.write_text("<html><body><noscript><p id='ns'>Please turn JavaScript on</p></noscript>"
                    "<p>Hello</p></body></html>", encoding="utf-8")
    dropped, kept = tmp_path / "dropped.json.gz", tmp_path / "kept.json.gz"
    assert main(["render", str(page), "--no-js", "-o", str(dropped), "--timeout", "15"]) == 0
    printed = capsys.readouterr()
    assert f"wrote {dropped}:" in printed.out
    assert "visx: note: " in printed.err and "--keep-noscript keeps them" in printed.err
    assert "Please turn JavaScript on" not in page_text(dropped)
    assert main(["render", str(page), "--no-js", "--keep-noscript", "-o", str(kept), "-q"]) == 0
    printed = capsys.readouterr()
    assert printed.out == "" and printed.err == ""
    assert "Please turn JavaScript on" in page_text(kept)


def page_text(path: Path) -> str:
    nodes = visx.load_snapshot(path).nodes
    return " ".join(nodes.text(i) for i in range(len(nodes)))
