"""Wall time and peak memory of visx on the hostile pages of tests/badinput/cases_bounds.py.

    .venv/bin/python scripts/benchmarks/bounds.py [CASE-NAME-SUBSTRING ...]

Serves the corpus like the harness, runs each case's command line, prints wall time,
exit code, peak RSS of the process tree (ru_maxrss of children), output size and the
first stderr line.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from badinput import cases_bounds  # noqa: E402
from badinput.serve import serve  # noqa: E402


def main(names: list[str]) -> None:
    with tempfile.TemporaryDirectory() as d:
        corpus = Path(d) / "corpus"
        corpus.mkdir()
        for rel, content in cases_bounds.PAGES.items():
            (corpus / rel).write_bytes(content.encode() if isinstance(content, str) else content)
        with serve(corpus, cases_bounds.ROUTES) as url:
            for case in cases_bounds.CASES:
                if names and not any(n in case.name for n in names):
                    continue
                tmp = Path(tempfile.mkdtemp(dir=d))
                argv = [a.replace("{url}", url).replace("{corpus}", str(corpus)).replace("{tmp}", str(tmp))
                        for a in case.argv]
                before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
                t0 = time.perf_counter()
                p = subprocess.run([str(ROOT / ".venv/bin/python"), "-m", "visx", *argv], capture_output=True,
                                   text=True, timeout=300)
                wall = time.perf_counter() - t0
                rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
                out = tmp / "out.json"
                size = out.stat().st_size if out.exists() else 0
                err = [ln for ln in p.stderr.splitlines() if ln.strip()]
                print(f"{case.name:26} rc={p.returncode} wall={wall:6.1f}s (bound {case.timeout_s + 10:g}) "
                      f"maxrss={rss / 1024:7.0f}MB{'' if rss > before else ' (<= earlier)'} out={size / 1e6:.2f}MB")
                for ln in err[-4:]:
                    print("    ", ln[:220])


if __name__ == "__main__":
    main(sys.argv[1:])
