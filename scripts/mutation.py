"""Mutation testing of the stages after rendering, with mutmut 3 (slow: not in CI).

    PY=/path/to/venv-with-mutmut/bin/python
    $PY scripts/mutation.py --package clean|mine|align|schema|export|all [--sample N] [--seed 12]

The interpreter must have mutmut (``pip install 'mutmut==3.8.*'``) and visx's
dependencies, but preferably not an editable visx pointing at this tree: the
tests must import the mutated copy. For each package the repository is copied
(without .git, .venv, out/, caches) to ``<workdir>/<package>/`` and only
that copy is mutated; this tree is never written, except ``out/mutation/``.

mutmut mutates the functions of ``visx/<package>/``, records which tests of the
package's selection (``SELECTIONS`` below: the non-browser tests that exercise
it) reach each function, and runs only those tests against each mutant, in one
worker process (``--workers``), each test run ``pytest -x -q -p no:cacheprovider
-m "not browser"``.

``--sample N`` draws N mutants per package at random with a fixed seed (a seeded
hash of each mutant's name ranks them, so a re-run draws the same ones) and
reports the 95% Wilson interval of the share killed (with the finite
population correction); without it every mutant is run.

Outcomes are mutmut's: killed, survived, timeout, no tests (no selected test
reaches the function), suspicious, segfault (the worker was killed by a
signal), skipped. The share killed follows mutmut's own score (its ``badge``
command): (killed + timeout) / (all - skipped); the strict share (killed alone)
is reported beside it, and timeouts are counted apart. A mutant with no tests
counts as not killed.

Written: ``out/mutation/summary.json`` (per package: counts, shares, interval,
full or sampled, run time, the tests selected, the mutants judged equivalent)
and ``out/mutation/survivors-<package>.json`` plus ``survivors.md`` (each
mutant not killed: name, file:line, status, diff) for follow-up.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("clean", "mine", "align", "schema", "export")

# Per package: the non-browser test files that exercise it (glob patterns under
# tests/; files added later by these names join the selection). mutmut runs,
# for each mutant, only those of these tests that reach the mutated function.
SELECTIONS: dict[str, list[str]] = {
    "clean": [
        "test_clean.py", "test_clean_gate.py", "test_clean_intervals.py", "test_bands*.py",
        "test_capture_check.py", "test_mine.py", "test_rules_clean*.py",
    ],
    "mine": [
        "test_mine.py", "test_drmining.py", "test_sections_shape.py", "test_roles.py",
        "test_rules_mine*.py",
    ],
    "align": [
        "test_align.py", "test_align_fast_paths.py", "test_alignment_pins.py", "test_stm*.py",
        "test_schema_golden.py", "test_rules_align*.py",
    ],
    "schema": [
        "test_schema.py", "test_schema_golden.py", "test_tidy.py", "test_entities*.py",
        "test_align_fast_paths.py", "test_eval_fields.py", "test_rules_schema*.py",
    ],
    "export": ["test_export.py", "test_cli_extract.py", "test_roles.py", "test_rules_export*.py"],
}

# Mutants that cannot change behaviour, by mutant name (or fnmatch pattern),
# each with the reason. They stay in the counts (mutmut has no such verdict)
# and are listed apart in the summary with the share killed once they are set
# aside.
EQUIVALENT: dict[str, str] = {
    "visx.schema.dates.x__iso__mutmut_156":
        "_valid checks a year only against its range (no leap years), so 2000 and 2001 answer alike",
    "visx.schema.dates.x__iso__mutmut_72": "the mdy/md patterns require the month group: `or ...` never applies",
    "visx.schema.dates.x__iso__mutmut_95": "the dm/md patterns require the month group: `or ...` never applies",
    "visx.schema.dates.x__iso__mutmut_73": "rstrip('XX.XX') strips what rstrip('.') does from a folded (lowercase) name",
    "visx.schema.dates.x_numeric_order__mutmut_14": "callers read any order but ymd/dmy as mdy",
    "visx.schema.dates.x_numeric_order__mutmut_17": "callers read any order but ymd/dmy as mdy",
    "visx.mine.rank.x_score__mutmut_155": "the menu penalty is the first: penalty is 1.0, so = and *= agree",
    "visx.mine.roles.x__inside__mutmut_9": "attrs.get('role') gives None where '' was: neither is in the role sets",
    "visx.mine.records.x__columns_align__mutmut_5": "the lengths are checked equal just before: zip's strict never acts",
    "visx.mine.mdr.x__join_across_gaps__mutmut_23":
        "without a cutoff the distance is exact, with it a distance above is 1.0: `<= threshold` agrees",
    "visx.mine.tagstring.x_display_class__mutmut_14": "the class letter is only a key part: 'XXgXX' is as distinct as 'g'",
    "visx.mine.tagstring.x_build__mutmut_55": "sizes are written for every kept element and read only for kept ones",
    "visx.mine.x_drop_covered__mutmut_19":
        "covered needs every part of every record (the first's included) under one owner: either record names it",
    "visx.export.formats.x__write_text__mutmut_5":
        "newline=None writes csv's \\r\\n unchanged where os.linesep is \\n (POSIX)",
    "visx.clean.page.xǁPageViewǁ__init____mutmut_174": "the four extent columns have one length by construction",
}

STATUS_BY_EXIT_CODE: dict[int | None, str] = {
    1: "killed", 3: "killed", 0: "survived", 5: "no tests", 2: "interrupted", None: "not checked",
    33: "no tests", 34: "skipped", 35: "suspicious", 36: "timeout", 37: "type check",
    -24: "timeout", 24: "timeout", 152: "timeout", 255: "timeout", -11: "segfault", -9: "segfault",
}
NOT_KILLED = ("survived", "no tests", "suspicious", "segfault", "not checked", "interrupted")

COPY_EXCLUDES = [
    ".git", ".venv", ".eval-cache", "out", "mutants", "__pycache__", "*.egg-info",
    ".pytest_cache", ".mypy_cache", ".ruff_cache", "build",
]

GENERATE = """
import os, sys
import mutmut.__main__ as m
from mutmut.utils.file_utils import copy_also_copy_files, copy_src_dir, setup_source_paths
m.set_mutant_under_test("mutant_generation")
os.makedirs("mutants", exist_ok=True)
copy_src_dir(); copy_also_copy_files(); setup_source_paths()
s = m.create_mutants(1)
print("generated", s.mutated, "files mutated", file=sys.stderr)
"""

DIFFS = """
import json, sys
from mutmut.mutation.diff_apply import get_diff_for_mutant
out = {}
for name, path in json.load(sys.stdin):
    try:
        out[name] = get_diff_for_mutant(name, path=path)
    except Exception as e:  # a diff is for reading; its failure must not lose the run
        out[name] = f"(no diff: {e!r})"
