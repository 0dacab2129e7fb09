"""Noise removal by visibility and position (ALGORITHMS.md section 2).

``clean(snapshot, config) -> Cleaned``: the top-most removed subtrees with
their reasons (vocabulary in :mod:`visx.clean.reasons`, thresholds in
:mod:`visx.clean.thresholds`) and a per-node ``dropped`` mask.
"""

from visx.clean.stage import clean

__all__ = ["clean"]
