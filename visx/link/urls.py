"""URL normalisation and the same-site rule of the crawl."""

from __future__ import annotations

from urllib.parse import urldefrag, urljoin, urlsplit, urlunsplit

from visx.link.thresholds import SKIP_SUFFIXES


def absolute(base: str, href: str) -> str | None:
    """``href`` resolved against ``base``, without its fragment; None for links that are no
    page (``mailto:``, ``javascript:``, in-page anchors) or that name a non-HTML file."""
    href = href.strip()
    if not href or href.startswith("#"):
        return None
    url = urldefrag(urljoin(base, href))[0]
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return None
    if parts.path.lower().endswith(SKIP_SUFFIXES):
        return None
    return normal(url)


def normal(url: str) -> str:
    """One spelling per page: lower-case scheme and host, default port dropped, empty path as ``/``."""
    p = urlsplit(url)
    host = (p.hostname or "").lower()
    port = p.port
    if port and not ((p.scheme == "http" and port == 80) or (p.scheme == "https" and port == 443)):
        host = f"{host}:{port}"
    return urlunsplit((p.scheme.lower(), host, p.path or "/", p.query, ""))


def site(url: str) -> str:
    """The host a page belongs to, ``www.`` ignored (www.example.org and example.org are one site)."""
    host = urlsplit(url).netloc.lower()
    return host[4:] if host.startswith("www.") else host


def host_key(url: str) -> str:
    """Scheme and host: what politeness limits and robots.txt are per."""
    p = urlsplit(url)
    return f"{p.scheme}://{p.netloc}"
