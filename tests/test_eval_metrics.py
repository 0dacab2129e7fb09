"""Record matching and page scores of ``visx.evaluate``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from visx.evaluate import thresholds as th
from visx.evaluate.dataset import decode_text, load_dataset, parse_records, read_gold
from visx.evaluate.metrics import (
    Score,
    failure_reason,
    match,
    micro,
    score_page,
    similarity,
    tokens,
)
from visx.evaluate.report import by_category, pages_csv, summarize, worst_pages, write_outputs
from visx.evaluate.runner import PageResult, region_texts, run_eval
from visx.model import STYLE_PROPS, PageSnapshot, Record, Region


@dataclass
class _Extraction:
    """Stands in for ``visx.pipeline.Extraction``: the runner only reads ``.regions``."""

    regions: list[Region]


GOLD = [
    "Blue Kettle 1.7 litre | 24.99 | 4 stars",
    "Red Toaster two slots | 31.50 | 5 stars",
    "Green Mixer 600 W crème | 89.00 € | 3 stars",
]


def test_tokens_normalise_case_punctuation_and_width() -> None:
    assert tokens("Hello, WORLD!  hello") == frozenset({"hello", "world"})
    assert tokens("ＡＢＣ 12") == tokens("abc 12")  # NFKC folds full-width forms
    assert tokens("東京タワー") == frozenset("東京タワー")  # unspaced script: one token per character


def test_similarity_is_gold_containment() -> None:
    gold = "one two three four five"
    assert similarity(gold, "one two three four five plus extra buttons") == 1.0
    assert similarity(gold, "one two three four") == pytest.approx(0.8)
    assert similarity(gold, "one") == pytest.approx(0.2)  # a fragment is not a match
    assert similarity("", "anything") == 0.0


def test_threshold_boundary() -> None:
    gold = "a1 a2 a3 a4 a5 a6 a7 a8 a9 a10"
    at = "a1 a2 a3 a4 a5 a6 a7 a8"  # 8/10 = 0.8 exactly: matches
    below = "a1 a2 a3 a4 a5 a6 a7"  # 0.7: does not
    assert th.MATCH_SIMILARITY == 0.8
    assert score_page([gold], [[at]]).top == Score(1, 1, 1)
    assert score_page([gold], [[below]]).top == Score(0, 1, 1)


def test_matching_is_one_to_one() -> None:
    # Two identical predictions for one gold record: one match, one false positive.
    s = score_page([GOLD[0]], [[GOLD[0], GOLD[0]]]).top
    assert (s.matched, s.predicted, s.gold) == (1, 2, 1)
    assert s.precision == 0.5 and s.recall == 1.0
    # One prediction holding two gold records matches only one of them.
    merged = GOLD[0] + " " + GOLD[1]
    s = score_page(GOLD[:2], [[merged]]).top
    assert (s.matched, s.predicted, s.gold) == (1, 1, 2)


def test_match_is_maximum_not_greedy() -> None:
    # Greedy on similarity pairs gold 0 with pred 0 (0.95) and leaves gold 1 with
    # nothing; the maximum matching pairs 0-1 and 1-0.
    sim = [[0.95, 0.9], [0.85, 0.0]]
    assert match(sim) == [(0, 1), (1, 0)]
    assert match([[0.79]]) == []
    assert match([]) == []


def test_perfect_page_and_micro_average() -> None:
    ps = score_page(GOLD, [[g + " Add to cart" for g in GOLD], ["Home", "About"]])
    assert ps.perfect and ps.hit and ps.best_rank == 1
    assert failure_reason(ps) == "perfect"
    half = score_page(GOLD[:2], [[GOLD[0], "noise"]])
    total = micro([ps.top, half.top])
    assert (total.matched, total.predicted, total.gold) == (4, 5, 5)
    assert total.f1 == pytest.approx(0.8)


def test_best_region_and_wrong_rank_reason() -> None:
    nav = ["Home", "Products", "Contact us", "Help"]
    ps = score_page(GOLD, [nav, GOLD])
    assert ps.top.f1 == 0.0 and ps.best.f1 == 1.0 and ps.best_rank == 2
    assert not ps.hit and not ps.perfect
    assert failure_reason(ps).startswith("wrong region ranked first")


def test_hit_by_majority_of_matched_gold() -> None:
    # The top region holds the gold records but cut into halves plus whole
    # records for two of them: F1 < 0.5 yet it is the right region.
    halves = [w for g in GOLD for w in (g[:12], g[12:])] + [GOLD[0], GOLD[1]]
    ps = score_page(GOLD, [halves, [GOLD[2], "x"]])
    assert ps.top.matched == 2 and ps.top.f1 < th.HIT_F1
    assert ps.gold_matched_anywhere == 3
    assert ps.hit


def test_failure_reasons() -> None:
    assert failure_reason(score_page(GOLD, [])) == "no region found"
    over = [w for g in GOLD for w in g.split("|")]
    assert "over-split" in failure_reason(score_page(GOLD, [over]))
    many = [*GOLD, *(g.replace("stars", "stars, sold out") for g in GOLD)]
    under = [" ".join(many[:3]), " ".join(many[3:])]
    assert "under-split" in failure_reason(score_page(many, [under]))
    found_some = score_page(GOLD, [[GOLD[0]], ["Home", "Contact"]])
    assert failure_reason(found_some) == "low recall (1/3 gold records found)"
    extra = score_page(GOLD, [[*GOLD, "Sponsored: buy now"]])
    assert failure_reason(extra) == "low precision (1 of 4 records are not gold)"
    assert failure_reason(score_page(GOLD, [["Home", "Contact"]])) == "no region holds the gold records"
    absent = score_page(GOLD, [["a", "b"]], "nothing of the gold here", "nor here")
    assert absent.gold_in_page == 0
    assert failure_reason(absent).startswith("gold records absent")
    hidden = score_page(GOLD, [["a", "b"]], "nothing visible", " ".join(GOLD))
    assert (hidden.gold_visible, hidden.gold_in_page) == (0, 3)
    assert failure_reason(hidden).startswith("gold text hidden in the render")


def test_decode_text_fallbacks() -> None:
    assert decode_text("café,prix".encode()) == "café,prix"
    assert decode_text(b"\xef\xbb\xbfbom,row") == "bom,row"
    assert decode_text("café – 5 €".encode("cp1252")) == "café – 5 €"
    # 0x81 is undefined in cp1252 too: replacement characters, not an exception.
    assert decode_text(b"a\x81b") == "a\ufffdb"
    assert decode_text("naïve".encode("utf-16")) == "naïve"


def test_parse_records_joins_non_empty_cells() -> None:
    recs = parse_records('Title one,,"12,50 €"\n\n  ,  ,\nTitle  two,url,\n')
    assert [r.text for r in recs] == ["Title one 12,50 €", "Title two url"]
    assert recs[0].cells == ("Title one", "", "12,50 €")


def _dataset(tmp_path: Path) -> Path:
    for pid, cat, rows in (("shop.test/kettles", "home", GOLD), ("news.test/a", "news", GOLD[:1])):
        d = tmp_path / pid
        d.mkdir(parents=True)
        (d / "meta.json").write_text(json.dumps({"id": pid, "category": cat, "n_records": len(rows)}))
        (d / "records.csv").write_bytes("\n".join(rows).encode("cp1252"))  # not UTF-8
        _blank_snapshot().save(d / "snapshot.json.gz")
    return tmp_path


def _blank_snapshot() -> PageSnapshot:
    from visx.model import Node, NodeTable

    root = Node(0, -1, "html", "", (), {}, "", "", 0, 0, 100, 100, 0, 0)
    return PageSnapshot(NodeTable([root], [tuple("" for _ in STYLE_PROPS)]), "t", "", "", 200, 100, 100, (100, 100), False)


def test_runner_and_report_on_snapshot_folder(tmp_path: Path) -> None:
    root = _dataset(tmp_path)
    pages = load_dataset(root)
    assert [p.id for p in pages] == ["news.test/a", "shop.test/kettles"]
    assert [g.text for g in read_gold(pages[1])] == GOLD  # cp1252 bytes decoded

    def analyse(snap: PageSnapshot, _cfg: object) -> _Extraction:
        return _Extraction([Region(0, [Record([1], text=g) for g in GOLD[:2]])])

    results = run_eval(root, cache_dir=None, analyse=analyse)
    by_id = {r.page.id: r for r in results}
    assert by_id["shop.test/kettles"].score.top == Score(2, 2, 3)
    assert by_id["news.test/a"].score.top == Score(1, 2, 1)
    s = summarize(results)
    assert (s.top.matched, s.top.predicted, s.top.gold) == (3, 4, 4)
    assert s.hits == 2 and s.perfect == 0
    assert set(by_category(results)) == {"home", "news"}
    assert pages_csv(results).splitlines()[0].startswith("id,category,site,elements,gold")
    assert [r.page.id for r in worst_pages(results, 1)] == ["news.test/a"]
    paths = write_outputs(results, tmp_path / "out", label="test")
    assert paths["chart"].read_bytes()[:4] == b"\x89PNG"
    doc = json.loads(paths["summary"].read_text())
    assert doc["overall"]["top"]["matched"] == 3 and set(doc["categories"]) == {"home", "news"}
    assert len(paths["pages"].read_text().splitlines()) == 3


def test_runner_reports_a_crashing_analysis(tmp_path: Path) -> None:
    root = _dataset(tmp_path)

    def analyse(snap: PageSnapshot, _cfg: object) -> object:
        raise ValueError("boom")

    results: list[PageResult] = run_eval(root, cache_dir=None, analyse=analyse)
    assert all(r.error == "analysis failed: ValueError: boom" for r in results)
    assert summarize(results).top.gold == 4  # failed pages still count


def test_region_texts_keeps_rank_order() -> None:
    ex = _Extraction([Region(0, [Record([1], text="a")]), Region(0, [Record([2], text="b"), Record([3], text="c")])])
    assert region_texts(ex) == [["a"], ["b", "c"]]


def test_near_duplicate_gold_is_not_called_merged() -> None:
    base = "Election Day Returns Megathread {} points comments submitted by english06 to politics welcome"
    gold = [base.format(n) for n in ("531", "541", "684")]
    ps = score_page(gold, [gold[:2]])  # the third record is missing, nothing is merged
    assert ps.regions[0].merged == 0
    assert failure_reason(ps) == "low recall (2/3 gold records found)"


def test_cache_logs_failures_and_skips_them_when_asked(tmp_path: Path) -> None:
    from visx.errors import RenderError, SnapshotError
    from visx.evaluate.cache import cache_pages, get_snapshot, load_failures

    root = _dataset(tmp_path / "data")
    (root / "news.test/a/snapshot.json.gz").unlink()  # no snapshot and no HTML: cannot render
    page = next(p for p in load_dataset(root) if p.id == "news.test/a")
    cache = tmp_path / "cache"
    with pytest.raises(SnapshotError):
        get_snapshot(page, cache)
    assert load_failures(cache)["news.test/a"]["error"] == "SnapshotError"
    with pytest.raises(RenderError, match="rendering failed before, not retried"):
        get_snapshot(page, cache, retry_failed=False)
    rep = cache_pages(load_dataset(root), cache)  # one failure does not stop the batch
    assert rep.cached == 1 and list(rep.failed) == ["news.test/a"]
    results = run_eval(root, cache_dir=cache, analyse=lambda s, c: _Extraction([]))
    assert [r.error.split(":")[0] for r in results] == ["render failed (cached failure)", ""]
