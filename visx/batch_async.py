"""Many pages in one run, for asyncio: :func:`extract_many_async` and :func:`render_many_async`.

The same contract as :mod:`visx.batch`: one :class:`BatchResult` per source, in
the order given, a failed source kept apart with its error, ``workers`` pages
rendering at once, and ``progress(done, total, result)`` per finished source.
Pages render in visx's shared browser (its own thread); analysis runs on a
worker thread, one page at a time, so the caller's event loop stays free.

Both are async generators: ``async for res in visx.extract_many_async(...)``.
To stop early, leave the loop inside ``contextlib.aclosing(...)``: closing the
generator cancels the renders not yet finished.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from visx.batch import (
    AHEAD_PER_WORKER,
    DEFAULT_WORKERS,
    BatchResult,
    Counter,
    Progress,
    analysed,
    check_workers,
    source_label,
    total_of,
)
from visx.config import Config
from visx.errors import ExtractionError, VisxError
from visx.model import PageSnapshot
from visx.pipeline import load_or_render_async

if TYPE_CHECKING:
    from visx.render.page_load import PageAction


async def extract_many_async(sources: Iterable[str | Path | PageSnapshot], config: Config | None = None, *,
                             workers: int = DEFAULT_WORKERS, action: PageAction | None = None,
                             progress: Progress | None = None) -> AsyncIterator[BatchResult]:
    """:func:`visx.extract_async` for each source, in input order (see :func:`visx.extract_many`)."""
    cfg = config or Config()
    count = Counter(progress, total_of(sources))
    async for res in render_many_async(sources, cfg, workers=workers, action=action):
        yield count(await asyncio.to_thread(analysed, res, cfg))


async def render_many_async(sources: Iterable[str | Path | PageSnapshot], config: Config | None = None, *,
                            workers: int = DEFAULT_WORKERS, action: PageAction | None = None,
                            progress: Progress | None = None) -> AsyncIterator[BatchResult]:
    """:func:`visx.render_async` (or read a saved snapshot) for each source, in input order
    (see :func:`visx.render_many`)."""
    check_workers(workers)
    cfg = config or Config()
    count = Counter(progress, total_of(sources))
    todo = iter(enumerate(sources))
    slots = asyncio.Semaphore(workers)
    pending: deque[tuple[int, str, asyncio.Task[PageSnapshot]]] = deque()
    try:
        while True:
            while len(pending) < workers * AHEAD_PER_WORKER:
                nxt = next(todo, None)
                if nxt is None:
                    break
                i, src = nxt
                label = source_label(src)
                pending.append((i, label, asyncio.create_task(_load(slots, label, src, cfg, action))))
            if not pending:
                return
            i, label, task = pending.popleft()
            try:
                snap = await task
            except VisxError as e:
                yield count(BatchResult(i, label, error=e))
            else:
                yield count(BatchResult(i, label, snapshot=snap))
    finally:
        for _, _, task in pending:
            if task.done() and not task.cancelled():
                task.exception()  # retrieved: no "never retrieved" noise for a failure not yielded
            else:
                task.cancel()


async def _load(slots: asyncio.Semaphore, label: str, source: str | Path | PageSnapshot, cfg: Config,
                action: PageAction | None) -> PageSnapshot:
    """One source's snapshot; an error that is not visx's own becomes an ExtractionError
    naming the source (as :func:`visx.batch.guarded` does)."""
    async with slots:
        try:
            return await load_or_render_async(source, cfg, action=action)
        except VisxError:
            raise
        except Exception as e:
            raise ExtractionError(f"{label}: unexpected {type(e).__name__} while loading ({e}); "
                                  "please report it with this source", source=label) from e
