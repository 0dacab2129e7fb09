"""Field-level scores of ``visx.evaluate``: cell agreement, gold field -> column mapping, purity."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from visx.evaluate.assign import max_weight_assignment
from visx.evaluate.fields import FieldScore, PageFields, cell_agrees, field_reason, score_fields
from visx.evaluate.metrics import score_page
from visx.evaluate.report import (
    PAGE_COLUMNS,
    by_category,
    page_row,
    summarize,
    summary_table,
    worst_field_pages,
    write_outputs,
)
from visx.evaluate.runner import run_eval
from visx.model import STYLE_PROPS, Node, NodeTable, PageSnapshot, Record, Region
from visx.schema.table import Cell, Column, Table

GOLD = [
    ("Blue Kettle 1.7 litre", "24.99", "HomeShop"),
    ("Red Toaster two slots", "31.50", "KitchenCo"),
    ("Green Mixer 600 W", "89.00", "MixMart"),
    ("Steel Pan large", "12.00", "PanPlace"),
]
IDENTITY = [(i, i) for i in range(len(GOLD))]


def _rows(order: list[int], gold: list[tuple[str, ...]] = GOLD) -> list[list[Cell | None]]:
    """Table rows holding gold field ``order[k]`` in column k."""
    return [[Cell(g[j], None) for j in order] for g in gold]


def _fields(pf: PageFields) -> dict[int, int]:
    return {m.gold_field: m.column for m in pf.mapping}


# Cell agreement ----------------------------------------------------------------

def test_cell_agreement_rules() -> None:
    assert cell_agrees("Blue Kettle, 1.7 litre", Cell("blue  kettle 1.7 LITRE", None))  # normalised equality
    # Dice 2*4/(4+5) = 0.89 passes; a cell with the price too, 2*4/(4+6) = 0.8, just passes; 2*2/(2+4) fails.
    assert cell_agrees("one two three four", Cell("one two three four five", None))
    assert cell_agrees("one two three four", Cell("one two three four 24 99", None))
    assert not cell_agrees("Blue Kettle", Cell("Blue Kettle 24.99", None))
    # A list-valued cell agrees through its joined items.
    assert cell_agrees("Ann Lee, Bo Chan", Cell("Ann Lee; Bo Chan", ["Ann Lee", "Bo Chan"]))
    # Symbols only: compared as they are, never equal to an unrelated cell.
    assert cell_agrees("★★★★", Cell("★★★★", None))
    assert not cell_agrees("★★★★", Cell("★★★", None))
    assert not cell_agrees("-", Cell("", None))


def test_links_count_only_for_url_gold_cells() -> None:
    linked = Cell("Blue Kettle", None, href="https://shop.example/kettle?id=7")
    assert cell_agrees("https://shop.example/kettle?id=7", linked)
    assert cell_agrees("https://shop.example/kettle?id=7", Cell("", None, src="https://shop.example/kettle?id=7"))
    assert not cell_agrees("shop example kettle id 7", linked)  # not a URL: the href is not its text
    assert cell_agrees("shop.example/kettle?id=7", linked)  # host and path, no scheme: still a URL
    assert not cell_agrees("4.5/5", Cell("", None, href="https://x.test/4.5/5"))


# Mapping and figures -------------------------------------------------------------

def test_identity_table_is_perfect() -> None:
    pf = score_fields(GOLD, _rows([0, 1, 2]), IDENTITY, ["title", "price", "seller"])
    s = pf.score
    assert (s.correct, s.predicted, s.gold) == (12, 12, 12)
    assert s.precision == s.recall == s.f1 == s.purity == 1.0
    assert field_reason(pf) == "perfect"


def test_swapped_column_order_maps_each_field_to_its_column() -> None:
    pf = score_fields(GOLD, _rows([2, 0, 1]), IDENTITY)  # seller, title, price
    assert _fields(pf) == {0: 1, 1: 2, 2: 0}
    assert pf.score.f1 == 1.0


def test_missing_column_lowers_recall_only() -> None:
    pf = score_fields(GOLD, _rows([0, 2]), IDENTITY, ["title", "seller"])  # no price column
    s = pf.score
    assert _fields(pf) == {0: 0, 2: 1}
    assert s.precision == 1.0
    assert s.recall == pytest.approx(8 / 12)
    assert field_reason(pf) == "field 2 ('24.99') in no column"


def test_merged_column_lowers_precision_and_purity() -> None:
    # Gold: the date is filled in every record, the note only in the first two.
    gold = [(f"Item {n} title words", f"note {n}" if n < 2 else "", f"2024-0{n + 1}-15") for n in range(4)]
    # Column 1 holds the note in rows 0-1 and the date again in rows 2-3: two fields in one column.
    rows: list[list[Cell | None]] = [
        [Cell(g[0], None), Cell(g[1] if n < 2 else g[2], None), Cell(g[2], None)] for n, g in enumerate(gold)
    ]
    pf = score_fields(gold, rows, IDENTITY, ["title", "mixed", "date"])
    s = pf.score
    assert _fields(pf) == {0: 0, 1: 1, 2: 2}
    assert s.recall == 1.0
    assert s.precision == pytest.approx(10 / 12)
    assert s.purity == pytest.approx(10 / 12)  # column 1: two of its four cells come from its dominant field
    assert field_reason(pf) == "column 1 'mixed' holds other values (2 of 4 cells are not field 2)"


def test_one_column_serves_one_field() -> None:
    # The labeller copied the title into two fields; the table has it once.
    gold = [(g[0], g[0], g[1]) for g in GOLD]
    rows = [[Cell(g[0], None), Cell(g[1], None)] for g in GOLD]
    pf = score_fields(gold, rows, IDENTITY, ["title", "price"])
    assert len(pf.mapping) == 2 and {m.column for m in pf.mapping} == {0, 1}
    assert pf.score.recall == pytest.approx(8 / 12)  # one copy of the title is in no column
    assert pf.score.precision == 1.0
    assert pf.score.purity == 1.0  # both fields agree with column 0: it is still pure


def test_assignment_is_optimal_not_greedy() -> None:
    # Greedy takes (0, 0) = 5 and leaves row 1 nothing: total 5; the optimum is 4 + 4.
    assert max_weight_assignment([[5, 4], [4, 0]]) == [(0, 1), (1, 0)]
    assert max_weight_assignment([[0, 0], [0, 3]]) == [(1, 1)]  # zero-weight rows stay unassigned
    assert max_weight_assignment([]) == []
    rng = random.Random(7)
    for _ in range(300):
        n, m = rng.randint(1, 5), rng.randint(1, 5)
        w = [[rng.choice((0, 1, 2, 3, 7, -2)) for _ in range(m)] for _ in range(n)]
        got = max_weight_assignment(w)
        assert len({a for a, _ in got}) == len({b for _, b in got}) == len(got)
        best = max(sum(max(0, w[a][b]) for a, b in zip(rs, cs, strict=False))
                   for rs in itertools.permutations(range(n)) for cs in itertools.permutations(range(m)))
        assert sum(w[a][b] for a, b in got) == best


def test_equal_agreement_prefers_the_cleaner_column() -> None:
    # Both columns hold the title in rows 0-2; column 0 has a stray value in row 3, column 1 nothing.
    rows: list[list[Cell | None]] = [[Cell(g[0], None), Cell(g[0], None)] for g in GOLD[:3]]
    rows.append([Cell("Sponsored", None), None])
    gold = [(g[0],) for g in GOLD[:3]] + [("",)]
    pf = score_fields(gold, rows, IDENTITY)
    assert _fields(pf) == {0: 1}
    assert pf.score.precision == 1.0


def test_end_to_end_counts_unmatched_records() -> None:
    rows = [*_rows([0, 1, 2], GOLD[:3]), [Cell("Ad banner", None), Cell("1.00", None), None]]
    pairs = [(0, 0), (1, 1), (2, 2)]  # gold record 3 was not matched; row 3 is an extra record
    s = score_fields(GOLD, rows, pairs).score
    assert (s.correct, s.predicted, s.gold) == (9, 9, 9) and s.f1 == 1.0
    assert (s.predicted_all, s.gold_all) == (11, 12)
    assert s.e2e_recall == pytest.approx(9 / 12) and s.e2e_precision == pytest.approx(9 / 11)


def test_no_table_or_no_match_scores_zero_with_gold_counted() -> None:
    none = score_fields(GOLD, None, IDENTITY)
    assert none.score == FieldScore(gold=0, gold_all=12) and none.matched == 0
    assert field_reason(none, "no region found") == "no matched records (no region found)"
    unmatched = score_fields(GOLD, _rows([0, 1, 2]), [])
    assert unmatched.score.gold_all == 12 and unmatched.score.f1 == 0.0


def test_field_scores_add_up() -> None:
    a = FieldScore(3, 4, 5, 6, 7, 2, 4)
    assert a + FieldScore(1, 1, 1, 1, 1, 1, 1) == FieldScore(4, 5, 6, 7, 8, 3, 5)
    assert a.precision == 0.75 and a.recall == 0.6 and a.purity == 0.5


# Runner and report ------------------------------------------------------------------

@dataclass
class _Extraction:
    """Stands in for ``visx.pipeline.Extraction``: regions, tables and stage timings."""

    regions: list[Region]
    tables: list[Table]
    timings: dict[str, float] = field(default_factory=dict)


def _dataset(tmp_path: Path) -> Path:
    root = Node(0, -1, "html", "", (), {}, "", "", 0, 0, 100, 100, 0, 0)
    snap = PageSnapshot(NodeTable([root], [tuple("" for _ in STYLE_PROPS)]), "t", "", "", 200, 100, 100,
                        (100, 100), False)
    for pid, cat in (("shop.test/kettles", "home"), ("shop.test/pans", "home")):
        d = tmp_path / pid
        d.mkdir(parents=True)
        (d / "meta.json").write_text(json.dumps({"id": pid, "category": cat, "n_records": len(GOLD)}))
        (d / "records.csv").write_text("\n".join(",".join(g) for g in GOLD))
        snap.save(d / "snapshot.json.gz")
    return tmp_path


def test_runner_scores_the_top_table_and_reports_it(tmp_path: Path) -> None:
    root = _dataset(tmp_path)
    columns = [Column("seller", "text", 1.0, ("constant",)), Column("title", "text", 1.0)]
    table = Table(1, columns, _rows([2, 0]))  # the price column is missing; a hidden column still counts
    records = [Record([1], text=" ".join(g)) for g in GOLD]

    def analyse(snap: PageSnapshot, _cfg: object) -> _Extraction:
        return _Extraction([Region(0, records)], [table],
                           {"clean": 0.01, "mine": 0.02, "align": 0.004, "schema": 0.002})

    results = run_eval(root, cache_dir=None, analyse=analyse)
    r = results[0]
    assert _fields(r.fields) == {0: 1, 2: 0}
    assert r.fields.score.recall == pytest.approx(8 / 12)
    assert r.time_ratio == pytest.approx(0.3)
    row = page_row(r)
    assert set(row) == set(PAGE_COLUMNS)
    assert (row["cell_correct"], row["cell_gold"], row["cell_f1"]) == (8, 12, "0.8000")
    assert row["field_reason"] == "field 2 ('24.99') in no column"
    s = summarize(results)
    assert (s.cells.correct, s.cells.gold) == (16, 24)
    assert s.time_ratio_median == pytest.approx(0.3) and s.time_ratio_total == pytest.approx(0.3)
    assert by_category(results)["home"].cells.f1 == pytest.approx(0.8)
    assert "cells (top)" in summary_table(s) and "target <= 0.5" in summary_table(s)
    assert len(worst_field_pages(results)) == 2
    doc = json.loads(write_outputs(results, tmp_path / "out", chart=False)["summary"].read_text())
    assert doc["overall"]["cells"]["f1"] == 0.8 and doc["overall"]["time_ratio"]["total"] == 0.3
    assert doc["worst_fields"][0]["reason"] == "field 2 ('24.99') in no column"


def test_record_pairs_feed_the_field_scores() -> None:
    # Records listed out of order: the field scores follow the record match, not the row order.
    texts = [" ".join(g) for g in GOLD]
    ps = score_page(texts, [texts[::-1]])
    pairs = ps.regions[0].pairs
    assert pairs == ((0, 3), (1, 2), (2, 1), (3, 0))
    assert score_fields(GOLD, _rows([0, 1, 2], GOLD[::-1]), pairs).score.f1 == 1.0
