"""Tuned constants of the alignment stage, each with the reason for its value."""

from __future__ import annotations

NODE_BASE = 0.5
"""Score of two nodes with the same tag and no style in common. Half a match:
the tag is the main evidence (as in plain STM), style only decides between
equally shaped candidates, e.g. which of two ``span`` is the price."""

W_CLASSES = 2.0
"""Weight of class-name agreement among the style features: class names are
the template's own labels for a field, so they are the strongest hint."""

W_STYLE = 1.0
"""Weight of each rendered style feature (font size, weight, colour, x-offset)."""

W_TEXT = 1.0
"""Weight of text evidence for text leaves: same coarse shape (price, number,
date, word) and same literal text (labels such as "Price:")."""

X_TOLERANCE_PX = 6.0
"""Two nodes sit at the "same relative x-offset" in their records when their
left edges differ by at most this: a few pixels absorb sub-pixel layout and
border differences, but a neighbouring column is always farther away."""

MAX_STM_CELLS = 60_000
"""Budget of DP cells for one record-vs-seed match. Typical records need a few
hundred; past the budget, deeper pairs count by their own node score only, so
a pathological record (a whole page as one record) costs O(budget), not O(n^2)."""

MAX_DEPTH = 60
"""Record subtrees deeper than this are cut: real records are shallow, and the
cut keeps recursion far from Python's limit."""

MAX_ROUNDS = 3
"""DEPTA re-queues records whose extra items have no unique place in the seed.
Each round can only add nodes to the seed; three rounds settle every case seen,
then the rest is placed at its best guess rather than dropped."""

LIST_MIN_RECORDS = 2
"""A nested list is recognised by its length varying across records, which needs
at least two records to see."""

LIST_MAX_ITEMS_PER_ENTRY = 3
"""A list entry (tag, author) holds at most this many data items: a larger
repeated block is a nested record or a layout row, not one value of a list."""

LIST_SHAPE_AGREEMENT = 0.6
"""Entries of a real list are alike: when the dominant text shape (price,
number, date, word) of entry 1 and entry 2 across records differ, or this share
of one position holds the same literal text, the run is positional fields
(e.g. "3 days ago" then "500 views"), not a list."""

SEPARATOR_CHARS = frozenset("|·•,;/-–—:()[]*»«›‹>< \u00a0")
"""Text made only of these is a separator between values, not a data item
(seed 002 splits entities at separator characters)."""

STAR_CLASS_WORDS = ("star", "rating", "rate")
"""Class-name words of a star-rating widget whose filled width gives the rating."""

STAR_SCALE = 5.0
"""Star widgets show five stars unless the text says otherwise."""

INLINE_FORMAT_TAGS = frozenset(
    {"b", "strong", "em", "i", "u", "mark", "font", "small", "big", "sup", "sub", "abbr", "cite",
     "q", "code", "s", "strike", "del", "ins", "tt", "var", "kbd", "samp", "dfn", "nobr", "wbr", "br"}
)
"""Formatting inside running text (search-term highlights, emphasis). An element
whose own text runs around such children is one value ("Children's <b>Health</b>
Research"), as seed 002 merges text pieces one depth level apart. A ``span``
without class or id counts too; links and classed spans do not, as templates
mark their fields with those."""

LABEL_MAX_WORDS = 4
"""An element's own leading text of at most this many words, before a single link
or classed span, is a label that runs on with its value ("Posted by <a>ann</a>",
"in <a>Electronics</a>"); the schema stage names the column from it."""

RUNNING_TEXT_SHARE = 1.0
"""Links and classed spans join their parent's running text when the parent's own
words are at least as long as theirs: a link or highlight inside a sentence. Some
fields beside a note ("<a>Fine Arts</a> (2009) (Short)") merge too; on the dev set
2.0 lost more merged sentences than it saved such pairs (cell F1 0.898 vs 0.900)."""

JOIN_MIN_RECORDS = 2
"""Columns joined as one field built two ways must each hold values in this many
records: a column of one record (a fragment of one snippet) says nothing of a
second way of building a field."""

LIST_LABEL_WORDS = 3
"""Entries at one position of a run open with labels when at most this many words open
most of them ("Reg."/"Orig." then "Was"/"Sale"); names and titles open with many."""
