"""What a file, a response body or standard input holds, from its first bytes.

Used wherever visx takes content: local files and HTTP bodies in the browser path
(:mod:`visx.render.page_load`), ``--static`` fetches (:mod:`visx.template.fetch`)
and ``-`` (standard input). A ZIP served as ``text/html`` would otherwise render as
a page of binary text and be mined into "records".
"""

from __future__ import annotations

BOMS = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
"""Byte order marks Chromium honours (UTF-32 it does not: such bytes count as binary)."""

OCTET = "application/octet-stream"

MAGIC = (
    (b"%PDF", "application/pdf"),
    (b"\x89PNG", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF8", "image/gif"),
    (b"PK\x03\x04", "application/zip"),
    (b"PK\x05\x06", "application/zip"),  # an empty ZIP
    (b"\x1f\x8b", "application/gzip"),
    (b"\xfd7zXZ\x00", "application/x-xz"),
    (b"7z\xbc\xaf\x27\x1c", "application/x-7z-compressed"),
    (b"Rar!\x1a\x07", "application/vnd.rar"),
    (b"\x7fELF", "application/x-executable"),
    (b"SQLite format 3\x00", "application/vnd.sqlite3"),
    (b"OggS", "audio/ogg"),
    (b"ID3", "audio/mpeg"),
    (b"\x00asm", "application/wasm"),
    (b"wOFF", "font/woff"),
    (b"wOF2", "font/woff2"),
    (b"{\\rtf", "application/rtf"),
    (b"%!PS", "application/postscript"),
)

SUFFIX = {
    ".pdf": "application/pdf", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
    ".gif": "image/gif", ".webp": "image/webp", ".json": "application/json", ".zip": "application/zip",
    ".csv": "text/csv", ".txt": "text/plain", ".mp4": "video/mp4", ".mp3": "audio/mpeg",
}
"""Suffixes that say "not a page" when the content does not start with a tag."""

_TEXT_CONTROLS = frozenset(b"\t\n\r\f\x0b\x1b")
_BINARY_RATIO = 0.10
"""Above this share of control bytes a text is binary: real pages have almost none."""


def bom(head: bytes) -> tuple[bytes, str] | None:
    """The byte order mark ``head`` starts with and its encoding, if any."""
    if head.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):  # UTF-32: not a BOM Chromium reads
        return None
    for mark, enc in BOMS:
        if head.startswith(mark):
            return mark, enc
    return None


def decode(data: bytes) -> str:
    """Text of ``data``: by its byte order mark, else UTF-8 (bad bytes replaced)."""
    found = bom(data)
    if found is None:
        return data.decode("utf-8", errors="replace")
    mark, enc = found
    body = data[len(mark):]
    if enc.startswith("utf-16") and len(body) % 2:
        body = body[:-1]  # a head cut mid-character
    return body.decode(enc, errors="replace")


def is_binary(head: bytes) -> bool:
    """NUL bytes or many control bytes: not text in any encoding a page uses."""
    if not head:
        return False
    if b"\x00" in head:
        return True
    controls = sum(1 for b in head if (b < 0x20 and b not in _TEXT_CONTROLS) or b == 0x7F)
    return controls / len(head) > _BINARY_RATIO


def sniff(head: bytes, suffix: str = "") -> str:
    """``""`` when ``head`` (the first few KB) can be an HTML page, else the content type found.

    A byte order mark means text (UTF-16 pages are full of NUL bytes); the text
    after it is still checked. Magic numbers win over a tag-like start.
    """
    if bom(head) is not None:
        text = decode(head)
        return OCTET if _binary_text(text) else ""
    for magic, ctype in MAGIC:
        if head.startswith(magic):
            return ctype
    if head.lstrip()[:1] == b"<":
        return "" if not is_binary(head) else OCTET
    if suffix in SUFFIX:
        return SUFFIX[suffix]
    return OCTET if is_binary(head) else ""


def _binary_text(text: str) -> bool:
    if not text:
        return False
    controls = sum(1 for c in text if (ord(c) < 0x20 and ord(c) not in _TEXT_CONTROLS) or c == "\x7f")
    return controls / len(text) > _BINARY_RATIO


def describe(ctype: str) -> str:
    """How a message names a content type: binary data is said to be binary."""
    return f"binary data ({ctype})" if ctype == OCTET else ctype


def is_blank(data: bytes) -> bool:
    """Nothing but whitespace (or a byte order mark)."""
    return not decode(data).strip()
