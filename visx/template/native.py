"""Templates run straight on the :class:`NodeTable`: the fast path of ``apply``.

:func:`visx.template.tree.from_snapshot` gives a tree whose lxml elements are only
built when something asks for them; applying a template does not, as long as its
XPaths are of the forms :mod:`visx.template.paths` writes:

- steps ``/tag``, ``//tag``, ``/*``, ``//*`` and ``/following-sibling::*`` (or a tag),
  from the document (``/html/...``) or from the record (``./...``, ``.//...``);
- predicates ``[@id='x']``, ``[contains(concat(' ', normalize-space(@class), ' '), ' c ')]``
  and positions ``[k]``, in any order and number;
- ``#shadow-root`` and ``#document`` steps, which are the names of the synthetic
  elements :func:`from_snapshot` puts between a host and its shadow root or a frame
  and its document.

:class:`Dom` evaluates them on the node table exactly as lxml evaluates them on that
tree: the same elements (synthetic wrappers included, and counted in ``*`` positions),
in document order, positions counted among the same siblings. Any other path (a
hand-edited one with ``text()``, ``or``, ``..``...) falls back to lxml on the tree,
built then, once. :class:`RootsSelector` walks a column's path from every record root
at once.

:class:`HolderItems` reads the items of one element of a record the way
:class:`visx.align.tree.TreeBuilder` does while building the whole record tree (the
same text runs, merges, links and own items), so a column's value is found without
building every record's tree. Templates with a list column keep the whole-tree path:
lists are found across all records (:func:`visx.align.tree.find_lists`).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from itertools import pairwise
from typing import TYPE_CHECKING

from visx.align import thresholds as ath
from visx.align.model import Item
from visx.align.tree import _SKIP_TAGS, PageCache, TreeBuilder, _links, _new_item, clean_text
from visx.model import (
    FRAME_STEP,
    NON_CONTENT_TAGS,
    SHADOW_STEP,
    STYLE_INDEX,
    Node,
    NodeTable,
    Record,
)

if TYPE_CHECKING:
    from visx.template.tree import PageTree

SHADOW_TAG = "visx-shadow-root"
FRAME_TAG = "visx-document"
UNKNOWN_TAG = "visx-unknown"
_BAD_XML_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
XML_NAME = re.compile(r"^[A-Za-z_][\w.\-]*$")
_DISPLAY = STYLE_INDEX["display"]
_BREAKS = frozenset({"br", "wbr"})
_XML_SPACE = re.compile("[ \t\r\n]+")
_ODD = re.compile("[ \t\r\n\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
"""What ``normalize-space`` or :func:`clean_xml` changes in a class name."""

# ------------------------------------------------------------------ parsing

CHILD, DESC, FSIB = 0, 1, 2
"""Axes: ``/`` (child), ``//`` (descendant-or-self::node()/child), ``/following-sibling::``."""

Pred = tuple[str, str | int]
"""``("id", value)``, ``("cls", needle)`` or ``("pos", k)``."""
Step = tuple[int, str, tuple[Pred, ...]]
"""(axis, name test or ``*``, predicates in order)."""
Path = tuple[bool, tuple[Step, ...], tuple[int, ...]]
"""(absolute, steps, prefix ids); a relative path starts at the context element. ``prefix
ids[k]`` names ``steps[:k + 1]`` (with ``absolute``) among every path parsed, so paths that
share a beginning share its result on a page (:meth:`Dom.evaluate`)."""

_LIT = r"""(?:'[^']*'|"[^"]*")"""
_STR = rf"(?:{_LIT}|concat\(\s*{_LIT}(?:\s*,\s*{_LIT})+\s*\))"
_TOKEN = re.compile(
    r"(?P<axis>//|/following-sibling::|/child::|/)"
    r"(?P<name>\*|[A-Za-z_][A-Za-z0-9_.\-]*)"
    r"(?P<preds>(?:\[[^\[\]]*\])*)")
_PRED_ID = re.compile(rf"^\[\s*@id\s*=\s*({_STR})\s*\]$")
_PRED_CLS = re.compile(
    rf"^\[\s*contains\(\s*concat\(\s*' '\s*,\s*normalize-space\(\s*@class\s*\)\s*,\s*' '\s*\)\s*,\s*({_STR})\s*\)\s*\]$")
_PRED_POS = re.compile(r"^\[\s*(\d{1,9})\s*\]$")
_PRED_SPLIT = re.compile(r"\[[^\[\]]*\]")
_AXES = {"//": DESC, "/following-sibling::": FSIB, "/child::": CHILD, "/": CHILD}
_PARSED: dict[str, Path | None] = {}
_PREFIXES: dict[tuple[int, Step], int] = {}
_NEXT_PREFIX = [0]
"""Prefix ids only grow: a page's results under an id stay valid when the tables are emptied."""


def _string(lit: str) -> str:
    if lit.startswith("concat("):
        return "".join(m[1:-1] for m in re.findall(_LIT, lit))
    return lit[1:-1]


def parse(xpath: str) -> Path | None:
    """The path in the grammar above (after :func:`to_lxml_path`), or None for lxml to run."""
    got = _PARSED.get(xpath, False)
    if got is not False:
        return got  # type: ignore[return-value]
    lxml_form = xpath.replace(SHADOW_STEP, SHADOW_TAG).replace(FRAME_STEP, FRAME_TAG)
    out = None if _BAD_XML_CHARS.search(lxml_form) else _parse(lxml_form)  # lxml refuses those
    if len(_PARSED) > 4096:
        _PARSED.clear()
        _PREFIXES.clear()
    _PARSED[xpath] = out
    return out


