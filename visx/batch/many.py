"""Many pages in memory: render a few at a time, analyse each, lose none to another's failure.

``render_many(sources)`` and ``extract_many(sources)`` yield one
:class:`BatchResult` per source, in the order given. Rendering runs on worker
threads (the browser does the work, in its own processes, so two pages render
while the last one is analysed); analysis runs on the calling thread, one page
at a time, because it is CPU-bound Python and pauses the garbage collector
(:mod:`visx.gcpause`).
A source that fails (missing file, unreachable host, non-HTML answer, a
timeout, a corrupt snapshot) gives a result holding its error; the others go on.
:mod:`visx.batch_async` is the asyncio form of both; :func:`visx.run_batch`
(:mod:`visx.batch.run`) writes a batch to a file with resume and retries.

``progress=`` is called once per finished source, just before its result is
yielded, as ``progress(done, total, result)``: ``done`` counts the results so far
(1, 2, ...), ``total`` is ``len(sources)`` when ``sources`` has a length (a list,
a tuple) and None for a generator, and ``result`` is the :class:`BatchResult`.
It runs on the caller's thread; an exception it raises ends the iteration.
"""

from __future__ import annotations

import concurrent.futures
import functools
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sized
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from visx.config import Config
from visx.errors import ConfigError, ExtractionError, VisxError
from visx.model import PageSnapshot
from visx.pipeline import Extraction, analyse, load_or_render
from visx.render.page_load import looks_like_html

if TYPE_CHECKING:
    from visx.render.page_load import PageAction

T = TypeVar("T")
R = TypeVar("R")

DEFAULT_WORKERS = 2
"""Pages rendered at once. Pages that wait on the network render 1.8x faster with two
than with one (``scripts/bench_batch.py --delay 0.5``); local files break even on a
2-core machine, where Chromium already keeps both cores busy; more adds memory."""
AHEAD_PER_WORKER = 2
"""Renders started ahead of the page being analysed, per worker: enough to keep the
browser busy, few enough that finished snapshots do not pile up in memory."""


@dataclass(frozen=True, slots=True)
class BatchResult:
    """The outcome for one source: its snapshot (and extraction), or the error that stopped it."""

    index: int
    """Position of the source in the input (0-based)."""
    source: str
    extraction: Extraction | None = None
    """Set by :func:`extract_many`."""
    error: VisxError | None = None
    snapshot: PageSnapshot | None = None
    """Set by both :func:`render_many` and :func:`extract_many`."""

    @property
    def ok(self) -> bool:
        return self.error is None


Progress = Callable[[int, "int | None", BatchResult], None]
"""``progress(done, total, result)``: see the module's docstring."""


def total_of(sources: Iterable[object]) -> int | None:
    """How many sources there are, when that is known before iterating."""
    return len(sources) if isinstance(sources, Sized) else None


class Counter:
    """Calls ``progress`` with a running count."""

    def __init__(self, progress: Progress | None, total: int | None) -> None:
        self.progress, self.total, self.done = progress, total, 0

    def __call__(self, result: BatchResult) -> BatchResult:
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total, result)
        return result


def source_label(source: str | Path | PageSnapshot) -> str:
    """How a source is named in messages: its path or URL, or the head of an HTML text."""
    if isinstance(source, PageSnapshot):
        return source.source
    s = str(source)
    if isinstance(source, str) and looks_like_html(s):
        head = " ".join(s.split())[:40]
        return f"HTML text {head!r}"
    return s


def check_workers(workers: int) -> None:
    if workers < 1:
        raise ConfigError(f"workers must be at least 1 (got {workers})")


def guarded(step: str, label: str, fn: Callable[[T, Config], R], arg: T, cfg: Config) -> R:
    """``fn(arg, cfg)``; an error that is not visx's own (a bug, not bad input) becomes an
    :class:`ExtractionError` naming the source, so one page's failure does not end the batch."""
    try:
        return fn(arg, cfg)
    except VisxError:
        raise
    except Exception as e:
        raise ExtractionError(f"{label}: unexpected {type(e).__name__} while {step} ({e}); "
                              "please report it with this source", source=label) from e


def extract_many(sources: Iterable[str | Path | PageSnapshot], config: Config | None = None, *,
                 workers: int = DEFAULT_WORKERS, action: PageAction | None = None,
                 progress: Progress | None = None) -> Iterator[BatchResult]:
    """:func:`visx.extract` for each source, in input order, rendering ``workers`` pages at once.

    ``action`` (see :func:`visx.render`) runs on each settled page before its capture;
    ``progress(done, total, result)`` is called per finished source (:mod:`visx.batch.many`).
    Never raises for one source's failure: that result carries ``error``. Stopping the
    iteration early cancels the renders not yet started.
    """
    cfg = config or Config()
    count = Counter(progress, total_of(sources))
    for res in render_many(sources, cfg, workers=workers, action=action):
        yield count(analysed(res, cfg))


def analysed(res: BatchResult, cfg: Config) -> BatchResult:
    """``res`` (a rendered or failed source) with its extraction, or the analysis's error."""
    if res.snapshot is None:
        return res
    try:
        ex = guarded("analysing", res.source, analyse, res.snapshot, cfg)
    except VisxError as e:
        return BatchResult(res.index, res.source, error=e, snapshot=res.snapshot)
    return BatchResult(res.index, res.source, extraction=ex, snapshot=res.snapshot)


def render_many(sources: Iterable[str | Path | PageSnapshot], config: Config | None = None, *,
                workers: int = DEFAULT_WORKERS, action: PageAction | None = None,
                progress: Progress | None = None) -> Iterator[BatchResult]:
    """:func:`visx.render` (or read a saved snapshot) for each source, in input order.

    ``workers`` pages render at once, at most a few finished ones wait for the caller;
    ``progress(done, total, result)`` is called per finished source (:mod:`visx.batch.many`).
    Never raises for one source's failure: that result carries ``error``.
    """
    check_workers(workers)
    cfg = config or Config()
    count = Counter(progress, total_of(sources))
    todo = iter(enumerate(sources))
    ahead = workers * AHEAD_PER_WORKER
    pending: deque[tuple[int, str, concurrent.futures.Future[PageSnapshot]]] = deque()
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="visx-batch")
    try:
        while True:
            while len(pending) < ahead:
                nxt = next(todo, None)
                if nxt is None:
                    break
                i, src = nxt
                label = source_label(src)
                load = functools.partial(load_or_render, action=action)
                pending.append((i, label, pool.submit(guarded, "loading", label, load, src, cfg)))
            if not pending:
                return
            i, label, fut = pending.popleft()
            try:
                snap = fut.result()
            except VisxError as e:
                yield count(BatchResult(i, label, error=e))
            else:
                yield count(BatchResult(i, label, snapshot=snap))
    finally:
        # Stopped early (or done): drop queued renders, do not wait for running ones
        # (each ends within its own timeout).
        pool.shutdown(wait=False, cancel_futures=True)
