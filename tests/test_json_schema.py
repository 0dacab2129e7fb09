"""Every JSON visx writes matches the published schema, ``visx/export/extraction.schema.json``.

Saved snapshots (no browser) cover the formats and the CLI paths; one harvest over
the real local server covers records brought by later steps (``step``, ``page``).
"""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import LocalServer, render_config

import visx
from visx.cli import main
from visx.export import json_schema, to_json_dict
from visx.export.formats import render_text

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = sorted((ROOT / "fixtures").rglob("*.json.gz"))
SNAP = ROOT / "fixtures" / "mine" / "several_regions.json.gz"
ADS = ROOT / "fixtures" / "mine" / "ads_between.json.gz"
SCHEMA = json_schema()
PAGE = jsonschema.Draft202012Validator(SCHEMA)
LINE = jsonschema.Draft202012Validator({"$ref": "#/$defs/line", "$defs": SCHEMA["$defs"]})


def check_page(doc: Any) -> None:
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in PAGE.iter_errors(doc)]
    assert not errors, errors[:5]
    for page in doc if isinstance(doc, list) else [doc]:
        assert page["visx"] == visx.__version__


def check_lines(text: str) -> list[dict[str, Any]]:
    lines = [json.loads(x) for x in text.splitlines()]
    for line in lines:
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in LINE.iter_errors(line)]
        assert not errors, errors[:5]
        assert line["visx"] == visx.__version__
    return lines


def test_the_schema_is_valid_and_shipped() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert (ROOT / "visx" / "export" / "extraction.schema.json").is_file()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["visx"]
    assert "export/*.schema.json" in data


def test_there_are_snapshots_to_check() -> None:
    assert len(SNAPSHOTS) >= 30


@pytest.mark.parametrize("path", SNAPSHOTS, ids=lambda p: str(p.relative_to(ROOT / "fixtures")))
def test_json_and_jsonl_of_every_saved_snapshot(path: Path) -> None:
    ex = visx.extract(path)
    doc = json.loads(render_text(ex, "json"))
    check_page(doc)
    assert doc == json.loads(json.dumps(to_json_dict(ex)))
    lines = check_lines(render_text(ex, "jsonl"))
    assert len(lines) == sum(len(rg["records"]) for rg in doc["regions"])


def test_the_schema_is_strict() -> None:
    """It rejects what the contract does not say, so the checks above can fail."""
    doc = json.loads(render_text(visx.extract(SNAP), "json"))
    check_page(doc)
    bad: list[dict[str, Any]] = []
    for change in ("drop-visx", "extra-key", "bad-role", "short-bbox", "cell-column", "price"):
        d = copy.deepcopy(doc)
        rg = d["regions"][0]
        if change == "drop-visx":
            del d["visx"]
        elif change == "extra-key":
            rg["records"][0]["undocumented"] = 1
        elif change == "bad-role":
            rg["role"] = "sidebar"
        elif change == "short-bbox":
            rg["bbox"] = rg["bbox"][:3]
        elif change == "cell-column":
            rg["records"][0]["cells"][0]["column"] = -1
        else:
            rg["records"][0]["cells"][0]["value"] = {"amount": "12"}
        bad.append(d)
    for d in bad:
        assert not PAGE.is_valid(d)
    line = json.loads(render_text(visx.extract(SNAP), "jsonl").splitlines()[0])
    del line["fields"]
    assert not LINE.is_valid(line)


def test_cli_outputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """-o FILE and standard output, one page and several (a list of pages)."""
    one, many, lines = tmp_path / "one.json", tmp_path / "many.json", tmp_path / "all.jsonl"
    assert main(["extract", str(SNAP), "-o", str(one)]) == 0
    check_page(json.loads(one.read_text()))
    assert main(["extract", str(SNAP), str(ADS), "-o", str(many)]) == 0
    docs = json.loads(many.read_text())
    assert isinstance(docs, list) and len(docs) == 2
    check_page(docs)
    assert main(["extract", str(SNAP), str(ADS), "-o", str(lines)]) == 0
    assert {x["source"] for x in check_lines(lines.read_text())} == {d["source"] for d in docs}
    capsys.readouterr()
    assert main(["extract", str(ADS)]) == 0
    check_page(json.loads(capsys.readouterr().out))
    assert main(["extract", str(SNAP), str(ADS), "-q"]) == 0
    check_page(json.loads(capsys.readouterr().out))
    assert main(["extract", str(ADS), "--format", "jsonl"]) == 0
    assert len(check_lines(capsys.readouterr().out)) >= 9


def test_batch_and_api_outputs(tmp_path: Path) -> None:
    out = tmp_path / "batch.json"
    from visx.export import open_exporter

    with open_exporter(out) as exporter:
        for res in visx.extract_many([SNAP, ADS, tmp_path / "missing.html"]):
            if res.extraction is not None:
                exporter.export(res.extraction)
    check_page(json.loads(out.read_text()))
    ex = visx.extract(ADS)
    ex.write(tmp_path / "api.jsonl")
    check_lines((tmp_path / "api.jsonl").read_text())


@pytest.mark.browser
def test_harvested_records_match(server: LocalServer) -> None:
    """Records of later steps carry their step and page; the output still matches."""
    cfg = render_config(pages=3)
    ex = visx.extract(server.url("spa/dist/loadmore.html?delay=100"), cfg)
    doc = to_json_dict(ex)
    check_page(json.loads(json.dumps(doc)))
    assert max(r["step"] for r in doc["regions"][0]["records"]) == 2
    check_lines(render_text(ex, "jsonl"))
