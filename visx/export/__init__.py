"""Export extractions: CSV, JSON, JSON Lines, SQLite and Parquet.

``write(extraction, path, all_regions=False)`` picks the format by the file
extension; ``open_exporter(path)`` streams several pages into one output::

    with open_exporter(Path("out.sqlite")) as ex:
        for page in pages:
            ex.export(visx.extract(page))

Errors are :class:`visx.errors.ExportError`, naming the path and the way out;
a failed export leaves no partial file.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from visx.atomic import probe
from visx.errors import ExportError
from visx.export.base import Exporter, ExportResult, check_path
from visx.export.contract import ExtractionLike, json_schema, to_json_dict
from visx.export.formats import TEXT_FORMATS, CsvExporter, JsonExporter, JsonlExporter, render_text
from visx.export.parquet import ParquetExporter
from visx.export.sqlite import SqliteExporter

EXPORTERS: dict[str, type[Exporter]] = {
    ".csv": CsvExporter,
    ".json": JsonExporter,
    ".jsonl": JsonlExporter,
    ".sqlite": SqliteExporter,
    ".sqlite3": SqliteExporter,
    ".db": SqliteExporter,
    ".parquet": ParquetExporter,
}


FORMATS: dict[str, type[Exporter]] = {
    "csv": CsvExporter, "json": JsonExporter, "jsonl": JsonlExporter,
    "sqlite": SqliteExporter, "parquet": ParquetExporter,
}
"""Format names (``--format``) -> exporter."""


def exporter_class(path: Path, fmt: str | None = None) -> type[Exporter]:
    """The exporter for ``fmt`` or else ``path``'s extension; :class:`ExportError` names the known ones."""
    if fmt is not None:
        cls = FORMATS.get(fmt.lower())
        if cls is None:
            raise ExportError(f"{path}: unknown output format {fmt!r}; use one of {', '.join(FORMATS)}",
                              source=str(path))
        return cls
    cls = EXPORTERS.get(Path(path).suffix.lower())
    if cls is None:
        known = ", ".join(EXPORTERS)
        raise ExportError(f"{path}: unknown output format {Path(path).suffix or '(no extension)'!r}; "
                          f"name the file with one of {known}, or give the format explicitly",
                          source=str(path))
    return cls


def check_output(path: Path, fmt: str | None = None) -> type[Exporter]:
    """Everything about an output path that needs no page, checked now (before any render):
    not a folder, a known format, an existing folder where a file can be created.
    Returns the exporter class; raises :class:`ExportError` naming the path and the way out."""
    path = Path(path)
    if path.is_dir():
        check_path(path)  # says "is a folder" before any word on formats
    cls = exporter_class(path, fmt)
    check_path(path)
    try:
        probe(path.parent if str(path.parent) else Path("."))
    except OSError as e:
        raise ExportError(f"{path}: cannot write there ({e.strerror or e}); choose a writable output path",
                          source=str(path)) from e
    return cls


def open_exporter(path: Path, *, all_regions: bool = False, fmt: str | None = None) -> Exporter:
    """A streaming exporter for ``path``; checks the path before any page is processed."""
    ex = check_output(Path(path), fmt)(Path(path), all_regions=all_regions)
    ex.start()
    return ex


def write(extraction: ExtractionLike, path: Path, *, all_regions: bool = False,
          fmt: str | None = None) -> ExportResult:
    """Write one extraction to ``path`` in the format ``fmt`` or, by default, its extension names."""
    ex = open_exporter(Path(path), all_regions=all_regions, fmt=fmt)
    ex.export(extraction)
    return ex.finish()


def write_stream(extraction: ExtractionLike, stream: TextIO, *, fmt: str = "json",
                 all_regions: bool = False) -> None:
    """Write a text format (json, jsonl, csv) to an open stream such as standard output."""
    if fmt not in TEXT_FORMATS:
        raise ExportError(f"format {fmt!r} cannot go to standard output; write it to a file with -o",
                          source=fmt)
    stream.write(render_text(extraction, fmt, all_regions=all_regions))


__all__ = [
    "EXPORTERS",
    "FORMATS",
    "ExportResult",
    "Exporter",
    "ExtractionLike",
    "check_output",
    "check_path",
    "exporter_class",
    "json_schema",
    "open_exporter",
    "to_json_dict",
    "write",
    "write_stream",
]
