"""Which failures are worth another try, and the retries themselves (tenacity).

Transient: the server sent nothing in time (a page that arrived but never settled, or a
script that never ends, times out again: permanent), the connection was refused or reset, the
renderer crashed, the server answered 5xx, 408 or 429 (:data:`TRANSIENT_STATUSES`).
Permanent: everything else, the server's or the input's own answer (404, a PDF, a
missing file, a bad scheme, a corrupt snapshot, a page without the list asked for), and
a host name that does not resolve. Only transient failures are retried, and ``--resume``
runs them again; permanent ones are recorded once and skipped by ``--resume``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeVar

from tenacity import (
    RetryCallState,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential_jitter,
)

from visx.batch.defaults import (
    BACKOFF_INITIAL_S,
    BACKOFF_JITTER_S,
    BACKOFF_MAX_S,
    DEFAULT_RETRIES,
    TRANSIENT_STATUSES,
)
from visx.errors import (
    ConfigError,
    DnsError,
    HttpStatusError,
    NoResponseError,
    PageCrashedError,
    UnreachableError,
    VisxError,
)

log = logging.getLogger("visx.batch")

T = TypeVar("T")
Kind = Literal["permanent", "transient"]


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """``retries`` more attempts after a transient failure, waiting ``initial`` s, then twice
    as long each time up to ``max_wait`` s, plus up to ``jitter`` s at random."""

    retries: int = DEFAULT_RETRIES
    initial: float = BACKOFF_INITIAL_S
    max_wait: float = BACKOFF_MAX_S
    jitter: float = BACKOFF_JITTER_S

    def __post_init__(self) -> None:
        if self.retries < 0:
            raise ConfigError(f"retries must be 0 or more (got {self.retries})")


def kind_of(err: BaseException) -> Kind:
    """``transient`` when another attempt may succeed, else ``permanent``."""
    if isinstance(err, HttpStatusError):
        return "transient" if err.status in TRANSIENT_STATUSES else "permanent"
    if isinstance(err, DnsError):
        return "permanent"
    if isinstance(err, (NoResponseError, UnreachableError, PageCrashedError)):
        return "transient"
    return "permanent"


def with_retries(fn: Callable[[], T], policy: RetryPolicy, label: str) -> tuple[T | None, VisxError | None, int]:
    """``(fn(), None, attempts)``, or ``(None, error, attempts)`` with the last error when every
    attempt failed or the failure is permanent. Errors that are not visx's own propagate."""
    attempts = 0

    def once() -> T:
        nonlocal attempts
        attempts += 1
        return fn()

    def before_sleep(state: RetryCallState) -> None:
        exc = state.outcome.exception() if state.outcome is not None else None
        wait = state.next_action.sleep if state.next_action is not None else 0.0
        log.info("%s: attempt %d failed (%s); retrying in %.1f s", label, state.attempt_number,
                 type(exc).__name__ if exc else "error", wait)

    retrying = Retrying(
        stop=stop_after_attempt(policy.retries + 1),
        wait=wait_exponential_jitter(multiplier=policy.initial, max=policy.max_wait, jitter=policy.jitter),
        retry=retry_if_exception(lambda e: kind_of(e) == "transient"),
        before_sleep=before_sleep,
        reraise=True,
    )
    try:
        return retrying(once), None, attempts
    except VisxError as e:
        return None, e, attempts
