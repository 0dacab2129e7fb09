"""The local engine: renders on a few threads, analyses on the caller's thread, in task order.

Rendering is the browser's work, in its own processes, so ``workers`` pages render while
the last one is analysed; analysis is CPU-bound Python (and pauses the garbage collector,
:mod:`visx.gcpause`), so it runs one page at a time. Only a few rendered pages wait ahead
(:data:`visx.batch.many.AHEAD_PER_WORKER`), which bounds memory over any number of pages.
"""

from __future__ import annotations

import concurrent.futures
from collections import deque
from collections.abc import Iterable, Iterator

from visx.batch.many import AHEAD_PER_WORKER, DEFAULT_WORKERS, check_workers
from visx.batch.work import Loaded, Outcome, Task, WorkSettings, finish, load


class LocalEngine:
    def __init__(self, workers: int = DEFAULT_WORKERS) -> None:
        check_workers(workers)
        self.workers = workers

    def run(self, tasks: Iterable[Task], settings: WorkSettings) -> Iterator[Outcome]:
        todo = iter(tasks)
        pending: deque[concurrent.futures.Future[Loaded]] = deque()
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="visx-batch")
        try:
            while True:
                while len(pending) < self.workers * AHEAD_PER_WORKER:
                    task = next(todo, None)
                    if task is None:
                        break
                    pending.append(pool.submit(load, task, settings))
                if not pending:
                    return
                yield finish(pending.popleft().result(), settings)
        finally:
            # Stopped early (or done): drop queued renders, do not wait for running ones
            # (each ends within its own timeout).
            pool.shutdown(wait=False, cancel_futures=True)
