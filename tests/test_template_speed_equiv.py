"""The fast ``apply`` path gives exactly what the reference implementation gives (issue 13).

The fast path runs a template's XPaths on the node table (:mod:`visx.template.native`) and
reads items per element; the reference builds the lxml tree and every record's tree
(``from_snapshot(nodes, native=False)``, ``run_template(..., reference=True)``). Saved
snapshots from ``fixtures/`` (CI has no ``.eval-cache``; ``scripts/bench_templates.py
--verify`` runs the same checks over the whole dev cache), a hand-made page with shadow
roots, a frame, a slotted element and odd names, and two rendered pages with shadow roots
and frames.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from visx import analyse, load_snapshot
from visx.model import Node, NodeTable, PageSnapshot
from visx.template.apply import run_template
from visx.template.equivalence import (
    EXTRA_PATHS,
    differences,
    holder_differences,
    xpath_differences,
)
from visx.template.learn import learn
from visx.template.native import RootsSelector, select_nodes, subtree_text
from visx.template.tree import PageTree, from_snapshot

ROOT = Path(__file__).resolve().parent.parent
AGODA = ROOT / "fixtures" / "template" / "agoda.com"
GATE = ROOT / "fixtures" / "gate"
PAGES = [
    AGODA / "chinese-recreation" / "snapshot.json.gz",
    GATE / "goodreads.com" / "c-reference" / "snapshot.json.gz",  # a list column: whole record trees
    GATE / "imdb.com" / "fine-arts" / "snapshot.json.gz",
    GATE / "medlineplus.gov" / "vision-health" / "snapshot.json.gz",
    GATE / "skysports.com" / "hockey" / "snapshot.json.gz",
    ROOT / "fixtures" / "mine" / "two_rows.json.gz",
    ROOT / "fixtures" / "tables" / "label_value.json.gz",
]


def _learned(path: Path) -> tuple[PageSnapshot, object]:
    snap = load_snapshot(path)
    return snap, learn(analyse(snap))


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.parent.name if p.name == "snapshot.json.gz" else p.stem)
def test_fast_apply_equals_the_reference_on_its_own_page(path: Path) -> None:
    snap, t = _learned(path)
    assert differences(snap, t) == []  # type: ignore[arg-type]
    assert xpath_differences(snap, t) == []  # type: ignore[arg-type]
    assert holder_differences(snap, t) == []  # type: ignore[arg-type]


def test_fast_apply_equals_the_reference_on_another_page_of_the_site() -> None:
    snap_a, t = _learned(AGODA / "chinese-recreation" / "snapshot.json.gz")
    snap_b = load_snapshot(AGODA / "family-recreation-center" / "snapshot.json.gz")
    assert differences(snap_b, t) == []  # type: ignore[arg-type]
    # And the other way round, with the reference's records and problems.
    t_b = learn(analyse(snap_b))
    assert differences(snap_a, t_b) == []


def test_static_apply_equals_the_reference_on_the_raw_html() -> None:
    from lxml import etree

    from visx.template.equivalence import static_differences

    snap, t = _learned(AGODA / "chinese-recreation" / "snapshot.json.gz")
    html = etree.tostring(from_snapshot(snap.nodes, native=False).root, method="html")
    assert static_differences(html, "https://www.agoda.com/", t) == []  # type: ignore[arg-type]


def test_apply_never_builds_the_lxml_tree_for_learned_paths() -> None:
    snap, t = _learned(AGODA / "chinese-recreation" / "snapshot.json.gz")
    tree = from_snapshot(snap.nodes)
    run = run_template(tree, t)  # type: ignore[arg-type]
    assert run.records and not tree.built
    assert run.held  # what repair reads: every record's holders, read on demand
    assert not tree.built
    # A path outside the native grammar runs on lxml, built then, with the same answer.
    got = select_nodes(tree, "./*[last()]", run.roots[0])
    assert tree.built
    assert got == select_nodes(from_snapshot(snap.nodes, native=False), "./*[last()]", run.roots[0])


def test_learning_on_a_lazy_tree_gives_the_same_template() -> None:
    snap = load_snapshot(AGODA / "chinese-recreation" / "snapshot.json.gz")
    ex = analyse(snap)
    skip = {"created", "updated"}
    lazy = learn(ex).model_dump(exclude=skip)
    eager = learn(ex, tree=from_snapshot(snap.nodes, native=False)).model_dump(exclude=skip)
    assert lazy == eager


def test_record_text_in_one_pass_is_the_node_table_text() -> None:
    snap = load_snapshot(GATE / "imdb.com" / "fine-arts" / "snapshot.json.gz")
    nodes = snap.nodes
    assert all(subtree_text(nodes, i) == nodes.text(i) for i in range(len(nodes)))


# ------------------------------------------------------------------ a hand-made page

def _node(i: int, parent: int, tag: str, id_: str = "", classes: tuple[str, ...] = (), text: str = "",
          tail: str = "") -> Node:
    return Node(i, parent, tag, id_, classes, {}, text, tail, 0.0, 10.0 * i, 100.0, 10.0, 0, 0)


def _page(slotted: bool = False) -> NodeTable:
    """Shadow hosts, a frame's document, an odd tag name, dirty ids and classes."""
    spec = [
        (-1, "html", "", ()),                        # 0
        (0, "body", "", ()),                         # 1
        (1, "div", "main", ("list", "items")),       # 2
        (2, "x-card", "", ("card",)),                # 3 shadow host
        (3, "h3", "", ("title",)),                   # 4 shadow child
        (3, "p", "", ()),                            # 5 shadow child
        (2, "x-card", "", ("card",)),                # 6 shadow host
        (6, "h3", "", ("title",)),                   # 7 shadow child
        (6, "span", "", ("price", "")),              # 8 shadow child
        (2, "iframe", "f", ()),                      # 9 frame
        (9, "html", "", ()),                         # 10 its document
        (10, "body", "", ()),                        # 11
        (11, "ul", "", ()),                          # 12
        (12, "li", "", ("item",)),                   # 13
        (12, "li", "", ("item\x0b", "odd")),         # 14 a class lxml cleans
        (12, "li", "x\x01y", ("item",)),             # 15 an id lxml cleans
        (2, "weird:tag", "", ()),                    # 16 visx-unknown
        (2, "div", "", ("card",)),                   # 17
        (17, "span", "", ("price",)),                # 18
        (2, "div", "tail", ("a\tb",)),               # 19
    ]
    nodes = [_node(i, p, tag, id_, cls, text=f"t{i}", tail=" ") for i, (p, tag, id_, cls) in enumerate(spec)]
    xsteps = {4: (3, "#shadow-root/h3"), 5: (3, "#shadow-root/p"), 7: (6, "#shadow-root/h3"),
              8: (6, "#shadow-root/span"), 10: (9, "#document/html")}
    if slotted:
        xsteps[18] = (2, "span")  # assigned to a slot: lxml puts it under the host
    return NodeTable(nodes, [("block",) * 14], xsteps)


