"""visx reports through the standard :mod:`logging` module, under the ``visx`` logger.

The library prints nothing: it only adds a :class:`logging.NullHandler`, so an
application decides where the messages go (``logging.basicConfig(level=logging.INFO)``
shows them; the CLI writes them to standard error). Levels:

- ``DEBUG``: what was read or rendered, and what each stage cost (and the notes of a
  saved snapshot read back: they were news when it was rendered);
- ``INFO``: what rendering did to the page (the snapshot's notes: ``<noscript>`` removed,
  pages harvested, dialogs dismissed) and minor table issues;
- ``WARNING``: what may make a result wrong or incomplete: a page captured before it
  settled, no records found, a list that probably came later. The same texts are in
  ``PageSnapshot.warnings`` and ``Extraction.warnings``.

Child loggers follow the modules (``visx.render.page_load``, ``visx.pipeline``,
``visx.batch``), so one stage can be turned up or down on its own.
"""

from __future__ import annotations

import logging

from visx.model import PageSnapshot

logger = logging.getLogger("visx")
logger.addHandler(logging.NullHandler())


def log_snapshot(log: logging.Logger, snap: PageSnapshot, how: str, *,
                 notes_level: int = logging.INFO) -> None:
    """Log a snapshot just rendered or read: a debug line, its notes, its warnings."""
    if log.isEnabledFor(logging.DEBUG):
        partial = " (partial)" if snap.partial else ""
        log.debug("%s %s: %d elements, %.0fx%.0f px%s", how, snap.source, len(snap.nodes),
                  snap.width, snap.height, partial)
    for note in snap.notes:
        log.log(notes_level, "%s: %s", snap.source, note)
    for w in snap.warnings:
        log.warning("%s", w)
