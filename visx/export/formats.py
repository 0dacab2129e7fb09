"""CSV, JSON and JSON Lines exporters."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from visx.export.base import Exporter, output_file
from visx.export.contract import (
    ExtractionLike,
    chosen_of,
    partial_of,
    picked_regions,
    record_dict,
    step_pages,
    table_of,
    to_json_dict,
)
from visx.version import __version__

PARTIAL_COLUMN = "partial_reason"
"""The column a flat output (CSV, Parquet) gets when one of its pages is partial: filled on that
page's rows, empty on the others. Outputs with no partial page keep their columns."""


def partial_mark(extraction: ExtractionLike) -> dict[str, str]:
    """``{PARTIAL_COLUMN: why}`` for a partial page's flat rows, else nothing."""
    partial, reason = partial_of(extraction)
    return {PARTIAL_COLUMN: reason} if partial else {}


def flat_rows(extraction: ExtractionLike, all_regions: bool, *, all_columns: bool = False,
              raw: bool = False) -> tuple[list[dict[str, Any]], list[str]]:
    """Flat records of the exported regions (default columns unless ``all_columns``), and
    their keys in order.

    With ``all_regions`` every row starts with its region's ``region`` rank.
    """
    rows: list[dict[str, Any]] = []
    keys: dict[str, None] = {}
    if all_regions:
        keys["region"] = None
    for k in picked_regions(extraction, all_regions):
        table = table_of(extraction, k)
        if table is None:
            continue
        keys.update(dict.fromkeys(table.field_names(all_columns=all_columns)))
        for rec in table.to_records(all_columns=all_columns, raw=raw):
            rows.append({"region": extraction.regions[k].rank, **rec} if all_regions else rec)
    return rows, list(keys)


def _no_rows(extraction: ExtractionLike) -> str:
    return f"{extraction.source}: no records to export (no region or empty table)"


def csv_value(v: Any) -> str:
    """One CSV field: lists joined by ``"; "``, mappings as JSON, None empty."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "; ".join(csv_value(x) for x in v)
    if isinstance(v, dict):
        return json.dumps(v, ensure_ascii=False, sort_keys=True)
    return str(v)


class CsvExporter(Exporter):
    """The default table of the main region (rank 1 or the chosen one; or all regions) as one CSV file.

    Several pages go into one file with a leading ``source`` column.
    """

    format = "csv"

    def _reset(self) -> None:
        self._rows: list[dict[str, Any]] = []
        self._keys: dict[str, None] = {}
        self._partial = False

    def _add(self, extraction: ExtractionLike) -> None:
        rows, keys = flat_rows(extraction, self.all_regions)
        if not rows:
            self.result.warnings.append(_no_rows(extraction))
        self._keys.update(dict.fromkeys(keys))
        mark = partial_mark(extraction)
        if mark:
            self._partial = True
        self._rows.extend({"source": extraction.source, **r, **mark} for r in rows)
        self.result.tables += len(picked_regions(extraction, self.all_regions))

    def text(self) -> str:
        keys = ((["source"] if self.result.pages > 1 else []) + list(self._keys)
                + ([PARTIAL_COLUMN] if self._partial else []))
        if not keys:
            return ""
        buf = io.StringIO(newline="")
        w = csv.writer(buf)
        w.writerow(keys)
        for r in self._rows:
            w.writerow([csv_value(r.get(k)) for k in keys])
        self.result.rows = len(self._rows)
        return buf.getvalue()

    def _write(self) -> None:
        _write_text(self, newline="")


class JsonExporter(Exporter):
    """The JSON contract: one object for one page, a list of them for several."""

    format = "json"

    def _reset(self) -> None:
        self._docs: list[dict[str, Any]] = []

    def _add(self, extraction: ExtractionLike) -> None:
        # The JSON contract lists every region, ranked; --all-regions is for tables.
        doc = to_json_dict(extraction, all_regions=True)
        if not any(rg["records"] for rg in doc["regions"]):
            self.result.warnings.append(_no_rows(extraction))
        self.result.rows += sum(len(rg["records"]) for rg in doc["regions"])
        self.result.tables += len(doc["regions"])
        self._docs.append(doc)

    def text(self) -> str:
        doc: Any = self._docs[0] if len(self._docs) == 1 else self._docs
        return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"

    def _write(self) -> None:
        _write_text(self)


class JsonlExporter(Exporter):
    """One record a line: ``visx`` (the version), ``source``, ``url``, its region's
    ``rank``, the record (``xpaths``, ``bbox``, ``text``, ``step``, ``page``, ``cells``)
    and its flat ``fields`` (``$defs/line`` of ``extraction.schema.json``); the lines of a
    region the user chose come first and carry ``"chosen": true``."""

    format = "jsonl"

    def _reset(self) -> None:
        self._lines: list[str] = []

    def _add(self, extraction: ExtractionLike) -> None:
        lines, regions = jsonl_lines(extraction)
        self._lines.extend(lines)
        self.result.tables += regions
        if not lines:
            self.result.warnings.append(_no_rows(extraction))

    def text(self) -> str:
        self.result.rows = len(self._lines)
        return "".join(line + "\n" for line in self._lines)

    def _write(self) -> None:
        _write_text(self)


def jsonl_lines(extraction: ExtractionLike) -> tuple[list[str], int]:
    """The JSON Lines of one page (no line ends) and the number of regions they come from."""
    nodes = extraction.snapshot.nodes
    pages = step_pages(extraction)
    chosen = chosen_of(extraction) is not None
    partial, partial_reason = partial_of(extraction)  # on every line: a line is read on its own
    lines: list[str] = []
    regions = 0
    for k in picked_regions(extraction, True, data_only=False):  # each line carries its region's rank
        region = extraction.regions[k]
        table = table_of(extraction, k)
        fields = table.to_records() if table is not None else []
        mark = {"chosen": True} if chosen and k == 0 else {}
        for r, rec in enumerate(region.records):
            line = {"visx": __version__, "source": extraction.source, "url": extraction.url,
                    "rank": region.rank, **mark, "partial": partial, "partial_reason": partial_reason,
                    **record_dict(nodes, rec, table, r, pages),
                    "fields": fields[r] if r < len(fields) else {}}
            lines.append(json.dumps(line, ensure_ascii=False))
        regions += 1
    return lines, regions


_TextExporter = CsvExporter | JsonExporter | JsonlExporter
TEXT_FORMATS: dict[str, type[_TextExporter]] = {
    "csv": CsvExporter, "json": JsonExporter, "jsonl": JsonlExporter,
}


def _write_text(ex: _TextExporter, newline: str | None = None) -> None:
    text = ex.text()
    with output_file(ex.path) as tmp, tmp.open("w", encoding="utf-8", newline=newline) as fh:
        fh.write(text)


def render_text(extraction: ExtractionLike, fmt: str, *, all_regions: bool = False) -> str:
    """The file content of a text format for one extraction, without writing a file."""
    ex = TEXT_FORMATS[fmt](Path("-"), all_regions=all_regions)
    ex.export_unchecked(extraction)
    return ex.text()


# -- Spooled outputs of a batch ---------------------------------------------------------------
#
# A batch (:mod:`visx.batch.run`) appends each page, as it finishes, to ``<out>.part`` as JSON
# lines: the JSON Lines output itself, one page's JSON object a line, or one flat row a line
# (``{"source": ..., **row}``) for CSV and Parquet. ``finish_spool`` turns the spool into the
# output in one pass over the file (two for CSV and Parquet, whose columns are the union of
# every page's), so memory stays bounded by a page whatever the batch's size.

SPOOLED = ("csv", "json", "jsonl", "parquet")


def spool_lines(extraction: ExtractionLike, fmt: str, all_regions: bool) -> list[str]:
    """What ``fmt``'s spool gets from one page (no line ends)."""
    if fmt == "jsonl":
        return jsonl_lines(extraction)[0]
    if fmt == "json":
        return [json.dumps(to_json_dict(extraction, all_regions=True), ensure_ascii=False)]
    rows, _ = flat_rows(extraction, all_regions)
    mark = partial_mark(extraction)
    return [json.dumps({"source": extraction.source, **r, **mark}, ensure_ascii=False, default=str) for r in rows]


