"""``run_batch``: many sources into one output, resumable, retrying, in input order.

    summary = visx.run_batch(urls, "out.sqlite", cfg, resume=True, retries=2, workers=2)

Every source gets a row in the job list (:mod:`visx.batch.jobs`); each finished page is
written at once, with its ``done`` mark (:mod:`visx.batch.sinks`), so a run that is
killed keeps every page written before, and ``resume=True`` skips the sources done or
failed for good and runs the rest (the transient failures and the pages in flight)
again, duplicating nothing. Transient failures are retried with backoff
(:mod:`visx.batch.retry`). Pages are written in input order (on resume, the pages of
the new run follow those already written). The same source given twice runs once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from visx.batch.defaults import DEFAULT_RETRIES
from visx.batch.engines import Engine, LocalEngine
from visx.batch.many import DEFAULT_WORKERS, source_label
from visx.batch.retry import RetryPolicy
from visx.batch.sinks import Sink, open_sink
from visx.batch.work import Outcome, Task, WorkSettings
from visx.config import Config
from visx.model import PageSnapshot

if TYPE_CHECKING:
    from visx.render.page_load import PageAction

BatchProgress = Callable[[int, int, Outcome], None]
"""``progress(done, total, outcome)`` after each page is written (or its failure recorded):
``total`` counts the sources this run works on (not those skipped by resume)."""


@dataclass(slots=True)
class BatchSummary:
    """What a batch did."""

    output: Path
    sources: int = 0
    """Sources given (duplicates included)."""
    ok: int = 0
    failed: int = 0
    retried: int = 0
    """Sources that needed more than one attempt (ok or not)."""
    skipped: int = 0
    """Skipped by ``resume``: done, or failed for good, in an earlier run."""
    duplicates: int = 0
    rows: int = 0
    """Rows written by this run."""
    wall_s: float = 0.0
    written: bool = False
    """Whether the output holds anything (False when every page failed; a file output is then not written)."""
    failures: list[tuple[str, str]] = field(default_factory=list)
    """(source, message) of each failure of this run."""

    @property
    def pages_per_s(self) -> float:
        return (self.ok + self.failed) / self.wall_s if self.wall_s > 0 else 0.0

    def line(self) -> str:
        parts = [f"{self.ok} ok", f"{self.failed} failed", f"{self.retried} retried"]
        if self.skipped:
            parts.append(f"{self.skipped} skipped (done before)")
        if self.duplicates:
            parts.append(f"{self.duplicates} duplicate(s) run once")
        return (f"{self.sources} source(s): {', '.join(parts)}; {self.wall_s:.1f} s "
                f"({self.pages_per_s:.2f} pages/s)")


def run_batch(sources: Iterable[str | Path | PageSnapshot], output: str | Path, config: Config | None = None, *,
              resume: bool = False, retries: int = DEFAULT_RETRIES, workers: int = DEFAULT_WORKERS,
              all_regions: bool = False, fmt: str | None = None, engine: Engine | None = None,
              policy: RetryPolicy | None = None, choice: dict[str, Any] | None = None,
              action: PageAction | None = None, keep_extraction: bool = False,
              progress: BatchProgress | None = None,
              on_start: Callable[[int, int], None] | None = None) -> BatchSummary:
    """Extract every source into ``output`` (format by ``fmt`` or the extension), page by page.

    ``resume``: skip the sources the output's job list has as done or failed for good.
    ``retries``: more attempts after a transient failure (``policy`` sets the backoff too).
    ``workers``: pages rendered at once by the default :class:`LocalEngine` (or give ``engine``).
    ``choice``: ``region``/``hint``/``example`` for every page. ``on_start(total, skipped)`` is
    called once the work is known, ``progress(done, total, outcome)`` per page.
    Never raises for one source's failure (it is in the summary and the job list); raises
    :class:`visx.ExportError` when the output cannot be written, keeping what was written.
    """
    from visx.export import exporter_class
    from visx.export.base import check_path

    t0 = time.perf_counter()
    path = Path(output)
    check_path(path)
    fmt = exporter_class(path, fmt).format
    policy = policy or RetryPolicy(retries=retries)
    engine = engine or LocalEngine(workers)
    settings = WorkSettings(config or Config(), fmt, all_regions, policy,
                            {k: v for k, v in (choice or {}).items() if v is not None}, keep_extraction, action)
    sink = open_sink(path, fmt, all_regions, resume)
    summary = BatchSummary(path)
    try:
        tasks = _plan(sources, sink, resume, summary)
        if on_start is not None:
            on_start(len(tasks), summary.skipped)
        for done, outcome in enumerate(in_order(engine.run(_started(tasks, sink), settings)), 1):
            if outcome.ok:
                summary.rows += sink.write(outcome)
                summary.ok += 1
            else:
                sink.fail(outcome)
                summary.failed += 1
                summary.failures.append((outcome.task.label, outcome.error))
            summary.retried += outcome.retried
            if progress is not None:
                progress(done, len(tasks), outcome)
        summary.written = sink.finish() is not None
    except BaseException:
        sink.abort()
        raise
    summary.wall_s = time.perf_counter() - t0
    return summary


def _plan(sources: Iterable[str | Path | PageSnapshot], sink: Sink, resume: bool, summary: BatchSummary) -> list[Task]:
    states = sink.store.states() if resume else {}
    seen: set[str] = set()
    tasks: list[Task] = []
    for i, src in enumerate(sources):
        summary.sources += 1
        label = source_label(src)
        if label in seen:
            summary.duplicates += 1
            continue
        seen.add(label)
        if resume and sink.store.skip(label, states):
            summary.skipped += 1
            continue
        tasks.append(Task(len(tasks), i, src, label))
    return tasks


def _started(tasks: list[Task], sink: Sink) -> Iterator[Task]:
    """The tasks, each marked started in the job list as the engine takes it."""
    for t in tasks:
        sink.store.start(t.label)
        yield t


def in_order(outcomes: Iterable[Outcome]) -> Iterator[Outcome]:
    """``outcomes`` in task order, whatever order the engine finishes them in."""
    waiting: dict[int, Outcome] = {}
    nxt = 0
    for o in outcomes:
        waiting[o.task.seq] = o
        while nxt in waiting:
            yield waiting.pop(nxt)
            nxt += 1
    yield from (waiting[k] for k in sorted(waiting))  # an engine that lost a task: the rest, still in order
