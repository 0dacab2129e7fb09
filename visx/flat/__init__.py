"""Flat pages: records written as text runs, found by typing entities and mining their
repeated type pattern (seed 002, ``ALGORITHMS.md`` section 5).

``mine_flat(snapshot, cleaned, config)`` returns the flat regions; ``with_flat`` ranks
them in with the DOM miner's (``flat.mode``); ``align_flat`` gives a flat region's
columns, one per field type.
"""

from visx.flat.align import align_flat
from visx.flat.miner import mine_flat
from visx.flat.model import Entity, FlatRecord, FlatRegion, Pattern, TextPos, Typing
from visx.flat.use import with_flat

__all__ = ["Entity", "FlatRecord", "FlatRegion", "Pattern", "TextPos", "Typing", "align_flat", "mine_flat",
           "with_flat"]