def read_spool(spool: Path) -> Iterator[dict[str, Any]]:
    with spool.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def spool_keys(spool: Path) -> list[str]:
    """The union of the spooled rows' keys, in first-seen order."""
    keys: dict[str, None] = {}
    for row in read_spool(spool):
        keys.update(dict.fromkeys(row))
    return list(keys)


def finish_spool(fmt: str, spool: Path, path: Path, pages: int) -> int:
    """Write the output ``path`` from ``spool`` (atomically) and return its row count; the
    spool is left for the caller to remove. ``pages``: the sources of the batch (1: the shape
    of a single extraction, no JSON array and no ``source`` column)."""
    if fmt == "parquet":
        from visx.export.parquet import parquet_from_spool

        return parquet_from_spool(spool, path)
    rows = 0
    with output_file(path) as tmp:
        if fmt == "jsonl":
            with spool.open("rb") as src, tmp.open("wb") as dst:
                for line in src:
                    dst.write(line)
                    rows += 1
        elif fmt == "json":
            with tmp.open("w", encoding="utf-8") as dst:
                dst.write("[\n" if pages != 1 else "")
                for i, doc in enumerate(read_spool(spool)):
                    text = json.dumps(doc, ensure_ascii=False, indent=1)
                    dst.write(("" if i == 0 else ",\n") + text)
                    rows += sum(len(rg["records"]) for rg in doc["regions"])
                dst.write("\n]\n" if pages != 1 else "\n")
        else:
            keys = spool_keys(spool)
            if pages <= 1 and keys[:1] == ["source"]:
                keys = keys[1:]  # one page: no source column, as for a single extraction
            with tmp.open("w", encoding="utf-8", newline="") as dst:
                w = csv.writer(dst)
                if keys:
                    w.writerow(keys)
                for row in read_spool(spool):
                    w.writerow([csv_value(row.get(k)) for k in keys])
                    rows += 1
    return rows
