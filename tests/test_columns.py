"""Edits of the columnar capture (frames spliced, harvested rows stitched), without a browser."""

from __future__ import annotations

from typing import Any

import pytest

from visx.harvest.stitch import Batch, stitch
from visx.model import SCOPE_FRAME, SCOPE_SHADOW, VIS_OFFPAGE, split_xpath
from visx.render.columns import (
    children,
    concat,
    drop_children,
    insert_forest,
    split_roots,
    subtree_end,
    take_forest,
)
from visx.render.snapshot_io import load_snapshot, snapshot_from_dom

STYLE = ["block"] + [""] * 13


class Builder:
    """A columnar page built node by node (pre-order), as collect.js returns it."""

    def __init__(self) -> None:
        self.d: dict[str, Any] = {"n": 0, "parent": [], "tag": [], "tags": [], "id": [], "cls": [], "text": [],
                                  "tail": [], "box": [], "vis": [], "sty": [], "styles": [STYLE], "attrs": {},
                                  "scope": [], "xstep": [], "step": [], "frames": [],
                                  "page": {"width": 1000, "height": 2000, "url": "http://x/", "title": "t",
                                           "vw": 1000, "vh": 800}}

    def add(self, parent: int, tag: str, text: str = "", box: tuple[float, float, float, float] = (0, 0, 10, 10),
            href: str = "") -> int:
        d = self.d
        i = d["n"]
        if tag not in d["tags"]:
            d["tags"].append(tag)
        for col, v in (("parent", parent), ("tag", d["tags"].index(tag)), ("id", ""), ("cls", ""), ("text", text),
                       ("tail", ""), ("vis", 0), ("sty", 0)):
            d[col].append(v)
        d["box"].extend(box)
        if href:
            d["attrs"].setdefault("href", []).extend((i, href))
        d["n"] = i + 1
        return i


def page_with_list(rows: int, *, top: float = 100.0) -> tuple[dict[str, Any], int]:
    b = Builder()
    html = b.add(-1, "html", box=(0, 0, 1000, 2000))
    body = b.add(html, "body", box=(0, 0, 1000, 2000))
    ul = b.add(body, "ul", box=(0, top, 500, 30 * rows))
    for k in range(rows):
        li = b.add(ul, "li", box=(0, top + 30 * k, 500, 30))
        b.add(li, "a", f"Row {k + 1}", box=(5, top + 30 * k + 5, 100, 20), href=f"http://x/{k + 1}")
    b.add(body, "footer", "Footer", box=(0, top + 30 * rows + 10, 1000, 50))
    return b.d, ul


def table(d: dict[str, Any]) -> Any:
    return snapshot_from_dom(d, source="t", status=200, javascript=True).nodes


def test_subtree_end_and_children() -> None:
    d, ul = page_with_list(3)
    assert subtree_end(d["parent"], ul) == ul + 1 + 3 * 2
    assert children(d["parent"], ul) == [ul + 1, ul + 3, ul + 5]


def test_insert_forest_places_a_frame_under_its_iframe() -> None:
    page = Builder()
    html = page.add(-1, "html", box=(0, 0, 1000, 2000))
    body = page.add(html, "body")
    iframe = page.add(body, "iframe", box=(50, 300, 400, 400))
    page.add(body, "p", "after", href="http://x/after")
    inner, _ = page_with_list(2, top=0)
    out = insert_forest(page.d, iframe, inner, dx=52.0, dy=302.0, scope=SCOPE_FRAME, root_step="#document/html")
    t = table(out)
    assert [n.tag for n in t.nodes] == ["html", "body", "iframe", "html", "body", "ul", "li", "a", "li", "a",
                                        "footer", "p"]
    inner_html = t[3]
    assert inner_html.parent == iframe and inner_html.scope & SCOPE_FRAME
    assert inner_html.xpath == "/html/body/iframe/#document/html"
    assert t[7].xpath == "/html/body/iframe/#document/html/body/ul/li[1]/a"
    assert (t[7].x, t[7].y) == (57.0, 307.0)  # moved into page coordinates
    assert t[7].attrs["href"] == "http://x/1" and t[11].attrs["href"] == "http://x/after"
    assert t[11].xpath == "/html/body/p" and not t[11].scope


def test_take_drop_split_concat_round_trip() -> None:
    d, ul = page_with_list(3)
    rows = take_forest(d, children(d["parent"], ul))
    assert rows["n"] == 6 and rows["parent"].count(-1) == 3
    trees = split_roots(rows)
    assert [t["n"] for t in trees] == [2, 2, 2]
    assert trees[2]["attrs"]["href"] == [1, "http://x/3"]
    again = concat([(t, 0.0, 10.0) for t in reversed(trees)], d)
    assert [again["text"][i] for i in range(again["n"]) if again["parent"][i] >= 0] == ["Row 3", "Row 2", "Row 1"]
    assert again["box"][1] == d["box"][4 * (ul + 5) + 1] + 10.0
    bare = drop_children(d, ul)
    assert bare["n"] == d["n"] - 6 and children(bare["parent"], ul) == []
    back = insert_forest(bare, ul, rows)
    assert back["text"] == d["text"] and back["parent"] == d["parent"] and back["attrs"] == d["attrs"]


