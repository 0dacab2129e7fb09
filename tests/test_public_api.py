"""The public surface of ``import visx`` is deliberate, pinned here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import visx

EXPECTED_ALL = {
    "BatchResult",
    "BatchSummary",
    "BrowserNotFoundError",
    "Config",
    "ConfigError",
    "DnsError",
    "EmptyContentError",
    "ExportError",
    "Extraction",
    "ExtractionError",
    "HttpStatusError",
    "LinkError",
    "LinkOptions",
    "LinkResult",
    "NoResponseError",
    "Node",
    "NodeTable",
    "NonHtmlContentError",
    "PageCrashedError",
    "RedirectError",
    "PageSnapshot",
    "Record",
    "Region",
    "RenderError",
    "RenderTimeoutError",
    "SelectionError",
    "SnapshotError",
    "SourceNotFoundError",
    "Table",
    "UnreachableError",
    "VisxError",
    "__version__",
    "analyse",
    "extract",
    "extract_async",
    "extract_many",
    "extract_many_async",
    "link",
    "load_snapshot",
    "render",
    "render_async",
    "render_many",
    "render_many_async",
    "run_batch",
}


def test_all_is_pinned() -> None:
    assert set(visx.__all__) == EXPECTED_ALL
    assert len(visx.__all__) == len(set(visx.__all__)), "duplicate names in __all__"


def test_every_exported_name_resolves() -> None:
    for name in visx.__all__:
        assert getattr(visx, name) is not None, name


def test_render_stays_a_function_after_the_subpackage_is_imported() -> None:
    # Importing visx.render.* binds the attribute visx.render to the subpackage
    # unless the function is bound eagerly; this pins that it is.
    import visx.render.snapshot_io

    assert callable(visx.render) and visx.render.__name__ == "render"
    assert visx.load_snapshot.__module__ == "visx.render.snapshot_io"


def test_errors_form_one_hierarchy() -> None:
    for name in visx.__all__:
        obj = getattr(visx, name)
        if isinstance(obj, type) and name.endswith("Error"):
            assert issubclass(obj, visx.VisxError), name
    assert issubclass(visx.DnsError, visx.UnreachableError)
    assert issubclass(visx.NoResponseError, visx.RenderTimeoutError)
    assert issubclass(visx.EmptyContentError, visx.NonHtmlContentError)
    assert issubclass(visx.RenderTimeoutError, visx.RenderError)


def test_import_is_cheap() -> None:
    """``import visx`` must not import Playwright (or Pillow) before a page is rendered."""
    code = (
        "import json, sys, visx; "
        "print(json.dumps(sorted(m for m in sys.modules "
        "if m.split('.')[0] in ('playwright', 'PIL', 'greenlet'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


# --- Extraction's own table API, on saved snapshots (no browser) ---

ROOT = Path(__file__).resolve().parent.parent
SNAP = ROOT / "fixtures" / "mine" / "several_regions.json.gz"
LOCALE = ROOT / "fixtures" / "tables" / "locale.json.gz"


def test_every_region_carries_its_table() -> None:
    ex = visx.extract(SNAP)
    assert len(ex.regions) >= 2
    assert [rg.table for rg in ex.regions] == ex.tables  # the parallel list still works
    assert all(rg.table is t for rg, t in zip(ex.regions, ex.tables, strict=True))
    assert ex.main is not None and ex.main.table is not None and len(ex.main.table) == len(ex.main.records)
    assert "table=" not in repr(ex.main)  # a table is too big for a region's repr


def test_to_records_is_the_main_table_or_every_data_list() -> None:
    ex = visx.extract(SNAP)
    assert ex.main is not None and ex.main.table is not None
    rows = ex.to_records()
    assert rows == ex.main.table.to_records() and len(rows) == 10
    every = ex.to_records(all_regions=True)
    data = ex.data_regions
    assert len(every) == sum(len(rg.records) for rg in data)
    assert [r["region"] for r in every] == [rg.rank for rg in data for _ in rg.records]
    wide = ex.to_records(all_columns=True)
    assert len(wide) == len(rows) and all(set(a) <= set(b) for a, b in zip(rows, wide, strict=True))
    raw = ex.to_records(raw=True)
    assert all(isinstance(v, str) or v is None for r in raw for v in r.values())


def test_to_records_without_a_region_is_empty() -> None:
    snap = visx.load_snapshot(ROOT / "fixtures" / "clean" / "small.json.gz")
    ex = visx.analyse(snap)
    ex.regions.clear()
    ex.tables.clear()
    assert ex.to_records() == [] and ex.to_records(all_regions=True) == []
    assert list(ex.to_pandas().columns) == []


def test_to_pandas_keeps_table_order_and_types() -> None:
    ex = visx.extract(LOCALE)
    df = ex.to_pandas()
    assert ex.main is not None and ex.main.table is not None
    assert list(df.columns) == ex.main.table.field_names()
    assert len(df) == len(ex.to_records())
    assert df["price"].iloc[0] == 1234.56 and df["price_currency"].iloc[0] == "EUR"
    every = visx.extract(SNAP).to_pandas(all_regions=True)
    assert every.columns[0] == "region" and len(every) == len(visx.extract(SNAP).to_records(all_regions=True))


def test_to_pandas_names_the_extra_when_pandas_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    ex = visx.extract(LOCALE)
    monkeypatch.setitem(sys.modules, "pandas", None)  # what an install without pandas raises
    with pytest.raises(visx.ExportError, match=r"pip install 'visx\[pandas\]'"):
        ex.to_pandas()


def test_write_follows_the_extension_or_the_format(tmp_path: Path) -> None:
    import csv

    ex = visx.extract(SNAP)
    res = ex.write(tmp_path / "t.csv")
    with (tmp_path / "t.csv").open(newline="", encoding="utf-8") as fh:
        assert len(list(csv.DictReader(fh))) == len(ex.to_records()) == res.rows
    res = ex.write(str(tmp_path / "all.csv"), all_regions=True)
    assert res.rows == len(ex.to_records(all_regions=True))
    ex.write(tmp_path / "out.txt", "json")
    assert json.loads((tmp_path / "out.txt").read_text())["visx"] == visx.__version__
    with pytest.raises(visx.ExportError, match=r"out\.xlsx"):
        ex.write(tmp_path / "out.xlsx")
    assert not (tmp_path / "out.xlsx").exists()