def _prefix_ids(absolute: bool, steps: tuple[Step, ...]) -> tuple[int, ...]:
    out = []
    pid = -2 if absolute else -1
    for st in steps:
        got = _PREFIXES.get((pid, st))
        if got is None:
            got = _PREFIXES[(pid, st)] = _NEXT_PREFIX[0]
            _NEXT_PREFIX[0] += 1
        out.append(got)
        pid = got
    return tuple(out)


def _parse(xp: str) -> Path | None:
    xp = xp.strip()
    if xp.startswith("."):
        absolute, rest = False, xp[1:]
        if rest and not rest.startswith("/"):
            return None  # "..", ".foo"
    elif xp.startswith("/"):
        absolute, rest = True, xp
        if rest == "/":
            return None
    else:
        absolute, rest = False, "/" + xp  # "div/a" is "./div/a"
    steps: list[Step] = []
    pos = 0
    while pos < len(rest):
        m = _TOKEN.match(rest, pos)
        if m is None:
            return None
        preds: list[Pred] = []
        raw = m.group("preds")
        for p in _PRED_SPLIT.findall(raw):
            if mm := _PRED_POS.match(p):
                preds.append(("pos", int(mm.group(1))))
            elif mm := _PRED_ID.match(p):
                preds.append(("id", _string(mm.group(1))))
            elif mm := _PRED_CLS.match(p):
                preds.append(("cls", _string(mm.group(1))))
            else:
                return None
        if "".join(_PRED_SPLIT.findall(raw)) != raw:
            return None
        steps.append((_AXES[m.group("axis")], m.group("name"), tuple(preds)))
        pos = m.end()
    if absolute and not steps:
        return None
    return absolute, tuple(steps), _prefix_ids(absolute, tuple(steps))


# ------------------------------------------------------------------ the tree as from_snapshot builds it

def clean_xml(value: str) -> str:
    return _BAD_XML_CHARS.sub("", value) if value else value


class _Element:
    """One element of a reordered tree (:meth:`Dom._reorder`), read as a :class:`Node`."""

    __slots__ = ("children", "classes", "end", "id", "index", "parent", "tag")

    def __init__(self, index: int, tag: str, id_: str, classes: tuple[str, ...]) -> None:
        self.index = index
        self.tag = tag
        self.id = id_
        self.classes = classes
        self.children: list[int] = []
        self.parent = -1
        self.end = index + 1


