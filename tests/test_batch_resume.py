"""Batches written page by page (``visx.run_batch``, ``visx extract ... -o``): the SQLite layout
with one table per record schema, resume after a SIGKILL, retries of transient failures only,
streaming file outputs in input order, the progress display.

Real parts throughout: the local site of ``batch_site.py`` (a ThreadingHTTPServer that
counts requests), Chromium, SQLite files, a ``python -m visx`` subprocess killed with SIGKILL.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import pickle
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
from visx.batch.retry import kind_of
from visx.batch.work import Task, WorkSettings, run_task
from visx.config import Config
from visx.errors import (
    DnsError,
    ExportError,
    HttpStatusError,
    NonHtmlContentError,
    NoResponseError,
    RedirectError,
    RenderTimeoutError,
    UnreachableError,
)
from visx.export.sqlite import table_name

ROOT = Path(__file__).resolve().parent.parent
SNAP = ROOT / "fixtures" / "mine" / "several_regions.json.gz"
ADS = ROOT / "fixtures" / "mine" / "ads_between.json.gz"


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    s = Site()
    yield s
    s.stop()


def _page_no(url: str) -> int | None:
    m = re.search(r"/(?:p|flaky)/(\d+)\.html", url)
    return int(m.group(1)) if m else None


def _keys_per_page(db: Path) -> dict[str, list[str]]:
    """source -> the P<n>-R<k> keys of its main region's rows, over every data table."""
    con = sqlite3.connect(db)
    try:
        out: dict[str, list[str]] = {}
        for (name,) in con.execute("SELECT table_name FROM record_tables"):
            for source, text in con.execute(
                    f'SELECT e.source, t.title FROM "{name}" t JOIN regions r ON r.id = t.region_id '
                    f"JOIN extractions e ON e.id = t.extraction_id AND e.id = r.extraction_id WHERE r.rank = 1"):
                out.setdefault(source, []).extend(re.findall(r"P\d+-R\d+", str(text)))
        return out
    finally:
        con.close()


# -- without a browser ---------------------------------------------------------------------

def test_failures_are_transient_or_permanent() -> None:
    assert kind_of(HttpStatusError("x", status=503)) == kind_of(HttpStatusError("x", status=429)) == "transient"
    assert kind_of(HttpStatusError("x", status=404)) == kind_of(HttpStatusError("x", status=410)) == "permanent"
    assert kind_of(NoResponseError("x")) == kind_of(UnreachableError("x")) == "transient"
    # A page that arrived but never settled (a script loop, DOM churn) times out again.
    assert kind_of(RenderTimeoutError("x")) == kind_of(RedirectError("x")) == "permanent"
    assert kind_of(DnsError("x")) == kind_of(NonHtmlContentError("x")) == "permanent"


def test_table_names_are_readable_and_stable() -> None:
    # The hash is of the column set: the same columns in another order are the same schema
    # (and land in the table first created for it).
    assert table_name(("title", "price", "stock"))[-6:] == table_name(("stock", "title", "price"))[-6:]
    assert table_name(("title", "price", "stock")).startswith("records_title_price_stock_")
    assert table_name(("title", "price", "stock")) != table_name(("title", "price"))
    assert table_name(("Prix (€)", "x")).startswith("records_prix_x_")


def test_one_source_s_work_is_picklable_for_other_engines(tmp_path: Path) -> None:
    """The unit a distributed engine ships: the task, the settings, the outcome."""
    settings = WorkSettings(Config(), "sqlite", policy=FAST)
    task = Task(0, 0, str(SNAP), str(SNAP))
    outcome = pickle.loads(pickle.dumps(run_task(*pickle.loads(pickle.dumps((task, settings))))))
    assert outcome.ok and outcome.main_records == 10 and outcome.payload.regions[0].rank == 1
    bad = run_task(Task(1, 1, str(tmp_path / "none.html"), "none.html"), settings)
    assert pickle.loads(pickle.dumps(bad)).error_kind == "permanent" and bad.attempts == 1


