"""Link paths straight on an extraction (``visx extract URL --link-depth 2``): the main table
gets ``page_url`` and ``link_score`` columns, crawled from the extracted page itself."""

from __future__ import annotations

from typing import TYPE_CHECKING

from visx.errors import ConfigError, LinkError
from visx.link.api import SCORE_COLUMN, URL_COLUMN, LinkOptions, LinkResult, crawl_site, link_crawl

if TYPE_CHECKING:
    from visx.config import Config
    from visx.pipeline import Extraction


def link_extraction(ex: Extraction, options: LinkOptions, key: str | None = None,
                    config: Config | None = None) -> LinkResult:
    """Add ``page_url`` and ``link_score`` to ``ex``'s main table (in place) and return the result.

    ``key`` names the column to match (a name of ``Table.field_names()``); by default each
    record's first non-empty text column, which on a list page most often names the record."""
    from visx.schema.table import Cell, Column

    url = ex.snapshot.url
    if not url.startswith(("http://", "https://")):
        raise ConfigError(f"{ex.snapshot.source}: --link-depth crawls the page's site, so the source must be "
                          "an http(s) URL, not a file or a snapshot of one")
    region = ex.main
    if region is None or region.table is None or not region.table.rows:
        raise LinkError(f"{url}: no main table to link; nothing was extracted from the page", source=url)
    table = region.table
    records = table.to_records()
    names = table.field_names()
    if key is None:
        # The schema may split one field in two (linked names in one column, plain names in
        # another): each record's key is its first non-empty text column.
        texts = [table.columns[i].name for i in table.default_columns() if table.columns[i].type == "text"]
        if not texts:
            raise LinkError(f"{url}: the main table has no text column to match on; name one with "
                            f"--link-key (columns: {', '.join(names)})", source=url)
        key = "\x00key"
        for rec in records:
            rec[key] = next((rec[c] for c in texts if rec.get(c) not in (None, "")), "")
        names = [*names, key]
    elif key not in names:
        raise LinkError(f"{url}: the main table has no column {key!r}; its columns are "
                        f"{', '.join(names)}: pass one of them as --link-key", source=url)
    res = link_crawl(crawl_site(url, options, config), names, records, key, options)
    filled = sum(r[URL_COLUMN] is not None for r in res.rows)
    fill = filled / len(res.rows) if res.rows else 0.0
    table.columns.append(Column(URL_COLUMN, "url", fill, source="link"))
    table.columns.append(Column(SCORE_COLUMN, "number", fill, source="link"))
    for row, rec in zip(table.rows, res.rows, strict=True):
        page, score = rec[URL_COLUMN], rec[SCORE_COLUMN]
        row.append(Cell(page, page) if page else None)
        row.append(Cell(f"{score:.3f}", score) if page else None)
    return res
