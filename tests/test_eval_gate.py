"""Regression gate: record F1, main-region hits and cell F1 on 15 saved dev pages.

The pages (fixtures/gate/<site>/<query>/: snapshot, gold records.csv, meta)
were chosen by id, one per category, before visx could mine. The floors in
fixtures/gate/floors.json only go up: raise them with
``scripts/gate_fixtures.py floors --raise`` after an improvement; the last
test refuses a working copy that lowers a committed floor.
"""

from __future__ import annotations

import json
import subprocess
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


def test_floors_only_go_up() -> None:
    try:
        committed = subprocess.run(
            ["git", "show", "HEAD:fixtures/gate/floors.json"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("no committed fixtures/gate/floors.json to compare with (first commit of the gate)")
    old = json.loads(committed)
    new = _floors()
    lowered = [f"overall {k}: {v} -> {new['overall'].get(k)}" for k, v in old["overall"].items()
               if new["overall"].get(k, -1.0) < v]
    lowered += [f"{pid}: {v} -> {new['pages'].get(pid)}" for pid, v in old["pages"].items()
                if new["pages"].get(pid, -1.0) < v]
    assert not lowered, "floors were lowered:\n" + "\n".join(lowered)