json.dump(out, sys.stdout)
"""


def mutmut_config(package: str, tests: list[str], timeout_multiplier: float) -> str:
    def arr(xs: list[str]) -> str:
        return "[" + ", ".join(json.dumps(x) for x in xs) + "]"

    return "\n".join([
        "",
        "[tool.mutmut]",
        'source_paths = ["visx/"]',
        f'only_mutate = ["visx/{package}/*"]',
        'also_copy = ["fixtures/"]',
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "-m", "not browser"]',
        f"pytest_add_cli_args_test_selection = {arr(tests)}",
        f"timeout_multiplier = {timeout_multiplier}",
        "use_git_change_detection = false",
        "",
    ])


def selected_tests(package: str, tests_dir: Path) -> list[str]:
    names = sorted(p.name for p in tests_dir.glob("test_*.py"))
    chosen = [n for n in names if any(fnmatch.fnmatch(n, pat) for pat in SELECTIONS[package])]
    return [f"tests/{n}" for n in chosen]


def sync(work: Path, ref: str | None) -> None:
    """A fresh copy of the working tree (what rsync -a --delete --exclude ... would make),
    or of the commit ``ref``."""
    shutil.rmtree(work, ignore_errors=True)
    if ref is None:
        shutil.copytree(ROOT, work, ignore=shutil.ignore_patterns(*COPY_EXCLUDES), symlinks=True)
        return
    work.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(work)], input=archive, check=True)


def meta_files(work: Path, package: str) -> list[Path]:
    return sorted((work / "mutants" / "visx" / package).rglob("*.py.meta"))


def read_results(work: Path, package: str) -> dict[str, tuple[str, int | None]]:
    """Mutant name -> (source path relative to the copy, exit code)."""
    out: dict[str, tuple[str, int | None]] = {}
    for meta in meta_files(work, package):
        data = json.loads(meta.read_text())
        src = str(meta.relative_to(work / "mutants"))[: -len(".meta")]
        for name, code in data.get("exit_code_by_key", {}).items():
            out[name] = (src, code)
    return out


def wilson(k: int, n: int, population: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson interval of k/n, n drawn without replacement from ``population``."""
    if n == 0:
        return (0.0, 1.0)
    if n >= population:
        return (k / n, k / n)
    n_eff = n * (population - 1) / (population - n)  # finite population correction
    p = k / n
    denom = 1 + z * z / n_eff
    centre = (p + z * z / (2 * n_eff)) / denom
    half = z * math.sqrt(p * (1 - p) / n_eff + z * z / (4 * n_eff * n_eff)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def changed_line(work: Path, src: str, diff: str) -> int | None:
    """The file line of a diff's first removed line (the diff is of one function)."""
    removed = [ln[1:] for ln in diff.splitlines() if ln.startswith("-") and not ln.startswith("---")]
    if not removed:
        return None
    lines = (work / src).read_text(encoding="utf-8").splitlines()
    hits = [i + 1 for i, ln in enumerate(lines) if ln.strip() == removed[0].strip()]
    if len(hits) == 1:
        return hits[0]
    # several: the one nearest the hunk's offset from the function's start
    context = [ln[1:] for ln in diff.splitlines() if ln.startswith(" ")]
    if not hits:
        return None
    first = next((i + 1 for i, ln in enumerate(lines) if context and ln.strip() == context[0].strip()), 0)
    return min(hits, key=lambda h: (h < first, abs(h - first)))


def _rank(seed: int, name: str) -> str:
    return hashlib.sha256(f"{seed}:{name}".encode()).hexdigest()


def is_equivalent(name: str) -> str | None:
    for pat, reason in EQUIVALENT.items():
        if name == pat or fnmatch.fnmatch(name, pat):
            return reason
    return None


def run_package(package: str, args: argparse.Namespace, out_dir: Path) -> dict[str, Any]:
    work = Path(args.workdir) / package
    t0 = time.monotonic()
    if not args.no_sync:
        sync(work, args.ref)
    tests = selected_tests(package, work / "tests")
    pyproject = work / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    if "[tool.mutmut]" in text:
        text = text[: text.index("[tool.mutmut]")]
    pyproject.write_text(text + mutmut_config(package, tests, args.timeout_multiplier), encoding="utf-8")
    env = dict(os.environ, VISX_SKIP_BROWSER="1", PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPATH", None)

    subprocess.run([args.python, "-c", GENERATE], cwd=work, env=env, check=True, stdout=subprocess.DEVNULL)
    population = sorted(read_results(work, package))
    if not population:
        raise SystemExit(f"{package}: mutmut made no mutants")
    if args.sample and args.sample < len(population):
        # a seeded hash ranks the mutants: the same seed draws the same ones, and a few mutants
        # added or lost by an edit elsewhere leave the rest of the draw as it was
        chosen = sorted(sorted(population, key=lambda m: _rank(args.seed, m))[: args.sample])
        mode = "sampled"
    else:
        chosen = population
        mode = "full"
    print(f"== {package}: {len(population)} mutants, running {len(chosen)} ({mode}); "
          f"tests: {' '.join(t.removeprefix('tests/') for t in tests)}", flush=True)
    if args.count:
        return {"population": len(population)}

    log = out_dir / f"mutmut-{package}.log"
    # mutmut's console script, through this interpreter (`python -m mutmut` re-executes its main)
    cmd = [args.python, "-c", "from mutmut.__main__ import cli; cli()", "run", "--max-children", str(args.workers)]
    cmd += [] if mode == "full" else chosen
    t1 = time.monotonic()
    with log.open("w", encoding="utf-8") as f:
        proc = subprocess.run(cmd, cwd=work, env=env, stdout=f, stderr=subprocess.STDOUT)
    run_s = time.monotonic() - t1
    if proc.returncode != 0:
        print(f"   mutmut exited {proc.returncode}; see {log}", flush=True)

    results = read_results(work, package)
    counts: dict[str, int] = {}
    rows: list[dict[str, Any]] = []
    for name in chosen:
        src, code = results[name]
        status = STATUS_BY_EXIT_CODE.get(code, "suspicious")
        counts[status] = counts.get(status, 0) + 1
        if status in NOT_KILLED:
            rows.append({"name": name, "src": src, "status": status})

    diffs: dict[str, str] = {}
    if rows:
        proc2 = subprocess.run(
            [args.python, "-c", DIFFS], cwd=work, env=env, check=True, capture_output=True, text=True,
            input=json.dumps([[r["name"], r["src"]] for r in rows]),
        )
        diffs = json.loads(proc2.stdout)
    for r in rows:
        r["diff"] = diffs.get(r["name"], "")
        line = changed_line(work, r["src"], r["diff"])
        r["where"] = f"{r['src']}:{line}" if line else r["src"]
        reason = is_equivalent(r["name"])
        if reason:
            r["equivalent"] = reason

    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.ref or "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    n = len(chosen)
    skipped = counts.get("skipped", 0)
    tested = n - skipped
    killed = counts.get("killed", 0)
    timeout = counts.get("timeout", 0)
    share = (killed + timeout) / tested if tested else 0.0
    lo, hi = wilson(killed + timeout, tested, len(population) - skipped)
    equivalent = [r["name"] for r in rows if "equivalent" in r]
    share_net = (killed + timeout) / (tested - len(equivalent)) if tested > len(equivalent) else 0.0
    summary = {
        "package": package,
        "mode": mode,
        "population": len(population),
        "run": n,
        "seed": args.seed if mode == "sampled" else None,
        "counts": dict(sorted(counts.items())),
        "killed": killed,
        "timeout": timeout,
        "survived": counts.get("survived", 0),
        "no_tests": counts.get("no tests", 0),
        "share_killed": round(share, 4),
        "share_killed_strict": round(killed / tested, 4) if tested else 0.0,
        "interval95": [round(lo, 4), round(hi, 4)],
        "equivalent": {name: is_equivalent(name) for name in equivalent},
        "share_killed_without_equivalent": round(share_net, 4),
        "copied_from": args.ref or "working tree",
        "head": head,
        "tests": tests,
        "seconds_mutmut": round(run_s, 1),
        "seconds_total": round(time.monotonic() - t0, 1),
        "mutmut_exit": proc.returncode,
    }
    (out_dir / f"survivors-{package}.json").write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return {"summary": summary, "survivors": rows}


def write_markdown(out_dir: Path, runs: dict[str, dict[str, Any]]) -> None:
    parts = ["# Mutants not killed\n"]
    for package, run in runs.items():
        s = run["summary"]
        parts.append(f"\n## {package}: {s['share_killed']:.1%} killed ({s['mode']}, {s['run']} of "
                     f"{s['population']}), {len(run['survivors'])} not killed\n")
        for r in run["survivors"]:
            eq = f" (equivalent: {r['equivalent']})" if "equivalent" in r else ""
            parts.append(f"\n### {r['where']} {r['status']}{eq}\n`{r['name']}`\n\n```diff\n{r['diff']}\n```\n")
    (out_dir / "survivors.md").write_text("".join(parts), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--package", choices=[*PACKAGES, "all"], default="all")
    ap.add_argument("--sample", type=int, default=0, help="mutants per package (0: all)")
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--timeout-multiplier", type=float, default=5.0,
                    help="mutmut's: a mutant's CPU limit is 2 x this x (its tests' time + 1 s)")
    ap.add_argument("--python", default=sys.executable, help="an interpreter with mutmut and visx's dependencies")
    ap.add_argument("--workdir", default="/tmp/mut", help="where the copies are made and mutated")
    ap.add_argument("--out", default=str(ROOT / "out" / "mutation"))
    ap.add_argument("--no-sync", action="store_true", help="reuse the copies as they are")
    ap.add_argument("--ref", default=None,
                    help="copy this commit (git archive) instead of the working tree with its uncommitted edits")
    ap.add_argument("--count", action="store_true", help="only make the mutants and count them")
    ap.add_argument("--target", type=float, default=0.8)
    args = ap.parse_args(argv)

    probe = subprocess.run([args.python, "-c", "import mutmut, lxml, pytest"], capture_output=True)
    if probe.returncode != 0:
        raise SystemExit(f"{args.python} lacks mutmut or visx's dependencies: pip install 'mutmut==3.8.*'")
    if Path(args.workdir).resolve() == ROOT or ROOT in Path(args.workdir).resolve().parents:
        raise SystemExit("--workdir must be outside the repository: the copy is what gets mutated")
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)

    packages = list(PACKAGES) if args.package == "all" else [args.package]
    runs: dict[str, dict[str, Any]] = {}
    summary_path = out_dir / "summary.json"
    previous: dict[str, Any] = {}
    if summary_path.exists():
        previous = json.loads(summary_path.read_text(encoding="utf-8")).get("packages", {})
    t0 = time.monotonic()
    for package in packages:
        runs[package] = run_package(package, args, out_dir)
        if args.count:
            continue
        s = runs[package]["summary"]
        lo, hi = s["interval95"]
        print(f"   {package}: killed {s['killed']}  survived {s['survived']}  timeout {s['timeout']}  "
              f"no tests {s['no_tests']}  total {s['run']}  -> {s['share_killed']:.1%} killed "
              f"[{lo:.1%}, {hi:.1%}] ({s['mode']}) in {s['seconds_total']:.0f} s", flush=True)
        previous[package] = s
        doc = {
            "tool": "mutmut",
            "when": datetime.now(UTC).isoformat(timespec="seconds"),
            "target": args.target,
            "share": "(killed + timeout) / (all - skipped), mutmut's score; no tests = not killed",
            "packages": previous,
        }
        summary_path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    if args.count:
        return 0
    write_markdown(out_dir, runs)

    print()
    print(f"{'package':8} {'mode':8} {'run':>5} {'killed':>6} {'timeout':>7} {'surv':>5} {'notest':>6} "
          f"{'share':>6}  95% interval")
    low = []
    for package in packages:
        s = runs[package]["summary"]
        lo, hi = s["interval95"]
        print(f"{package:8} {s['mode']:8} {s['run']:>5} {s['killed']:>6} {s['timeout']:>7} {s['survived']:>5} "
              f"{s['no_tests']:>6} {s['share_killed']:>6.1%}  [{lo:.1%}, {hi:.1%}]")
        if s["share_killed"] < args.target:
            low.append(package)
    print(f"total {time.monotonic() - t0:.0f} s; summary {summary_path}; survivors {out_dir}/survivors.md")
    if low:
        print(f"below {args.target:.0%}: {', '.join(low)}")
    return 1 if low else 0


if __name__ == "__main__":
    sys.exit(main())
