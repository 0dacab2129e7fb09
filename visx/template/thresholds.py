"""Every threshold of the template stage, each with its reason."""

from __future__ import annotations

# ---------------------------------------------------------------- learning
QUEUE = 6
"""XPaths kept per queue: enough forms (id, class, structure, generalised) to outlive a
redesign that breaks some of them, few enough to try in well under a millisecond."""
RECORD_CLASS_SHARE = 0.9
"""A class names the records when nearly all hold it (one odd record, a featured one, may not)."""
COLUMN_CLASS_SHARE = 0.6
"""A column's class may be missing in a few records (a field styled differently when empty or
highlighted); the class path is still scored on every record before it is kept."""
RECORD_MIN_F1 = 0.8
"""A record path that misses or adds more than a fifth of the records is no description of them."""
COLUMN_MIN_ACCURACY = 0.6
"""A column path right in fewer records than this finds another field as often as its own."""
F1_BUCKET = 0.05
"""Scores this close count as equal, and the more robust form goes first."""

# ---------------------------------------------------------------- matching
MIN_SIMILARITY = 0.5
"""Seed 001's threshold t for R(w, m): at least half the URL's segments agree (``--min-similarity``)."""

# ---------------------------------------------------------------- applying: what calls for a repair
DRIFT = 0.5
"""Fewer records than this share of the template's recent median: the list was lost or cut."""
FILL_DROP = 0.5
"""A column filled in under this share of its learned fill has lost its values."""
CHECK_MIN_FILL = 0.3
"""Columns filled in fewer records when learned are optional: their emptiness proves nothing."""
MISTYPED = 0.5
"""A typed column (price, date...) whose values parse as its type in fewer records than this share
of those it fills holds another field now."""
CORE_FILL = 0.8
"""Columns filled in at least this share of records when learned define a record..."""
RECORD_MIN_CORE = 0.5
"""...and a selected element that fills fewer than half of them is not one (an ad or a banner
inserted among the records, with the records' tag)."""

# ---------------------------------------------------------------- repairing (seed 001's search)
SEARCH_THRESHOLD = 0.5
"""Seed 001's search threshold on the evaluation function D (0..1): below it a node is
no better than a guess."""
MAP_THRESHOLD = 0.45
"""An old column maps to a re-mined one only above this similarity (type, place, font, tag,
label): below it the two are different fields that share a type."""
REPAIR_REGIONS = 6
"""Re-mined regions tried when the record list is repaired: the list is among the top few data
lists on every dev page where mining finds it at all; more would only add false matches."""
POSITION_SCALE = 0.5
"""Places in the record box (0..1 each way) this far apart or more count as unrelated."""
CLASH = 0.5
"""Two columns giving the very same item in more than half of the records they fill: one of
them reached another field's element by a fallback path."""