class Dom:
    """The element tree :func:`from_snapshot` builds, read from the node table.

    Mostly that tree is the table itself, in the same order: element ids are node indices,
    and the synthetic wrappers (a frame's document, a shadow root whose content is one run
    of its host's children) get ids from ``len(nodes)`` on. Where lxml's order differs (an
    element assigned to a slot sits under its host, after the shadow root), the tree is
    laid out again in lxml's order (:meth:`_reorder`) and ``orig`` maps its elements back
    to nodes. ``ok`` is False only for a table without a root first (lxml answers then).

    Per page, lazily: the elements with each tag, with each id, the class strings as lxml
    holds them, and every selection by (context, path prefix).
    """

    __slots__ = (
        "_by_tag",
        "_cls",
        "_dirty_ids",
        "_glob",
        "_ids",
        "_kids",
        "_lpar",
        "_memo",
        "_odd",
        "_simple",
        "_tag_index",
        "_wkey",
        "doc_end",
        "n",
        "nn",
        "ok",
        "orig",
        "pos_of",
        "w_host",
        "w_kids",
        "w_tag",
    )

    def __init__(self, nodes: NodeTable) -> None:
        nn = nodes.nodes
        self.nn = nn
        self.n = len(nn)
        self.ok = bool(nn) and nn[0].parent < 0
        self.doc_end = nn[0].end if nn else 0
        self._kids: dict[int, list[int]] = {}
        """Real elements whose tree children differ from their table children (hosts)."""
        self._lpar: dict[int, int] = {}
        """Real elements whose tree parent is a wrapper."""
        self.w_host: list[int] = []
        self.w_tag: list[str] = []
        self.w_kids: list[list[int]] = []
        self._wkey: list[float] = []
        self._ids: dict[str, list[int]] = {}
        self._dirty_ids: bool | None = None
        self._cls: dict[tuple[str, ...], str] = {}
        self._glob: dict[tuple[str, tuple[Pred, ...]], list[int]] = {}
        self._memo: dict[tuple[int, int], list[int]] = {}
        """(context or -1 for the document, prefix id) -> the elements selected."""
        self._tag_index: dict[str, list[int]] | None = None
        self._by_tag: dict[str, list[int]] = {}
        self._odd: dict[tuple[str, ...], bool] = {}
        self._simple: dict[str, bool] = {}
        self.orig: list[int] | None = None
        """Pages in another order than lxml's: element -> node (-1 for a wrapper)."""
        self.pos_of: list[int] = []
        """With ``orig``: node -> element (-1 when not in the document)."""
        if self.ok and nodes.xsteps:
            self._wrap(nodes)

    def _wrap(self, nodes: NodeTable) -> None:
        nn = nodes.nodes
        wrapped: dict[tuple[int, str], int] = {}
        for i in sorted(nodes.xsteps):
            base, step = nodes.xsteps[i]
            if not 0 <= base < i:
                continue  # from_snapshot puts it under its table parent
            first = step.split("/", 1)[0]
            if first not in (SHADOW_STEP, FRAME_STEP) or base != nn[i].parent:
                self._reorder(nodes)  # slotted, or moved to another element: lxml's order differs
                return
            tag = SHADOW_TAG if first == SHADOW_STEP else FRAME_TAG
            w = wrapped.get((base, tag))
            if w is None:
                w = wrapped[(base, tag)] = self.n + len(self.w_host)
                self.w_host.append(base)
                self.w_tag.append(tag)
                self.w_kids.append([])
                self._wkey.append(i - 0.5)
            self.w_kids[w - self.n].append(i)
            self._lpar[i] = w
        # A host's tree children: its table children with each wrapped block as its wrapper.
        for w, host in enumerate(self.w_host):
            wid = self.n + w
            kids = self._kids.get(host, nn[host].children)
            block = self.w_kids[w]
            at = [k for k, c in enumerate(kids) if c in block]
            if at != list(range(at[0], at[0] + len(block))):
                self._reorder(nodes)  # the wrapped children are not one run: lxml moves them
                return
            self._kids[host] = [*kids[:at[0]], wid, *kids[at[0] + len(block):]]

    def _reorder(self, nodes: NodeTable) -> None:
        """The tree in lxml's document order as a table of its own (wrappers as elements),
        for pages where it is not the node table's order; ``orig`` maps back."""
        nn = nodes.nodes
        n = len(nn)
        xsteps = nodes.xsteps
        kids: list[list[int]] = [[] for _ in nn]
        wrapped: dict[tuple[int, str], int] = {}
        w_tags: list[str] = []
        root = -1
        for node in nn:  # as from_snapshot appends elements (tree._parent_of)
            i = node.index
            got = xsteps.get(i)
            if got is None or not 0 <= got[0] < i:
                par = node.parent
            else:
                base, step = got
                first = step.split("/", 1)[0]
                if first not in (SHADOW_STEP, FRAME_STEP):
                    par = base
                else:
                    tag = SHADOW_TAG if first == SHADOW_STEP else FRAME_TAG
                    w = wrapped.get((base, tag))
                    if w is None:
                        w = wrapped[(base, tag)] = n + len(w_tags)
                        w_tags.append(tag)
                        kids.append([])
                        kids[base].append(w)
                    par = w
            if par < 0:
                if root < 0:
                    root = i
                continue
            kids[par].append(i)
        order: list[int] = []
        stack = [root]
        while stack:
            x = stack.pop()
            order.append(x)
            stack.extend(reversed(kids[x]))
        pos = [-1] * len(kids)
        for p, x in enumerate(order):
            pos[x] = p
        table: list[_Element] = []
        for p, x in enumerate(order):
            if x < n:
                node = nn[x]
                t = node.tag if XML_NAME.match(node.tag) and ":" not in node.tag else UNKNOWN_TAG
                el = _Element(p, t, node.id, node.classes)
            else:
                el = _Element(p, w_tags[x - n], "", ())
            el.children = [pos[k] for k in kids[x]]
            table.append(el)
        for el in table:
            for k in el.children:
                table[k].parent = el.index
        for el in reversed(table):
            el.end = table[el.children[-1]].end if el.children else el.index + 1
        self.nn = table  # type: ignore[assignment]
        self.n = len(table)
        self.doc_end = len(table)
        self.orig = [x if x < n else -1 for x in order]
        self.pos_of = pos[:n]
        self.w_host, self.w_tag, self.w_kids, self._wkey = [], [], [], []
        self._kids, self._lpar = {}, {}

    # -------------------------------------------------------------- structure

    def key(self, i: int) -> float:
        """Document order."""
        return i if i < self.n else self._wkey[i - self.n]

    def kids(self, i: int) -> list[int]:
        if i < self.n:
            got = self._kids.get(i)
            return got if got is not None else self.nn[i].children
        return self.w_kids[i - self.n]

    def parent(self, i: int) -> int:
        """Tree parent; -1 for the root (whose parent is the document)."""
        if i < self.n:
            got = self._lpar.get(i)
            return got if got is not None else self.nn[i].parent
        return self.w_host[i - self.n]

    def tag(self, i: int) -> str:
        if i < self.n:
            t = self.nn[i].tag
            return t if XML_NAME.match(t) and ":" not in t else UNKNOWN_TAG
        return self.w_tag[i - self.n]

    def _range(self, i: int | None) -> tuple[int, int]:
        """Real elements below ``i`` (None: the document, root included) as an index range."""
        if i is None:
            return 0, self.doc_end
        if i < self.n:
            return i + 1, self.nn[i].end
        kids = self.w_kids[i - self.n]
        return kids[0], self.nn[kids[-1]].end

    # -------------------------------------------------------------- tests

    def _id_of(self, i: int) -> str | None:
        if i >= self.n:
            return None
        v = self.nn[i].id
        return clean_xml(v) if v else None

    def _hay(self, i: int) -> str:
        """``concat(' ', normalize-space(@class), ' ')``."""
        if i >= self.n:
            return "  "
        cls = self.nn[i].classes
        got = self._cls.get(cls)
        if got is None:
            norm = " ".join(t for t in _XML_SPACE.split(clean_xml(" ".join(cls))) if t) if cls else ""
            got = self._cls[cls] = f" {norm} "
        return got

    def _keep(self, ids: list[int], p: Pred) -> list[int]:
        """The elements of ``ids`` that pass a non-positional predicate."""
        kind, value = p
        if kind == "id":
            return [i for i in ids if self._id_of(i) == value]
        assert isinstance(value, str)
        nn, n, hay = self.nn, self.n, self._hay
        token = value[1:-1]
        simple = self._simple.get(value)
        if simple is None:
            simple = self._simple[value] = len(value) > 2 and value[0] == " " and value[-1] == " " \
                and not _ODD.search(token)
        if not simple:
            return [i for i in ids if value in hay(i)]
        # ' c ' is in the class string when c is one of the classes as written, or when writing
        # them out (bad characters dropped, spaces normalised) makes it one; a wrapper has none.
        if self.w_host:
            ids = [i for i in ids if i < n]
        dirty = self._dirty
        if len(ids) > 16 and not any(dirty(c) for c in {nn[i].classes for i in ids}):
            return [i for i in ids if token in nn[i].classes]  # no odd class string among them
        return [i for i in ids if token in nn[i].classes or (dirty(nn[i].classes) and value in hay(i))]

    def _dirty(self, cls: tuple[str, ...]) -> bool:
        """The class string lxml holds is not the classes joined by single spaces."""
        got = self._odd.get(cls)
        if got is None:
            got = self._odd[cls] = any(not c or _ODD.search(c) for c in cls)
        return got

    def _filter(self, group: list[int], preds: tuple[Pred, ...]) -> list[int]:
        for p in preds:
            if not group:
                return group
            if p[0] == "pos":
                k = int(p[1])
                group = [group[k - 1]] if 1 <= k <= len(group) else []
            else:
                group = self._keep(group, p)
        return group

    def _named(self, ids: list[int], name: str) -> list[int]:
        if name == "*":
            return ids
        if name == UNKNOWN_TAG:
            return [i for i in ids if self.tag(i) == name]
        nn, n, w_tag = self.nn, self.n, self.w_tag
        if not w_tag:
            return [i for i in ids if nn[i].tag == name]
        return [i for i in ids if (nn[i].tag if i < n else w_tag[i - n]) == name]

    # -------------------------------------------------------------- evaluation

    def evaluate(self, path: Path, context: int | None) -> list[int]:
        """Element ids (wrappers included) the path selects from ``context``, in document order.

        Results are kept per (context, prefix) for the page: columns whose paths share a
        beginning walk it once per record. The list returned is shared: do not change it.
        """
        absolute, steps, pids = path
        if not self.ok:
            return []
        start = -1 if absolute or context is None else context
        memo = self._memo
        k = 0
        cur: list[int] | None = None
        while k < len(steps):
            got = memo.get((start, pids[k]))
            if got is None:
                break
            cur = got
            k += 1
        if cur is not None and (k == len(steps) or not cur):
            return cur
        if cur is None:
            if not steps:
                return [context] if context is not None and not absolute else []
            ctx: list[int | None] = [None if absolute else context]
        else:
            ctx = list(cur)
        for j in range(k, len(steps)):
            axis, name, preds = steps[j]
            if len(ctx) == 1:
                out = self._step(ctx[0], axis, name, preds)
            else:
                acc: list[int] = []
                for c in ctx:
                    acc.extend(self._step(c, axis, name, preds))
                out = sorted(set(acc), key=self.key) if acc else acc
            memo[(start, pids[j])] = out
            if not out:
                return out
            ctx = list(out)
        return out

    def evaluate_many(self, path: Path, roots: list[int], memo: dict[int, list[int]],
                      tagged: Callable[[str], list[int]] | None = None) -> list[list[int]]:
        """``[evaluate(path, r) for r in roots]`` for records' first elements (in document
        order, none inside another), walking each step once for all of them: the elements
        a path of child and descendant steps selects from a root lie in the root's subtree,
        so they are read off the union by range. ``memo`` keeps results per prefix for
        these roots. ``tagged(name)``: the real elements with tag ``name`` in document order,
        or only those inside the roots' subtrees (every element a step from them can reach;
        :meth:`scoped_tags`). Lists may be shared: do not change them."""
        absolute, steps, pids = path
        if not self.ok:
            return [[] for _ in roots]
        if absolute:
            return [self.evaluate(path, None)] * len(roots)
        if not steps:
            return [[r] for r in roots]
        if not roots or any(st[0] == FSIB for st in steps):
            return [self.evaluate(path, r) for r in roots]
        k = 0
        cur: list[int] | None = None
        while k < len(steps):
            seen = memo.get(pids[k])
            if seen is None:
                break
            cur = seen
            k += 1
        if cur is None:
            cur = roots
        for j in range(k, len(steps)):
            if cur:
                axis, name, preds = steps[j]
                cur = self._child_many(cur, name, preds) if axis == CHILD \
                    else self._desc_many(cur, name, preds, tagged or self._tagged)
            memo[pids[j]] = cur
        return self._partition(cur, roots)

    def _nested(self, ctx: list[int]) -> bool:
        """Some element of ``ctx`` (in document order) lies inside an earlier one."""
        nn, n = self.nn, self.n
        mx = -1.0
        for c in ctx:
            if c < n:
                if c < mx:
                    return True
                e = nn[c].end
            else:
                if self._wkey[c - n] < mx:
                    return True
                e = nn[self.w_kids[c - n][-1]].end
            if e > mx:
                mx = e
        return False

    def _child_many(self, ctx: list[int], name: str, preds: tuple[Pred, ...]) -> list[int]:
        if any(p[0] == "pos" for p in preds):
            out: list[int] = []
            for c in ctx:
                out.extend(self._filter(self._named(self.kids(c), name), preds))
        else:
            kids: list[int] = []
            for c in ctx:
                kids.extend(self.kids(c))
            out = self._filter(self._named(kids, name), preds)
        if len(ctx) > 1 and out and self._nested(ctx):
            out.sort(key=self.key)
        return out

    def _desc_many(self, ctx: list[int], name: str, preds: tuple[Pred, ...],
                   tagged: Callable[[str], list[int]]) -> list[int]:
        if len(ctx) == 1:
            return self._descendants(ctx[0], name, preds, tagged)
        first_pos = next((k for k, p in enumerate(preds) if p[0] == "pos"), len(preds))
        head = preds[:first_pos]
        by_id = bool(head) and head[0][0] == "id"
        plain = not by_id and name != "*" and name not in (SHADOW_TAG, FRAME_TAG, UNKNOWN_TAG)
        cands: list[int] = []
        if plain and not self.w_host:
            every = tagged(name)
            nn = self.nn
            for c in ctx:
                cands.extend(every[bisect_left(every, c + 1):bisect_left(every, nn[c].end)])
        else:
            idval = str(head[0][1]) if by_id else None
            for c in ctx:
                cands.extend(self._desc_base(c, name, idval, tagged))
        if cands and self._nested(ctx):
            cands = sorted(set(cands), key=self.key)
        for p in head[1:] if by_id else head:
            cands = self._keep(cands, p)
        return self._positions(cands, preds[first_pos:])

    def _positions(self, cands: list[int], rest: tuple[Pred, ...]) -> list[int]:
        """Predicates from the first position on, applied among the siblings of each parent."""
        if not rest or not cands:
            return cands
        groups: dict[int, list[int]] = {}
        for i in cands:
            groups.setdefault(self.parent(i), []).append(i)
        out: list[int] = []
        for g in groups.values():
            out.extend(self._filter(g, rest))
        out.sort(key=self.key)
        return out

    def _partition(self, got: list[int], roots: list[int]) -> list[list[int]]:
        """``got`` (in document order, each inside one root's subtree) cut per root."""
        nn = self.nn
        out: list[list[int]] = []
        i = 0
        if not self.w_host:
            for r in roots:
                j = bisect_left(got, nn[r].end, i)
                out.append(got[i:j])
                i = j
            return out
        keys = [self.key(x) for x in got]
        for r in roots:
            j = bisect_left(keys, nn[r].end, i)
            out.append(got[i:j])
            i = j
        return out

    def _step(self, c: int | None, axis: int, name: str, preds: tuple[Pred, ...]) -> list[int]:
        if axis == CHILD:
            kids = [0] if c is None else self.kids(c)
            return self._filter(self._named(kids, name), preds)
        if axis == FSIB:
            if c is None:
                return []
            p = self.parent(c)
            if p < 0:
                return []
            sibs = self.kids(p)
            return self._filter(self._named(sibs[sibs.index(c) + 1:], name), preds)
        return self._descendants(c, name, preds)

    def _matches(self, name: str, head: tuple[Pred, ...]) -> list[int]:
        """Real elements of the page with tag ``name`` passing the predicates ``head`` (no
        positions among them), in document order; once per page."""
        key = (name, head)
        got = self._glob.get(key)
        if got is not None:
            return got
        if head and head[0][0] == "id":
            cands = self._named(self._with_id(str(head[0][1])), name)
            head = head[1:]
        elif name == "*":
            cands = list(range(self.doc_end))
        elif name in (SHADOW_TAG, FRAME_TAG) and self.orig is None:  # wrappers are apart
            cands = []
        elif name == UNKNOWN_TAG:
            cands = [i for i in range(self.doc_end) if self.tag(i) == name]
        else:
            cands = self._tagged(name)
        for p in head:
            cands = self._keep(cands, p)
        self._glob[key] = cands
        return cands

    def _tagged(self, name: str) -> list[int]:
        """The real elements with tag ``name``, in document order (a scan for the first few
        tags asked for, then an index of all)."""
        idx = self._tag_index
        if idx is not None:
            return idx.get(name, [])
        got = self._by_tag.get(name)
        if got is None:
            if self._by_tag:
                return self._tags().get(name, [])
            nn = self.nn if self.doc_end == len(self.nn) else self.nn[:self.doc_end]
            got = self._by_tag[name] = [i for i, n in enumerate(nn) if n.tag == name]
        return got

    def _tags(self) -> dict[str, list[int]]:
        """Tag -> the real elements with it, in document order."""
        if self._tag_index is None:
            idx: dict[str, list[int]] = {}
            for i, n in enumerate(self.nn[:self.doc_end]):
                got = idx.get(n.tag)
                if got is None:
                    idx[n.tag] = [i]
                else:
                    got.append(i)
            self._tag_index = idx
        return self._tag_index

    def scoped_tags(self, roots: list[int]) -> Callable[[str], list[int]]:
        """``tagged`` for :meth:`evaluate_many` over ``roots`` (real elements in document order,
        none inside another): the elements of the roots' subtrees by tag, indexed on first use.
        Records are mostly a small part of the page: a column's steps need not scan all of it."""
        if self.w_host:
            return self._tagged  # wrappers are not in the table's ranges
        idx: dict[str, list[int]] = {}
        built = False

        def tagged(name: str) -> list[int]:
            nonlocal built
            if not built:
                nn = self.nn
                for r in roots:
                    for i in range(r, nn[r].end):
                        t = nn[i].tag
                        got = idx.get(t)
                        if got is None:
                            idx[t] = [i]
                        else:
                            got.append(i)
                built = True
            return idx.get(name, _EMPTY)

        return tagged

    def _descendants(self, c: int | None, name: str, preds: tuple[Pred, ...],
                     tagged: Callable[[str], list[int]] | None = None) -> list[int]:
        first_pos = next((k for k, p in enumerate(preds) if p[0] == "pos"), len(preds))
        head = preds[:first_pos]
        by_id = bool(head) and head[0][0] == "id"
        if c is None:
            cands = self._matches(name, head)  # the whole page: once per (name, predicates)
            if self.w_host and (name == "*" or name in (SHADOW_TAG, FRAME_TAG)) and not by_id:
                ws = self._named([self.n + w for w, h in enumerate(self.w_host) if h < self.doc_end], name)
                for p in head:
                    ws = self._keep(ws, p)
                if ws:
                    cands = sorted(cands + ws, key=self.key)
        else:
            cands = self._desc_base(c, name, str(head[0][1]) if by_id else None, tagged or self._tagged)
            for p in head[1:] if by_id else head:
                cands = self._keep(cands, p)
        return self._positions(cands, preds[first_pos:])

    def _desc_base(self, c: int, name: str, idval: str | None,
                   tagged: Callable[[str], list[int]] | None = None) -> list[int]:
        """Elements below ``c`` with tag ``name`` (and id ``idval``), in document order
        (``tagged``: as :meth:`evaluate_many` takes it, covering ``c``'s subtree)."""
        lo, hi = self._range(c)
        n = self.n
        if idval is not None:
            every = self._with_id(idval)
            return self._named(every[bisect_left(every, lo):bisect_left(every, hi)], name)  # a wrapper has no id
        if name == "*":
            cands = list(range(lo, hi))
        elif name in (SHADOW_TAG, FRAME_TAG) and self.orig is None:  # wrappers are apart
            cands = []
        elif name == UNKNOWN_TAG:
            cands = [i for i in range(lo, hi) if self.tag(i) == name]
        else:
            every = (tagged or self._tagged)(name)
            return every[bisect_left(every, lo):bisect_left(every, hi)]
        if self.w_host:
            # A wrapper is below ``c`` when its host is ``c`` or below it.
            wl = c if c < n else lo
            ws = self._named([n + w for w, h in enumerate(self.w_host) if wl <= h < hi], name)
            if ws:
                cands = sorted(cands + ws, key=self.key)
        return cands

    def _with_id(self, value: str) -> list[int]:
        """Real elements whose ``id`` attribute (as lxml holds it) is ``value``, in document order."""
        got = self._ids.get(value)
        if got is None:
            nn = self.nn if self.doc_end == len(self.nn) else self.nn[:self.doc_end]
            if self._dirty_ids is None:
                self._dirty_ids = bool(_BAD_XML_CHARS.search("".join([n.id for n in nn if n.id])))
            if self._dirty_ids:
                got = [i for i, n in enumerate(nn) if n.id and clean_xml(n.id) == value]
            else:
                got = [i for i, n in enumerate(nn) if n.id == value] if value else []
            self._ids[value] = got
        return got

    def next_siblings(self, i: int) -> list[int]:
        """Tree siblings after ``i`` (wrappers included)."""
        p = self.parent(i)
        if p < 0:
            return []
        sibs = self.kids(p)
        return sibs[sibs.index(i) + 1:]