PATHS = [
    *EXTRA_PATHS,
    "//x-card", "//x-card[2]/#shadow-root/h3", "//*[@id='main']/x-card[1]/#shadow-root/*[2]",
    "//#shadow-root/*", "//#shadow-root/h3[1]", "/html/body/div/*[3]", "//*[@id='main']/*[4]",
    "//iframe/#document/html/body/ul/li[2]", "//iframe[@id='f']/#document//li",
    "//li[contains(concat(' ', normalize-space(@class), ' '), ' item ')]",
    "//li[contains(concat(' ', normalize-space(@class), ' '), ' odd ')][1]",
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' card ')]",
    "//*[contains(concat(' ', normalize-space(@class), ' '), 'ar')]",
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' a b ')]",
    "//li[@id='xy']", "//*[@id='x\x01y']", "//visx-unknown", "//*[2]", "//span[1]", "//*[1][@id='main']",
    "//div[@id='main']/following-sibling::*", "/html/body/div/div[1]/following-sibling::*[1]",
    "//*[@id='main']/x-card/following-sibling::x-card", "//div/span | //li", "//*[last()]",
]
RELATIVE = [".", "./*", "./*[2]", ".//*", ".//*[2]", ".//h3", "./#shadow-root/*", "./#shadow-root/h3[1]",
            "./following-sibling::*[1]", "./following-sibling::*[2]/*[1]", ".//li[3]", "./#document/html",
            ".//*[contains(concat(' ', normalize-space(@class), ' '), ' price ')]", "./..", "./text()"]


def _answer(tree: PageTree, xp: str, ctx: int | None) -> object:
    try:
        return select_nodes(tree, xp, ctx)
    except ValueError as e:  # lxml refuses a path with control characters: so must the fast path
        return type(e)


