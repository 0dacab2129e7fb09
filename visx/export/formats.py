"""CSV, JSON and JSON Lines exporters."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from visx.export.base import Exporter, output_file
from visx.export.contract import (
    ExtractionLike,
    chosen_of,
    picked_regions,
    record_dict,
    step_pages,
    table_of,
    to_json_dict,
)
from visx.version import __version__


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

    def _add(self, extraction: ExtractionLike) -> None:
        rows, keys = flat_rows(extraction, self.all_regions)
        if not rows:
            self.result.warnings.append(_no_rows(extraction))
        self._keys.update(dict.fromkeys(keys))
        self._rows.extend({"source": extraction.source, **r} for r in rows)
        self.result.tables += len(picked_regions(extraction, self.all_regions))

    def text(self) -> str:
        keys = (["source"] if self.result.pages > 1 else []) + list(self._keys)
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
        nodes = extraction.snapshot.nodes
        before = len(self._lines)
        pages = step_pages(extraction)
        chosen = chosen_of(extraction) is not None
        for k in picked_regions(extraction, True, data_only=False):  # each line carries its region's rank
            region = extraction.regions[k]
            table = table_of(extraction, k)
            fields = table.to_records() if table is not None else []
            mark = {"chosen": True} if chosen and k == 0 else {}
            for r, rec in enumerate(region.records):
                line = {"visx": __version__, "source": extraction.source, "url": extraction.url,
                        "rank": region.rank, **mark,
                        **record_dict(nodes, rec, table, r, pages),
                        "fields": fields[r] if r < len(fields) else {}}
                self._lines.append(json.dumps(line, ensure_ascii=False))
            self.result.tables += 1
        if len(self._lines) == before:
            self.result.warnings.append(_no_rows(extraction))

    def text(self) -> str:
        self.result.rows = len(self._lines)
        return "".join(line + "\n" for line in self._lines)

    def _write(self) -> None:
        _write_text(self)


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
