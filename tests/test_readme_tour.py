"""The README's "Python API" section is a tour whose code blocks run, in order, as this test.

They run in a scratch folder that sees the repository's ``fixtures/`` (the demo
page), with the real browser; what they print and write is checked here too.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def tour_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Python API\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^```python\n(.*?)^```$", section, flags=re.S | re.M)


def test_the_tour_covers_the_api() -> None:
    code = "\n".join(tour_blocks())
    for name in ("visx.render(", "visx.extract(", ".table", ".to_records(", "all_regions=True", ".to_pandas(",
                 ".write(", "json_schema()", "action=", "hint=", "example=", "SelectionError", "progress=", "extract_async(", "extract_many_async(",
                 'getLogger("visx")'):
        assert name in code, name


@pytest.mark.browser
def test_the_tour_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures")
    monkeypatch.chdir(tmp_path)
    visx_log = logging.getLogger("visx")
    level = visx_log.level
    namespace: dict[str, object] = {"__name__": "__readme__"}
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), caplog.at_level(logging.INFO):
            for k, block in enumerate(tour_blocks()):
                exec(compile(block, f"README.md Python API block {k + 1}", "exec"), namespace)
    finally:
        visx_log.setLevel(level)
    printed = out.getvalue()
    assert (tmp_path / "demo.snapshot.json.gz").is_file()
    assert (tmp_path / "demo.csv").read_text(encoding="utf-8").count("\n") == 1 + 20
    assert printed.startswith("1 data 20 ")
    assert "[1/3] demo.snapshot.json.gz: ok" in printed
    assert "[3/3] missing.html: missing.html: no such file" in printed
    notes = [r.getMessage() for r in caplog.records if r.name == "visx.render.page_load"]
    assert any("<noscript>" in m for m in notes)
