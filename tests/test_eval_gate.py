"""Regression gate: record F1, main-region hits and cell F1 on 15 saved dev pages.

The pages (fixtures/gate/<site>/<query>/: snapshot, gold records.csv, meta)
were chosen by id, one per category, before visx could mine. The floors in
fixtures/gate/floors.json only go up: raise them with
``scripts/gate_fixtures.py floors --raise`` after an improvement.
``test_floors_only_go_up`` refuses any commit in the history of HEAD (and a
working copy) that lowers a floor, unless its message says
"floors lowered on purpose:" and why.
"""

from __future__ import annotations

import json
import subprocess
from itertools import pairwise
from pathlib import Path

import pytest

from visx.evaluate.cache import FOLDER_SNAPSHOT
from visx.evaluate.dataset import META, RECORDS, load_dataset, read_gold
from visx.evaluate.report import summarize
from visx.evaluate.runner import PageResult, run_eval

ROOT = Path(__file__).resolve().parent.parent
GATE = ROOT / "fixtures" / "gate"
FLOORS_FILE = GATE / "floors.json"


def _floors() -> dict[str, dict[str, float]]:
    doc: dict[str, dict[str, float]] = json.loads(FLOORS_FILE.read_text())
    return doc


def test_gate_fixtures_are_complete() -> None:
    assert (GATE / "LICENSE").is_file()
    pages = load_dataset(GATE)
    assert len(pages) == 15
    assert len({p.category for p in pages}) == 15  # one page per category
    assert len({p.site for p in pages}) == 15
    assert sorted(p.id for p in pages) == sorted(_floors()["pages"])
    for p in pages:
        for name in (FOLDER_SNAPSHOT, RECORDS, META):
            assert (p.folder / name).is_file(), f"{p.id}: {name} missing"
        assert len(read_gold(p)) == p.n_records, p.id


@pytest.fixture(scope="module")
def results() -> list[PageResult]:
    return run_eval(GATE, cache_dir=None)  # the real pipeline, on saved snapshots


def test_every_gate_page_analyses(results: list[PageResult]) -> None:
    errors = {r.page.id: r.error for r in results if r.error}
    assert not errors


def test_overall_floors(results: list[PageResult]) -> None:
    s = summarize(results)
    floor = _floors()["overall"]
    got = {"top_f1": s.top.f1, "best_f1": s.best.f1, "hit_rate": s.hit_rate, "cell_f1": s.cells.f1}
    low = {k: f"{got[k]:.3f} < {floor[k]:.2f}" for k in floor if got[k] < floor[k]}
    assert not low, f"below the gate floors: {low}"


def test_page_floors(results: list[PageResult]) -> None:
    floor = _floors()["pages"]
    low = [f"{r.page.id}: top F1 {r.score.top.f1:.3f} < {floor[r.page.id]:.2f} ({r.reason})"
           for r in results if r.score.top.f1 < floor[r.page.id]]
    assert not low, "pages below their floors:\n" + "\n".join(low)


FLOORS_PATH = "fixtures/gate/floors.json"
LOWER_ON_PURPOSE = "floors lowered on purpose:"
"""Words a commit message holds when it lowers a floor deliberately (with the reason after them)."""


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout


def _lowered(old: dict[str, dict[str, float]], new: dict[str, dict[str, float]]) -> list[str]:
    out = [f"overall {k}: {v} -> {new.get('overall', {}).get(k)}" for k, v in old["overall"].items()
           if new.get("overall", {}).get(k, -1.0) < v]
    out += [f"{pid}: {v} -> {new.get('pages', {}).get(pid)}" for pid, v in old["pages"].items()
            if new.get("pages", {}).get(pid, -1.0) < v]
    return out


