"""Random pages through the stages after rendering (clean, mine, align, schema: ``analyse``).

Whatever the page, ``analyse`` returns an Extraction or raises a VisxError that
names the problem; never another exception (issue 14, section 3). Two sources of
pages: random HTML parsed by lxml and laid out as stacked blocks, and random
columnar snapshots whose boxes, texts and tree shapes are arbitrary.
"""

from __future__ import annotations

import math
from typing import Any

import lxml.html
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_columns import Builder

from visx.config import Config
from visx.errors import VisxError
from visx.pipeline import Extraction, analyse
from visx.render.snapshot_io import snapshot_from_dom

TAGS = ["div", "ul", "ol", "li", "a", "span", "p", "table", "tr", "td", "h2", "img", "section", "nav",
        "header", "footer", "br", "b", "article", "script", "style", "form", "input", "button"]
WORDS = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20) | st.sampled_from(
    ["Item", "$19.99", "2024-01-05", "Read more", "", "   ", "42", "€ 3,50", "a@b.example", "\u200b"])

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                    derandomize=True)


def _check(d: dict[str, Any]) -> None:
    try:
        snap = snapshot_from_dom(d, source="random", status=200, javascript=True)
        ex = analyse(snap, Config())
    except VisxError:
        return
    assert isinstance(ex, Extraction)
    for region in ex.regions:  # what was returned is usable: every record's values can be read
        assert len(region.records) >= 0


# -- random HTML, laid out as stacked blocks -----------------------------------

html_tree = st.recursive(
    WORDS.map(lambda t: t.replace("<", " ").replace("&", " ")),
    lambda kids: st.tuples(st.sampled_from(TAGS), st.lists(kids, max_size=6)).map(
        lambda tk: f"<{tk[0]}>{''.join(tk[1])}</{tk[0]}>"),
    max_leaves=60,
)


def _layout(root: Any) -> dict[str, Any]:
    """Columns of an lxml tree: each element a block below its previous sibling."""
    b = Builder()

    def walk(el: Any, parent: int, x: float, y: float, w: float) -> float:
        tag = el.tag if isinstance(el.tag, str) else "span"  # comments and processing instructions
        text = " ".join((el.text or "").split())
        h0 = 20.0 if text else 0.0
        i = b.add(parent, tag.lower(), text, box=(x, y, w, 0), href=el.get("href") or "")
        cy = y + h0
        for child in el:
            cy = walk(child, i, x + 10, cy, max(w - 20, 10))
        h = max(cy - y, 10.0)
        b.d["box"][4 * i + 3] = h
        return y + h

    height = walk(root, -1, 0, 0, 1000)
    b.d["page"]["height"] = max(height, 800)
    return b.d


@SETTINGS
@given(st.lists(html_tree, min_size=1, max_size=8))
def test_random_html_never_escapes_as_a_crash(parts: list[str]) -> None:
    doc = lxml.html.document_fromstring("<html><body>" + "".join(parts) + "</body></html>")
    _check(_layout(doc))


# -- random snapshots -----------------------------------------------------------

coord = st.floats(min_value=-5000, max_value=50000, allow_nan=False, allow_infinity=False)
size = st.floats(min_value=0, max_value=20000, allow_nan=False, allow_infinity=False)


@st.composite
def snapshots(draw: st.DrawFn) -> dict[str, Any]:
    b = Builder()
    n = draw(st.integers(min_value=1, max_value=120))
    b.add(-1, "html", box=(0, 0, 1000, 2000))
    for i in range(1, n):
        parent = draw(st.integers(min_value=0, max_value=i - 1))  # pre-order needs a parent before it
        parent = min(parent, i - 1)
        box = (draw(coord), draw(coord), draw(size), draw(size))
        j = b.add(parent, draw(st.sampled_from(TAGS)), draw(WORDS), box=box,
                  href=draw(st.sampled_from(["", "http://x/a", "/rel", "javascript:void(0)"])))
        b.d["vis"][j] = draw(st.sampled_from([0, 0, 0, 1]))
    _preorder(b.d)
    return b.d


def _preorder(d: dict[str, Any]) -> None:
    """Renumber nodes so every subtree is contiguous (collect.js emits pre-order)."""
    n = d["n"]
    kids: list[list[int]] = [[] for _ in range(n)]
    for i in range(1, n):
        kids[d["parent"][i]].append(i)
    order: list[int] = []
    stack = [0]
    while stack:
        i = stack.pop()
        order.append(i)
        stack.extend(reversed(kids[i]))
    new = {old: k for k, old in enumerate(order)}
    for col in ("tag", "id", "cls", "text", "tail", "vis", "sty"):
        d[col] = [d[col][i] for i in order]
    d["parent"] = [-1 if d["parent"][i] < 0 else new[d["parent"][i]] for i in order]
    d["box"] = [v for i in order for v in d["box"][4 * i: 4 * i + 4]]
    for name, flat in d["attrs"].items():
        d["attrs"][name] = [x for k in range(0, len(flat), 2) for x in (new[flat[k]], flat[k + 1])]
    assert all(math.isfinite(v) for v in d["box"])


@SETTINGS
@given(snapshots())
def test_random_snapshots_never_escape_as_a_crash(d: dict[str, Any]) -> None:
    _check(d)