def test_stitch_unrolls_pages_and_keeps_order() -> None:
    base, ul = page_with_list(2)
    # Page 2 was captured with its list at another place on the screen.
    page2, ul2 = page_with_list(2, top=400.0)
    page2["text"] = [t.replace("Row 1", "Row 3").replace("Row 2", "Row 4") for t in page2["text"]]
    first = Batch(take_forest(base, children(base["parent"], ul)), 0, 1, (0, 100, 500, 60))
    second = Batch(take_forest(page2, children(page2["parent"], ul2)), 1, 2, (0, 400, 500, 60))
    out = stitch(base, ul, [second, first], clip_bottom=160.0)
    t = table(out)
    rows = t[ul].children
    assert [t.text(r) for r in rows] == ["Row 1", "Row 2", "Row 3", "Row 4"]
    assert [t[r].y for r in rows] == [100.0, 130.0, 160.0, 190.0]
    assert [t[r].step for r in rows] == [0, 0, 1, 1]
    footer = next(n for n in t.nodes if n.tag == "footer")
    assert footer.y == 170.0 + 60.0  # moved down by what the list grew
    assert t[ul].h == 120.0 and out["page"]["height"] == 2060.0


def test_stitched_rows_lose_the_offpage_flag() -> None:
    base, ul = page_with_list(1)
    late = Builder()
    root = late.add(-1, "li", box=(0, 5000, 500, 30))
    late.add(root, "a", "Far row", box=(5, 5005, 100, 20))
    late.d["vis"] = [VIS_OFFPAGE, VIS_OFFPAGE]
    out = stitch(base, ul, [Batch(take_forest(base, children(base["parent"], ul)), 0, 1, (0, 100, 500, 30)),
                            Batch(late.d, 1, 1, (0, 100, 500, 30))], clip_bottom=130.0)
    t = table(out)
    assert [t.text(r) for r in t[ul].children] == ["Row 1", "Far row"]
    assert all(n.vis == 0 for n in t.nodes)


def test_shadow_rows_keep_shadow_steps_when_stitched() -> None:
    b = Builder()
    html = b.add(-1, "html")
    body = b.add(html, "body")
    host = b.add(body, "x-list")
    rows = [b.add(host, "x-card", f"Card {k}", box=(0, 30 * k, 100, 30)) for k in (1, 2)]
    for k, r in enumerate(rows, 1):
        b.d["xstep"].extend((r, host, f"#shadow-root/x-card[{k}]"))
        b.d["scope"].extend((r, SCOPE_SHADOW))
    d = b.d
    out = stitch(d, host, [Batch(take_forest(d, rows), 0, 1, (0, 0, 100, 60))], clip_bottom=60.0)
    t = table(out)
    assert [t[r].xpath for r in t[host].children] == ["/html/body/x-list/#shadow-root/x-card[1]",
                                                       "/html/body/x-list/#shadow-root/x-card[2]"]


def test_split_xpath() -> None:
    assert split_xpath("/html/body/ul/li[2]") == [("", "/html/body/ul/li[2]")]
    assert split_xpath("/html/body/iframe[2]/#document/html/body/x-a/#shadow-root/div") == [
        ("", "/html/body/iframe[2]"), ("#document", "/html/body/x-a"), ("#shadow-root", "/div")]


def test_snapshot_keeps_scopes_steps_and_explicit_paths(tmp_path: Any) -> None:
    b = Builder()
    html = b.add(-1, "html")
    body = b.add(html, "body")
    host = b.add(body, "x-list")
    card = b.add(host, "x-card", "Card")
    b.d["xstep"].extend((card, host, "#shadow-root/x-card"))
    b.d["scope"].extend((card, SCOPE_SHADOW))
    b.d["step"].extend((card, 3))
    snap = snapshot_from_dom(b.d, source="t", status=200, javascript=True, warnings=["careful"])
    snap.save(tmp_path / "s.json.gz")
    back = load_snapshot(tmp_path / "s.json.gz")
    node = back.nodes[card]
    assert (node.xpath, node.scope, node.step) == ("/html/body/x-list/#shadow-root/x-card", SCOPE_SHADOW, 3)
    assert back.warnings == ["careful"]


@pytest.mark.parametrize("bad", [{"xstep": [1, 0]}, {"xstep": [9, 0, "a"]}, {"scope": [0]}, {"step": [99, 1]}])
def test_malformed_sparse_columns_are_rejected(bad: dict[str, Any]) -> None:
    b = Builder()
    html = b.add(-1, "html")
    b.add(html, "body")
    b.d.update(bad)
    with pytest.raises(ValueError):
        snapshot_from_dom(b.d, source="t", status=200, javascript=True)