Selector = Callable[[int | None], list[int]]
_EMPTY: list[int] = []


def _own(dom: Dom, node: int) -> int:
    """The element of node ``node`` in ``dom``; -1 when lxml must answer (a node outside the
    document, whose paths lxml reads in a tree of its own)."""
    if dom.orig is not None:
        return dom.pos_of[node]
    return node if 0 <= node < dom.doc_end else -1


def _nodes(dom: Dom, got: list[int]) -> list[int]:
    """Elements back as node indices, wrappers left out (may be ``got`` itself)."""
    if dom.orig is not None:
        orig = dom.orig
        return [orig[p] for p in got if orig[p] >= 0]
    if dom.w_host:
        n = dom.n
        return [i for i in got if i < n]
    return got


def selector(tree: PageTree, xpath: str) -> Selector:
    """``select_nodes(tree, xpath, context)`` as a function of the context, parsed once.
    Its lists may be shared: do not change them."""
    dom = tree.dom if tree.native else None
    path = parse(xpath) if dom is not None and dom.ok else None
    if dom is None or path is None:
        return lambda c: _lxml_select(tree, xpath, c)

    def run(c: int | None) -> list[int]:
        if c is None:  # the document for an absolute path, else the root element, as lxml reads it
            return _nodes(dom, dom.evaluate(path, None if path[0] else 0))
        own = _own(dom, c)
        if own < 0:
            return _lxml_select(tree, xpath, c)
        return _nodes(dom, dom.evaluate(path, own))

    return run


