"""Pause Python's cyclic garbage collector while the stages build many small objects.

Cleaning, mining, alignment and typing allocate hundreds of thousands of
short-lived tuples, lists and dicts, none of them in reference cycles
(reference counting frees them). With the collector on, those allocations
trigger collections that walk the whole heap, snapshot included: on a
50k-element page that was a third of alignment's CPU time.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Disable the cyclic collector for the ``with`` block; restore its previous state."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
