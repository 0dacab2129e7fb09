"""Engines run a batch's tasks: :class:`Engine` is what the runner needs of one.

An engine takes the tasks (an iterator the runner feeds lazily: taking one marks it
started in the job list) and the shared :class:`~visx.batch.work.WorkSettings`, and yields
one :class:`~visx.batch.work.Outcome` per task, in any order (the runner writes them in
task order). It must not raise for one task's failure (the outcome carries it); raising
ends the batch, with the pages already written kept. :class:`LocalEngine` renders on
threads of this process; a distributed engine would ship :func:`visx.batch.work.run_task`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from visx.batch.engines.local import LocalEngine
from visx.batch.work import Outcome, Task, WorkSettings


class Engine(Protocol):
    workers: int

    def run(self, tasks: Iterable[Task], settings: WorkSettings) -> Iterator[Outcome]: ...


__all__ = ["Engine", "LocalEngine"]
