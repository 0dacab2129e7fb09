"""This process's browser processes, read from ``/proc`` (Linux; elsewhere: none found).

Used to bound memory (restart a browser whose processes grew past a limit) and to
end a browser that no longer answers (kill its process tree).
"""

from __future__ import annotations

import contextlib
import os
import signal
from dataclasses import dataclass
from pathlib import Path

_PROC = Path("/proc")
_PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024 if hasattr(os, "sysconf") else 4


@dataclass(slots=True, frozen=True)
class Proc:
    pid: int
    ppid: int
    rss_kb: int
    cmdline: str


def _read(pid: int) -> Proc | None:
    try:
        stat = (_PROC / str(pid) / "stat").read_text()
        cmd = (_PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:  # gone meanwhile, or not ours to read
        return None
    fields = stat[stat.rfind(")") + 2:].split()  # the name may hold spaces and parentheses
    return Proc(pid, int(fields[1]), int(fields[21]) * _PAGE_KB, cmd)


def descendants(root: int | None = None) -> list[Proc]:
    """Every live process below ``root`` (this process by default)."""
    if not _PROC.is_dir():
        return []
    procs = [p for d in _PROC.iterdir() if d.name.isdigit() and (p := _read(int(d.name))) is not None]
    kids: dict[int, list[Proc]] = {}
    for p in procs:
        kids.setdefault(p.ppid, []).append(p)
    out: list[Proc] = []
    todo = [os.getpid() if root is None else root]
    while todo:
        for p in kids.get(todo.pop(), []):
            out.append(p)
            todo.append(p.pid)
    return out


def is_browser(p: Proc) -> bool:
    """A browser's main process as Playwright launches it (its helpers carry ``--type=``)."""
    return "--remote-debugging-pipe" in p.cmdline and "--type=" not in p.cmdline


def browser_pids() -> set[int]:
    return {p.pid for p in descendants() if is_browser(p)}


def tree_rss_mb(pid: int) -> float:
    """Memory held by a browser: its process and every process below it (renderers, GPU...)."""
    procs = descendants(pid)
    own = _read(pid)
    return (sum(p.rss_kb for p in procs) + (own.rss_kb if own else 0)) / 1024


def kill_tree(pid: int) -> None:
    """SIGKILL a browser and everything below it (children first are found before the parent dies)."""
    for p in [*descendants(pid), _read(pid)]:
        if p is not None:
            with contextlib.suppress(OSError):
                os.kill(p.pid, signal.SIGKILL)
