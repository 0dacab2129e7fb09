"""Tuned constants and word lists of the schema stage, each with its reason."""

from __future__ import annotations

COLUMN_TYPE_SHARE = 0.8
"""A column takes a type when this share of its filled cells decide on it. One
cell in five may be a placeholder ("Free", "N/A", "Call for price") without
turning a price column into text; below that the column is genuinely mixed."""

TYPE_SAMPLE = 24
"""Cells typed (all rules) to decide a column's type; the rest are only parsed as
that type. Two dozen evenly spread cells decide a 0.8 majority as well as all of
them would, and keep typing cost flat in the number of records."""

TYPE_FIRST = 8
"""When the first cells of the sample all decide the same type, the rest of the
sample cannot turn a 0.8 majority around often enough to be worth typing."""

MAX_EXTRA_CHARS = 24
"""A typed value may come with this many characters of other words ("From $12",
"Save $20", "Posted 3 days ago"); longer text is a sentence that mentions a
value, and typing it would hide the text."""

CONSTANT_MIN_RECORDS = 2
"""A column is "constant" only when at least this many records show the same
value; one record says nothing about the others."""

LABEL_MAX_WORDS = 4
"""Label text ("Price:", "Posted by", "Sold and shipped by") is short."""

LABEL_MAX_CHARS = 40

LABEL_END_WORDS = frozenset({"by", "from", "in", "at", "on", "for", "via", "von", "par", "por", "di", "de"})
"""A shared opening of a column's texts is a label only when it ends like one
("Posted by", "Sold and shipped by", "Published in"); a shared first word of
titles ("Apple iPhone 7", "Apple iPhone 8") is part of the value."""

TITLE_MIN_FILL = 0.5
"""The title is a field most records have: an optional blurb must not win it."""

TITLE_MIN_DISTINCT = 0.7
"""Titles differ between records; a repeated category label is not a title."""

TITLE_BOLD_BONUS = 1.15
TITLE_LINK_BONUS = 1.1
"""Prominence = font size x these: a bold or linked text of the same size is the
more likely title (search results link their titles)."""

NAME_MAX_CHARS = 40
"""Column names stay readable as CSV headers and SQL identifiers."""

HEADER_TAGS = ("th",)
"""Header cells; ``td`` inside ``thead`` count too."""

CLASS_WORDS: dict[str, str] = {
    # Class-name words a template uses for its own fields -> column name.
    "title": "title", "headline": "title", "heading": "title", "name": "name",
    "price": "price", "prices": "price", "cost": "price", "amount": "price",
    "author": "author", "authors": "author", "byline": "author", "seller": "seller",
    "date": "date", "time": "time", "timestamp": "date", "published": "date",
    "rating": "rating", "ratings": "rating", "stars": "rating", "score": "score",
    "review": "reviews", "reviews": "reviews", "votes": "votes", "points": "points",
    "description": "description", "desc": "description", "summary": "summary",
    "snippet": "snippet", "excerpt": "snippet", "abstract": "abstract",
    "location": "location", "address": "address", "city": "city", "brand": "brand",
    "category": "category", "tags": "tags", "tag": "tags", "keywords": "tags",
    "views": "views", "comments": "comments", "duration": "duration",
    "company": "company", "employer": "company", "salary": "salary", "year": "year",
    "subtitle": "subtitle", "username": "user", "user": "user", "distance": "distance",
    "discount": "discount", "badge": "badge", "stock": "stock",
    "availability": "availability", "status": "status", "phone": "phone",
    "email": "email", "contact": "contact", "thumbnail": "image", "thumb": "image", "image": "image",
    "img": "image", "photo": "image", "avatar": "image", "url": "url",
    "format": "format", "genre": "genre", "publisher": "publisher", "journal": "journal",
    "isbn": "isbn", "sku": "sku", "edition": "edition", "language": "language", "platform": "platform",
    "condition": "condition", "color": "color", "colour": "color", "domain": "domain", "source": "source",
}
"""Only words that name a field in any template; layout words ("size", "col",
"item", "box") are left out because they name boxes, not data."""

BY_LABELS = {"by": "author", "from": "source", "in": "category"}
"""One-word labels that name the field they introduce poorly as snake_case."""

TYPE_NAMES: dict[str, str] = {
    "price": "price", "number": "number", "integer": "count", "percent": "percent",
    "date": "date", "time": "time", "duration": "duration", "rating": "rating",
    "url": "link", "email": "email", "phone": "phone", "image": "image", "text": "text",
}
"""Fallback column names by type, used when no header, label or class names a column."""

# Tidying (visx.schema.tidy) ---------------------------------------------------
SAME_LINK_SHARE = 0.8
"""A column gives no URL field of its own when its link repeats an earlier column's in this
share of its linked records (title, picture and "Read more" lead to one page)."""

SPARSE_MIN_RECORDS = 5
"""Sparse columns are merged only in tables of this many records: in fewer, every column is sparse."""

SPARSE_MAX_FILL = 0.3
"""A column filled in at most this share of the records is sparse; two sparse columns of one
name and type, never both filled, are one field built two ways."""

INTERFACE_WORDS = frozenset({
    "follow", "unfollow", "like", "likes", "reblog", "share", "save", "saved", "save job", "apply",
    "apply now", "easy apply", "add to cart", "add to bag", "add to basket", "add to list", "add to wishlist",
    "buy now", "shop now", "compare", "reply", "report", "subscribe", "subscribed", "sponsored", "promoted",
    "ad", "ads", "advertisement", "more", "read more", "see more", "show more", "learn more", "details",
    "view details", "view", "view more", "quick view", "bookmark", "favorite", "favourite", "watch",
    "hide", "permalink", "embed", "flag", "upvote", "downvote", "vote", "comment", "comments", "edit",
    "delete", "download", "print", "email", "tweet", "pin it", "send", "message", "contact", "book now",
    "select", "choose options", "see options", "in den warenkorb", "merken", "teilen", "antworten",
    "ajouter au panier", "partager", "répondre", "añadir al carrito", "compartir", "responder",
})
"""Labels of buttons and badges: a column made of these (80% of its texts, case and
punctuation aside) is the interface of the records, not their data."""

TYPE_NAME_SOURCES = frozenset({"type", "text"})
"""Name sources that say nothing of a column's role (named after its type, or its own text):
sparse columns so named are not merged."""

FOLD_MIN_COLUMNS = 25
"""A table of this many shown columns is past what a person would name: its partly filled
text columns, when they sit in one block of each record, fold into one body column."""

FOLD_MAX_FILL = 0.8
"""Columns filled in fewer of the records than this are the body's candidates; fuller ones
are the record's own fields (title, author, score) and stay."""

TWO_DIGIT_YEAR_PIVOT = 69
"""Two-digit years below this are 20xx, the rest 19xx ("5.3.99" is 1999): the POSIX rule
that ``strptime``'s ``%y`` follows, so visx reads them as other tools do."""
