"""Many sources in one run (``visx.extract_many``, ``visx extract A B C``): order kept, failures isolated.

Saved snapshots and files that fail before any render need no browser; the
tests marked ``browser`` render over the real local HTTP server.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from conftest import LocalServer, closed_port, render_config

import visx
from visx.cli import main
from visx.errors import (
    ConfigError,
    NonHtmlContentError,
    SnapshotError,
    SourceNotFoundError,
    UnreachableError,
)

ROOT = Path(__file__).resolve().parent.parent
SNAP = ROOT / "fixtures" / "mine" / "several_regions.json.gz"
ADS = ROOT / "fixtures" / "mine" / "ads_between.json.gz"
PDF = ROOT / "fixtures" / "render" / "document.pdf"


@pytest.fixture()
def corrupt(tmp_path: Path) -> Path:
    p = tmp_path / "broken.json.gz"
    p.write_bytes(b"\x1f\x8b\x08\x00 not really gzip")
    return p


def test_results_in_input_order_and_failures_kept_apart(tmp_path: Path, corrupt: Path) -> None:
    missing = tmp_path / "nowhere.html"
    sources = [SNAP, missing, PDF, corrupt, ADS]
    got = list(visx.extract_many(sources, workers=2))
    assert [r.index for r in got] == [0, 1, 2, 3, 4]
    assert [r.ok for r in got] == [True, False, False, False, True]
    assert isinstance(got[1].error, SourceNotFoundError) and str(missing) in str(got[1].error)
    assert isinstance(got[2].error, NonHtmlContentError) and "document.pdf" in str(got[2].error)
    assert isinstance(got[3].error, SnapshotError) and "broken.json.gz" in str(got[3].error)
    # The pages after a failure are analysed as if alone.
    alone = visx.extract(ADS)
    last = got[4].extraction
    assert last is not None and last.main is not None and alone.main is not None
    assert [r.parts for r in last.main.records] == [r.parts for r in alone.main.records]
    assert got[0].extraction is not None and got[0].extraction.source == visx.load_snapshot(SNAP).source


def test_stopping_early_and_bad_worker_count() -> None:
    it = visx.extract_many([SNAP, ADS, SNAP, ADS], workers=1)
    first = next(it)
    assert first.ok and first.index == 0
    it.close()  # cancels what was queued; no error, no hang
    with pytest.raises(ConfigError, match="at least 1"):
        list(visx.extract_many([SNAP], workers=0))


def test_cli_writes_the_good_pages_and_exits_1(tmp_path: Path, corrupt: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "all.sqlite"
    code = main(["extract", str(SNAP), str(tmp_path / "missing.html"), str(corrupt), str(ADS), "-o", str(db)])
    assert code == 1
    err = capsys.readouterr().err
    assert "[2/4]" in err and "missing.html" in err and "[3/4]" in err and "broken.json.gz" in err
    assert "2 of 4 source(s) failed" in err
    with sqlite3.connect(db) as con:
        n_pages = con.execute("select count(*) from extractions").fetchone()[0]
        n_main = con.execute("select n_records from regions order by id").fetchall()
    assert n_pages == 2
    assert n_main == [(10,), (9,)]


def test_cli_all_failed_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.csv"
    assert main(["extract", str(tmp_path / "a.html"), str(tmp_path / "b.html"), "-o", str(out)]) == 1
    assert not out.exists()
    assert "nothing was written" in capsys.readouterr().err


def test_cli_sources_from_a_list_to_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    listing = tmp_path / "pages.txt"
    listing.write_text(f"# two saved pages\n{SNAP}\n\n{ADS}\n", encoding="utf-8")
    assert main(["extract", "--sources-from", str(listing), "--format", "jsonl"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    sources = {x["source"] for x in lines}
    assert sources == {visx.load_snapshot(SNAP).source, visx.load_snapshot(ADS).source}
    assert sum(1 for x in lines if x["rank"] == 1) == 10 + 9


def test_cli_source_list_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", "--sources-from", str(tmp_path / "none.txt")]) == 2
    assert "none.txt: cannot read the source list" in capsys.readouterr().err
    assert main(["extract"]) == 2
    assert "no source given" in capsys.readouterr().err
    assert main(["extract", str(SNAP), str(ADS), "-o", str(tmp_path / "x.csv"), "--jobs", "0"]) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err


def test_cli_bad_output_checked_before_any_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A missing output folder is reported once, up front, even with a missing source in the list.
    out = tmp_path / "no-such-dir" / "out.sqlite"
    assert main(["extract", str(SNAP), str(tmp_path / "missing.html"), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err and "missing.html" not in err


@pytest.mark.browser
def test_rendered_batch_over_http(server: LocalServer) -> None:
    dead = f"http://127.0.0.1:{closed_port()}/list.html"
    sources = [server.url("demo/index.html"), dead, server.url("api/items"), server.url("mine/grid_table.html")]
    got = list(visx.extract_many(sources, render_config(javascript=False, timeout_s=10.0), workers=2))
    assert [r.source for r in got] == sources
    assert [r.ok for r in got] == [True, False, False, True]
    assert isinstance(got[1].error, UnreachableError) and dead in str(got[1].error)
    assert isinstance(got[2].error, NonHtmlContentError)
    for r in (got[0], got[3]):
        assert r.extraction is not None and r.extraction.main is not None
        assert len(r.extraction.main.records) >= 3
        assert r.extraction.url == r.source


def test_cli_debug_writes_a_report_per_page_and_an_index(tmp_path: Path) -> None:
    out, dbg = tmp_path / "t.json", tmp_path / "dbg"
    missing = tmp_path / "gone.html"
    assert main(["extract", str(SNAP), str(missing), str(ADS), "-o", str(out), "--debug", str(dbg)]) == 1
    assert (dbg / "001" / "report.html").is_file() and (dbg / "003" / "report.html").is_file()
    assert not (dbg / "002").exists()
    index = (dbg / "index.html").read_text(encoding="utf-8")
    assert 'href="001/report.html"' in index and 'href="003/report.html"' in index
    assert "3 source(s), 1 failed" in index and "gone.html" in index and "no such file" in index
    assert len(json.loads(out.read_text())) == 2  # the JSON of two pages is a list


def test_slug_names_files_after_their_source() -> None:
    from visx.cli.render_cmd import slug

    assert slug("https://shop.example.org/search?q=chairs") == "shop.example.org-search"
    assert slug("/data/pages/Search Results.htm") == "Search-Results"
    assert slug("HTML text '<ul><li>a'") == "html"
    assert slug("https://example.org/" + "x" * 200) == ("example.org-" + "x" * 200)[:60]


@pytest.mark.browser
def test_cli_render_many_into_a_folder_then_extract(tmp_path: Path, server: LocalServer,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "snaps"
    page = ROOT / "fixtures" / "mine" / "several_regions.html"
    code = main(["render", str(page), str(tmp_path / "missing.html"), server.url("mine/grid_table.html"),
                 "--no-js", "-o", str(out)])
    assert code == 1
    assert "[2/3]" in capsys.readouterr().err
    saved = sorted(p.name for p in out.iterdir())
    assert saved == ["001-several_regions.json.gz", "003-127.0.0.1-" + str(server.port) + "-mine-grid_table.html.json.gz"]
    # The saved snapshots replay without a browser, all into one database.
    db = tmp_path / "all.sqlite"
    assert main(["extract", *[str(out / n) for n in saved], "-o", str(db)]) == 0
    with sqlite3.connect(db) as con:
        assert con.execute("select count(*) from extractions").fetchone()[0] == 2