class RootsSelector:
    """Per XPath, what it selects from each of a run's record roots (node indices)."""

    __slots__ = ("_memo", "_own", "_tagged", "dom", "roots", "tree")

    def __init__(self, tree: PageTree, roots: list[int]) -> None:
        self.tree = tree
        self.roots = roots
        dom = tree.dom if tree.native else None
        self.dom = dom if dom is not None and dom.ok else None
        self._memo: dict[int, list[int]] = {}
        self._own: list[int] | None = None
        if self.dom is not None:
            mine = [_own(self.dom, r) for r in roots]
            # At once only for roots in the document, in its order, none inside another.
            if all(o >= 0 for o in mine) and all(a < b for a, b in pairwise(mine)) \
                    and not self.dom._nested(mine):
                self._own = mine
        self._tagged = self.dom.scoped_tags(self._own) if self.dom is not None and self._own is not None else None

    def __call__(self, xpath: str) -> list[list[int]]:
        dom = self.dom
        path = parse(xpath) if dom is not None else None
        if dom is None or path is None:
            return [_lxml_select(self.tree, xpath, r) for r in self.roots]
        if self._own is None:
            sel = selector(self.tree, xpath)
            return [sel(r) for r in self.roots]
        return [_nodes(dom, g) for g in dom.evaluate_many(path, self._own, self._memo, self._tagged)]


