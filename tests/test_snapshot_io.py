"""Snapshot files: exact round trip, validation on load, XPath rebuild. No browser."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from visx import PageSnapshot, SnapshotError, load_snapshot
from visx.render.snapshot_io import snapshot_from_dom

TAGS = ["div", "p", "span", "a", "li", "ul", "td"]


def columns(parents: list[int], tags: list[int], texts: list[str] | None = None) -> dict[str, Any]:
    """A columnar DOM as collect.js returns it, for a tree given by its parent column."""
    n = len(parents)
    texts = texts or [f"text {i}" for i in range(n)]
    style = ["block", "visible", "static", "none", "16px", "400", "normal", "serif",
             "rgb(0, 0, 0)", "rgba(0, 0, 0, 0)", "auto", "1", "start", "visible"]
    return {
        "n": n,
        "parent": parents,
        "tag": tags,
        "tags": ["html", *TAGS],
        "id": [f"e{i}" if i % 3 == 0 else "" for i in range(n)],
        "cls": ["item big" if i % 2 else "" for i in range(n)],
        "text": texts,
        "tail": [" tail" if i % 4 == 1 else "" for i in range(n)],
        "box": [float(v) for i in range(n) for v in (i, 2 * i, 100.5, 20.25)],
        "vis": [0 if i % 5 else 8 for i in range(n)],
        "sty": [i % 2 for i in range(n)],
        "styles": [style, [*style[:4], "20px", *style[5:]]],
        "attrs": {"href": [1, "https://example.org/a?b=1"], "title": [0, "Ä title"]} if n > 1 else {},
        "page": {"width": 1280, "height": 2000.5, "url": "https://example.org/", "title": "T",
                 "vw": 1280, "vh": 900},
    }


def snapshot(dom: dict[str, Any]) -> PageSnapshot:
    snap = snapshot_from_dom(json.dumps(dom), source="unit.html", status=200, javascript=False,
                             timings={"navigate": 0.5}, partial=True, notes=["a note"],
                             created="2024-01-01T00:00:00+00:00")
    snap.screenshot_png = b"\x89PNG fake bytes"
    snap.extra["settled"] = False
    return snap


def meta(s: PageSnapshot) -> tuple[Any, ...]:
    return (s.source, s.url, s.title, s.status, s.width, s.height, s.viewport, s.javascript,
            s.timings, s.partial, s.notes, s.screenshot_png, s.created, s.extra)


SMALL = columns([-1, 0, 1, 1, 0, 4, 4, 4], [0, 1, 2, 2, 1, 5, 5, 5],
                ["", "héllo", "wörld ✓", "", "x", "a", "b", "c"])


def test_round_trip_keeps_every_node_and_all_metadata(tmp_path: Path) -> None:
    snap = snapshot(SMALL)
    path = tmp_path / "page.snapshot.json.gz"
    snap.save(path)
    assert path.read_bytes()[:2] == b"\x1f\x8b", "snapshots are gzip files"
    back = load_snapshot(path)
    assert back.nodes.nodes == snap.nodes.nodes
    assert back.nodes.styles == snap.nodes.styles
    assert meta(back) == meta(snap)
    assert back.nodes.style(1, "font-size") == "20px"
    assert back.nodes[1].attrs == {"href": "https://example.org/a?b=1"}


def test_saving_twice_gives_identical_bytes(tmp_path: Path) -> None:
    snap = snapshot(SMALL)
    snap.save(tmp_path / "a.json.gz")
    load_snapshot(tmp_path / "a.json.gz").save(tmp_path / "b.json.gz")
    assert (tmp_path / "a.json.gz").read_bytes() == (tmp_path / "b.json.gz").read_bytes()


def test_uncompressed_json_loads_too(tmp_path: Path) -> None:
    snap = snapshot(SMALL)
    snap.save(tmp_path / "a.json.gz")
    plain = tmp_path / "a.json"
    plain.write_bytes(gzip.decompress((tmp_path / "a.json.gz").read_bytes()))
    assert load_snapshot(plain).nodes.nodes == snap.nodes.nodes


def test_structure_is_linked() -> None:
    t = snapshot(SMALL).nodes
    assert t[0].children == [1, 4] and t[4].children == [5, 6, 7]
    assert [n.end for n in t.nodes] == [8, 4, 3, 4, 8, 6, 7, 8]
    assert [n.depth for n in t.nodes] == [0, 1, 2, 2, 1, 2, 2, 2]
    assert [n.xpath for n in t.nodes][4:] == ["/html/div[2]", "/html/div[2]/li[1]", "/html/div[2]/li[2]", "/html/div[2]/li[3]"]


def _write_doc(path: Path, doc: Any) -> Path:
    path.write_bytes(gzip.compress(json.dumps(doc).encode()))
    return path


def _valid_doc(tmp_path: Path) -> dict[str, Any]:
    snapshot(SMALL).save(tmp_path / "ok.json.gz")
    doc: dict[str, Any] = json.loads(gzip.decompress((tmp_path / "ok.json.gz").read_bytes()))
    return doc


@pytest.mark.parametrize(
    ("case", "expect"),
    [
        ("missing", "cannot read snapshot"),
        ("directory", "cannot read snapshot"),
        ("random bytes", "corrupt gzip or JSON"),
        ("truncated gzip", "corrupt gzip or JSON"),
        ("gzip of text", "corrupt gzip or JSON"),
        ("foreign json", "no 'format: visx-snapshot' field"),
        ("json list", "no 'format: visx-snapshot' field"),
        ("wrong version", "version 99 is not supported"),
        ("column too short", "invalid snapshot"),
        ("parent after child", "invalid snapshot"),
        ("style tuple too short", "invalid snapshot"),
        ("second root", "invalid snapshot"),
        ("attribute of no element", "invalid snapshot"),
        ("attribute pairs broken", "invalid snapshot"),
        ("missing field", "invalid snapshot"),
    ],
)
def test_bad_snapshot_files_raise_snapshot_error(tmp_path: Path, case: str, expect: str) -> None:
    p = tmp_path / "bad.json.gz"
    good = _valid_doc(tmp_path)
    if case == "missing":
        p = tmp_path / "nope.json.gz"
    elif case == "directory":
        p = tmp_path
    elif case == "random bytes":
        p.write_bytes(bytes(range(256)) * 3)
    elif case == "truncated gzip":
        p.write_bytes((tmp_path / "ok.json.gz").read_bytes()[:60])
    elif case == "gzip of text":
        p.write_bytes(gzip.compress(b"hello, not json"))
    elif case == "foreign json":
        _write_doc(p, {"format": "something-else", "version": 1})
    elif case == "json list":
        _write_doc(p, [1, 2, 3])
    elif case == "wrong version":
        _write_doc(p, {**good, "version": 99})
    elif case == "column too short":
        good["dom"]["text"] = good["dom"]["text"][:-1]
        _write_doc(p, good)
    elif case == "parent after child":
        good["dom"]["parent"][2] = 5
        _write_doc(p, good)
    elif case == "style tuple too short":
        good["dom"]["styles"][0] = good["dom"]["styles"][0][:3]
        _write_doc(p, good)
    elif case == "second root":
        good["dom"]["parent"][3] = -1
        _write_doc(p, good)
    elif case == "attribute of no element":
        good["dom"]["attrs"]["href"] = [99, "https://example.org/"]
        _write_doc(p, good)
    elif case == "attribute pairs broken":
        good["dom"]["attrs"]["href"] = [1, 2]
        _write_doc(p, good)
    elif case == "missing field":
        del good["dom"]["box"]
        _write_doc(p, good)
    with pytest.raises(SnapshotError) as err:
        load_snapshot(p)
    msg = str(err.value)
    assert expect in msg
    assert str(p) in msg, "the message names the file"
    assert "visx render" in msg or "re-render" in msg, "the message says the way out"
    assert "\n" not in msg


def test_empty_page_is_rejected() -> None:
    with pytest.raises(SnapshotError, match="no document element"):
        snapshot_from_dom('{"n": 0}', source="empty.html", status=200, javascript=True)


@st.composite
def trees(draw: st.DrawFn) -> tuple[list[int], list[int], list[str]]:
    n = draw(st.integers(1, 40))
    parents = [-1] + [draw(st.integers(0, i - 1)) for i in range(1, n)]
    # Pre-order needs each parent to be the latest open ancestor: rebuild the
    # order from the drawn parent links by a depth-first walk.
    kids: dict[int, list[int]] = {}
    for i, p in enumerate(parents[1:], 1):
        kids.setdefault(p, []).append(i)
    order: list[int] = []
    stack = [0]
    while stack:
        i = stack.pop()
        order.append(i)
        stack.extend(reversed(kids.get(i, [])))
    pos = {old: new for new, old in enumerate(order)}
    pre_parents = [-1 if parents[old] < 0 else pos[parents[old]] for old in order]
    tags = [0] + [draw(st.integers(1, len(TAGS))) for _ in range(1, n)]
    texts = [draw(st.text(max_size=8)) for _ in range(n)]
    return pre_parents, tags, texts


@settings(max_examples=60, deadline=None)
@given(trees())
def test_xpaths_match_lxml_getpath_and_survive_a_round_trip(tree: tuple[list[int], list[int], list[str]]) -> None:
    parents, tags, texts = tree
    snap = snapshot(columns(parents, tags, texts))
    names = ["html", *TAGS]
    els: list[etree._Element] = []
    for p, t in zip(parents, tags, strict=True):
        els.append(etree.Element(names[t]) if p < 0 else etree.SubElement(els[p], names[t]))
    doc = etree.ElementTree(els[0])
    assert [n.xpath for n in snap.nodes.nodes] == [doc.getpath(e) for e in els]
    table = snap.nodes
    for n in table.nodes:
        assert list(range(n.index + 1, n.end)) == sorted(
            j for j in range(len(table)) if j != n.index and table.is_ancestor(n.index, j)
        )
    from visx.render.snapshot_io import DomColumns, columns_from_table, table_from_columns

    page = columns(parents, tags, texts)["page"]
    again = table_from_columns(DomColumns.model_validate(columns_from_table(table, page)))
    assert again.nodes == table.nodes
