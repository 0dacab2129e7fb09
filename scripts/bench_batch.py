"""Batches measured: speed by render workers, peak memory, and a SIGKILL halfway then ``--resume``.

    .venv/bin/python scripts/bench_batch.py                       # 300 pages x 1/2/4 workers, 2,000 for memory
    .venv/bin/python scripts/bench_batch.py --pages 60 --memory-pages 200 --kill-pages 60   # a quick run
    .venv/bin/python scripts/bench_batch.py --pages 0 --memory-pages 0 --kill-pages 330 --kill-every 11 \
        --kill-after 45 --kill-js                                # the issue's acceptance run: 30 faulty of 330
    .venv/bin/python scripts/bench_batch.py --engine dask --pages 300 --memory-pages 0 --kill-pages 0

The pages come from a real local HTTP server (``tests/batch_site.py``): list pages of three
record schemas, 6 to 11 records each, and for the kill run one URL in ten misbehaving
(404, 410, 500, 502, a PDF, a reset connection, a hang past ``--timeout``).

1. Speed: ``visx.run_batch`` of ``--pages`` pages into SQLite with 1, 2 and 4 workers: pages/s
   and the ratio to one worker.
2. Memory: ``visx extract --sources-from`` over ``--memory-pages`` pages in a subprocess; the
   memory of it and its Chromium processes summed (PSS), sampled every 0.25 s (``/proc``): peak, and
   the total at the first and last tenth of the run (flat or growing?).
3. Kill and resume: ``visx extract`` over ``--kill-pages`` URLs (10% faulty) killed with
   SIGKILL when half its sources are in the job list, then run again with ``--resume``:
   good pages lost, pages duplicated, faulty URLs without a failure and its reason.

Prints the figures, then one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from batch_site import Site, batch_urls, records_of  # noqa: E402

import visx  # noqa: E402
from visx.config import Config, RenderConfig  # noqa: E402


def tree_rss(pid: int) -> int:
    """RSS in bytes of ``pid`` and all its descendants (from /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            stat = Path(f"/proc/{d}/stat").read_text()
            fields = stat[stat.rindex(")") + 2:].split()
            children.setdefault(int(fields[1]), []).append(int(d))
        except (OSError, ValueError, IndexError):
            continue
        rss[int(d)] = _pss(int(d))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo.extend(children.get(p, []))
    return total


def _pss(pid: int) -> int:
    """Proportional set size (shared pages split among the processes that share them: Chromium's
    processes share most of their memory, and their RSS summed would count it many times)."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


def group_alive(pgid: int, wait_s: float) -> bool:
    """Whether a process of group ``pgid`` is still running after ``wait_s`` seconds."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        if time.monotonic() > deadline:
            return True
        time.sleep(0.1)


def speed(site: Site, pages: int, workers: list[int], cfg: Config, tmp: Path) -> dict[int, float]:
    visx.extract(site.url("p/0.html?warm"), cfg)  # the browser starts outside the timings
    rates: dict[int, float] = {}
    for w in workers:
        urls = [site.url(f"p/{n}.html?w={w}") for n in range(pages)]
        s = visx.run_batch(urls, tmp / f"speed{w}.sqlite", cfg, workers=w)
        rates[w] = s.ok / s.wall_s
        print(f"speed: {w} worker(s): {s.ok}/{pages} pages in {s.wall_s:.1f} s, {rates[w]:.2f} pages/s, "
              f"{rates[w] / rates[workers[0]]:.2f}x {workers[0]} worker(s)", flush=True)
    return rates


def cli(listing: Path, out: Path, timeout: float, *extra: str) -> list[str]:
    return [sys.executable, "-m", "visx", "extract", "--sources-from", str(listing), "-o", str(out),
            "--no-js", "--timeout", str(timeout), "-q", *extra]


def memory(site: Site, pages: int, tmp: Path, limit_s: float = 0.0) -> dict[str, float]:
    """``limit_s``: stop the run (SIGTERM) after that long and report the pages it did."""
    listing = tmp / "mem.txt"
    listing.write_text("\n".join(site.url(f"p/{n}.html?m=1") for n in range(pages)) + "\n")
    db = tmp / "mem.sqlite"
    proc = subprocess.Popen(cli(listing, db, 10), stderr=subprocess.DEVNULL, start_new_session=True)
    samples: list[tuple[float, int]] = []
    t0 = time.monotonic()
    while proc.poll() is None:
        samples.append((time.monotonic() - t0, tree_rss(proc.pid)))
        if limit_s and time.monotonic() - t0 > limit_s:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait()
            break
        time.sleep(0.25)
    wall = time.monotonic() - t0
    with sqlite3.connect(db) as con:
        pages = con.execute("SELECT count(*) FROM jobs WHERE status = 'done'").fetchone()[0]
    tenth = max(len(samples) // 10, 1)
    mb = 1 / 2**20
    out = {"pages": pages, "wall_s": round(wall, 1), "peak_mb": round(max(r for _, r in samples) * mb),
           "first_tenth_mb": round(max(r for _, r in samples[:tenth]) * mb),
           "last_tenth_mb": round(max(r for _, r in samples[-tenth:]) * mb)}
    print(f"memory: {pages} pages in {wall:.0f} s; python + chromium PSS peak {out['peak_mb']} MB; "
          f"max over the first tenth {out['first_tenth_mb']} MB, over the last tenth {out['last_tenth_mb']} MB",
          flush=True)
    return out


def kill_and_resume(site: Site, pages: int, timeout: float, tmp: Path, *, faulty_every: int = 10,
                    after_s: float = 0.0, js: bool = False) -> dict[str, float]:
    urls, bad = batch_urls(site, pages, faulty_every, js=js)
    urls = [u + "?k=1" if "/p/" in u else u for u in urls]
    good = [u for u in urls if u not in bad]
    listing = tmp / "kill.txt"
    listing.write_text("\n".join(urls) + "\n")
    db = tmp / "kill.sqlite"
    cmd = cli(listing, db, timeout, "--retries", "1")
    if js:  # the script faults (an endless loop, a reload loop) need JavaScript on
        cmd.remove("--no-js")
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stderr=subprocess.DEVNULL, start_new_session=True)
    settled = 0

    def due() -> bool:  # at --kill-after seconds, else when half the sources are settled
        return time.monotonic() - t0 >= after_s if after_s else settled >= len(urls) // 2

    while proc.poll() is None and not due():
        time.sleep(0.2)
        try:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as con:
                settled = con.execute("SELECT count(*) FROM jobs WHERE status != 'pending'").fetchone()[0]
        except sqlite3.Error:
            continue
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    killed_at = time.monotonic() - t0
    orphans = group_alive(proc.pid, 5.0)  # the browser it started, 5 s after the kill
    if orphans:
        os.killpg(proc.pid, signal.SIGKILL)
    t1 = time.monotonic()
    try:  # the run must end on its own: past this it is reported as hung
        again = subprocess.run([*[c for c in cmd if c != "-q"], "--resume"], capture_output=True, text=True,
                               timeout=RESUME_LIMIT_S)
    except subprocess.TimeoutExpired as e:
        again = subprocess.CompletedProcess(e.cmd, -9, "", str(e.stderr or ""))
    resume_s = time.monotonic() - t1
    done_n = failed_n = 0
    skipped = re.search(r"(\d+) skipped", again.stderr)
    con = sqlite3.connect(db)
    counts: dict[str, int] = {}
    for (name,) in con.execute("SELECT table_name FROM record_tables"):
        for source, n in con.execute(f'SELECT e.source, count(*) FROM "{name}" t JOIN extractions e '
                                     "ON e.id = t.extraction_id GROUP BY e.source"):
            counts[source] = counts.get(source, 0) + n
    failed = dict(con.execute("SELECT source, error FROM jobs WHERE status = 'failed'").fetchall())
    done_n = con.execute("SELECT count(*) FROM jobs WHERE status = 'done'").fetchone()[0]
    failed_n = len(failed)
    pending = con.execute("SELECT count(*) FROM jobs WHERE status = 'pending'").fetchone()[0]
    extra = con.execute("SELECT count(*) FROM extractions WHERE source NOT IN (SELECT source FROM jobs "
                        "WHERE status = 'done')").fetchone()[0]
    con.close()
    wrong_failed = sorted(u for u in failed if u not in bad)
    reasons = {re.sub(r"\?i=\d+", "", u.rsplit("/", 1)[-1]): (failed.get(u) or "")[:140] for u in bad}
    expected = {u: records_of(int(re.search(r"/p/(\d+)", u).group(1))) for u in good}  # type: ignore[union-attr]
    lost = sum(1 for u, n in expected.items() if counts.get(u, 0) < n)
    dup = sum(1 for u, n in expected.items() if counts.get(u, 0) > n)
    unreported = sum(1 for u in bad if u not in failed or u not in failed[u])
    out = {"urls": len(urls), "faulty": len(bad), "js": js, "killed_after_s": round(killed_at, 1),
           "done": done_n, "failed": failed_n, "pending_after_resume": pending,
           "good_pages_failed": len(wrong_failed), "extractions_not_done": extra,
           "settled_at_kill": settled, "skipped_on_resume": int(skipped.group(1)) if skipped else 0,
           "resume_s": round(resume_s, 1), "pages_lost": lost, "pages_duplicated": dup,
           "faulty_without_reason": unreported, "browser_outlived_kill": orphans, "resume_exit": again.returncode,
           "traceback": "Traceback" in again.stderr}
    print(f"kill: {len(urls)} URLs ({len(bad)} faulty), SIGKILL after {killed_at:.1f} s with {settled} settled; "
          f"resume skipped {out['skipped_on_resume']} and took {resume_s:.1f} s (exit {again.returncode}); "
          f"good pages lost {lost}, duplicated {dup}; faulty URLs without a failure and reason {unreported}; "
          f"browser still running 5 s after the kill: {orphans}", flush=True)
    print(f"kill: after resume {done_n} done, {failed_n} failed, {pending} pending; good pages failed "
          f"{len(wrong_failed)} {wrong_failed[:3]}", flush=True)
    for kind, why in sorted(reasons.items()):
        print(f"  {kind}: {why}", flush=True)
    out["reasons"] = reasons  # type: ignore[assignment]
    return out


RESUME_LIMIT_S = 1200.0
"""The resumed run is stopped past this and counted as not ending on its own."""


def _warm(url: str) -> float:
    """One render in this worker process, so that its browser starts outside the timings."""
    t = time.perf_counter()
    visx.render(url, Config(render=RenderConfig(javascript=False)))
    return time.perf_counter() - t


def _noop(n: int) -> int:
    return n


def dask_runs(site: Site, pages: int, local_workers: int, cfg: Config, tmp: Path) -> dict[str, object]:
    """``--engine dask``: the local pool, then LocalClusters of 1 and 2 worker processes (2 pages
    at once each), on the same pages; a worker SIGKILLed a third of the way through a run; the
    scheduler's own cost per task (no-op tasks through a window as the engine keeps)."""
    from distributed import Client, LocalCluster, as_completed

    from visx.batch.engines.dask import THREADS_PER_WORKER, DaskEngine

    out: dict[str, object] = {"pages": pages, "threads_per_worker": THREADS_PER_WORKER}
    visx.extract(site.url("p/0.html?warm"), cfg)
    urls = [site.url(f"p/{n}.html?e=local") for n in range(pages)]
    s = visx.run_batch(urls, tmp / "local.sqlite", cfg, workers=local_workers)
    out[f"local_{local_workers}"] = round(s.ok / s.wall_s, 2)
    print(f"dask: local pool of {local_workers}: {s.ok}/{pages} pages in {s.wall_s:.1f} s, "
          f"{s.ok / s.wall_s:.2f} pages/s", flush=True)
    for n in (1, 2):
        t0 = time.perf_counter()
        with LocalCluster(n_workers=n, threads_per_worker=THREADS_PER_WORKER, processes=True,
                          dashboard_address=":0", silence_logs=40) as lc, Client(lc) as client:
            up = time.perf_counter() - t0
            client.run(_warm, site.url("p/0.html?warm"))
            urls = [site.url(f"p/{k}.html?e=dask{n}") for k in range(pages)]
            s = visx.run_batch(urls, tmp / f"dask{n}.sqlite", cfg, engine=DaskEngine(lc.scheduler_address))
            out[f"dask_{n}"] = round(s.ok / s.wall_s, 2)
            out[f"cluster_start_s_{n}"] = round(up, 1)
            print(f"dask: LocalCluster of {n} worker(s) (started in {up:.1f} s, browsers warmed): "
                  f"{s.ok}/{pages} pages in {s.wall_s:.1f} s, {s.ok / s.wall_s:.2f} pages/s", flush=True)
            if n == 2:
                out["kill"] = _kill_a_worker(site, pages, cfg, tmp, lc, client)
                tasks = 2000
                t1 = time.perf_counter()
                window, todo, flying = 8, iter(range(tasks)), 0
                done = as_completed()
                for i in todo:
                    done.add(client.submit(_noop, i, pure=False))
                    flying += 1
                    if flying >= window:
                        next(done).release()
                        flying -= 1
                for f in done:
                    f.release()
                per = (time.perf_counter() - t1) / tasks
                out["scheduler_ms_per_task"] = round(per * 1000, 2)
                print(f"dask: scheduler round trip: {tasks} no-op tasks, window {window}: "
                      f"{per * 1000:.2f} ms a task", flush=True)
    return out


def _kill_a_worker(site: Site, pages: int, cfg: Config, tmp: Path, lc: object, client: object) -> dict[str, int]:
    from visx.batch.engines.dask import DaskEngine

    urls = [site.url(f"p/{k}.html?e=kill") for k in range(pages)]
    pids: dict[str, int] = client.run(os.getpid)  # type: ignore[attr-defined]
    victim = sorted(pids.items())[0]
    killed: list[int] = []

    def progress(done: int, total: int, _o: object) -> None:
        if done == total // 3 and not killed:
            os.kill(victim[1], signal.SIGKILL)
            killed.append(done)

    before = sum(site.requests[f"/p/{k}.html"] for k in range(pages))
    s = visx.run_batch(urls, tmp / "kill.sqlite", cfg, engine=DaskEngine(lc.scheduler_address),  # type: ignore[attr-defined]
                       progress=progress)
    fetched_twice = sum(site.requests[f"/p/{k}.html"] for k in range(pages)) - before - pages
    con = sqlite3.connect(tmp / "kill.sqlite")
    counts: dict[str, int] = {}
    for (name,) in con.execute("SELECT table_name FROM record_tables"):
        for source, c in con.execute(f'SELECT e.source, count(*) FROM "{name}" t JOIN extractions e '
                                     "ON e.id = t.extraction_id GROUP BY e.source"):
            counts[source] = counts.get(source, 0) + c
    con.close()
    expected = {u: records_of(k) for k, u in enumerate(urls)}
    lost = sum(1 for u, c in expected.items() if counts.get(u, 0) < c)
    dup = sum(1 for u, c in expected.items() if counts.get(u, 0) > c)
    out = {"killed_after_pages": killed[0] if killed else -1, "ok": s.ok, "failed": s.failed,
           "pages_fetched_again": fetched_twice, "pages_lost": lost, "pages_duplicated": dup}
    print(f"dask: worker {victim[0]} (pid {victim[1]}) SIGKILLed after {out['killed_after_pages']} pages written: "
          f"{s.ok} ok, {s.failed} failed in {s.wall_s:.1f} s; {fetched_twice} page(s) fetched again (rerun "
          f"elsewhere); lost {lost}, duplicated {dup}", flush=True)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=300, help="pages of the speed runs (default 300)")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--memory-pages", type=int, default=2000, help="pages of the memory run (0: skip it)")
    ap.add_argument("--memory-limit", type=float, default=0.0,
                    help="stop the memory run after this many seconds and report the pages it did (0: no limit)")
    ap.add_argument("--kill-pages", type=int, default=300, help="URLs of the kill-and-resume run (0: skip it)")
    ap.add_argument("--kill-every", type=int, default=10,
                    help="one URL in this many misbehaves in the kill run (11 with --kill-pages 330: 30 faulty)")
    ap.add_argument("--kill-after", type=float, default=0.0,
                    help="SIGKILL the kill run after this many seconds (default: when half its sources are settled)")
    ap.add_argument("--kill-js", action="store_true",
                    help="the kill run with JavaScript on, adding the script faults (an endless loop, a reload loop)")
    ap.add_argument("--timeout", type=float, default=5.0, help="--timeout of every page (the hanging URLs wait it out)")
    ap.add_argument("--delay", type=float, default=0.0,
                    help="seconds the server waits before each page (a remote server's latency; default 0)")
    ap.add_argument("--js", action="store_true", help="render with JavaScript on (the pages have none)")
    ap.add_argument("--engine", choices=("local", "dask"), default="local",
                    help="dask: pages/s of the local pool (first --workers) and LocalClusters of 1 and 2 "
                    "workers, a worker killed mid-run, the scheduler's cost a task (pip install 'visx[dask]')")
    args = ap.parse_args()
    site = Site(delay=args.delay)
    cfg = Config(render=RenderConfig(javascript=args.js, timeout_s=args.timeout))
    result: dict[str, object] = {"bench": "batch", "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="visx-bench-batch-") as d:
        tmp = Path(d)
        if args.engine == "dask":
            result["dask"] = dask_runs(site, args.pages, 2, cfg, tmp)  # the local pool at its default, -j 2
        elif args.pages:
            rates = speed(site, args.pages, args.workers, cfg, tmp)
            result["pages_per_s"] = {str(k): round(v, 2) for k, v in rates.items()}
        if args.memory_pages:
            result["memory"] = memory(site, args.memory_pages, tmp, args.memory_limit)
        if args.kill_pages:
            result["kill"] = kill_and_resume(site, args.kill_pages, args.timeout, tmp, faulty_every=args.kill_every,
                                             after_s=args.kill_after, js=args.kill_js)
    threading.Thread(target=site.stop, daemon=True).start()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
