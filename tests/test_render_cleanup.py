"""No Chromium outlives the process that started it, after success or an error."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from conftest import ROOT, closed_port

pytestmark = pytest.mark.browser

GRACE_S = 5.0

# Renders, then prints every descendant process (driver, browser, renderers)
# so the test can check each one is gone once this process has exited.
SCRIPT = """
import os, sys
from visx import Config, render
from visx.config import RenderConfig

def descendants():
    kids = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = open(f"/proc/{d}/stat").read()
            except OSError:
                continue
            kids.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(d))
    out, todo = [], [os.getpid()]
    while todo:
        for c in kids.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out

cfg = Config(render=RenderConfig(javascript=False, browser_args=(sys.argv[1],)))
try:
    render("<html><body><p>ok</p></body></html>", cfg)
    if sys.argv[2] == "error":
        # A closed port: an error after the browser is up, left uncaught on purpose.
        render("http://127.0.0.1:" + sys.argv[3] + "/", cfg)
finally:
    print("children", *descendants(), flush=True)
"""


def processes_with(marker: str) -> list[int]:
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            args = cmdline.read_bytes()
        except OSError:  # the process ended while we looked
            continue
        if marker.encode() in args:
            found.append(int(cmdline.parent.name))
    return found


def alive(pids: list[int]) -> list[int]:
    """Those of ``pids`` still running a browser or driver (a reused pid does not count)."""
    out = []
    for pid in pids:
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and any(k in cmd for k in (b"chrom", b"playwright", b"node")):
            out.append(pid)
    return out


def lingering(marker: str, pids: list[int]) -> list[int]:
    deadline = time.monotonic() + GRACE_S
    while (left := processes_with(marker) + alive(pids)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


@pytest.mark.parametrize("ending", ["ok", "error"])
def test_no_stray_chromium_after_exit(ending: str) -> None:
    marker = f"--visx-test-marker={uuid.uuid4()}"
    proc = subprocess.run([sys.executable, "-c", SCRIPT, marker, ending, str(closed_port())],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    if ending == "ok":
        assert proc.returncode == 0, proc.stderr
    else:
        assert proc.returncode == 1 and "UnreachableError" in proc.stderr, proc.stderr
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("children"))
    children = [int(p) for p in line.split()[1:]]
    assert len(children) >= 3, "expected the driver, the browser and its helpers"
    assert lingering(marker, children) == [], "processes outlived their Python process"