def _lxml_select(tree: PageTree, xpath: str, context: int | None) -> list[int]:
    ctx_el = tree.root if context is None else tree.elements[context]
    index = tree.index
    out = []
    for el in tree.select(xpath, ctx_el):
        i = index.get(el)
        if i is not None:
            out.append(i)
    return out


def select_nodes(tree: PageTree, xpath: str, context: int | None) -> list[int]:
    """Node indices a visx XPath selects from node ``context`` (None: the document), in
    document order, wrappers left out: on the node table when it can, else by lxml."""
    return list(selector(tree, xpath)(context))


def next_siblings(tree: PageTree, i: int) -> list[int]:
    """Node indices of the tree siblings after node ``i`` (synthetic wrappers left out)."""
    dom = tree.dom if tree.native else None
    own = _own(dom, i) if dom is not None and dom.ok else -1
    if dom is not None and own >= 0:
        return _nodes(dom, dom.next_siblings(own))
    out = []
    index = tree.index
    sib = tree.elements[i].getnext()
    while sib is not None:
        j = index.get(sib)
        if j is not None:
            out.append(j)
        sib = sib.getnext()
    return out


# ------------------------------------------------------------------ items of one element

class HolderItems:
    """The items one element of a record holds, as :func:`record_items` gives them
    (without lists), read for that element alone.

    The element's items depend on the path down to it from its record part (each
    ancestor visible, not merged into its parent's text, within the depth limit; the
    nearest link) and on its own content (its text runs and their merged children,
    whether any child yields a tree node); nothing else of the record.
    """

    __slots__ = ("_items", "_leaves", "_own", "_runs_of", "_state", "builder", "nn", "nodes")

    def __init__(self, nodes: NodeTable) -> None:
        self.nodes = nodes
        self.nn = nodes.nodes
        self.builder = TreeBuilder(PageCache(nodes))
        self._items: dict[int, dict[int, list[Item]]] = {}
        """part -> element -> its items."""
        self._leaves: dict[int, dict[int, list[Item]]] = {}
        """part -> element -> its text items."""
        self._own: dict[int, dict[int, Item | None]] = {}
        """part -> element -> its own item (image, link, label attribute, stars)."""
        self._state: dict[int, dict[int, tuple[int, str] | None]] = {}
        """part -> element -> (depth, href) when the builder reaches the element, else None."""
        self._runs_of: dict[int, list[tuple[str, str | None]]] = {}
        """element -> :meth:`_runs` (the same wherever the element is reached from)."""

    def _part(self, record: Record, node: int) -> int:
        """The record part holding ``node``; -1 when none does."""
        nn = self.nn
        parts = record.parts
        p0 = parts[0]
        if p0 <= node < nn[p0].end:
            return p0
        return next((p for p in parts if p <= node < nn[p].end), -1)

    def items(self, record: Record, node: int) -> list[Item]:
        part = self._part(record, node)
        if part < 0:
            return []
        done = self._items.get(part)
        if done is None:
            done = self._items[part] = {}
        items = done.get(node)
        if items is None:
            st = self._reach(part, node)
            if st is None:
                items = []
            else:
                own = self._own_of(node, *st)
                leaves = self._leaves_of(node, *st)
                items = [own, *leaves] if own is not None else leaves
            done[node] = items
        return items

    def of_kind(self, record: Record, node: int, kind: str) -> list[Item]:
        """``[it for it in items(record, node) if it.kind == kind]``, reading only what that
        kind needs: a text item is one of the element's text leaves, any other kind its own
        item (an element has at most one)."""
        part = self._part(record, node)
        if part < 0:
            return []
        if kind == "text":
            leaves = self._leaves.get(part)
            if leaves is None:
                leaves = self._leaves[part] = {}
            got = leaves.get(node)
            if got is None:
                st = self._reach(part, node)
                got = leaves[node] = [] if st is None else self._leaves_of(node, *st)
            return got
        owns = self._own.get(part)
        if owns is None:
            owns = self._own[part] = {}
        if node in owns:
            it = owns[node]
        else:
            st = self._reach(part, node)
            it = owns[node] = None if st is None else self._own_of(node, *st)
        return [it] if it is not None and it.kind == kind else []

    def _reach(self, part: int, e: int) -> tuple[int, str] | None:
        """(depth, href) where the builder reaches ``e`` from record part ``part``, else None."""
        state = self._state.get(part)
        if state is None:
            state = self._state[part] = {}
        got = state.get(e, False)
        if got is not False:
            return got  # type: ignore[return-value]
        nn = self.nn
        styles = self.nodes.styles
        chain = [e]
        x = e
        while x != part:
            x = nn[x].parent
            if x in state:
                break
            chain.append(x)
        chain.reverse()
        up: tuple[int, str] | None = state.get(x) if chain[0] != part else None
        for y in chain:
            n = nn[y]
            if y == part:
                out = None if n.vis or n.tag in _SKIP_TAGS else (0, "")
            else:
                out = None
                if up is not None and not n.vis and n.tag not in _SKIP_TAGS:
                    depth, href = up
                    pn = nn[n.parent]
                    if depth < ath.MAX_DEPTH:
                        if pn.tag == "a" and pn.attrs.get("href"):
                            href = pn.attrs["href"]
                        # Only an inline child (or a line break) can run on in its parent's text.
                        if (styles[n.style][_DISPLAY] != "inline" and n.tag not in _BREAKS) \
                                or not (_has_own_text(nn, pn) and y in self._merge(pn)):
                            out = (depth + 1, href)
            state[y] = out
            up = out
        return up

    def _merge(self, n: Node) -> frozenset[int]:
        b = self.builder
        got = b.merged.get(n.index)
        if got is None:
            got = b.merged[n.index] = b._mergeable(n)
        return got

    def _leaves_of(self, e: int, depth: int, href: str) -> list[Item]:
        """The element's text leaves, in the builder's order (what follows its own item)."""
        nn = self.nn
        n = nn[e]
        if n.tag == "a":
            h = n.attrs.get("href")
            if h:
                href = h
        leaves: list[Item] = []
        if n.children and depth < ath.MAX_DEPTH:
            if _has_own_text(nn, n):
                for raw, link in self._runs(n):
                    text = clean_text(raw)
                    if text:
                        leaves.append(_new_item(Item, ("text", text, e, link if link is not None else href, "", (), (), (), None)))
        else:
            raw = n.text
            if raw and not raw.isspace():
                text = clean_text(raw)
                if text:
                    leaves.append(_new_item(Item, ("text", text, e, href, "", (), (), (), None)))
        return leaves

    def _own_of(self, e: int, depth: int, href: str) -> Item | None:
        """The element's own item (first of its items), as the builder makes it."""
        nn = self.nn
        n = nn[e]
        if n.tag == "a":
            h = n.attrs.get("href")
            if h:
                href = h
        b = self.builder
        if n.tag == "img":
            return b._own_item(e, href, has_data=True)  # an image's item is the same with data or not
        children = n.children
        if children and depth < ath.MAX_DEPTH:
            if _has_own_text(nn, n):
                kids = any(clean_text(raw) for raw, _ in self._runs(n)) \
                    or any(self._yields(c, depth + 1) for c in self._visited(n))
            else:
                kids = any(self._yields(c, depth + 1) for c in children
                           if not nn[c].vis and nn[c].tag not in _SKIP_TAGS)
        else:
            raw = n.text
            kids = bool(raw and not raw.isspace() and clean_text(raw))
        if kids or (not n.classes and not n.attrs and n.tag != "a"):
            return None
        return b._own_item(e, href, has_data=False)

    def _visited(self, n: Node) -> list[int]:
        """Children of a mixed element the builder walks into (not merged, shown)."""
        merge = self._merge(n)
        nn = self.nn
        return [c for c in n.children if c not in merge and not nn[c].vis and nn[c].tag not in _SKIP_TAGS]

    def _runs(self, n: Node) -> list[tuple[str, str | None]]:
        """The text runs of a mixed element that become leaves: (raw text, the merged link
        when exactly one, else None), as ``TreeBuilder._mixed`` flushes them."""
        got = self._runs_of.get(n.index)
        if got is None:
            got = self._runs_of[n.index] = self._read_runs(n)
        return got

    def _read_runs(self, n: Node) -> list[tuple[str, str | None]]:
        nn = self.nn
        b = self.builder
        merge = self._merge(n)
        out: list[tuple[str, str | None]] = []
        run = [n.text]
        links: set[str] = set()

        def flush() -> None:
            raw = "".join(run) if len(run) > 1 else (run[0] if run else "")
            if raw and not raw.isspace():
                out.append((raw, next(iter(links)) if len(links) == 1 else None))

        for c in n.children:
            cn = nn[c]
            if merge and c in merge:
                run.append(b._raw_text(c))
                links.update(_links(nn, c))
                run.append(cn.tail)
                continue
            if not cn.vis and cn.tag not in _SKIP_TAGS:
                if any(run):
                    flush()
                    run, links = [], set()
                else:
                    run = []
            if cn.tag == "br":
                run.append(" ")
            if cn.tail:
                run.append(cn.tail)
        if any(run):
            flush()
        return out

    def _yields(self, e: int, depth: int) -> bool:
        """The builder makes a tree node for element ``e`` (``_element`` returns >= 0)."""
        nn = self.nn
        n = nn[e]
        children = n.children
        if children and depth < ath.MAX_DEPTH:
            if _has_own_text(nn, n):
                if any(clean_text(raw) for raw, _ in self._runs(n)):
                    return True
                if any(self._yields(c, depth + 1) for c in self._visited(n)):
                    return True
            elif any(self._yields(c, depth + 1) for c in children
                     if not nn[c].vis and nn[c].tag not in _SKIP_TAGS):
                return True
        else:
            raw = n.text
            if raw and not raw.isspace() and clean_text(raw):
                return True
        if not n.classes and not n.attrs and n.tag != "img" and n.tag != "a":
            return False
        return self.builder._own_item(e, "", has_data=False) is not None


def _has_own_text(nn: list[Node], n: Node) -> bool:
    """Text of its own before, between or after its children (``TreeBuilder._element``'s test)."""
    raw = n.text
    if raw and not raw.isspace():
        return True
    for c in n.children:
        raw = nn[c].tail
        if raw and not raw.isspace():
            return True
    return False


def subtree_text(nodes: NodeTable, i: int) -> str:
    """``nodes.text(i)`` in one pass over the subtree's index range (the same string)."""
    nn = nodes.nodes
    n = nn[i]
    if n.tag in NON_CONTENT_TAGS:
        return ""
    out: list[str] = []
    if n.text:
        out.append(n.text)
    end = n.end
    open_: list[Node] = []
    j = i + 1
    while j < end:
        m = nn[j]
        while open_ and open_[-1].end <= j:
            tail = open_.pop().tail
            if tail:
                out.append(tail)
        if m.vis or m.tag in NON_CONTENT_TAGS:
            if m.tail:
                out.append(m.tail)
            j = m.end
            continue
        if m.text:
            out.append(m.text)
        open_.append(m)
        j += 1
    while open_:
        tail = open_.pop().tail
        if tail:
            out.append(tail)
    return " ".join([" ".join(p.split()) for p in out if p and not p.isspace()])
