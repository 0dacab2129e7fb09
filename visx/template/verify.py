"""Checks on a template's run that need the values: wrong types, and two columns on one element.

:func:`visx.template.apply.run_template` finds what is missing; these find what
is *wrong*: a fallback XPath (``.//span``) that now lands on another field's
element gives values of the wrong type, or the very items another column has.
"""

from __future__ import annotations

from visx.schema.entities import Context, parse_as
from visx.template import thresholds as th
from visx.template.apply import Problem, Run
from visx.template.model import Template

_UNTYPED = frozenset({"text", "image", "url"})


def verify(run: Run, t: Template) -> list[Problem]:
    """Add the mistyped and clashing columns to ``run.problems`` (once each); returns them all."""
    have = {(p.item, p.kind) for p in run.problems}
    for p in _mistyped(run, t) + _clashes(run, t):
        if (p.item, p.kind) not in have and not any(q.item == p.item for q in run.problems):
            run.problems.append(p)
            have.add((p.item, p.kind))
    return run.problems


def _mistyped(run: Run, t: Template) -> list[Problem]:
    out = []
    ctx = Context()
    for col, its in zip(t.columns, run.items, strict=True):
        if col.hidden or col.type in _UNTYPED or col.kind != "text" or col.fill < th.CHECK_MIN_FILL:
            continue
        texts = [it.text for it in its if it is not None]
        if not texts:
            continue
        need = th.MISTYPED * len(texts)
        ok = 0
        for x in texts:
            ok += _reads_as(x, col.type, ctx) or _labelled(x, col.type, ctx)
            if ok >= need:
                break  # enough read as the type: the rest cannot make it mistyped
        if ok < need:
            out.append(Problem(col.name, "mistyped", f"only {ok} of {len(texts)} value(s) read as {col.type} "
                                                     f"(e.g. {texts[0][:40]!r})"))
    return out


def _reads_as(text: str, type_name: str, ctx: Context) -> bool:
    """The value parses as the type; a price may be its amount alone (the schema joins a
    currency written in another element to it)."""
    if parse_as(type_name, text, ctx) is not None:
        return True
    return type_name == "price" and parse_as("number", text, ctx) is not None


def _labelled(text: str, type_name: str, ctx: Context) -> bool:
    """A value behind a label ("Price: $5"): the schema drops the label before typing."""
    head, sep, rest = text.partition(":")
    return bool(sep) and len(head) <= 30 and _reads_as(rest.strip(), type_name, ctx)


def _clashes(run: Run, t: Template) -> list[Problem]:
    """Two visible columns on the same item in most records: the one that reached it by a later
    (more general) XPath of its queue has lost its own element."""
    out: list[Problem] = []
    n = len(run.records)
    if not n:
        return out
    cols = [k for k, col in enumerate(t.columns) if not col.hidden]
    for i, a in enumerate(cols):
        for b in cols[i + 1:]:
            same = sum(1 for x, y in zip(run.items[a], run.items[b], strict=True)
                       if x is not None and y is not None and x.node == y.node and x.text == y.text)
            filled = max(1, min(sum(x is not None for x in run.items[a]), sum(y is not None for y in run.items[b])))
            if same <= th.CLASH * filled:
                continue
            ca, cb = t.columns[a], t.columns[b]
            ka = _queue_pos(ca.xpaths, run.column_xpaths[a])
            kb = _queue_pos(cb.xpaths, run.column_xpaths[b])
            loser = cb if kb >= ka else ca
            other = ca if loser is cb else cb
            out.append(Problem(loser.name, "clash", f"finds the same values as {other.name!r} in {same} "
                                                    f"record(s)"))
    return out


def _queue_pos(queue: list[str], xpath: str) -> int:
    return queue.index(xpath) if xpath in queue else len(queue)
