"""The flat miner on saved snapshots of hand-made old-style pages (fixtures/flat/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from visx.config import Config, FlatConfig, MineConfig
from visx.errors import ConfigError
from visx.flat import FlatRecord, FlatRegion
from visx.flat.automaton import simplify
from visx.flat.pattern import key_type, mine_patterns
from visx.flat.rules import load_rules
from visx.pipeline import _read_snapshot, analyse

FIX = Path(__file__).parent.parent / "fixtures" / "flat"


def _run(name: str, config: Config | None = None):  # type: ignore[no-untyped-def]
    return analyse(_read_snapshot(FIX / f"{name}.snapshot.json.gz"), config or Config())


def _recs(region: object) -> list[FlatRecord]:
    assert isinstance(region, FlatRegion)
    out = [r for r in region.records if isinstance(r, FlatRecord)]
    assert len(out) == len(region.records)
    return out


def test_forum_br_runs_are_records_with_typed_fields() -> None:
    out = _run("forum")
    main = out.main
    assert isinstance(main, FlatRegion) and main.rank == 1
    assert len(main.records) == 5
    rec = main.records[0]
    assert isinstance(rec, FlatRecord)
    assert rec.types == ["title", "author", "count", "date"]
    assert rec.text.startswith("Carburetor keeps flooding")
    assert _recs(main)[3].types == ["title", "author", "date"]  # an optional field missing
    assert "lies inside these records" in main.reason
    # Records are text ranges: a record starts in a text node, at a character offset.
    assert rec.entities[1].start.child >= 0 and rec.entities[1].start.offset >= 0
    assert main.table is not None and [c.type for c in main.table.columns][:1] == ["text"]


def test_definition_list_directory() -> None:
    main = _run("directory").main
    assert isinstance(main, FlatRegion)
    assert [len(r.entities) for r in _recs(main)] == [4, 4, 3, 4]
    assert _recs(main)[0].types == ["title", "place", "phone", "email"]


def test_separator_lines() -> None:
    main = _run("links").main
    assert isinstance(main, FlatRegion) and len(main.records) == 5
    assert _recs(main)[1].types == ["title", "text", "rating", "count"]


def test_dom_list_kept_when_convincing() -> None:
    out = _run("guestbook")
    assert out.main is not None and out.main.miner == "mdr" and len(out.main.records) == 4


def test_flat_off_and_forced() -> None:
    off = _run("forum", Config(flat=FlatConfig(mode="off")))
    assert all(rg.miner != "flat" for rg in off.regions)
    forced = _run("guestbook", Config(mine=MineConfig(miner="flat")))
    assert all(rg.miner == "flat" for rg in forced.regions)


def test_key_type_is_the_first_field_present_in_every_record() -> None:
    rec, short = ["title", "text", "price", "date"], ["title", "price", "date"]
    labels = [frozenset([t]) for t in [*rec, *rec, *short, *rec]]
    assert key_type(labels) == "title"
    segments, _assigned, kept = mine_patterns(labels, "title")
    assert segments[0] == (0, 4) and len(segments) == 4
    assert [p.support for p in kept] == [3]


def test_two_keys_in_a_row_start_one_record() -> None:
    labels = [frozenset([t]) for t in ["text", "text", "price"] * 3]
    segments, _a, _k = mine_patterns(labels, "text")
    assert segments == [(0, 3), (3, 6), (6, 9)]


def test_a_key_in_pairs_is_regular_counted_once_a_pair() -> None:
    # Each record opens with two numbers (downloads, endorsements): gaps 1, 6, 1, 6 ...
    rec = ["number", "number", "text", "author", "text"]
    labels = [frozenset([t]) for t in rec * 5]
    assert key_type(labels) == "number"
    assert mine_patterns(labels, "number")[0] == [(k, k + 5) for k in range(0, 25, 5)]


def test_a_key_type_recurs_where_a_precision_rule_fixed_it() -> None:
    # Linked titles start the records; a line's first words are only proposed as titles.
    t, c = ({"text"}, ""), ({"count"}, "count")
    rec = [({"title"}, "title"), t, t, t, t, t, c, c, ({"text", "title"}, ""), c]
    seq = rec * 4
    labels = [frozenset(ls) if not d else frozenset([d]) for ls, d in seq]
    decided = [d for _ls, d in seq]
    assert key_type(labels) != "title"  # as labels, the titles are irregular
    assert key_type(labels, decided) == "title"


def test_automaton_shortest_cover() -> None:
    assert simplify(["a", "b", "b", "c"]) == ("a", "b", "c")
    assert simplify(["a", "b", "a", "c"]) == ("a", "b", "a", "c")


def test_rule_files_are_validated(tmp_path: Path) -> None:
    assert "title" in load_rules("shop").names and load_rules("shop").names[0] == "stock"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"topic": "x", "types": [{"name": "a", "precision": [{"regex": "("}]}]}))
    with pytest.raises(ConfigError, match="bad regex"):
        load_rules(str(bad))


def test_pre_lines_are_records() -> None:
    recs = _recs(_run("classifieds").main)
    assert len(recs) == 12
    assert recs[1].text == "Road bike, carbon frame $850 Apr 1, 2004 Salem, OR"


def test_pre_fields_found_despite_joined_lines() -> None:
    recs = _recs(_run("classifieds").main)
    assert len(recs) >= 11
    assert all({"price", "date"} <= set(r.types) for r in recs)


def test_empty_lines_set_records_apart() -> None:
    # Records of 8-10 lines, author lines varying: the counts recur more regularly than the
    # titles, and cutting at them (the seed's way) splits each record across its empty line.
    main = _run("books").main
    recs = _recs(main)
    assert len(recs) == 7 and isinstance(main, FlatRegion) and main.key == "title"
    assert [r.types[0] for r in recs] == ["title"] * 7
    assert recs[1].text.startswith("Maps of Old Towns") and recs[1].text.endswith("12 editions")
    assert all(r.entities[0].blank_before for r in recs[1:])


def test_a_repeated_text_marks_records_of_plain_text() -> None:
    # Every field is plain text (the rules type all of them "text"), lines end in <br> with no
    # empty line between records, and a record may have an extra line: only the repeated
    # "View full profile" shows where records are.
    main = _run("members").main
    recs = _recs(main)
    assert isinstance(main, FlatRegion) and main.key == "=View full profile"
    assert [len(r.entities) for r in recs] == [4, 5, 4, 5, 4, 5]
    assert recs[1].text == "Ben Okafor Accountant View full profile Lagos Past: Auditor at Reed & Co"
    assert all(not t.startswith("=") for r in recs for t in r.types)  # never a field's name
