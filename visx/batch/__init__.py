"""Many pages in one run.

- :mod:`visx.batch.many`: ``extract_many`` / ``render_many``, results in memory, in input order;
- :mod:`visx.batch.run`: ``run_batch``, a batch written to one output with a job list,
  ``resume``, retries of transient failures and a progress display;
- :mod:`visx.batch.work`: one source's work as a picklable function, run by an engine
  (:mod:`visx.batch.engines`);
- :mod:`visx.batch_async`: the asyncio forms of ``extract_many`` and ``render_many``.
"""

from __future__ import annotations

from visx.batch.many import (
    AHEAD_PER_WORKER,
    DEFAULT_WORKERS,
    BatchResult,
    Counter,
    Progress,
    analysed,
    check_workers,
    extract_many,
    guarded,
    render_many,
    source_label,
    total_of,
)

__all__ = [
    "AHEAD_PER_WORKER",
    "DEFAULT_WORKERS",
    "BatchResult",
    "Counter",
    "Progress",
    "analysed",
    "check_workers",
    "extract_many",
    "guarded",
    "render_many",
    "source_label",
    "total_of",
]
