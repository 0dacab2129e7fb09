"""Which template fits a page: same site, and seed 001's URL similarity R(w, m).

R(w, m) = |S(url_w) ∩ S(url_m)| / min(|S(url_w)|, |S(url_m)|), where S(url)
is the URL's path cut at "/" (and its query's parameter names). The seed
counts shared strings; visx also writes every run of digits as one symbol,
since ``/item/1234`` and ``/item/5678`` are pages of one kind (ids and page
numbers are what differ between a site's pages of one type).
"""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import parse_qsl, unquote, urlsplit

from visx.template.model import Template

_DIGITS = re.compile(r"\d+")


def segments(url: str) -> Counter[str]:
    parts = urlsplit(url)
    out: Counter[str] = Counter()
    for seg in unquote(parts.path).split("/"):
        if seg:
            out[_DIGITS.sub("0", seg.lower())] += 1
    for key, _v in parse_qsl(parts.query, keep_blank_values=True):
        out["?" + key.lower()] += 1
    return out


def url_similarity(page_url: str, template_url: str) -> float:
    """Seed 001's R(w, m) in [0, 1]; two URLs without a path are alike (1.0)."""
    a, b = segments(page_url), segments(template_url)
    if not a or not b:
        return 1.0 if not a and not b else 0.0
    common = sum((a & b).values())
    return common / min(sum(a.values()), sum(b.values()))


def site_of(url: str) -> str:
    host = (urlsplit(url).hostname or "").lower()
    return host.removeprefix("www.")


def candidates(page_url: str, templates: list[Template], min_similarity: float) -> list[tuple[float, Template]]:
    """Templates of the page's site with R > ``min_similarity``, most similar first (stable)."""
    site = site_of(page_url)
    got = [(url_similarity(page_url, t.url), t) for t in templates if site_of(t.url) == site]
    return sorted(((r, t) for r, t in got if r > min_similarity), key=lambda rt: -rt[0])


def explain(page_url: str, templates: list[Template]) -> str:
    """Why no template fits, one clause per template."""
    site = site_of(page_url)
    parts = []
    for t in templates[:8]:
        other = site_of(t.url)
        if other != site:
            parts.append(f"{t.url}: another site ({other or 'a local file'})")
        else:
            parts.append(f"{t.url}: R = {url_similarity(page_url, t.url):.2f}")
    more = f"; and {len(templates) - 8} more" if len(templates) > 8 else ""
    return "; ".join(parts) + more
