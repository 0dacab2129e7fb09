"""The Dask engine: :func:`visx.batch.work.run_task` on Dask workers, one browser per worker process.

    engine = DaskEngine()                              # a LocalCluster of 2 worker processes for the run
    engine = DaskEngine(scheduler="tcp://10.0.0.5:8786")   # a cluster already running
    visx.run_batch(urls, "out.sqlite", cfg, engine=engine)

The runner keeps the job list, the writing and the order (:mod:`visx.batch.run`); this engine
only ships tasks out and outcomes back. A task's retries run on its worker
(:func:`~visx.batch.retry.with_retries`, inside ``run_task``), so failures mean the same as
locally. A worker that dies mid-task has its tasks rerun elsewhere by the scheduler; nothing
is written twice because the runner writes a page once, when its outcome arrives. A task that
kills several workers in turn (``distributed.scheduler.allowed-failures``, 3) becomes a transient failure (``--resume`` runs it
again) instead of ending the batch.

Only a window of tasks is in flight (:meth:`DaskEngine.window`), so memory stays flat over any
number of sources: the runner marks a task started when the engine takes it, and the outcomes
wait in the runner for the ones before them only as long as the window is wide.

``distributed`` is an extra: ``pip install 'visx[dask]'``.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Iterable, Iterator
from typing import Any

from visx.batch.many import AHEAD_PER_WORKER, DEFAULT_WORKERS, check_workers
from visx.batch.work import Outcome, Task, WorkSettings, run_task
from visx.errors import ConfigError, VisxError

try:
    from distributed import WorkerPlugin as _PluginBase
except ImportError:  # DaskEngine() says what to install
    _PluginBase = object  # type: ignore[misc,assignment]

INSTALL_HINT = "pip install 'visx[dask]'"
THREADS_PER_WORKER = DEFAULT_WORKERS
"""Pages one worker process renders at once, in its one browser: as the local engine's default,
one page renders while another is analysed (rendering waits on Chromium, analysis holds the GIL)."""
CONNECT_TIMEOUT_S = 20.0
"""How long to wait for a ``--scheduler`` to answer: a cluster's scheduler is up in seconds."""
WINDOW_RECHECK_S = 5.0
"""How often the window follows the cluster's size (workers join and leave an adaptive cluster)."""
PLUGIN_NAME = "visx-browser"


class SchedulerError(VisxError):
    """The Dask scheduler cannot be reached or was lost during the run."""


def _distributed() -> Any:
    try:
        import distributed
    except ImportError as e:
        raise ConfigError(f"--engine dask needs Dask's distributed package: {INSTALL_HINT}") from e
    return distributed


class BrowserPlugin(_PluginBase):  # type: ignore[misc,valid-type]
    """Owns the worker process's browser (:mod:`visx.render.browser`): launched lazily by the first
    render, so a worker that gets no page starts none; closed when the worker closes, so no
    Chromium outlives it. ``setup`` only looks for Chromium, so that a worker without one fails
    the run at once with the way out (``python -m visx.render.check`` on the workers' image)."""

    name = PLUGIN_NAME

    def setup(self, worker: Any) -> None:
        # Fail the worker's first task at once, with the way out, rather than every page slowly.
        from visx.render.browser import find_chromium

        find_chromium()

    def teardown(self, worker: Any) -> None:
        from visx.render.browser import shutdown

        shutdown()


