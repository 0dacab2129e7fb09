"""Column names: header cells, labels inside records, class words, then type and role.

Priority, best evidence first: a table header cell above (or, for split
records, beside) the column; a label inside the records ("Price:", "Posted
by"); a field word in the class names of the value's own element; finally the
column's role (``title`` for the most prominent text) or type (``price``,
``date``, ``image``...). Names are snake_case and unique within a table.
"""

from __future__ import annotations

import functools
import re
import statistics
import unicodedata
from dataclasses import dataclass

from visx.model import NodeTable, Region
from visx.schema import thresholds as th


@dataclass(slots=True)
class ColumnFacts:
    """What naming needs to know about one column."""

    type: str
    kind: str
    label: str
    """Label text found inside the records, or ""."""
    holders: list[int]
    """Elements holding the column's values, one per filled record."""
    hidden: bool
    distinct: float
    fill: float
    flags: tuple[str, ...] = ()
    text: str = ""
    """A sample value (names a label column after its own text)."""


_NON_WORD = re.compile(r"[^\w]+")
_UNDERSCORES = re.compile(r"_+")


@functools.lru_cache(maxsize=4096)
def snake(text: str) -> str:
    """``"Posted by:"`` -> ``posted_by``; keeps letters of any script."""
    t = unicodedata.normalize("NFKC", text).strip().lower()
    t = _NON_WORD.sub("_", t).strip("_")
    t = _UNDERSCORES.sub("_", t)[: th.NAME_MAX_CHARS].strip("_")
    if t and t[0].isdigit():
        t = "c_" + t
    return t


def unique(names: list[str]) -> list[str]:
    """Suffix repeats with ``_2``, ``_3``... in column order."""
    seen: dict[str, int] = {}
    taken = set(names)
    out = []
    for n in names:
        k = seen.get(n, 0) + 1
        seen[n] = k
        if k == 1:
            out.append(n)
            continue
        cand = f"{n}_{k}"
        while cand in taken:
            k += 1
            cand = f"{n}_{k}"
        seen[n] = k
        taken.add(cand)
        out.append(cand)
    return out


def header_names(nodes: NodeTable, region: Region, facts: list[ColumnFacts]) -> list[str]:
    """Names from header cells matched by x-position (by y for split records)."""
    out = [""] * len(facts)
    table = _enclosing_table(nodes, region)
    if table < 0:
        return out
    covered = bytearray(nodes[table].end - table)
    for rec in region.records:
        for p in rec.parts:
            if table <= p < nodes[table].end:
                covered[p - table:nodes[p].end - table] = b"\x01" * (nodes[p].end - p)
    split = region.kind == "split"
    heads = []
    for i in range(table + 1, nodes[table].end):
        n = nodes[i]
        if covered[i - table] or n.vis or not n.w or not n.h:
            continue
        in_head = n.tag == "td" and any(nodes[a].tag == "thead" for a in nodes.ancestors(i)[:3])
        if n.tag in th.HEADER_TAGS or in_head or (split and n.tag == "td"):
            text = nodes.text(i)
            if text:
                heads.append((i, text))
    if not heads:
        return out
    for c, f in enumerate(facts):
        if not f.holders:
            continue
        boxes = [nodes[h] for h in f.holders]
        if split:
            centre = statistics.median(b.y + b.h / 2 for b in boxes)
            hits = [(nodes[i].h, t) for i, t in heads if nodes[i].y <= centre <= nodes[i].y + nodes[i].h
                    and nodes[i].x < min(b.x for b in boxes)]
        else:
            centre = statistics.median(b.x + b.w / 2 for b in boxes)
            hits = [(nodes[i].w, t) for i, t in heads if nodes[i].x <= centre <= nodes[i].x + nodes[i].w
                    and nodes[i].y < min(b.y for b in boxes)]
        if hits:
            out[c] = min(hits)[1]
    return out


def _enclosing_table(nodes: NodeTable, region: Region) -> int:
    i = region.parent
    for _ in range(4):
        if i < 0:
            return -1
        if nodes[i].tag == "table":
            return i
        i = nodes[i].parent
    return -1


_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def class_word(nodes: NodeTable, holders: list[int]) -> str:
    """A field word from the classes of the value's own element (or a wrapper of it alone)."""
    votes: dict[str, int] = {}
    for h in holders[:5]:
        e = h
        for _ in range(3):
            word = _word_of(nodes[e].classes)
            if word:
                votes[word] = votes.get(word, 0) + 1
                break
            # Climb only through wrappers of this value alone: one child, no text of their own.
            p = nodes[e].parent
            if p < 0 or len(nodes[p].children) != 1 or nodes[p].text.strip() or nodes[e].tail.strip():
                break
            e = p
    if not votes:
        return ""
    return max(votes, key=lambda w: votes[w])


_NON_ALPHA = re.compile(r"[^A-Za-z]+")


@functools.lru_cache(maxsize=4096)
def _word_of(classes: tuple[str, ...]) -> str:
    for cls in classes:
        for tok in _NON_ALPHA.split(_CAMEL.sub("_", cls)):
            w = th.CLASS_WORDS.get(tok.lower())
            if w:
                return w
    return ""


def prominence(nodes: NodeTable, holders: list[int], linked: bool) -> float:
    """Font size x boldness x link bonus of a column's values."""
    if not holders:
        return 0.0
    sizes, bold = [], 0
    for h in holders[:10]:
        try:
            sizes.append(float(nodes.style(h, "font-size").removesuffix("px")))
        except ValueError:
            sizes.append(0.0)
        w = nodes.style(h, "font-weight")
        bold += (w.isdigit() and int(w) >= 600) or w == "bold"
    score = statistics.median(sizes)
    if bold * 2 >= len(sizes):
        score *= th.TITLE_BOLD_BONUS
    if linked:
        score *= th.TITLE_LINK_BONUS
    return score


def name_columns(nodes: NodeTable, region: Region, facts: list[ColumnFacts],
                 linked: list[bool]) -> list[tuple[str, str]]:
    """(name, source) per column, unique, snake_case."""
    heads = header_names(nodes, region, facts)
    title = _title_column(nodes, facts, linked)
    raw: list[tuple[str, str]] = []
    for c, f in enumerate(facts):
        label = snake(f.label)
        label = th.BY_LABELS.get(label, label)
        if "label" in f.flags:
            raw.append((f"{snake(f.text) or 'label'}_label", "label"))
        elif "constant" in f.flags and snake(f.text):
            raw.append((snake(f.text), "text"))
        elif snake(heads[c]):
            raw.append((snake(heads[c]), "header"))
        elif label:
            raw.append((label, "label"))
        elif (w := class_word(nodes, f.holders)) and not f.hidden:
            raw.append((w, "class"))
        elif c == title:
            raw.append(("title", "role"))
        elif f.kind == "list":
            raw.append(("list", "type"))
        else:
            raw.append((th.TYPE_NAMES.get(f.type, "text"), "type"))
    names = unique([n for n, _ in raw])
    return [(n, s) for n, (_, s) in zip(names, raw, strict=True)]


def _title_column(nodes: NodeTable, facts: list[ColumnFacts], linked: list[bool]) -> int:
    best, best_score = -1, 0.0
    for c, f in enumerate(facts):
        if (f.hidden or f.type != "text" or f.kind not in ("text", "attr")
                or f.fill < th.TITLE_MIN_FILL or f.distinct < th.TITLE_MIN_DISTINCT):
            continue
        s = prominence(nodes, f.holders, linked[c])
        if s > best_score:
            best, best_score = c, s
    return best