def lowered_floors(repo: Path, path: str = FLOORS_PATH) -> list[str]:
    """Every floor lowered along the history of HEAD (first parents, so a merge counts with
    what it brings in) and in the working copy against HEAD. A commit whose message holds
    :data:`LOWER_ON_PURPOSE` may lower floors; no other may, however many commits follow it."""
    commits = _git(repo, "rev-list", "--first-parent", "HEAD", "--", path).split()
    versions: list[tuple[str, dict[str, dict[str, float]]]] = []
    for c in reversed(commits):  # oldest first
        try:
            versions.append((c, json.loads(_git(repo, "show", f"{c}:{path}"))))
        except subprocess.CalledProcessError:
            continue  # the file was deleted in this commit, or the clone is shallow
    out: list[str] = []
    for (_, old), (c, new) in pairwise(versions):
        if LOWER_ON_PURPOSE not in _git(repo, "log", "-1", "--format=%B", c):
            out += [f"commit {c[:10]}: {x}" for x in _lowered(old, new)]
    work = repo / path
    if versions and work.is_file():
        out += [f"working copy: {x}" for x in _lowered(versions[-1][1], json.loads(work.read_text()))]
    return out


def test_floors_only_go_up() -> None:
    try:
        _git(ROOT, "rev-parse", "HEAD")
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: no history of the floors to compare with")
    lowered = lowered_floors(ROOT)
    assert not lowered, "floors were lowered:\n" + "\n".join(lowered)


def test_a_commit_that_lowers_a_floor_is_caught_after_later_commits(tmp_path: Path) -> None:
    """In a throwaway repository: raising passes; a lowering fails in the working copy, once
    committed, and still after another commit on top; a merge bringing one in fails too;
    only a commit that says it lowers on purpose may."""
    repo = tmp_path / "repo"
    (repo / "fixtures" / "gate").mkdir(parents=True)
    floors = repo / FLOORS_PATH
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "user.email", "t@example.com")
    _git(repo, "config", "user.name", "t")

    def commit(top: float, page: float, msg: str) -> None:
        floors.write_text(json.dumps({"overall": {"top_f1": top}, "pages": {"a/b": page}}))
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", msg)

    commit(0.90, 0.80, "first floors")
    commit(0.92, 0.80, "raise")
    assert lowered_floors(repo) == []
    floors.write_text(json.dumps({"overall": {"top_f1": 0.92}, "pages": {"a/b": 0.79}}))
    assert lowered_floors(repo) == ["working copy: a/b: 0.8 -> 0.79"]
    _git(repo, "commit", "-q", "-am", "tidy")
    assert [x.split(": ", 1)[1] for x in lowered_floors(repo)] == ["a/b: 0.8 -> 0.79"]
    (repo / "other.txt").write_text("x")
    _git(repo, "add", "other.txt")
    _git(repo, "commit", "-q", "-m", "unrelated change on top")
    assert [x.split(": ", 1)[1] for x in lowered_floors(repo)] == ["a/b: 0.8 -> 0.79"]

    _git(repo, "reset", "-q", "--hard", "HEAD~2")
    _git(repo, "checkout", "-q", "-b", "topic")
    commit(0.91, 0.80, "lower top on a branch")
    assert [x.split(": ", 1)[1] for x in lowered_floors(repo)] == ["overall top_f1: 0.92 -> 0.91"]
    _git(repo, "checkout", "-q", "main")
    commit(0.92, 0.85, "raise a page on main")
    _git(repo, "merge", "-q", "--no-edit", "-X", "theirs", "topic")
    assert json.loads(floors.read_text())["overall"]["top_f1"] == 0.91
    assert [x.split(": ", 1)[1] for x in lowered_floors(repo)] == ["overall top_f1: 0.92 -> 0.91",
                                                                   "a/b: 0.85 -> 0.8"]

    _git(repo, "reset", "-q", "--hard", "HEAD~1")
    commit(0.93, 0.70, f"{LOWER_ON_PURPOSE} gold of a/b fixed, the old floor counted a wrong record")
    assert lowered_floors(repo) == []
