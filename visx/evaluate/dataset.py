"""Read a testbed-style evaluation folder.

Layout (see ``../shared/testbed/README.md``)::

    DATASET/index.json               one entry per page: id, category, site, keyword, page, ...
    DATASET/<id>/<page>              the saved page (``<id>`` is ``site/query``)
    DATASET/<id>/records.csv         gold records, one row each, one column per field
    DATASET/<id>/meta.json           the page's index entry

A folder without ``index.json`` is read from its ``*/meta.json`` files
instead, so a fixture folder of a few pages needs no index of its own.
"""

from __future__ import annotations

import csv
import fnmatch
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from visx.errors import ConfigError

INDEX = "index.json"
META = "meta.json"
RECORDS = "records.csv"


@dataclass(slots=True, frozen=True)
class GoldRecord:
    """One labelled record: its field cells and the text used for matching."""

    cells: tuple[str, ...]

    @property
    def text(self) -> str:
        """The non-empty cells joined: what a predicted record's text is compared with."""
        return " ".join(c for c in self.cells if c)


@dataclass(slots=True)
class Page:
    """One page of a dataset."""

    id: str
    folder: Path
    """The page's own folder (holds records.csv and meta.json)."""
    page_file: Path
    """The saved HTML page, or an empty path when only a snapshot exists (fixtures)."""
    category: str = ""
    site: str = ""
    keyword: str = ""
    n_records: int = 0
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """File-name-safe form of the id (``site/query`` -> ``site__query``)."""
        return page_key(self.id)


def page_key(page_id: str) -> str:
    return page_id.replace("/", "__")


def load_dataset(root: str | Path, *, pages: str | None = None, limit: int | None = None) -> list[Page]:
    """The pages of the dataset at ``root``, in index order.

    ``pages`` keeps ids matching a shell glob (``"amazon.com/*"``); ``limit``
    keeps the first N after that.
    """
    base = Path(root)
    if not base.is_dir():
        raise ConfigError(f"{base}: dataset folder not found; give a folder holding index.json "
                          "or <site>/<query>/meta.json files")
    entries = _entries(base)
    out = [_page(base, e) for e in entries]
    if pages:
        out = [p for p in out if fnmatch.fnmatchcase(p.id, pages)]
    if limit is not None:
        out = out[: max(0, limit)]
    return out


def _entries(base: Path) -> list[dict[str, Any]]:
    index = base / INDEX
    if index.is_file():
        try:
            data = json.loads(index.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise ConfigError(f"{index}: unreadable dataset index ({e}); fix or remove it") from e
        if not isinstance(data, list):
            raise ConfigError(f"{index}: expected a JSON list of page entries")
        return [dict(e) for e in data]
    metas = sorted(base.rglob(META))
    if not metas:
        raise ConfigError(f"{base}: no {INDEX} and no */{META}; not a dataset folder")
    out = []
    for m in metas:
        try:
            entry = json.loads(m.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise ConfigError(f"{m}: unreadable page metadata ({err})") from err
        entry.setdefault("id", m.parent.relative_to(base).as_posix())
        entry["_folder"] = str(m.parent)
        out.append(entry)
    return out


def _page(base: Path, e: dict[str, Any]) -> Page:
    if "id" not in e:
        raise ConfigError(f"{base}: a page entry has no 'id': {e!r}")
    pid = str(e["id"])
    folder = Path(e.pop("_folder")) if "_folder" in e else base / pid
    page_name = str(e.get("page", ""))
    return Page(
        id=pid,
        folder=folder,
        page_file=folder / page_name if page_name else Path(),
        category=str(e.get("category", "")),
        site=str(e.get("site", "")),
        keyword=str(e.get("keyword", "")),
        n_records=int(e.get("n_records", 0) or 0),
        meta=e,
    )


def decode_text(data: bytes) -> str:
    """Bytes of a hand-made CSV as text.

    UTF-8 (with or without BOM) first; then cp1252, which is what spreadsheet
    tools on Windows write; then UTF-8 with replacement characters, so one
    stray byte never drops a page from the evaluation.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace")


def parse_records(text: str) -> list[GoldRecord]:
    """Rows of a records.csv (no header row); blank rows are skipped."""
    out = []
    for row in csv.reader(io.StringIO(text, newline="")):
        cells = tuple(" ".join(c.split()) for c in row)
        if any(cells):
            out.append(GoldRecord(cells))
    return out


def read_gold(page: Page) -> list[GoldRecord]:
    path = page.folder / RECORDS
    try:
        data = path.read_bytes()
    except OSError as e:
        raise ConfigError(f"{path}: cannot read gold records ({e.strerror}); every page needs a {RECORDS}") from e
    return parse_records(decode_text(data))
