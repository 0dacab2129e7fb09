"""Parquet export through pyarrow (the optional ``parquet`` extra)."""

from __future__ import annotations

from typing import Any

from visx.errors import ExportError
from visx.export.base import Exporter, output_file
from visx.export.contract import ExtractionLike, picked_regions
from visx.export.formats import flat_rows


def _uniform(values: list[Any]) -> list[Any]:
    """Arrow columns hold one type: mixed values (a "Free" among prices) become text."""
    kinds = {type(v) for v in values if v is not None}
    if kinds <= {int, float} or len(kinds) <= 1:
        return [float(v) if kinds == {int, float} and v is not None else v for v in values]
    return [None if v is None else str(v) for v in values]


class ParquetExporter(Exporter):
    """The default table of the main region (rank 1 or the chosen one; or all regions) as one Parquet file."""

    format = "parquet"

    def start(self) -> None:
        try:
            import pyarrow  # noqa: F401
        except ImportError as e:
            raise ExportError(f"{self.path}: Parquet needs pyarrow; install it with "
                              "`pip install 'visx[parquet]'` or choose .csv/.sqlite", source=str(self.path)) from e
        super().start()

    def _reset(self) -> None:
        self._rows: list[dict[str, Any]] = []
        self._keys: dict[str, None] = {}
        self._sources: list[str] = []

    def _add(self, extraction: ExtractionLike) -> None:
        rows, keys = flat_rows(extraction, self.all_regions)
        if not rows:
            self.result.warnings.append(f"{extraction.source}: no records to export (no region or empty table)")
        self._keys.update(dict.fromkeys(keys))
        self._rows.extend({"source": extraction.source, **r} for r in rows)
        self._sources.append(extraction.source)
        self.result.tables += len(picked_regions(extraction, self.all_regions))

    def _write(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        keys = ["source", *self._keys]
        columns = {k: _uniform([r.get(k) for r in self._rows]) for k in keys}
        try:
            table = pa.table(columns) if self._rows else pa.table({k: pa.array([], pa.string()) for k in keys})
        except (pa.ArrowInvalid, pa.ArrowTypeError) as e:
            raise ExportError(f"{self.path}: cannot build a Parquet table ({e}); export to .json instead",
                              source=str(self.path)) from e
        table = table.replace_schema_metadata({"visx.sources": "\n".join(self._sources)})
        with output_file(self.path) as tmp:
            pq.write_table(table, tmp)
        self.result.rows = len(self._rows)
