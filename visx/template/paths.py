"""Selectors a template stores: one step list, written as XPath and (where it can be) CSS.

A :class:`Step` is a tag (or ``*``), an optional class, an optional position
among same-tag siblings, and an axis (child ``/`` or descendant ``//``).
Writing both forms from the same steps keeps the portable CSS export
(:mod:`visx.template.portable`) equal to what the template runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from visx.template.tree import FRAME_TAG, SHADOW_TAG, SYNTHETIC, to_visx_path

_CSS_IDENT = re.compile(r"^-?[_a-zA-Z][_a-zA-Z0-9-]*$")
_VOLATILE = re.compile(r"\d{3,}|[0-9a-f]{8,}|^[a-z]{1,3}-[A-Za-z0-9]{5,}$|^css-|^sc-|^jsx-", re.I)
"""Ids and classes that look generated (long numbers, hashes, CSS-in-JS prefixes): a
selector built on them breaks on the next page or build, so they are not used."""


@dataclass(frozen=True, slots=True)
class Step:
    tag: str
    cls: str = ""
    pos: int = 0
    descendant: bool = False
    id: str = ""
    sib: int = 0
    """A step to the ``sib``-th following sibling (the later parts of a split record)."""

    def xpath(self) -> str:
        if self.sib:
            return f"/following-sibling::*[{self.sib}]"
        tag = to_visx_path(self.tag) if self.tag in SYNTHETIC else self.tag
        out = ("//" if self.descendant else "/") + tag
        if self.id:
            out += f"[@id={_xstr(self.id)}]"
        if self.cls:
            out += f"[contains(concat(' ', normalize-space(@class), ' '), {_xstr(' ' + self.cls + ' ')})]"
        if self.pos:
            out += f"[{self.pos}]"
        return out

    def css(self) -> str | None:
        if self.sib:
            return " + *" * self.sib
        if self.tag in SYNTHETIC:
            return None
        if self.tag != "*" and not _CSS_IDENT.match(self.tag):
            return None
        out = "" if self.tag == "*" and (self.cls or self.id) else self.tag
        if self.id:
            out += f'[id="{_css_str(self.id)}"]'
        if self.cls:
            if not _CSS_IDENT.match(self.cls):
                return None
            out += "." + self.cls
        if self.pos:
            if self.tag == "*":
                return None
            out += f":nth-of-type({self.pos})"
        return out


def _xstr(s: str) -> str:
    if "'" not in s:
        return f"'{s}'"
    if '"' not in s:
        return f'"{s}"'
    parts = s.split("'")
    return "concat(" + ", \"'\", ".join(f"'{p}'" for p in parts) + ")"


def _css_str(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


def xpath_of(steps: list[Step], *, absolute: bool) -> str:
    """The steps as an XPath: absolute (``/html/...``) or relative to a context (``./a/b``)."""
    body = "".join(s.xpath() for s in steps)
    if absolute:
        return body or "/"
    return "." + body if body else "."


def css_of(steps: list[Step], *, absolute: bool) -> str | None:
    """The steps as CSS (``:scope`` for a relative path), or None when CSS cannot say them."""
    out: list[str] = []
    for k, s in enumerate(steps):
        c = s.css()
        if c is None:
            return None
        if s.sib:
            if k or absolute:
                return None
            out.append(":scope" + c)
            continue
        if k:
            out.append(" " if s.descendant else " > ")
        elif not absolute and not s.descendant:
            out.append(":scope > ")
        out.append(c)
    if not out:
        return None if absolute else ":scope"
    return "".join(out)


def usable(name: str) -> bool:
    """An id or class name stable enough to select by."""
    return bool(name) and len(name) <= 60 and not _VOLATILE.search(name)


def position(el: etree._Element) -> tuple[int, int]:
    """``(k, n)``: the element is the k-th of the n siblings with its tag."""
    parent = el.getparent()
    if parent is None:
        return 1, 1
    k = n = 0
    for c in parent:
        if c.tag == el.tag:
            n += 1
            if c is el:
                k = n
    return k, n


def chain(el: etree._Element, top: etree._Element | None) -> list[etree._Element] | None:
    """Elements from below ``top`` down to ``el`` (``top`` excluded; None when ``top`` is
    not an ancestor). With ``top`` None, from the root down."""
    out: list[etree._Element] = []
    cur: etree._Element | None = el
    while cur is not None and cur is not top:
        out.append(cur)
        cur = cur.getparent()
    if top is not None and cur is None:
        return None
    out.reverse()
    return out


def exact_steps(els: list[etree._Element]) -> list[Step]:
    """Child steps with positions where a tag repeats: the path of one element."""
    out = []
    for e in els:
        k, n = position(e)
        out.append(Step(str(e.tag), pos=k if n > 1 else 0))
    return out


def loose_steps(els: list[etree._Element]) -> list[Step]:
    """Child steps without positions: every element along the same tag path."""
    return [Step(str(e.tag)) for e in els]


def classes_of(el: etree._Element) -> list[str]:
    return [c for c in (el.get("class") or "").split() if usable(c)]


def shared_classes(els: list[etree._Element], share: float) -> list[str]:
    """Classes held by at least ``share`` of the elements, most held first."""
    counts: dict[str, int] = {}
    for e in els:
        for c in set(classes_of(e)):
            counts[c] = counts.get(c, 0) + 1
    need = share * len(els)
    return [c for c, k in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])) if k >= need]


def is_synthetic(el: etree._Element) -> bool:
    return el.tag in (SHADOW_TAG, FRAME_TAG)
