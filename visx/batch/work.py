"""One source's work, as plain functions of plain data: ``run_task(task, settings) -> Outcome``.

Everything here is picklable (the ``action`` aside, a local-only option), so an engine may
run it in this process (:mod:`visx.batch.engines.local`) or ship it to other processes or
machines (a Dask engine, issue 17). The runner (:mod:`visx.batch.run`) keeps the job list,
the writing and the order; the work keeps none of that state.

``run_task`` is ``finish(load(task))``: :func:`load` renders (or reads a saved snapshot),
retrying transient failures; :func:`finish` analyses the page, applies the user's choice
of list and turns the result into what the output needs (:class:`Outcome.payload`). The
local engine runs ``load`` on worker threads and ``finish`` on its own thread.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from visx.batch.many import guarded
from visx.batch.retry import Kind, RetryPolicy, kind_of, with_retries
from visx.config import Config
from visx.errors import BrowserNotFoundError, VisxError
from visx.model import PageSnapshot
from visx.pipeline import Extraction, analyse, load_or_render

if TYPE_CHECKING:
    from visx.render.page_load import PageAction


@dataclass(frozen=True, slots=True)
class Task:
    """One source to run: ``seq`` is its place among the tasks of this run (0, 1, ...),
    ``index`` its place in the input, ``label`` its name in messages and in the job list."""

    seq: int
    index: int
    source: str | Path | PageSnapshot
    label: str


@dataclass(frozen=True, slots=True)
class WorkSettings:
    """What every task of a batch shares."""

    config: Config
    fmt: str
    """The output format: ``sqlite`` gets :class:`visx.export.sqlite.PageRows`, a file format its lines."""
    all_regions: bool = False
    policy: RetryPolicy = field(default_factory=RetryPolicy)
    choice: dict[str, Any] = field(default_factory=dict)
    """``region``/``hint``/``example`` (:func:`visx.choose.apply_choice`), the same for every page."""
    keep_extraction: bool = False
    """Keep the :class:`Extraction` in the outcome (a debug report is written from it); local engines only."""
    action: PageAction | None = None
    """Run on each settled page (:func:`visx.render`); a function, so local engines only."""


@dataclass(frozen=True, slots=True)
class Loaded:
    task: Task
    snapshot: PageSnapshot | None
    error: VisxError | None
    attempts: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one task; plain values only."""

    task: Task
    status: Literal["done", "failed"]
    attempts: int
    error: str = ""
    error_kind: Kind | None = None
    error_type: str = ""
    payload: Any = None
    """:class:`visx.export.sqlite.PageRows` or the page's spool lines (``list[str]``)."""
    regions: int = 0
    main_records: int = 0
    chosen: dict[str, Any] | None = None
    extraction: Extraction | None = None
    """Only with ``keep_extraction``."""

    @property
    def ok(self) -> bool:
        return self.status == "done"

    @property
    def retried(self) -> bool:
        return self.attempts > 1


def load(task: Task, s: WorkSettings) -> Loaded:
    """The task's snapshot, retrying transient failures; a missing browser ends the batch."""

    def once() -> PageSnapshot:
        def render(src: str | Path | PageSnapshot, cfg: Config) -> PageSnapshot:
            return load_or_render(src, cfg, action=s.action)

        return guarded("loading", task.label, render, task.source, s.config)

    snap, err, attempts = with_retries(once, s.policy, task.label)
    if isinstance(err, BrowserNotFoundError):
        raise err  # every other page would fail the same way
    return Loaded(task, snap, err, attempts)


def finish(loaded: Loaded, s: WorkSettings) -> Outcome:
    """Analyse a loaded page and turn it into its output payload (or the failure)."""
    task = loaded.task
    if loaded.snapshot is None:
        return failed(task, loaded.error, loaded.attempts)
    try:
        ex = guarded("analysing", task.label, analyse, loaded.snapshot, s.config)
        if s.choice:
            from visx.choose import apply_choice

            ex = apply_choice(ex, **s.choice)
        payload = payload_of(ex, s)
    except VisxError as e:
        return failed(task, e, loaded.attempts)
    return Outcome(task, "done", loaded.attempts, payload=payload, regions=len(ex.regions),
                   main_records=len(ex.main.records) if ex.main else 0, chosen=ex.chosen,
                   extraction=ex if s.keep_extraction else None)


def run_task(task: Task, s: WorkSettings) -> Outcome:
    """The whole work of one source: what a remote engine runs."""
    return finish(load(task, s), s)


def failed(task: Task, err: VisxError | None, attempts: int) -> Outcome:
    if err is None:  # not reached: a load without a snapshot carries its error
        return Outcome(task, "failed", attempts, "unknown failure", "permanent", "VisxError")
    return Outcome(task, "failed", attempts, str(err), kind_of(err), type(err).__name__)


def payload_of(ex: Extraction, s: WorkSettings) -> Any:
    """What the output of format ``s.fmt`` gets from ``ex``: computed here, where the page is,
    so the extraction (and its snapshot) need not travel or wait."""
    if s.fmt == "sqlite":
        from visx.export.sqlite import page_rows

        return page_rows(ex, s.all_regions)
    from visx.export.formats import spool_lines

    return spool_lines(ex, s.fmt, s.all_regions)