@pytest.mark.parametrize("slotted", [False, True], ids=["shadow-and-frame", "slotted"])
def test_native_xpath_matches_lxml_on_shadow_roots_frames_and_odd_names(slotted: bool) -> None:
    nodes = _page(slotted)
    lazy, eager = from_snapshot(nodes), from_snapshot(nodes, native=False)
    # A slotted element sits under its host in lxml's tree: the tree is read in lxml's order.
    assert lazy.dom.ok and (lazy.dom.orig is not None) is slotted
    for xp in PATHS:
        assert _answer(lazy, xp, None) == _answer(eager, xp, None), xp
    for ctx in range(len(nodes)):
        for xp in RELATIVE:
            assert _answer(lazy, xp, ctx) == _answer(eager, xp, ctx), (xp, ctx)
    # Every record root at once, as a run reads its columns.
    roots = [3, 6, 9, 17]
    many = RootsSelector(lazy, roots)
    for xp in [*RELATIVE, ".//span", ".//*[1]", "./*/*[1]", ".//li/following-sibling::li"]:
        assert many(xp) == [select_nodes(eager, xp, r) for r in roots], xp


# ------------------------------------------------------------------ rendered shadow roots and frames

@pytest.mark.browser
@pytest.mark.parametrize("page", ["shadow.html", "frames.html"])
def test_fast_apply_equals_the_reference_through_shadow_roots_and_frames(page: str) -> None:
    from visx import extract
    from visx.config import Config, RenderConfig

    ex = extract(ROOT / "fixtures" / "render" / page, Config(render=RenderConfig(timeout_s=15.0)))
    assert ex.snapshot.nodes.xsteps  # the page crosses into another tree
    # shadow.html has slotted elements: the tree is read in lxml's order, not the table's.
    assert (from_snapshot(ex.snapshot.nodes).dom.orig is not None) is (page == "shadow.html")
    checked = 0
    for k, rg in enumerate(ex.regions[:4]):
        if not rg.records:
            continue
        t = learn(ex, k)
        assert differences(ex.snapshot, t) == [], (page, k)
        assert xpath_differences(ex.snapshot, t) == [], (page, k)
        assert holder_differences(ex.snapshot, t) == [], (page, k)
        checked += 1
    assert checked


def _random_paths(rng: random.Random, tags: list[str], classes: list[str], ids: list[str], k: int) -> list[str]:
    """Paths of the native grammar, steps and predicates in random order and number."""
    out = []
    for _ in range(k):
        steps = []
        for _ in range(rng.randint(1, 4)):
            axis = rng.choice(["/", "//", "/", "/following-sibling::"])
            step = axis + rng.choice([*tags, "*", "*"])
            for _ in range(rng.choice([0, 0, 1, 1, 2])):
                kind = rng.choice(["pos", "pos", "cls", "id"])
                if kind == "pos":
                    step += f"[{rng.randint(1, 3)}]"
                elif kind == "cls" and classes:
                    step += f"[contains(concat(' ', normalize-space(@class), ' '), ' {rng.choice(classes)} ')]"
                elif ids:
                    step += f"[@id='{rng.choice(ids)}']"
            steps.append(step)
        body = "".join(steps)
        out.append(rng.choice(["", "."]) + body if not body.startswith("/following") else "." + body)
    return out


@pytest.mark.parametrize("where", ["hand-made", "slotted", "agoda"])
def test_random_paths_of_the_grammar_match_lxml(where: str) -> None:
    if where == "agoda":
        nodes = load_snapshot(AGODA / "chinese-recreation" / "snapshot.json.gz").nodes
    else:
        nodes = _page(where == "slotted")
    lazy, eager = from_snapshot(nodes), from_snapshot(nodes, native=False)
    tags = [*sorted({n.tag for n in nodes.nodes if ":" not in n.tag})[:12], "visx-shadow-root", "#document"]
    classes = sorted({c for n in nodes.nodes for c in n.classes if c.isidentifier()})[:12]
    ids = sorted({n.id for n in nodes.nodes if n.id.isidentifier()})[:6]
    rng = random.Random(13)
    contexts = [None, *rng.sample(range(len(nodes)), min(12, len(nodes)))]
    for xp in _random_paths(rng, tags, classes, ids, 300):
        for ctx in contexts:
            assert _answer(lazy, xp, ctx) == _answer(eager, xp, ctx), (xp, ctx)
    assert not lazy.built
