"""Check the Playwright range visx declares: its lowest and its highest release.

For each version this makes a throwaway virtual environment, installs that
Playwright with visx's other dependencies and pytest, and runs the browser tests
against this working tree (``PYTHONPATH``, nothing is built or installed into it),
then prints one line per version::

    playwright 1.41.0 (lowest): pass (82 passed in 181.2s)
    playwright 1.65.2 (highest): pass (82 passed in 170.4s)

The lowest is the ``>=`` bound of the requirement in pyproject.toml, the
highest whatever pip picks for the requirement itself (the newest release in
the range). ``--version X`` checks other versions instead. The project's
``.venv`` is never touched. It needs a Chromium (``VISX_CHROMIUM`` or Debian's
``/usr/lib/chromium/chromium``) and the package index; it takes a few minutes a
version, so it is not part of ``make test`` or CI.

    .venv/bin/python scripts/check_playwright_range.py
    .venv/bin/python scripts/check_playwright_range.py --version 1.40.0 --version 1.41.0
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BROWSER_TESTS = (
    "tests/test_render_pages.py",
    "tests/test_spa.py",
    "tests/test_render_requests.py",
    "tests/test_debug_browser.py",
)
TEST_TOOLS = ("pytest>=8",)


def requirements() -> tuple[str, list[str]]:
    """(the playwright requirement, visx's other runtime requirements) from pyproject.toml."""
    deps: list[str] = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pw = [d for d in deps if re.match(r"playwright\b", d)]
    if len(pw) != 1:
        sys.exit(f"pyproject.toml: expected one playwright requirement, found {pw}")
    return pw[0], [d for d in deps if d not in pw]


def lowest(spec: str) -> str:
    """The version of the ``>=`` bound, e.g. 1.41 in ``playwright>=1.41,<2``."""
    m = re.search(r">=\s*([0-9][0-9.]*)", spec)
    if m is None:
        sys.exit(f"pyproject.toml: {spec!r} has no >= bound to check")
    return m.group(1)


def check(req: str, others: list[str], tests: list[str], label: str, keep: bool) -> bool:
    tmp = tempfile.mkdtemp(prefix="visx-pw-")
    try:
        venv = Path(tmp) / "venv"
        py = venv / "bin" / "python"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = [str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        got = subprocess.run([*pip, req, *others, *TEST_TOOLS], capture_output=True, text=True)
        if got.returncode != 0:
            tail = (got.stderr.strip().splitlines() or ["?"])[-1]
            print(f"playwright {req} ({label}): install failed ({tail})", flush=True)
            return False
        version = subprocess.run(
            [str(py), "-c", "import importlib.metadata as m; print(m.version('playwright'))"],
            capture_output=True, text=True, check=True).stdout.strip()
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        chromium = Path("/usr/lib/chromium/chromium")
        if "VISX_CHROMIUM" not in env and chromium.is_file():
            env["VISX_CHROMIUM"] = str(chromium)
        t0 = time.perf_counter()
        run = subprocess.run([str(py), "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
                             cwd=ROOT, env=env, capture_output=True, text=True)
        lines = run.stdout.strip().splitlines()
        result = lines[-1].strip("= ") if lines else "no output"
        verdict = "pass" if run.returncode == 0 else "FAIL"
        print(f"playwright {version} ({label}): {verdict} ({result}, {time.perf_counter() - t0:.0f}s in all)",
              flush=True)
        if run.returncode != 0:
            failed = [ln for ln in lines if ln.startswith(("FAILED", "ERROR"))]
            for ln in failed[:10]:
                print(f"    {ln}")
        return run.returncode == 0
    finally:
        if keep:
            print(f"    venv kept in {tmp}/venv", flush=True)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--version", action="append", default=[], metavar="X",
                    help="check this Playwright version instead of the range's ends (repeatable)")
    ap.add_argument("--tests", nargs="+", default=list(BROWSER_TESTS), metavar="PATH",
                    help="test files to run (default: the browser tests)")
    ap.add_argument("--keep", action="store_true", help="keep the throwaway environments")
    args = ap.parse_args()
    spec, others = requirements()
    if args.version:
        todo = [(f"playwright=={v}", "asked") for v in args.version]
    else:
        print(f"pyproject.toml requires {spec}", flush=True)
        todo = [(f"playwright=={lowest(spec)}", "lowest"), (spec, "highest")]
    ok = [check(req, others, args.tests, label, args.keep) for req, label in todo]
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
