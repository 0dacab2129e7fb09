"""Evaluation thresholds, each with its reason.

The record match follows ALGORITHMS.md "Evaluation terms"; the rest only
label results (hit, failure reason) and never change a P/R/F1 figure.
"""

MATCH_SIMILARITY = 0.8
"""A predicted record matches a gold record when at least this share of the gold
record's distinct tokens occurs in it (ALGORITHMS.md: token-set similarity >= 0.8).
The 0.2 slack absorbs the ~5% of gold cells that differ from the page text
(truncation with "...", whitespace, mojibake)."""

HIT_F1 = 0.5
"""The top region counts as the gold region when its F1 reaches this: at 0.5 most of
its records are gold records and most gold records are in it."""

GOLD_PRESENT = 0.5
"""Below this share of gold records findable in the page text (visible, or at all),
the page cannot be scored fairly (records never saved into the HTML, or shown
only by the JavaScript that the testbed turns off); it is still counted, and
its failure reason says so."""

FRAGMENT_SHARE = 0.2
"""A predicted record holding at least this share of a gold record's tokens carries a
part of it; a gold record covered only by the union of two or more such parts was
over-split. Below 0.2 a shared word or two ("the", a date) would count as a part."""

MERGED_GROWTH = 1.5
"""Gold records found together in one prediction count as merged only when their
token union is this much larger than the biggest of them: near-duplicate records
(same title, other numbers) grow the union by far less."""

CELL_DICE = 0.8
"""A gold cell agrees with a predicted cell at this token Dice (or equal normalised
text): the same 0.2 slack as the record match for truncated or retyped cells. A cell
that also holds another field's value ("Blue Kettle 24.99" for "Blue Kettle") falls
below it once the extra tokens are more than half as many as the gold cell's."""

CELL_F1_TARGET = 0.85
"""Target of the field-level cell F1 (issue 4, "Measure"); only labels the reports."""

TIME_RATIO_TARGET = 0.5
"""Target of align + schema time over mine time (issue 4, "Measure"); only labels the reports."""
