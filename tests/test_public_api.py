"""The public surface of ``import visx`` is deliberate, pinned here."""

from __future__ import annotations

import json
import subprocess
import sys

import visx

EXPECTED_ALL = {
    "BatchResult",
    "BrowserNotFoundError",
    "Config",
    "ConfigError",
    "DnsError",
    "ExportError",
    "Extraction",
    "ExtractionError",
    "HttpStatusError",
    "Node",
    "NodeTable",
    "NonHtmlContentError",
    "PageCrashedError",
    "PageSnapshot",
    "Record",
    "Region",
    "RenderError",
    "RenderTimeoutError",
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
    "load_snapshot",
    "render",
    "render_async",
    "render_many",
    "render_many_async",
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
