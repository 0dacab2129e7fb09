"""Parquet export through pyarrow (the optional ``parquet`` extra)."""

from __future__ import annotations

import json
from pathlib import Path
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


ROW_GROUP_ROWS = 50_000
"""Rows per Parquet row group when a batch's spool is converted: a few MB in memory at a time,
and row groups large enough for readers to scan quickly (one per page would make thousands)."""


def _kind(v: Any) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, list):
        return "list"
    return "str" if isinstance(v, str) else "json"


def parquet_from_spool(spool: Path, path: Path) -> int:
    """The Parquet file of a batch's spooled rows (:func:`visx.export.formats.finish_spool`):
    the columns of every page (a column a page lacks is null there), each of one type over
    the whole file (ints with floats become floats, anything else mixed becomes text)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from visx.export.formats import read_spool

    kinds: dict[str, set[str]] = {"source": set()}
    sources: dict[str, None] = {}
    for row in read_spool(spool):
        sources[str(row.get("source"))] = None
        for k, v in row.items():
            kinds.setdefault(k, set())
            if v is not None:
                kinds[k].add(_kind(v))
    types = {k: _arrow_type(pa, ks) for k, ks in kinds.items()}
    schema = pa.schema([(k, t) for k, t in types.items()],
                       metadata={"visx.sources": "\n".join(sources)})
    rows = 0
    try:
        with output_file(path) as tmp:
            writer = pq.ParquetWriter(str(tmp), schema)
            try:
                batch: list[dict[str, Any]] = []
                for row in read_spool(spool):
                    batch.append(row)
                    if len(batch) >= ROW_GROUP_ROWS:
                        writer.write_table(_arrow_rows(pa, schema, types, batch))
                        rows, batch = rows + len(batch), []
                if batch or not rows:
                    writer.write_table(_arrow_rows(pa, schema, types, batch))
                    rows += len(batch)
            finally:
                writer.close()
    except (pa.ArrowInvalid, pa.ArrowTypeError) as e:
        raise ExportError(f"{path}: cannot build a Parquet table ({e}); export to .jsonl instead",
                          source=str(path)) from e
    return rows


def _arrow_type(pa: Any, kinds: set[str]) -> Any:
    if kinds <= {"int"} and kinds:
        return pa.int64()
    if kinds <= {"int", "float"} and kinds:
        return pa.float64()
    if kinds == {"bool"}:
        return pa.bool_()
    if kinds == {"list"}:
        return pa.list_(pa.string())
    return pa.string()


def _arrow_rows(pa: Any, schema: Any, types: dict[str, Any], rows: list[dict[str, Any]]) -> Any:
    cols = []
    for k, t in types.items():
        vals = [r.get(k) for r in rows]
        if t == pa.float64():
            vals = [None if v is None else float(v) for v in vals]
        elif t == pa.list_(pa.string()):
            vals = [None if v is None else [str(x) for x in v] for v in vals]
        elif t == pa.string():
            vals = [None if v is None else v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
                    for v in vals]
        cols.append(pa.array(vals, type=t))
    return pa.Table.from_arrays(cols, schema=schema)