class DaskEngine:
    """Run tasks on a Dask cluster: ``scheduler`` (an address such as ``tcp://host:8786``), or a
    ``LocalCluster`` of ``workers`` processes started for the run and closed after it."""

    def __init__(self, scheduler: str | None = None, workers: int = DEFAULT_WORKERS,
                 threads_per_worker: int = THREADS_PER_WORKER, connect_timeout_s: float = CONNECT_TIMEOUT_S) -> None:
        check_workers(workers)
        check_workers(threads_per_worker)
        _distributed()  # say what to install before any work is planned
        self.scheduler = scheduler
        self.workers = workers
        self.threads_per_worker = threads_per_worker
        self.connect_timeout_s = connect_timeout_s
        # distributed is only partly typed: its client and cluster are Any here.
        self.client: Any = None
        """The client while a run is going (tests and the benchmark reach the cluster through it)."""

    def window(self, client: Any) -> int:
        """Tasks in flight: enough to keep every worker thread busy with one more waiting each
        (``AHEAD_PER_WORKER`` per thread), and no more, so memory does not grow with the batch."""
        threads = sum(client.nthreads().values()) or self.workers * self.threads_per_worker
        return max(threads * AHEAD_PER_WORKER, 2)

    def _connect(self) -> tuple[Any, Any]:
        distributed = _distributed()
        if self.scheduler is None:
            # processes=True: analysis holds the GIL, so threads of one process would not add up.
            # dashboard_address ":0": the scheduler's HTTP server (dashboard, health) on a free port;
            # None still serves it, on 8787, with a warning when another cluster has that port.
            # Logs at ERROR: a worker killed at close after its grace time is no news to a user.
            cluster = distributed.LocalCluster(n_workers=self.workers, threads_per_worker=self.threads_per_worker,
                                               processes=True, dashboard_address=":0",
                                               silence_logs=logging.ERROR)
            try:
                return distributed.Client(cluster), cluster
            except BaseException:
                cluster.close()
                raise
        try:
            return distributed.Client(self.scheduler, timeout=self.connect_timeout_s), None
        except (OSError, TimeoutError, ValueError) as e:
            raise SchedulerError(f"cannot reach the Dask scheduler at {self.scheduler!r} "
                                 f"within {self.connect_timeout_s:g} s: {e}") from e

    def run(self, tasks: Iterable[Task], settings: WorkSettings) -> Iterator[Outcome]:
        if settings.action is not None:
            raise ConfigError("an action runs in this process only; use the local engine")
        distributed = _distributed()
        client, cluster = self._connect()
        self.client = client
        try:
            client.register_plugin(BrowserPlugin(), name=PLUGIN_NAME)
            yield from self._stream(distributed, client, iter(tasks), settings)
        finally:
            self.client = None
            client.close()
            if cluster is not None:
                cluster.close()

    def _stream(self, distributed: Any, client: Any, todo: Iterator[Task],
                settings: WorkSettings) -> Iterator[Outcome]:
        run = uuid.uuid4().hex[:8]  # keys unique to this run: a scheduler shared by runs keeps them apart
        flying: dict[Any, Task] = {}
        done = distributed.as_completed()
        window, checked = self.window(client), time.monotonic()
        exhausted = False
        while True:
            if time.monotonic() - checked > WINDOW_RECHECK_S:
                window, checked = self.window(client), time.monotonic()
            while not exhausted and len(flying) < window:
                task = next(todo, None)
                if task is None:
                    exhausted = True
                    break
                # The settings travel with each task (a few kB) rather than scattered once: scattered
                # data dies with the workers holding it, and a task must survive any one worker.
                # No Dask retries: a task that raised carries its failure already (rerunning after
                # a lost worker is the scheduler's own doing).
                fut = client.submit(run_task, task, settings, key=f"visx-{run}-{task.seq}", pure=False)
                flying[fut] = task
                done.add(fut)
            if not flying:
                return
            fut = next(done)
            task = flying.pop(fut)
            yield self._outcome(distributed, fut, task)

    def _outcome(self, distributed: Any, fut: Any, task: Task) -> Outcome:
        try:
            out: Outcome = fut.result()
            return out
        except distributed.KilledWorker as e:
            return Outcome(task, "failed", 1, f"{task.label}: every Dask worker that ran it died ({e})",
                           "transient", "KilledWorker")
        except (distributed.comm.CommClosedError, OSError) as e:
            raise SchedulerError(f"lost the Dask scheduler at {self.scheduler or 'the local cluster'}: {e}") from e
        finally:
            fut.release()
