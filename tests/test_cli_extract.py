"""``visx extract`` end to end on saved snapshots (no browser): the JSON contract and bad input."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from visx.cli import main

ROOT = Path(__file__).resolve().parent.parent
SNAP = ROOT / "fixtures" / "mine" / "several_regions.json.gz"
ADS = ROOT / "fixtures" / "mine" / "ads_between.json.gz"


def test_json_contract_keys_and_ranks(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    assert main(["extract", str(SNAP), "-o", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert {"source", "url", "title", "regions", "removed", "timings"} <= set(doc)
    regions = doc["regions"]
    # Every region is listed, ranked, the main list first.
    assert [r["rank"] for r in regions] == list(range(1, len(regions) + 1))
    assert len(regions) >= 2
    main_region = regions[0]
    assert {"rank", "score", "xpath", "bbox", "records", "columns"} <= set(main_region)
    assert main_region["xpath"].endswith("div[1]")  # div#main-list
    assert len(main_region["records"]) == 10
    rec = main_region["records"][0]
    assert {"xpaths", "bbox", "text", "cells"} <= set(rec)
    assert rec["text"].startswith("Main result 0")
    assert all(set(c) >= {"column", "text", "value", "href", "src", "xpath", "bbox"} for c in rec["cells"])
    assert {c["column"] for c in rec["cells"]} <= set(range(len(main_region["columns"])))
    assert all(set(r) >= {"xpath", "reason", "bbox"} for r in doc["removed"])
    assert {"clean", "mine", "align", "schema"} <= set(doc["timings"])


def test_jsonl_one_record_a_line_with_rank(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    assert main(["extract", str(ADS), "-o", str(out)]) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    ranks = [x["rank"] for x in lines]
    assert ranks.count(1) == 9
    assert ranks == sorted(ranks)


def test_csv_and_sqlite(tmp_path: Path) -> None:
    csv_out, db = tmp_path / "t.csv", tmp_path / "t.sqlite"
    assert main(["extract", str(ADS), "-o", str(csv_out)]) == 0
    assert len(csv_out.read_text().strip().splitlines()) == 1 + 9
    assert main(["extract", str(ADS), "-o", str(db)]) == 0
    assert main(["extract", str(SNAP), "-o", str(db)]) == 0
    with sqlite3.connect(db) as con:
        assert con.execute("select count(*) from extractions").fetchone()[0] == 2


def test_unknown_extension_is_one_line_error(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "visx", "extract", str(ADS), "-o", str(tmp_path / "out.xlsx")],
        capture_output=True, text=True, timeout=120,
    )
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and "out.xlsx" in r.stderr and ".csv" in r.stderr
    assert not (tmp_path / "out.xlsx").exists()


def test_unwritable_output_leaves_nothing(tmp_path: Path) -> None:
    target = tmp_path / "missing-dir" / "deeper" / "out.json"
    r = subprocess.run(
        [sys.executable, "-m", "visx", "extract", str(ADS), "-o", str(target)],
        capture_output=True, text=True, timeout=120,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "out.json" in r.stderr
    assert not target.exists()


def test_corrupt_snapshot_is_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json.gz"
    bad.write_bytes(b"\x1f\x8b not really gzip")
    r = subprocess.run(
        [sys.executable, "-m", "visx", "extract", str(bad), "-o", str(tmp_path / "o.json")],
        capture_output=True, text=True, timeout=120,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr and "bad.json.gz" in r.stderr


def test_page_without_records_warns_and_writes_empty(tmp_path: Path) -> None:
    from visx.config import Config, RenderConfig
    from visx.model import Node, NodeTable, PageSnapshot
    from visx.pipeline import analyse

    styles = [("block", "visible", "static", "none", "16px", "400", "normal", "serif", "rgb(0, 0, 0)",
               "rgba(0, 0, 0, 0)", "auto", "1", "start", "visible")]
    nodes = [
        Node(0, -1, "html", "", (), {}, "", "", 0, 0, 800, 600, 0, 0),
        Node(1, 0, "body", "", (), {}, "", "", 0, 0, 800, 600, 0, 0),
        Node(2, 1, "p", "", (), {}, "Just one paragraph.", "", 10, 10, 300, 20, 0, 0),
    ]
    snap = PageSnapshot(NodeTable(nodes, styles), "inline", "about:blank", "t", 0, 800, 600, (800, 600), False)
    ex = analyse(snap, Config(render=RenderConfig(javascript=False)))
    assert ex.regions == [] and ex.warnings
    from visx.export import write

    out = tmp_path / "empty.csv"
    res = write(ex, out)
    assert res.warnings
    assert out.exists()


@pytest.mark.parametrize("fmt", ["json", "jsonl", "csv"])
def test_stdout_formats(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", str(ADS), "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert "Result title 0" in out
