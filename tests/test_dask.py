"""The batch on Dask (``--engine dask``): a real ``LocalCluster`` of two worker processes, the
local test site of ``batch_site.py``, Chromium in each worker. The same rows and failures as the
local engine; a ``visx extract --engine dask`` subprocess killed with SIGKILL, then ``--resume``.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from batch_site import CFG, FAST, Site, batch_urls, records_of

import visx
from visx.batch.engines import LocalEngine

distributed = pytest.importorskip("distributed", reason="pip install 'visx[dask]'")

from visx.batch.engines.dask import DaskEngine, SchedulerError  # noqa: E402


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    s = Site()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """Two worker processes, as ``--engine dask`` starts by default; shared by the tests (each
    start costs seconds), reached through ``--scheduler`` like a real cluster."""
    lc = distributed.LocalCluster(n_workers=2, threads_per_worker=2, processes=True, dashboard_address=":0")
    yield lc.scheduler_address
    lc.close()


def _rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """source -> its rows (every column but the ids), over every data table, sorted."""
    con = sqlite3.connect(db)
    try:
        out: dict[str, list[tuple[object, ...]]] = {}
        for (name,) in con.execute("SELECT table_name FROM record_tables"):
            cur = con.execute(f'SELECT e.source, t.* FROM "{name}" t JOIN extractions e ON e.id = t.extraction_id')
            cols = [d[0] for d in cur.description]
            keep = [i for i, c in enumerate(cols) if i > 0 and not c.endswith("id")]
            for row in cur:
                out.setdefault(row[0], []).append(tuple(row[i] for i in keep))
        return {k: sorted(v, key=repr) for k, v in out.items()}
    finally:
        con.close()


def _jobs(db: Path) -> dict[str, tuple[str, str | None]]:
    with sqlite3.connect(db) as con:
        return {s: (st, k) for s, st, k in con.execute("SELECT source, status, error_kind FROM jobs")}


def _keys(db: Path) -> dict[str, list[str]]:
    return {s: sorted(k for r in rows for k in re.findall(r"P\d+-R\d+", repr(r))) for s, rows in _rows(db).items()}


@pytest.mark.browser
def test_same_rows_and_failures_as_the_local_engine(tmp_path: Path, site: Site, cluster: str) -> None:
    good = [site.url(f"p/{n}.html") for n in range(300, 307)] + [site.url("flaky/310.html")]
    bad = {site.url("status/404?d=1"): "permanent", site.url("status/503?d=1"): "transient",
           site.url("pdf?d=1"): "permanent", site.url("reset?d=1"): "transient"}
    sources = good[:5] + list(bad) + good[5:]
    on_dask = visx.run_batch(sources, tmp_path / "dask.sqlite", CFG, policy=FAST,
                             engine=DaskEngine(scheduler=cluster))
    assert site.requests["/flaky/310.html"] == 2  # retried on its worker, once
    local = visx.run_batch([u.replace("d=1", "l=1") for u in sources], tmp_path / "local.sqlite", CFG,
                           policy=FAST, engine=LocalEngine(2))
    assert (on_dask.ok, on_dask.failed, on_dask.rows) == (local.ok, local.failed, local.rows) == (8, 4, local.rows)
    assert _rows(tmp_path / "dask.sqlite") == _rows(tmp_path / "local.sqlite")
    jobs = _jobs(tmp_path / "dask.sqlite")
    assert {u: k for u, (st, k) in jobs.items() if st == "failed"} == bad
    assert _rows(tmp_path / "dask.sqlite").keys() == set(good)
    with sqlite3.connect(tmp_path / "dask.sqlite") as con:  # written in input order
        order = [s for (s,) in con.execute("SELECT source FROM extractions ORDER BY id")]
    assert order == good


@pytest.mark.browser
def test_sigkill_then_resume_on_dask(tmp_path: Path, site: Site, cluster: str) -> None:
    """A ``visx extract --engine dask`` (its own LocalCluster) killed with SIGKILL once some pages
    are in; ``--resume`` on the shared cluster finishes it: every good page's rows once, every
    faulty URL failed with its reason, the pages done before not fetched again."""
    urls, bad = batch_urls(site, 24, hang=False)
    fresh = {u: u.replace("/p/", "/p/4") if "/p/" in u else u.replace("?", "?dk=1&") for u in urls}
    urls, bad = [fresh[u] for u in urls], [fresh[u] for u in bad]
    listing = tmp_path / "urls.txt"
    listing.write_text("\n".join(urls) + "\n", encoding="utf-8")
    db = tmp_path / "run.sqlite"
    cmd = [sys.executable, "-m", "visx", "extract", "--sources-from", str(listing), "-o", str(db),
           "--no-js", "--timeout", "4", "--retries", "1", "--engine", "dask"]
    first = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        done = 0
        while time.monotonic() < deadline and first.poll() is None and done < 6:
            time.sleep(0.2)
            with contextlib.suppress(sqlite3.Error), sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as con:
                done = con.execute("SELECT count(*) FROM jobs WHERE status != 'pending'").fetchone()[0]
        assert first.poll() is None, "the first run ended before it could be killed"
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(first.pid, signal.SIGKILL)  # its workers and their browsers
    before = _jobs(db)
    done_before = [u for u, (st, _) in before.items() if st == "done"]
    assert 4 <= len(done_before) < len(urls) - len(bad)
    fetched = {u: site.requests[urlsplit(u).path] for u in done_before}
    second = subprocess.run([*cmd, "--scheduler", cluster, "--resume"], capture_output=True, text=True, timeout=180)
    assert second.returncode == 1, second.stderr  # the faulty URLs failed
    assert "Traceback" not in second.stderr
    assert re.search(r"\d+ skipped \(done before\)", second.stderr)
    for u in done_before:  # not fetched again
        assert site.requests[urlsplit(u).path] == fetched[u]
    good = [u for u in urls if u not in bad]
    keys = _keys(db)
    assert set(keys) == set(good)
    for u in good:
        n = int(re.search(r"/p/(\d+)", u).group(1))  # type: ignore[union-attr]
        assert keys[u] == sorted(f"P{n}-R{k}" for k in range(records_of(n))), u  # once each
    jobs = _jobs(db)
    assert {u for u, (st, _) in jobs.items() if st == "failed"} == set(bad)
    assert all(st != "pending" for st, _ in jobs.values())


def test_unreachable_scheduler_is_named(tmp_path: Path) -> None:
    engine = DaskEngine(scheduler="tcp://127.0.0.1:9", connect_timeout_s=1.0)
    with pytest.raises(SchedulerError, match=r"tcp://127\.0\.0\.1:9"):
        visx.run_batch(["a.html", "b.html"], tmp_path / "out.sqlite", CFG, engine=engine)


def test_cli_engine_options_are_checked(tmp_path: Path) -> None:
    run = [sys.executable, "-m", "visx", "extract", "a.html", "b.html"]
    no_output = subprocess.run([*run, "--engine", "dask"], capture_output=True, text=True, timeout=60)
    assert no_output.returncode != 0 and "-o" in no_output.stderr and "Traceback" not in no_output.stderr
    stray = subprocess.run([*run, "-o", str(tmp_path / "o.sqlite"), "--scheduler", "tcp://x:1"],
                           capture_output=True, text=True, timeout=60)
    assert stray.returncode != 0 and "--engine dask" in stray.stderr and "Traceback" not in stray.stderr
