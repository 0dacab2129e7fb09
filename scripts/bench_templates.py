"""Benchmark templates (issue 13): ``apply`` against ``extract`` on the same page.

Targets: on a saved snapshot, applying a learned template is at least 10x faster
than extracting it (``visx.analyse``); with ``--static`` the template runs on the
raw HTML through lxml, with no browser, at least 50x faster than rendering.

Default run: a deterministic sample of ``--sample`` snapshots (every k-th file, by
name) of ``--snapshots`` (the dev testbed cache, ``.eval-cache/snapshots``), plus
one testbed page rendered now (skip with ``--no-render``). Per page a template is
learned (analyse + learn, not timed), then, in-process with the snapshot already in
memory, the best of ``--repeat`` runs (CPU time, see below) of ``visx.analyse(snapshot)`` and of
``apply_template(snapshot, template, repair=False, strict=False)`` (repair re-mines
the page, so a page where the template reports a problem would time a second
extraction: such pages are counted and listed, not timed with repair). Also timed:
both including reading the snapshot file.

``--static``: ``--static-pages`` testbed ``.htm`` pages, each rendered by Chromium
(JavaScript off, as ``scripts/bench_render.py`` does; median of ``--repeat`` renders
after a warm-up, the browser already up) against ``apply_template(path, template,
static=True)`` (the raw HTML through lxml; the template learned from the rendered
page), timed after the browser is shut down. The ratio is also given with a browser
launch added to the render (what a one-page ``visx extract`` pays).

``--verify``: every snapshot of ``--snapshots`` (or the sample with ``--sample``
given), each template applied to its own page and to the other cached pages of its
site, with the fast path (native XPath on the node table, items read per holder, the table built
by ``visx.template.build.build_light``) and with the reference implementation (lxml tree,
whole record trees, the schema stage's whole ``build_table``): the rows
(``to_records(all_columns=True)``), record parts, problems and the XPaths used must
be identical; where the testbed holds the page's HTML, the template also runs on it as
``--static`` reads it (XPaths on its node table, items per element) against the reference
(lxml XPath on the parsed tree).
Exit status 1 when any differ.

    .venv/bin/python scripts/bench_templates.py [--sample 30] [--repeat 7] [--no-render]
    .venv/bin/python scripts/bench_templates.py --static [--static-pages 5]
    .venv/bin/python scripts/bench_templates.py --verify [--sample N]
    .venv/bin/python scripts/bench_templates.py --json   # one JSON line at the end

Timings: in-process work (``analyse``, ``apply``, its parts, the static apply) is the best of
``--repeat`` runs in CPU time of this process (``time.process_time``, the garbage collector off
while a series runs, as ``timeit`` does): on a shared, loaded machine wall time mostly measures
the other processes, CPU time and the best run the work itself. A render is timed in wall time
(``time.perf_counter``, the median of ``--repeat``), since its work is done in the browser's
processes. Compare ratios measured in the same run rather than absolute times across runs.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from visx import analyse, load_snapshot  # noqa: E402
from visx.config import Config, RenderConfig  # noqa: E402
from visx.errors import VisxError  # noqa: E402
from visx.model import PageSnapshot  # noqa: E402
from visx.template import Template, apply_template  # noqa: E402
from visx.template.apply import build_extraction, run_template  # noqa: E402
from visx.template.learn import learn  # noqa: E402
from visx.template.tree import from_snapshot  # noqa: E402
from visx.template.verify import verify  # noqa: E402

DEFAULT_SNAPSHOTS = ROOT / ".eval-cache" / "snapshots"
DEFAULT_TESTBED = ROOT.parent / "shared" / "testbed" / "dev"
TARGET_APPLY = 10.0
"""analyse / apply on a saved snapshot."""
TARGET_STATIC = 50.0
"""render / static apply on the raw HTML."""


def median_time(fn: Callable[[], object], repeat: int) -> float:
    """Median wall seconds of ``repeat`` calls after one warm-up call (a render: its work is in
    the browser's processes); the garbage collector is run before the series and kept off while
    it runs, as ``timeit`` does."""
    return _series(fn, repeat, time.perf_counter, statistics.median)


def cpu_time(fn: Callable[[], object], repeat: int) -> float:
    """The best of ``repeat`` calls after one warm-up call, in this process's CPU seconds (work
    done in-process: the least disturbed run by other processes on a shared machine)."""
    return _series(fn, repeat, time.process_time, min)


def _series(fn: Callable[[], object], repeat: int, clock: Callable[[], float],
            pick: Callable[[list[float]], float]) -> float:
    fn()
    gc.collect()
    out = []
    was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            t0 = clock()
            fn()
            out.append(clock() - t0)
    finally:
        if was:
            gc.enable()
    return pick(out)


def sample_files(folder: Path, k: int | None) -> list[Path]:
    """Every file, or ``k`` of them spread evenly over the sorted names (deterministic)."""
    files = sorted(folder.glob("*.json.gz"))
    if k is None or k >= len(files):
        return files
    step = len(files) / k
    return [files[int(i * step)] for i in range(k)]


def learned(snap: PageSnapshot, cfg: Config) -> Template | None:
    try:
        return learn(analyse(snap, cfg))
    except VisxError:
        return None


def _apply(source: str | Path | PageSnapshot, t: Template, cfg: Config, *, static: bool = False) -> Any:
    return apply_template(source, t, cfg, repair=False, strict=False, static=static)


@dataclass(slots=True)
class Row:
    page: str
    nodes: int
    records: int
    analyse: float
    apply: float
    load_analyse: float = 0.0
    load_apply: float = 0.0
    run: float = 0.0
    """Of apply: ``run_template`` (records, XPaths, items)."""
    build: float = 0.0
    """Of apply: ``build_extraction`` (the schema stage types the columns)."""
    verify: float = 0.0
    """Of apply: ``verify`` (mistyped and clashing columns)."""
    problems: list[str] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        return self.analyse / self.apply if self.apply > 0 else float("inf")

    @property
    def ratio_loaded(self) -> float:
        return self.load_analyse / self.load_apply if self.load_apply > 0 else float("inf")


def bench_snapshot(label: str, snap: PageSnapshot, path: Path | None, cfg: Config, repeat: int) -> Row | None:
    t = learned(snap, cfg)
    if t is None:
        return None
    res = _apply(snap, t, cfg)
    row = Row(label, len(snap.nodes), len(res.extraction.main.records) if res.extraction.main else 0,
              cpu_time(lambda: analyse(snap, cfg), repeat), cpu_time(lambda: _apply(snap, t, cfg), repeat),
              problems=[str(p) for p in res.problems])
    if path is not None:
        row.load_analyse = cpu_time(lambda: analyse(load_snapshot(path), cfg), max(3, repeat // 2))
        row.load_apply = cpu_time(lambda: _apply(load_snapshot(path), t, cfg), max(3, repeat // 2))
    row.run = cpu_time(lambda: run_template(from_snapshot(snap.nodes), t), repeat)
    run = run_template(from_snapshot(snap.nodes), t)
    row.verify = cpu_time(lambda: verify(run, t), repeat)
    row.build = cpu_time(lambda: build_extraction(snap, t, run, cfg, {}), repeat)
    return row


def render_cfg() -> Config:
    return Config(render=RenderConfig(javascript=False))


def testbed_pages(root: Path, count: int) -> list[Path]:
    """``count`` testbed pages spread over the index (every k-th entry), as bench_render picks them."""
    index = json.loads((root / "index.json").read_text(encoding="utf-8"))
    step = max(1, len(index) // count)
    return [root / e["id"] / e["page"] for e in index[::step][:count]]


def rendered_row(page: Path, cfg: Config, repeat: int) -> Row | None:
    from visx import render

    snap = render(page, render_cfg())
    return bench_snapshot(f"rendered: {page.parent.parent.name}/{page.parent.name}", snap, None, cfg, repeat)


def summary(values: list[float]) -> str:
    if not values:
        return "-"
    return f"median {statistics.median(values):.1f}x, worst {min(values):.1f}x, best {max(values):.1f}x"


def run_apply(args: argparse.Namespace, cfg: Config) -> dict[str, Any]:
    files = sample_files(args.snapshots, args.sample)
    rows: list[Row] = []
    skipped: list[str] = []
    for f in files:
        row = bench_snapshot(f.name.removesuffix(".json.gz"), load_snapshot(f), f, cfg, args.repeat)
        if row is None:
            skipped.append(f.name)
            continue
        rows.append(row)
        print(f"{row.page:40.40} {row.nodes:>5} {row.records:>4} {row.analyse * 1000:>8.1f} {row.apply * 1000:>7.2f}"
              f" {row.ratio:>6.1f}x {row.run * 1000:>6.2f} {row.build * 1000:>6.2f} {row.verify * 1000:>6.2f}"
              f" {row.load_analyse * 1000:>8.1f} {row.load_apply * 1000:>8.1f}"
              f" {row.ratio_loaded:>6.2f}x{'  (problems)' if row.problems else ''}", flush=True)
    if not args.no_render:
        pages = testbed_pages(args.testbed, 1)
        row = rendered_row(pages[0], cfg, args.repeat) if pages else None
        if row is not None:
            rows.append(row)
            print(f"{row.page:40.40} {row.nodes:>5} {row.records:>4} {row.analyse * 1000:>8.1f} "
                  f"{row.apply * 1000:>7.2f} {row.ratio:>6.1f}x {row.run * 1000:>6.2f} {row.build * 1000:>6.2f} "
                  f"{row.verify * 1000:>6.2f}", flush=True)
    ratios = [r.ratio for r in rows]
    loaded = [r.ratio_loaded for r in rows if r.load_apply > 0]
    med = statistics.median(ratios) if ratios else 0.0
    print(f"\nanalyse / apply, snapshot in memory ({len(rows)} pages, {len(skipped)} without a template): "
          f"{summary(ratios)}")
    print(f"  pages at {TARGET_APPLY:g}x or more: {sum(r >= TARGET_APPLY for r in ratios)}/{len(ratios)}; "
          f"target {TARGET_APPLY:g}x on the median page: {'MET' if med >= TARGET_APPLY else 'NOT MET'}")
    print(f"load + analyse / load + apply (reading the .json.gz included): {summary(loaded)}")
    if rows:
        shares = {k: statistics.median([getattr(r, k) / r.apply for r in rows if r.apply > 0])
                  for k in ("run", "build", "verify")}
        print("where apply's time goes (median share over the pages): "
              + ", ".join(f"{k} {v:.0%}" for k, v in shares.items())
              + f", the rest (matching, extraction, types) {max(0.0, 1 - sum(shares.values())):.0%}")
    if any(r.problems for r in rows):
        print("templates reporting problems on their own page (timed without repair):")
        for r in rows:
            if r.problems:
                print(f"  {r.page}: {'; '.join(r.problems)[:150]}")
    return {"apply": [asdict(r) for r in rows], "apply_median_ratio": med,
            "apply_worst_ratio": min(ratios, default=0.0), "skipped": skipped}


def run_static(args: argparse.Namespace, cfg: Config) -> dict[str, Any]:
    """Renders first (browser up), then, with the browser shut down, the static applies."""
    from visx import render
    from visx.render import shutdown

    rcfg = render_cfg()
    learned_pages: list[tuple[str, Path, Template, float]] = []
    launches = []
    try:
        for _ in range(3):  # a fresh browser on a tiny page, as scripts/bench_render.py times it
            shutdown()
            launches.append(render("<html><body><p>x</p></body></html>", rcfg).timings.get("launch", 0.0))
        launch = statistics.median(launches)
        for page in testbed_pages(args.testbed, args.static_pages):
            label = f"{page.parent.parent.name}/{page.parent.name}"
            t = learned(render(page, rcfg), cfg)
            if t is None:
                print(f"{label:48.48} no template learned; skipped")
                continue
            t_render = median_time(lambda p=page: render(p, rcfg), args.repeat)  # type: ignore[misc]
            learned_pages.append((label, page, t, t_render))
    finally:
        shutdown()
    out = []
    for label, page, t, t_render in learned_pages:
        try:
            res = _apply(page, t, cfg, static=True)
        except VisxError as e:
            print(f"{label:48.48} static apply failed: {e}")
            continue
        t_static = cpu_time(lambda p=page, t=t: _apply(p, t, cfg, static=True), args.repeat)  # type: ignore[misc]
        n_static = len(res.extraction.main.records) if res.extraction.main else 0
        n_rendered = t.records.counts[0] if t.records.counts else 0
        ratio = t_render / t_static if t_static > 0 else float("inf")
        cold = (t_render + launch) / t_static if t_static > 0 else float("inf")
        out.append({"page": label, "render": t_render, "static_apply": t_static, "ratio": ratio,
                    "ratio_with_launch": cold, "records_rendered": n_rendered, "records_static": n_static})
        print(f"{label:48.48} render {t_render * 1000:8.1f} ms  static apply {t_static * 1000:7.1f} ms  "
              f"{ratio:6.1f}x  (with launch {cold:6.1f}x)  records {n_static}/{n_rendered}", flush=True)
    ratios = [r["ratio"] for r in out]
    med = statistics.median(ratios) if ratios else 0.0
    print(f"\nrender (browser already up) / static apply ({len(out)} pages): {summary(ratios)}")
    print(f"render with a browser launch ({launch * 1000:.0f} ms) / static apply: "
          f"{summary([r['ratio_with_launch'] for r in out])}")
    print(f"  target {TARGET_STATIC:g}x on the median page: {'MET' if med >= TARGET_STATIC else 'NOT MET'}; "
          f"pages at {TARGET_STATIC:g}x or more: {sum(r >= TARGET_STATIC for r in ratios)}/{len(ratios)}")
    return {"static": out, "static_median_ratio": med, "static_worst_ratio": min(ratios, default=0.0),
            "launch": launch}


def run_verify(folder: Path, sample: int | None, cfg: Config, testbed: Path) -> int:
    """Fast path against the reference on every page, and each template on its site's other pages;
    with ``--static``'s tree too, where the testbed holds the page's HTML."""
    from visx.template.equivalence import (
        differences,
        holder_differences,
        static_differences,
        xpath_differences,
    )

    files = sample_files(folder, sample)
    by_site: dict[str, list[Path]] = {}
    for f in files:
        by_site.setdefault(f.name.split("__")[0], []).append(f)
    checked = failed = 0
    t0 = time.perf_counter()
    for site, pages in sorted(by_site.items()):
        snaps = {f: load_snapshot(f) for f in pages}
        for f in pages:
            t = learned(snaps[f], cfg)
            if t is None:
                continue
            for g in pages:
                diffs = differences(snaps[g], t, cfg)
                if g == f:
                    diffs += xpath_differences(snaps[g], t) + holder_differences(snaps[g], t)
                    html = _testbed_html(testbed, g)
                    if html is not None:
                        diffs += static_differences(html.read_bytes(), html.resolve().as_uri(), t, cfg)
                checked += 1
                if diffs:
                    failed += 1
                    print(f"DIFFERENT: template of {f.name} on {g.name}:")
                    for d in diffs[:8]:
                        print(f"  {d}")
        print(f"{site}: {len(pages)} page(s), {checked} applications checked so far, {failed} different "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
    print(f"\n{checked} template applications checked ({len(files)} pages, each template on every page of its "
          f"site): {failed} differ from the reference")
    return 1 if failed else 0


def _testbed_html(testbed: Path, snapshot: Path) -> Path | None:
    """The testbed page a cached snapshot was rendered from (``site__query.json.gz``)."""
    site, _, query = snapshot.name.removesuffix(".json.gz").partition("__")
    pages = sorted((testbed / site / query).glob("*.htm*")) if query else []
    return pages[0] if pages else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    ap.add_argument("--snapshots", type=Path, default=DEFAULT_SNAPSHOTS,
                    help="folder of saved snapshots (*.json.gz); default .eval-cache/snapshots")
    ap.add_argument("--sample", type=int, default=None,
                    help="pages taken from --snapshots, spread over the names (default 30; "
                         "--verify: all)")
    ap.add_argument("--repeat", type=int, default=7, help="timed runs per figure (median; default 7)")
    ap.add_argument("--testbed", type=Path, default=DEFAULT_TESTBED,
                    help="testbed folder with index.json and <site>/<query>/*.htm (default ../shared/testbed/dev)")
    ap.add_argument("--no-render", action="store_true", help="skip the freshly rendered page (no browser)")
    ap.add_argument("--static", action="store_true", help="render vs apply --static on testbed pages")
    ap.add_argument("--static-pages", type=int, default=5, help="testbed pages for --static (default 5)")
    ap.add_argument("--verify", action="store_true",
                    help="check the fast path gives exactly the reference results (exit 1 if not)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON line at the end")
    args = ap.parse_args(argv)
    cfg = Config()
    if args.verify:
        return run_verify(args.snapshots, args.sample, cfg, args.testbed)
    if args.sample is None:
        args.sample = 30
    result: dict[str, Any] = {}
    if args.static:
        result.update(run_static(args, cfg))
    else:
        print(f"{'page':40} {'nodes':>5} {'recs':>4} {'analyse':>8} {'apply':>7} {'ratio':>7} {'run':>6} "
              f"{'build':>6} {'verify':>6} {'ld+anl':>8} {'ld+apl':>8} {'ratio':>7}   (ms)")
        result.update(run_apply(args, cfg))
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
