"""Engines run a batch's tasks: :class:`Engine` is what the runner needs of one.

An engine takes the tasks (an iterator the runner feeds lazily: taking one marks it
started in the job list) and the shared :class:`~visx.batch.work.WorkSettings`, and yields
one :class:`~visx.batch.work.Outcome` per task, in any order (the runner writes them in
task order). It must not raise for one task's failure (the outcome carries it); raising
ends the batch, with the pages already written kept. :class:`LocalEngine` renders on
threads of this process; :class:`~visx.batch.engines.dask.DaskEngine` ships
:func:`visx.batch.work.run_task` to Dask workers (an extra: ``visx[dask]``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from visx.batch.engines.local import LocalEngine
from visx.batch.work import Outcome, Task, WorkSettings


class Engine(Protocol):
    workers: int

    def run(self, tasks: Iterable[Task], settings: WorkSettings) -> Iterator[Outcome]: ...


ENGINES = ("local", "dask")


def engine_named(name: str, workers: int, scheduler: str | None = None) -> Engine:
    """``--engine NAME``: ``local`` renders ``workers`` pages at once here; ``dask`` runs on the
    cluster at ``scheduler``, or on a LocalCluster of ``workers`` processes started for the run."""
    if name == "dask":
        from visx.batch.engines.dask import DaskEngine  # imports Dask only when asked for

        return DaskEngine(scheduler, workers)
    if scheduler is not None:
        from visx.errors import ConfigError

        raise ConfigError("--scheduler is the address of a Dask scheduler; give it with --engine dask")
    return LocalEngine(workers)


__all__ = ["ENGINES", "Engine", "LocalEngine", "engine_named"]
