"""Packaging: the wheel (licence, version, metadata), the extras and what visx says
when one is missing, the Playwright range, the Dockerfile's order.

A missing extra is simulated in a child process by ``sys.modules[name] = None``
(Python then raises ImportError for it, as when the package is not installed);
visx's own code runs unchanged.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

import visx
from visx.version import __version__

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
GATE = ROOT / "fixtures" / "gate"
SNAPSHOT = GATE / "booking.com" / "new-jersey-recreation" / "snapshot.json.gz"
EXTRA_MODULES = {"pandas": "pandas", "parquet": "pyarrow", "eval": "matplotlib"}
"""Each format extra and the module it brings."""


def _without(module: str, code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter where ``module`` cannot be imported."""
    prelude = f"import sys; sys.modules[{module!r}] = None\n"
    return subprocess.run([sys.executable, "-c", prelude + code], cwd=cwd, capture_output=True,
                          text=True, timeout=300)


def _cli(*argv: str) -> str:
    return f"from visx.cli import main; sys.exit(main({list(argv)!r}))"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel pip builds from a copy of the project files (the tree is left as it is)."""
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        (src / name).write_bytes((ROOT / name).read_bytes())
    for f in (ROOT / "visx").rglob("*"):
        if f.is_file() and "__pycache__" not in f.parts:
            dest = src / f.relative_to(ROOT)
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(f.read_bytes())
    out = tmp_path_factory.mktemp("wheel")
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "-q",
                          "--disable-pip-version-check", "-w", str(out)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"pip wheel failed (needs the package index for setuptools):\n{run.stderr}"
    (whl,) = out.glob("visx-*.whl")
    return whl


def test_wheel_ships_the_licence_and_the_metadata(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        dist = f"visx-{__version__}.dist-info"
        assert f"{dist}/licenses/LICENSE" in names
        assert z.read(f"{dist}/licenses/LICENSE") == (ROOT / "LICENSE").read_bytes()
        meta = Parser().parsestr(z.read(f"{dist}/METADATA").decode())
        assert "visx/render/collect.js" in names and "visx/py.typed" in names
    assert meta["Version"] == __version__ == visx.__version__
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL") or [])
    assert {"Homepage", "Documentation", "Issues"} <= set(urls)
    assert all(u.startswith("https://") for u in urls.values())
    classifiers = meta.get_all("Classifier") or []
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert not [c for c in classifiers if c.startswith("License ::")]  # the SPDX expression says it
    assert set(meta.get_all("Provides-Extra") or []) >= {"pandas", "parquet", "eval", "all", "dev"}
    (pw,) = [r for r in meta.get_all("Requires-Dist") or [] if r.startswith("playwright")]
    assert "==" not in pw and ">=" in pw and "<2" in pw


def test_licence_is_mit() -> None:
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n\nCopyright (c) 2026 the visx authors\n")
    assert "WITHOUT WARRANTY OF ANY KIND" in text
    assert PYPROJECT["project"]["license"] == "MIT"
    assert PYPROJECT["project"]["license-files"] == ["LICENSE"]


def test_one_source_for_the_version() -> None:
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert "version" not in PYPROJECT["project"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "visx.version.__version__"}
    out = subprocess.run([sys.executable, "-m", "visx", "--version"], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    assert out.strip() == f"visx {__version__}"


def test_extras_cover_every_format() -> None:
    extras: dict[str, list[str]] = PYPROJECT["project"]["optional-dependencies"]
    for extra, module in EXTRA_MODULES.items():
        assert any(re.match(rf"{module}\b", r) for r in extras[extra]), (extra, extras[extra])
    (everything,) = extras["all"]
    assert set(re.fullmatch(r"visx\[(.*)\]", everything).group(1).split(",")) == set(EXTRA_MODULES)  # type: ignore[union-attr]
    assert "visx[all]" in extras["dev"]
    assert any(r.startswith("jsonschema") for r in extras["dev"])
    core = " ".join(PYPROJECT["project"]["dependencies"])
    assert not [m for m in EXTRA_MODULES.values() if m in core]  # optional means optional


def test_playwright_range_holds_the_installed_version() -> None:
    from importlib.metadata import version

    (req,) = [d for d in PYPROJECT["project"]["dependencies"] if d.startswith("playwright")]
    low = re.search(r">=\s*([0-9.]+)", req)
    high = re.search(r"<\s*([0-9.]+)", req)
    assert low and high, req

    def parts(v: str) -> tuple[int, ...]:
        return tuple(int(x) for x in re.findall(r"\d+", v)[:3])

    installed = parts(version("playwright"))
    assert parts(low.group(1)) <= installed < parts(high.group(1)), (req, installed)


def test_parquet_without_pyarrow_names_the_extra(tmp_path: Path) -> None:
    out = tmp_path / "t.parquet"
    run = _without("pyarrow", _cli("extract", str(SNAPSHOT), "-o", str(out)), tmp_path)
    assert run.returncode == 2, run.stderr
    assert "visx: error:" in run.stderr and "pip install 'visx[parquet]'" in run.stderr
    assert not out.exists()


def test_to_pandas_without_pandas_names_the_extra(tmp_path: Path) -> None:
    code = (f"import visx\nex = visx.extract({str(SNAPSHOT)!r})\n"
            "try:\n    ex.main.table.to_pandas()\n"
            "except visx.ExportError as e:\n    print('ExportError:', e)\n")
    run = _without("pandas", code, tmp_path)
    assert run.returncode == 0, run.stderr
    assert "ExportError:" in run.stdout and "pip install 'visx[pandas]'" in run.stdout


def test_eval_without_matplotlib_writes_its_tables_and_skips_the_chart(tmp_path: Path) -> None:
    out = tmp_path / "eval"
    argv = ("eval", str(GATE), "--limit", "2", "--worst", "0", "--out", str(out),
            "--cache", str(tmp_path / "cache"))
    run = _without("matplotlib", _cli(*argv), tmp_path)
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in out.iterdir()) == ["pages.csv", "summary.json"]
    assert json.loads((out / "summary.json").read_text())["overall"]["pages"] == 2
    assert "skipped the chart" in run.stdout and "pip install 'visx[eval]'" in run.stdout
    # the library says it on its logger, and chart_png alone still refuses with the extra named
    code = ("import logging\nlogging.basicConfig(level=logging.WARNING, format='%(name)s: %(message)s')\n"
            "from pathlib import Path\nfrom visx.evaluate import report\nfrom visx.errors import ExportError\n"
            f"print(sorted(report.write_outputs([], Path({str(out / 'lib')!r}))))\n"
            "try:\n    report.chart_png({}, Path('x.png'))\n"
            "except ExportError as e:\n    print('ExportError:', e)\n")
    run = _without("matplotlib", code, tmp_path)
    assert run.returncode == 0, run.stderr
    assert "['pages', 'summary']" in run.stdout
    assert "visx.evaluate.report: " in run.stderr and "skipped" in run.stderr
    assert "ExportError:" in run.stdout and "visx[eval]" in run.stdout
    assert not (tmp_path / "x.png").exists()


def test_dockerfile_installs_dependencies_before_the_code_as_a_user() -> None:
    lines = [ln.strip() for ln in (ROOT / "Dockerfile").read_text().splitlines()
             if ln.strip() and not ln.lstrip().startswith("#")]
    index = {ln: i for i, ln in enumerate(lines)}
    deps = next(i for ln, i in index.items() if "pip install '.[all]'" in ln)
    code = index["COPY visx ./visx"]
    assert index["COPY pyproject.toml LICENSE ./"] < deps < code < index["RUN pip install --no-deps ."]
    assert not [ln for ln in lines[:deps] if ln.startswith("COPY") and "README" in ln]
    users = [ln for ln in lines if ln.startswith("USER ")]
    assert users and users[-1] not in ("USER root", "USER 0") and index[users[-1]] > code
