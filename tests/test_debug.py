"""The debug report without a browser: files, escaping, caps, stage dumps, the CLI."""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import FIXTURES
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from visx.cli import report_cmd
from visx.config import Config, DebugConfig
from visx.debug import build_report, stage_dump, write_report
from visx.debug.explain import why_rank
from visx.debug.html import safe_json
from visx.debug.layers import build_layers
from visx.debug.thresholds import MAX_WIDTH
from visx.errors import ExportError, VisxError
from visx.model import Region
from visx.pipeline import Extraction, analyse
from visx.render.snapshot_io import load_snapshot

HOSTILE = FIXTURES / "debug" / "hostile.json.gz"
NO_SHOT = FIXTURES / "mine" / "several_regions.json.gz"


@pytest.fixture(scope="module")
def hostile() -> Extraction:
    return analyse(load_snapshot(HOSTILE))


@pytest.fixture(scope="module")
def hostile_files(hostile: Extraction) -> dict[str, bytes]:
    return build_report(hostile)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(io.BytesIO(data)) as im:
        return im.size


class Tags(HTMLParser):
    """Every start tag of a document with its attributes, and its text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(doc: str) -> Tags:
    p = Tags()
    p.feed(doc)
    return p


def test_writes_three_files(tmp_path: Path, hostile: Extraction) -> None:
    path = write_report(hostile, tmp_path / "out", Config())
    assert path == tmp_path / "out" / "report.html"
    assert sorted(p.name for p in path.parent.iterdir()) == ["page.png", "report.html", "stages.json"]
    w, h = png_size((path.parent / "page.png").read_bytes())
    assert w == 1280 and h > hostile.snapshot.height  # the legend band sits above the page
    json.loads((path.parent / "stages.json").read_text())


def test_page_text_cannot_inject_markup(hostile: Extraction, hostile_files: dict[str, bytes]) -> None:
    doc = hostile_files["report.html"].decode()
    tags = parse(doc)
    scripts = [a for t, a in tags.tags if t == "script"]
    assert len(scripts) == 2  # the data block and the report's own code
    assert scripts[0].get("type") == "application/json" and "nonce" in scripts[1]
    assert [t for t, _ in tags.tags if t in ("svg", "b", "iframe", "object")] == []
    assert sum(1 for t, _ in tags.tags if t == "img") == 1  # the screenshot only
    handlers = [(t, k) for t, a in tags.tags for k in a if k.startswith("on")]
    assert handlers == []
    # The hostile strings are there, as text.
    text = "".join(tags.text)
    assert "<script>window.__pwned=8</script> Desk lamp" in text
    assert '<img src=x onerror="window.__pwned=10"> Book shelf' in text
    assert hostile.title in text


def test_data_block_holds_page_text_as_json(hostile_files: dict[str, bytes]) -> None:
    doc = hostile_files["report.html"].decode()
    m = re.search(r'<script type="application/json" id="visx-data">(.*?)</script>', doc, re.S)
    assert m is not None
    raw = m.group(1)
    assert "<" not in raw and ">" not in raw
    data = json.loads(raw)
    assert "</script><script>window.__pwned=9</script> Office chair" in data["keys"]["g1r2"]
    assert len([k for k in data["keys"] if re.fullmatch(r"g1r\d+", k)]) == 6


@given(st.text())
def test_safe_json_round_trips_and_never_closes_a_script(s: str) -> None:
    out = safe_json({"t": s})
    assert not set("<>&\u2028\u2029") & set(out)
    assert json.loads(out) == {"t": s}


def test_report_shows_every_record_region_and_removal(hostile: Extraction, hostile_files: dict[str, bytes]) -> None:
    tags = parse(hostile_files["report.html"].decode())
    classes = [a.get("class") or "" for _, a in tags.tags]
    records = sum(len(rg.records) for rg in hostile.regions)
    assert sum(1 for c in classes if c.split()[:2] == ["box", "rec"]) == records
    rows = [a["data-key"] for t, a in tags.tags if t == "tr" and a.get("data-key")]
    assert [k for k in rows if "r" in k and k.startswith("g")] == [f"g1r{r}" for r in range(1, records + 1)]
    assert {f"rm{i}" for i in range(len(hostile.cleaned.removed))} <= set(rows)
    doc = hostile_files["report.html"].decode()
    assert "a cookie or consent banner" in doc and "in the header band" in doc
    assert "Ranked first" in doc or "The only region found" in doc


def test_stage_dump_labels_nodes(hostile: Extraction) -> None:
    dump = stage_dump(hostile)
    assert list(dump["stages"]) == ["render", "clean", "mine", "align", "schema"]
    region = dump["stages"]["mine"]["regions"][0]
    assert region["parent"] == {"node": "ul#results", "xpath": "/html/body/ul"}
    assert region["records"][0]["parts"][0]["node"] == "li.item"
    reasons = {(r["node"], r["reason"]) for r in dump["stages"]["clean"]["removed"]}
    assert ("header", "band:header") in reasons and ("footer", "band:footer") in reasons
    table = dump["stages"]["schema"]["tables"][0]
    assert [c["name"] for c in table["columns"]][:3] == ["image", "title", "price"]
    assert table["rows"][0][1]["node"] == "h3"


def test_no_screenshot_draws_a_wireframe_and_says_so() -> None:
    ex = analyse(load_snapshot(NO_SHOT))
    assert ex.snapshot.screenshot_png is None
    files = build_report(ex)
    w, h = png_size(files["page.png"])
    assert w == 1280 and h > ex.snapshot.height
    doc = files["report.html"].decode()
    assert "no screenshot in this snapshot" in doc
    assert doc.count('class="box rec') == sum(len(rg.records) for rg in ex.regions)


def test_tall_page_is_cut_with_a_note(hostile: Extraction) -> None:
    tall = 20_000
    shot = Image.new("RGB", (1280, tall), (240, 240, 255))
    buf = io.BytesIO()
    shot.save(buf, "PNG")
    snap = dataclasses.replace(hostile.snapshot, height=float(tall), screenshot_png=buf.getvalue())
    ex = dataclasses.replace(hostile, snapshot=snap)
    files = build_report(ex, Config(debug=DebugConfig(max_height=3000)))
    w, h = png_size(files["page.png"])
    assert w == 1280 and 3000 < h < 3400  # the page part is cut at 3000, plus legend and note bands
    assert len(files["page.png"]) < 2_000_000
    assert "the picture stops at 1280x3000 px" in files["report.html"].decode()


def test_wide_tall_page_without_screenshot_is_capped(hostile: Extraction) -> None:
    snap = dataclasses.replace(hostile.snapshot, width=30_000.0, height=200_000.0, screenshot_png=None)
    ex = dataclasses.replace(hostile, snapshot=snap)
    files = build_report(ex)
    w, h = png_size(files["page.png"])
    assert w == MAX_WIDTH and h < Config().debug.max_height + 400


def test_boxes_beyond_the_cut_are_kept_but_not_drawn(hostile: Extraction) -> None:
    layers = build_layers(hostile, 1280, 400)
    beyond = [b.key for b in layers.records if layers.beyond(b)]
    assert beyond and len(layers.records) == 6
    doc = build_report(hostile, Config(debug=DebugConfig(max_height=400)))["report.html"].decode()
    assert doc.count('class="box rec beyond"') == len(beyond)


def test_missing_tables_degrade_to_record_text(hostile: Extraction) -> None:
    ex = dataclasses.replace(hostile, tables=[])
    files = build_report(ex)
    doc = files["report.html"].decode()
    assert "the table stages did not run" in doc
    assert doc.count('<tr data-key="g1r') == 6
    assert build_layers(ex, 1280, 2000).cells == []
    assert json.loads(files["stages.json"])["stages"]["schema"]["tables"] == []


def test_report_does_not_change_the_extraction(hostile: Extraction) -> None:
    before = json.dumps(stage_dump(hostile), default=str)
    timings = dict(hostile.timings)
    build_report(hostile)
    assert json.dumps(stage_dump(hostile), default=str) == before and hostile.timings == timings


def test_screenshot_beside_the_report(tmp_path: Path, hostile: Extraction) -> None:
    path = write_report(hostile, tmp_path, Config(debug=DebugConfig(embed_image=False)))
    assert (tmp_path / "screenshot.png").read_bytes() == hostile.snapshot.screenshot_png
    text = path.read_text()
    assert 'src="screenshot.png"' in text and "data:image/png;base64" not in text  # templates may be data: links


def test_unwritable_folder_is_an_export_error(tmp_path: Path, hostile: Extraction) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ExportError, match=r"file.*cannot write the debug report"):
        write_report(hostile, blocker / "sub", Config())
    assert list(tmp_path.iterdir()) == [blocker]


def region(rank: int, score: float, **ev: float) -> Region:
    return Region(parent=0, records=[], score=score, rank=rank, evidence=dict(ev))


def test_why_rank_names_the_parts_that_differ() -> None:
    main = region(1, 20.0, records=20, mean_chars=150.0, area_share=0.4, tag_distance=0.05)
    menu = region(2, 0.5, records=8, mean_chars=12.0, area_share=0.01, tag_distance=0.0, menu_like=0.35)
    first = why_rank(main, None, menu)
    assert first.startswith("Ranked first: score 20, 40x the next.")
    assert "number of records (20 vs 8)" in first and "tag edit distance" not in first
    second = why_rank(menu, main, None)
    assert "Behind #1 on" in second and "text per record (12 chars vs 150 chars)" in second
    assert "Penalised: short linked items, like a menu (x0.35)" in second
    assert why_rank(main, None, None).startswith("The only region found")


def run_report(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="visx")
    report_cmd.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["report", *argv])
    return int(args.run(args))


def test_cli_report_from_snapshot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rep"
    assert run_report(str(HOSTILE), "-o", str(out), "--max-height", "600") == 0
    printed = capsys.readouterr().out
    assert f"open {out / 'report.html'} in a browser" in printed and "1 region(s), 6 record(s)" in printed
    _, h = png_size((out / "page.png").read_bytes())
    assert h < 600 + 400


def test_cli_rerender_of_unreachable_source_falls_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    snap = load_snapshot(NO_SHOT)
    snap.source, snap.url = "gone/page.html", "file:///nonexistent/gone/page.html"
    saved = tmp_path / "gone.json.gz"
    snap.save(saved)
    assert run_report(str(saved), "-o", str(tmp_path / "rep"), "--rerender") == 0
    assert "is not reachable; drawing on a wireframe" in capsys.readouterr().err
    assert "no screenshot in this snapshot" in (tmp_path / "rep" / "report.html").read_text()


def test_cli_bad_max_height_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(VisxError, match="--max-height 5: must be between"):
        run_report(str(HOSTILE), "-o", str(tmp_path), "--max-height", "5")


def test_extract_debug_option_writes_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from visx.cli import main

    code = main(["extract", str(HOSTILE), "-o", str(tmp_path / "out.json"), "--debug", str(tmp_path / "dbg")])
    assert code == 0
    assert f"wrote {tmp_path / 'dbg' / 'report.html'}" in capsys.readouterr().err
    assert {p.name for p in (tmp_path / "dbg").iterdir()} == {"page.png", "report.html", "stages.json"}


def test_page_without_regions_still_reports(hostile: Extraction) -> None:
    ex = dataclasses.replace(hostile, regions=[], tables=[], warnings=["hostile.html: no repeated records found"])
    files = build_report(ex)
    doc = files["report.html"].decode()
    assert "No repeated records were found on this page." in doc
    assert "no repeated records found" in doc and 'class="box rec' not in doc
    assert png_size(files["page.png"])[0] == 1280
