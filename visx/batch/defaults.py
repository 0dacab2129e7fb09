"""The batch runner's defaults and thresholds, each with its reason."""

from __future__ import annotations

DEFAULT_RETRIES = 2
"""Retries of a source after a transient failure (3 attempts in all): enough to ride out a
restarting server or a dropped connection, few enough that a dead host costs little more
than its timeouts."""

BACKOFF_INITIAL_S = 1.0
"""Wait before the first retry; doubled before each next one (1 s, 2 s, 4 s ...)."""
BACKOFF_MAX_S = 30.0
"""Longest wait between two attempts: a server that is down for longer is not waited for."""
BACKOFF_JITTER_S = 0.5
"""Random extra wait (0 to this) so that workers failing together do not retry together."""

TRANSIENT_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})
"""HTTP statuses worth another try: timeouts, rate limits and server-side failures. Every
other 4xx (404, 410, 403 ...) is the server's answer and is not retried."""

SPOOL_SUFFIX = ".part"
"""A file output is written to ``<out>.part`` while the batch runs, renamed at the end."""
JOBS_SUFFIX = ".jobs.sqlite"
"""The job list of a file output, ``<out>.jobs.sqlite``, kept until the batch completes."""
