"""What a crawled page contributes: its title, first heading and links with their anchor texts.

Only these are kept (never the HTML), so a crawl of thousands of pages stays small.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field

from visx.link.urls import absolute

_SPACE = re.compile(r"\s+")


@dataclass(slots=True)
class PageLinks:
    """One fetched page."""

    url: str
    title: str = ""
    heading: str = ""
    links: list[tuple[str, str]] = field(default_factory=list)
    """(absolute target URL, anchor text) in document order; several per target possible."""


def clean_text(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def parse_html(url: str, html: str | bytes) -> PageLinks:
    """Title, first ``<h1>`` (else the first ``<h2>``) and ``<a href>``/``<area href>`` links of a page.

    An anchor without text is named by its image's ``alt``, then ``aria-label``, then ``title``
    (icon links): that is what a reader of the page sees or hears for it.
    """
    import lxml.html

    page = PageLinks(url)
    if not html or (isinstance(html, str) and not html.strip()):
        return page
    try:
        root = lxml.html.document_fromstring(html)
    except (ValueError, lxml.etree.ParserError):
        return page
    base = root.find(".//base[@href]")
    base_url = absolute(url, base.get("href", "")) or url if base is not None else url
    t = root.find(".//title")
    if t is not None:
        page.title = clean_text(anchor_text(t))
    for tag in ("h1", "h2"):
        h = root.find(f".//{tag}")
        if h is not None and (text := clean_text(anchor_text(h))):
            page.heading = text
            break
    for a in root.iter("a", "area"):
        href = a.get("href")
        if not href or "nofollow" in (a.get("rel") or "").lower().split():
            continue
        target = absolute(base_url, href)
        if target is None:
            continue
        page.links.append((target, sys.intern(anchor_text(a))))
    return page


def anchor_text(a: object) -> str:
    """The text a reader gets for a link: its words, else its image's alt, its aria-label or title."""
    text = clean_text(a.text_content())  # type: ignore[attr-defined]
    if text:
        return text
    for img in a.iter("img"):  # type: ignore[attr-defined]
        if alt := clean_text(img.get("alt") or ""):
            return alt
    for attr in ("aria-label", "title"):
        if v := clean_text(a.get(attr) or ""):  # type: ignore[attr-defined]
            return v
    return ""
