"""Tuned values of the flat miner, each with its reason."""

MIN_RECORDS = 3
"""A list of two is as likely a pair of related lines (an address, a by-line) as a list;
the DOM miner asks for two alike elements, which are far stronger evidence than two alike
type runs."""

MIN_ENTITIES = 6
"""A container with fewer entities cannot hold MIN_RECORDS records of two fields."""

MIN_FIELDS = 1.8
"""Mean entities per record: records of one field are a plain list of items, which the
DOM miner finds (links, menu entries); a flat record has several fields."""

MAX_CONTAINERS = 40
"""Containers mined per page, most entities first: flat text lives in a few big blocks,
and each extra container costs a pattern search."""

KEY_MIN_GAP = 1.5
"""A key type marks record starts, so its occurrences are further apart than adjacent
entities on average; a type seen in runs (several texts in a row) cannot be the key."""

KEY_REGULAR_SHARE = 0.6
"""Share of a key type's gaps within a factor of two of the median gap: records differ in
length by an optional field or two, not by a factor of two, in most of the list."""

KEY_COVERAGE = 0.9
"""A key candidate occurs at least this share as often as the records (the most frequent
type seen once a record): a field missing from a record or two (a description) shifts
its mean index by a whole record's length, so sum(index)/count only compares fields
present in (nearly) every record."""

SUPPORT_THRESHOLD = 2
"""The seed's threshold on a pattern's support (a positive integer): a pattern seen twice
is a repetition, once is a single block."""

MAX_RECORD_FACTOR = 3.0
"""A segment between two key entities longer than this many times the main pattern is not
a record but the text between two lists (or a footer): the run of records stops there."""

CONVINCING_FIELDS = 2.0
"""Text leaves per record from which a DOM region is convincing: records of one leaf each
(single links, bare <p> fields) may be the fields of flat records."""

CONVINCING_RECORDS = 3
"""Records from which a DOM region is a list worth keeping (the DOM miner's minimum of two
is too few to skip the flat miner on)."""

FLAT_MARGIN = 1.0
"""A flat region outranks the DOM's main region only when its score is higher: the same
score favours the DOM region, whose records are elements."""

MAX_TITLE_WORDS = 25
"""A linked or bold text longer than this is a description, not a title."""

MERGE_SUPPORT_RATIO = 0.8
"""Two alternating patterns merge when their supports are this close and they follow each
other in this share of their occurrences: a record or two without the second half (a
missing field) must not stop the merge the seed makes for equal supports."""

MAX_KEYS = 4
"""Key candidates tried per container, the seed's sum(index)/count order first; the one
whose records agree best in their types wins. The seed's first choice fails when the
records' first field is typed like other fields (a linked rating "3.3" is a number)."""

BARE_PARTS_SHARE = 0.8
"""A DOM region whose records are groups of sibling elements (MDR's generalized nodes), most
of them bare blocks of one text piece, is not convincing: the grouping is a guess that
fields in sequence fall into records of a fixed length."""

KEY_FIT_MARGIN = 0.05
"""Another key replaces the seed's sum(index)/count choice only when its records agree this
much better (agreement x coverage, both 0..1): a key a field or two into the record cuts
records as alike, only shifted, and the first-field key keeps the records whole."""

LEAD_SHARE = 0.5
"""Entities before the first key entity are the first record's head only when they are
fewer than half a record; more is a header or text before the list."""

LINE_BOX = 1.5
"""An entity box up to this many median entity heights is its line's box (a taller one is
its container's, when the line has no end marker with a box)."""

BLANK_GAP = 0.5
"""A vertical gap between two lines of over half a line height is an empty line or a
paragraph margin: lines of one text flow sit at most a pixel or two apart."""

BREAK_SHARE = 0.5
"""Empty lines set records apart only when fewer than half the lines follow one: records of
several lines each. Above that, gaps are how every line is set (a bare <p> per field)."""

MAX_CONSTANT_WORDS = 6
"""A text repeated word for word marks records when it is short: a button, a caption or a
label ("View full profile", "Posted by"). Longer repeats are boilerplate sentences, which
recur as often but may sit anywhere (a notice every few records)."""
