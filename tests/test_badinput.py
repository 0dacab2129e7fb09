"""The bad-input corpus (issue 14, section 3): every case runs ``python -m visx`` for real.

Each case is a command line against the corpus folder and server
(``tests/badinput/``). Checked for every one: no traceback, the exit status, the
message, wall time within ``--timeout`` plus :data:`ALLOWANCE_S`, peak memory, no
partial output files, and no browser process left behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from badinput.case import ALLOWANCE_S, Case
from badinput.generate import all_cases, all_routes, write_pages
from badinput.serve import serve
from conftest import ROOT

CASES = all_cases()
KILL_AFTER_S = 30.0  # past the bound: the run is killed, and the case fails
MARK = "VISX_BADINPUT_RUN"  # inherited by every process the run starts (the browser too)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    folder = tmp_path_factory.mktemp("corpus")
    write_pages(folder)
    with serve(folder, all_routes()) as url:
        yield folder, url


def _expand(text: str, url: str, folder: Path, tmp: Path) -> str:
    return text.replace("{url}", url).replace("{corpus}", str(folder)).replace("{tmp}", str(tmp))


def _marked(token: str) -> list[int]:
    """Live processes whose environment holds ``MARK=token``."""
    needle = f"{MARK}={token}".encode()
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            env = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and needle in env.split(b"\0"):
            out.append(int(entry.name))
    return out


def _leftovers(token: str, grace_s: float = 5.0) -> list[int]:
    """Marked processes still alive after ``grace_s`` (Playwright closes the browser as visx exits)."""
    end = time.monotonic() + grace_s
    while (pids := _marked(token)) and time.monotonic() < end:
        time.sleep(0.1)
    for pid in pids:  # do not let one case's leftovers spoil the next
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return pids


@pytest.mark.browser
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input(case: Case, corpus: tuple[Path, str], tmp_path: Path) -> None:
    folder, url = corpus
    work = tmp_path / "tmp"
    work.mkdir()
    argv = [_expand(a, url, folder, work) for a in case.argv]
    token = uuid.uuid4().hex
    env = {**os.environ, MARK: token, "COLUMNS": "200"}
    out_path, err_path = tmp_path / "stdout", tmp_path / "stderr"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        stdin = subprocess.PIPE if case.stdin is not None else subprocess.DEVNULL
        t0 = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "visx", *argv], stdin=stdin, stdout=out, stderr=err,
                                cwd=ROOT, env=env, start_new_session=True)
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            os.killpg(proc.pid, signal.SIGKILL)

        timer = threading.Timer(case.timeout_s + ALLOWANCE_S + KILL_AFTER_S, kill)
        timer.start()
        try:
            if proc.stdin is not None:
                try:
                    proc.stdin.write(case.stdin or b"")
                    proc.stdin.close()
                except BrokenPipeError:  # visx may fail before it reads
                    pass
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.monotonic() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
    stderr = err_path.read_text(errors="replace")
    left = _leftovers(token)
    rss_mb = usage.ru_maxrss / 1024
    where = f"visx {' '.join(argv)}\nexit {proc.returncode}, {wall:.1f} s, {rss_mb:.0f} MB\nstderr:\n{stderr[-3000:]}"

    assert not killed.is_set(), f"killed after {wall:.0f} s\n{where}"
    assert "Traceback" not in stderr, where
    assert proc.returncode >= 0, f"died of signal {-proc.returncode}\n{where}"
    if case.expect == "error":
        assert proc.returncode != 0, f"should have failed\n{where}"
    else:
        assert proc.returncode == 0, where
    if case.message and case.expect != "partial":
        assert re.search(case.message, stderr, re.I | re.S), f"message /{case.message}/ not found\n{where}"
    assert wall <= case.timeout_s + ALLOWANCE_S, f"past the bound of {case.timeout_s + ALLOWANCE_S:g} s\n{where}"
    assert rss_mb <= case.max_rss_mb, f"peak RSS {rss_mb:.0f} MB > {case.max_rss_mb} MB\n{where}"
    assert not left, f"browser processes left behind: {left}\n{where}"
    stray = [p.name for p in work.rglob("*.tmp")]
    assert not stray, f"partial output files left: {stray}\n{where}"
    if case.expect == "partial":
        assert case.output is not None
        data = json.loads(Path(_expand(case.output, url, folder, work)).read_text())
        pages = data if isinstance(data, list) else [data]
        flagged = [p for p in pages if p.get("partial") is True]
        assert flagged, f"output not marked partial\n{where}"
        reasons = " | ".join(str(p.get("partial_reason", "")) for p in flagged)
        assert re.search(case.message, reasons, re.I), f"partial_reason {reasons!r} !~ /{case.message}/\n{where}"


STATIC = [  # (source, message): ``visx apply --static`` reads without a browser, and says what a render says
    ("{corpus}/missing.html", r"missing\.html: no such file; check the path"),
    ("{corpus}/subdir", r"subdir: is a directory"),
    ("{corpus}/empty.html", r"empty\.html: the file is empty"),
    ("{corpus}/blank.html", r"blank\.html: the file holds only whitespace"),
    ("{corpus}/archive.zip", r"archive\.zip: is application/zip, not an HTML page"),
    ("ftp://127.0.0.1/list.html", r"unsupported scheme"),
    ("javascript:alert(1)", r"javascript: URLs are not supported"),
    ("{url}/status/404", r"/status/404: HTTP 404; check the URL"),
    ("{url}/status/401", r"/status/401: HTTP 401; .*--cookie"),
    ("{url}/status/503", r"/status/503: HTTP 503; .*retry"),
    ("{url}/png-as-png", r"server sent image/png, not an HTML page"),
    ("{url}/zip-as-html", r"the server sent application/zip, not an HTML page"),
    ("{url}/empty-200", r"/empty-200: the server sent an empty page \(HTTP 200, 0 bytes\)"),
    ("{url}/blank-200", r"the server sent an empty page .*whitespace only"),
    ("{url}/loop", r"/loop: redirect loop at .*/loop"),
    ("{url}/ping", r"/ping: redirect loop at .*/ping.*/pong"),
    ("{url}/to-ftp", r"/to-ftp: redirected to ftp://127\.0\.0\.1/list\.html, a ftp: URL"),
    ("{url}/to-file", r"/to-file: redirected to file:///etc/passwd, a local file"),
]


@pytest.mark.parametrize(("source", "message"), STATIC, ids=[m[0].rsplit("/", 1)[-1] for m in STATIC])
def test_static_fetch_messages(source: str, message: str, corpus: tuple[Path, str], tmp_path: Path) -> None:
    from visx.config import Config
    from visx.errors import VisxError
    from visx.template.fetch import fetch_html

    folder, url = corpus
    with pytest.raises(VisxError) as err:
        fetch_html(_expand(source, url, folder, tmp_path), Config())
    assert re.search(message, str(err.value), re.I), str(err.value)


def test_static_fetch_reads_utf16_and_good_pages(corpus: tuple[Path, str], tmp_path: Path) -> None:
    from visx.config import Config
    from visx.template.fetch import fetch_html

    folder, url = corpus
    assert b"<" in fetch_html(f"{url}/good.html", Config()).body
    assert fetch_html(f"{url}/utf16-as-html", Config()).body.startswith(b"\xff\xfe")
    assert fetch_html(str(folder / "utf16le.html"), Config()).body.startswith(b"\xff\xfe")


@pytest.mark.browser
@pytest.mark.parametrize("fmt", ["jsonl", "csv", "sqlite"])
def test_partial_page_is_marked_in_every_format(fmt: str, corpus: tuple[Path, str], tmp_path: Path) -> None:
    """A partial page never looks complete: JSON Lines on every line, CSV and Parquet a
    ``partial_reason`` column, SQLite ``extractions.partial``; two sources, one partial."""
    import csv
    import sqlite3

    folder, url = corpus
    out = tmp_path / f"out.{fmt}"
    argv = ["extract", f"{url}/slow-load.html", str(folder / "good.html"), "-o", str(out),
            "--timeout", "3", "--partial", "--retries", "0"]
    proc = subprocess.run([sys.executable, "-m", "visx", *argv], cwd=ROOT, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)
    assert proc.returncode == 0, proc.stderr
    slow = f"{url}/slow-load.html"
    if fmt == "jsonl":
        lines = [json.loads(x) for x in out.read_text().splitlines()]
        by = {ln["source"]: (ln["partial"], ln["partial_reason"]) for ln in lines}
        assert by[slow][0] is True and re.search("load", by[slow][1]), by
        assert by[str(folder / "good.html")] == (False, ""), by
    elif fmt == "csv":
        rows = list(csv.DictReader(out.open(newline="", encoding="utf-8")))
        assert rows and all(re.search("load", r["partial_reason"]) for r in rows if r["source"] == slow), rows[:2]
        assert all(r["partial_reason"] == "" for r in rows if r["source"] != slow)
    else:
        con = sqlite3.connect(out)
        got = dict(((s, (p, r)) for s, p, r in con.execute("SELECT source, partial, partial_reason FROM extractions")))
        assert got[slow][0] == 1 and re.search("load", got[slow][1]), got
        assert got[str(folder / "good.html")] == (0, None), got