def test_old_layout_is_refused_with_the_way_out(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    con = sqlite3.connect(db)
    con.executescript("CREATE TABLE extractions (id INTEGER PRIMARY KEY, source TEXT);"
                      "CREATE TABLE regions (id INTEGER PRIMARY KEY, extraction_id INTEGER);")
    con.close()
    with pytest.raises(ExportError, match=r"older visx.*new \.sqlite"):
        visx.run_batch([SNAP], db)


def test_parquet_of_a_batch_has_every_page_s_columns(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "all.parquet"
    summary = visx.run_batch([SNAP, tmp_path / "gone.html", ADS], out)
    assert (summary.ok, summary.failed, summary.written) == (2, 1, True)
    table = pq.read_table(out)
    assert table.num_rows == 10 + 9 == summary.rows
    assert {"source", "title", "snippet_text_for"} <= set(table.column_names)  # the second page's column too
    assert table.column("source").to_pylist()[0].endswith("several_regions.html")
    assert not list(tmp_path.glob("*.part")) and not list(tmp_path.glob("*.jobs.sqlite"))


def test_cli_quiet_shows_failures_only(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    cmd = [sys.executable, "-m", "visx", "extract", str(SNAP), str(tmp_path / "gone.html"), str(ADS), "-o", str(out)]
    loud = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    quiet = subprocess.run([*cmd, "-q"], capture_output=True, text=True, timeout=120)
    assert loud.returncode == quiet.returncode == 1
    assert "[1/3]" in loud.stderr and "3 source(s): 2 ok, 1 failed, 0 retried" in loud.stderr
    assert "[1/3]" not in quiet.stderr and "source(s): 2 ok" not in quiet.stderr
    assert "[2/3]" in quiet.stderr and "gone.html" in quiet.stderr  # the failure still shows
    assert "Traceback" not in loud.stderr + quiet.stderr


def test_cli_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    import pty

    main_fd, sub_fd = pty.openpty()
    cmd = [sys.executable, "-m", "visx", "extract", str(SNAP), str(ADS), "-o", str(tmp_path / "o.csv")]
    proc = subprocess.run(cmd, stderr=sub_fd, stdout=subprocess.DEVNULL, timeout=120,
                          env={**os.environ, "COLUMNS": "160", "TERM": "xterm"})
    os.close(sub_fd)
    chunks = []
    while True:
        try:
            data = os.read(main_fd, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(main_fd)
    shown = b"".join(chunks).decode("utf-8", "replace")
    assert proc.returncode == 0
    assert "pages/s" in shown and "ok 2" in shown and "failed 0" in shown and "2/2" in shown
    assert "[1/2]" not in shown  # the bar replaces the per-page lines


# -- with Chromium -------------------------------------------------------------------------

@pytest.mark.browser
def test_sqlite_one_table_per_schema_and_retries_of_transient_failures_only(tmp_path: Path, site: Site) -> None:
    good = [site.url(f"p/{n}.html") for n in range(100, 109)] + [site.url("flaky/109.html")]
    bad = {site.url("status/404?t=1"): "permanent", site.url("status/503?t=1"): "transient",
           site.url("pdf?t=1"): "permanent"}
    sources = good[:4] + list(bad) + good[4:]
    db = tmp_path / "out.sqlite"
    summary = visx.run_batch(sources, db, CFG, policy=FAST, workers=2)
    assert (summary.ok, summary.failed) == (10, 3)
    assert summary.retried == 2  # the flaky page (ok on its 2nd try) and the 503 (3 tries)
    assert site.requests["/flaky/109.html"] == 2 and site.requests["/status/503"] == 3
    assert site.requests["/status/404"] == 1 and site.requests["/pdf"] == 1  # never retried
    con = sqlite3.connect(db)
    try:
        names = [r[0] for r in con.execute("SELECT table_name FROM record_tables ORDER BY table_name")]
        assert len(names) == 3  # three record schemas over ten pages, not one table per region
        assert con.execute("SELECT count(*), min(rank), max(rank) FROM regions").fetchone() == (10, 1, 1)
        jobs = dict(con.execute("SELECT source, error_kind FROM jobs WHERE status = 'failed'").fetchall())
        assert jobs == bad
        attempts = dict(con.execute("SELECT source, attempts FROM jobs").fetchall())
        assert attempts[good[-1]] == 2 and attempts[site.url("status/503?t=1")] == 3
        for name in names:  # every row points at its page and its region
            orphans = con.execute(f'SELECT count(*) FROM "{name}" t LEFT JOIN regions r ON r.id = t.region_id '
                                  "WHERE r.extraction_id IS NOT t.extraction_id").fetchone()[0]
            assert orphans == 0
    finally:
        con.close()
    keys = _keys_per_page(db)
    for url in good:
        n = _page_no(url)
        assert n is not None
        assert sorted(keys[url]) == sorted(f"P{n}-R{k}" for k in range(records_of(n))), url


@pytest.mark.browser
def test_sigkill_then_resume_sqlite(tmp_path: Path, site: Site) -> None:
    """About 40 URLs, one in ten misbehaving; the run is killed with SIGKILL once a dozen
    pages are in; ``--resume`` finishes it: every good page's records once, every faulty URL
    failed with its reason, the pages done before the kill not fetched again."""
    urls, bad = batch_urls(site, 40, hang=False)
    urls = [u.replace("/p/", "/p/2") if "/p/" in u else u for u in urls]  # pages 20..2039: fresh counts
    listing = tmp_path / "urls.txt"
    listing.write_text("\n".join(urls) + "\n", encoding="utf-8")
    db = tmp_path / "run.sqlite"
    cmd = [sys.executable, "-m", "visx", "extract", "--sources-from", str(listing), "-o", str(db),
           "--no-js", "--timeout", "4", "--retries", "1", "-j", "2"]
    first = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        done = 0
        while time.monotonic() < deadline and first.poll() is None:
            time.sleep(0.2)
            try:
                with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as con:
                    done = con.execute("SELECT count(*) FROM jobs WHERE status != 'pending'").fetchone()[0]
            except sqlite3.Error:
                continue
            if done >= 12:
                break
        assert first.poll() is None, "the first run ended before it could be killed"
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(first.pid, signal.SIGKILL)  # the browser it started, if it outlived it
    with sqlite3.connect(db) as con:
        before = dict(con.execute("SELECT source, status FROM jobs").fetchall())
    done_before = [u for u, s in before.items() if s == "done"]
    assert 10 <= len(done_before) < len(urls) - len(bad)
    fetched = {u: site.requests[urlsplit(u).path] for u in done_before}
    second = subprocess.run([*cmd, "--resume"], capture_output=True, text=True, timeout=240)
    assert second.returncode == 1, second.stderr  # the faulty URLs failed
    assert "Traceback" not in second.stderr
    assert re.search(r"\d+ skipped \(done before\)", second.stderr)
    for u in done_before:  # not fetched again
        assert site.requests[urlsplit(u).path] == fetched[u]
    keys = _keys_per_page(db)
    good = [u for u in urls if u not in bad]
    assert set(keys) == set(good)
    for url in good:
        n = _page_no(url)
        assert n is not None
        assert sorted(keys[url]) == sorted(f"P{n}-R{k}" for k in range(records_of(n))), url
    with sqlite3.connect(db) as con:
        failed = {u: (kind, err) for u, kind, err in con.execute(
            "SELECT source, error_kind, error FROM jobs WHERE status = 'failed'")}
        assert con.execute("SELECT count(*) FROM jobs WHERE status = 'pending'").fetchone()[0] == 0
        assert con.execute("SELECT count(*) FROM extractions").fetchone()[0] == len(good)
    assert set(failed) == set(bad)
    for u, (kind, err) in failed.items():
        assert u in err and kind == ("transient" if re.search(r"/status/5|/reset", u) else "permanent"), (u, err)


@pytest.mark.browser
@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_interrupted_file_output_resumes_in_order(tmp_path: Path, site: Site, fmt: str) -> None:
    """A file output grows as pages finish (``.part``), in input order; interrupted, it is not
    at the output's name; resumed, what a killed run appended after its last committed page
    is dropped and every page is there once."""
    urls = [site.url(f"p/{n}.html") for n in range(300, 309)]
    out = tmp_path / f"out.{fmt}"
    part = Path(f"{out}.part")
    sizes: list[int] = []

    def stop_after_four(done: int, total: int, outcome: object) -> None:
        sizes.append(part.stat().st_size)
        if done == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        visx.run_batch(urls, out, CFG, policy=FAST, progress=stop_after_four)
    assert sizes == sorted(sizes) and sizes[0] > 0 and len(set(sizes)) == 4  # streamed, page by page
    assert not out.exists() and part.exists() and Path(f"{out}.jobs.sqlite").exists()
    with part.open("ab") as fh:
        fh.write(b'{"source": "half a page in flight at the kill", "title": "P999')
    summary = visx.run_batch(urls, out, CFG, policy=FAST, resume=True)
    assert (summary.ok, summary.skipped, summary.failed) == (5, 4, 0)
    assert not part.exists() and not Path(f"{out}.jobs.sqlite").exists()
    if fmt == "csv":
        with out.open(newline="", encoding="utf-8") as fh:
            rows = [(r["source"], r["title"]) for r in csv.DictReader(fh)]
    else:
        rows = [(d["source"], d["fields"].get("title", "")) for d in map(json.loads, out.read_text().splitlines())
                if d["rank"] == 1]
    assert [s for s, _ in rows] == [u for u in urls for _ in range(records_of(_page_no(u) or 0))]
    got = [k for _, t in rows for k in re.findall(r"P\d+-R\d+", t)]
    assert got == [f"P{n}-R{k}" for n in range(300, 309) for k in range(records_of(n))]


def test_a_database_from_before_partial_pages_gets_the_columns(tmp_path: Path) -> None:
    """``extractions.partial``/``partial_reason`` are added to a database written without them,
    so resuming an older batch keeps flagging partial pages."""
    from visx.export.sqlite import connect

    db = tmp_path / "old.sqlite"
    con = sqlite3.connect(db)
    con.executescript("""
        CREATE TABLE extractions (id INTEGER PRIMARY KEY, source TEXT NOT NULL UNIQUE, url TEXT, title TEXT,
            created TEXT, exported TEXT, timings TEXT);
        CREATE TABLE regions (id INTEGER PRIMARY KEY, extraction_id INTEGER NOT NULL REFERENCES extractions(id),
            rank INTEGER, data INTEGER, role TEXT, score REAL, xpath TEXT, bbox TEXT, n_records INTEGER,
            table_name TEXT, columns TEXT);
        INSERT INTO extractions (source) VALUES ('a.html');""")
    con.commit()
    con.close()
    con = connect(db)
    cols = {r[1] for r in con.execute("PRAGMA table_info(extractions)")}
    assert {"partial", "partial_reason"} <= cols
    assert con.execute("SELECT partial, partial_reason FROM extractions").fetchall() == [(0, None)]
    con.close()
