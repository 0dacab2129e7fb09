"""Every tuned number and word list of link paths, each with the reason for its value.

None of these was fitted to the generated test sites (``tests/link_sites.py``): they come
from the method's paper, from politeness conventions, or from what the scoring means.
"""

from __future__ import annotations

# --- crawl -------------------------------------------------------------------------------

DEPTH = 3
"""Hops from the source page. The paper crawls 4 levels from a university home page; from a
department or listing page (what a user hands visx) people, films and products sit 1-3 hops away."""

PER_HOST = 4
"""Requests in flight to one host. Browsers open about 6 connections per host; a crawler
should ask for less than a browser does."""

TOTAL = 16
"""Requests in flight in all, across hosts (with ``same_site=False``)."""

TIMEOUT_S = 10.0
"""Seconds for one request (connect + read). A page slower than that is listed as failed."""

RETRIES = 2
"""Retries of a request after a timeout, a connection error, HTTP 5xx, 408 or 429."""

BACKOFF_S = 0.5
"""First wait before a retry; it doubles each time."""

MAX_PAGES = 20_000
"""Pages fetched at most. It bounds time and memory on a site larger than expected
(20,000 pages hold ~1 M links, tens of MB); the crawl says when it stopped there."""

MAX_BYTES = 5_000_000
"""Bytes read of one page; a larger body is cut (links past it are lost, the title is kept)."""

MAX_CRAWL_DELAY_S = 10.0
"""robots.txt ``Crawl-delay`` is obeyed up to this; a larger one is a sign the site does
not want crawlers, and the crawl waits this long instead of minutes per page."""

USER_AGENT = "visx-link/1 (+https://github.com/visx-dev/visx)"

SKIP_SUFFIXES = (".pdf", ".jpg", ".jpeg", ".png", ".gif", ".svg", ".webp", ".zip", ".gz", ".tar",
                 ".mp3", ".mp4", ".avi", ".mov", ".css", ".js", ".ico", ".xml", ".json", ".doc",
                 ".docx", ".xls", ".xlsx", ".ppt", ".pptx")
"""Link targets that are not HTML pages by their name: never fetched (no title, no links)."""

# --- paths and bags ----------------------------------------------------------------------

K = 10
"""Shortest loopless paths per page: the paper's K (both of its experiments use 10)."""

TITLE_WEIGHT = 1
"""What a page's ``<title>`` adds to its bag: the paper's +1 (definition 5)."""

HEADING_WEIGHT = 1
"""What the page's first ``<h1>`` adds, like the title. Titles are often templated
("Profile | Department of ..."), cut, or the site's name; the first heading names what the
page is about on most such pages, so it rescues them; where it repeats the title the
element simply counts twice."""

# --- matching ----------------------------------------------------------------------------

TOP_ELEMENTS = 4
"""Bag elements a row's key is compared with: the paper finds matches "rarely beyond rank 4"."""

MIN_SCORE = 0.8
"""A row and a page match when the key agrees this well with one of the page's top elements
(token F-measure, see :mod:`visx.link.similarity`): 0.8 lets one of five tokens be missing or
spelled differently, or an initial stand for a first name; below that, another person's name
with the same surname would match."""

TOKEN_RATIO = 0.85
"""Two tokens are the same word at this rapidfuzz ratio (a typo or transliteration in a long
word); tokens with digits must be equal."""

INITIAL_CREDIT = 0.8
"""How much a lone initial ("J.") counts when it agrees with a word ("John"): less than the
word, so "John Smith" prefers the page of John Smith to that of J. Smith when both exist."""

CONTEXT_BONUS = 0.05
"""Added per other cell of the row (group, year, category) found in the page's bag, up to
``CONTEXT_MAX``: enough to break a tie between two pages of the same name, too small to make
a wrong name pass ``MIN_SCORE``."""

CONTEXT_MAX = 0.1

CONTEXT_MAX_CHARS = 60
"""Cells longer than this (descriptions, addresses) are not used as context."""

BOILERPLATE = frozenset(["home", "homepage", "page", "pages", "web", "website", "site", "personal", "profile", "welcome", "to", "of", "the", "at", "s", "prof", "professor", "dr", "mr", "mrs", "ms", "miss", "phd"])
"""Words of page titles and anchors that are not part of what they name ("Prof. Jane Doe's
Home Page"): they do not count against a match."""

ARTICLES = frozenset(["the", "a", "an", "le", "la", "les", "el", "los", "las", "il", "lo", "gli", "der", "die", "das", "den"])
"""Leading articles of titles, ignored ("The Matrix" = "Matrix, The"). Not the elided "l'":
a lone "L" opening a key is far more often an initial ("L. Moreau")."""

OTHER_ARTICLE = 0.95
"""Factor for a title whose article differs ("A ..." against "The ..."): still a match when
nothing better exists, but the title with the same article wins."""

HONORIFICS = frozenset(["prof", "professor", "dr", "mr", "mrs", "ms", "miss", "sir", "dame"])
"""Titles before names, dropped from keys."""

TITLE_SEPARATORS = r"\s+[|\u2013\u2014\u00b7:/-]\s+|\s+::\s+|\s*\|\s*"
"""Where page titles join their parts ("Jane Doe | CS Department", "Solaris (1972) - Films")."""
