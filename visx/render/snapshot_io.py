"""Columnar DOM <-> NodeTable, and snapshot files (``.json.gz``).

The browser returns the page as parallel arrays (see ``collect.js``); the
same columnar form is what a snapshot file stores, so saving and loading
are cheap and the file is validated with pydantic before use.
"""

from __future__ import annotations

import base64
import gzip
import json
import math
import operator
import os
import zlib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from visx.atomic import write_bytes
from visx.errors import SnapshotError
from visx.model import ATTR_NAMES, STYLE_PROPS, Node, NodeTable, PageSnapshot

FORMAT = "visx-snapshot"
VERSION = 1


class PageMeta(BaseModel):
    model_config = ConfigDict(extra="ignore")
    width: float
    height: float
    url: str
    title: str
    vw: int
    vh: int
    sx: float = 0.0
    sy: float = 0.0
    closed: int = 0
    """Closed shadow roots walked (``collect.js``)."""
    cut: str = ""
    """Why ``collect.js`` stopped before the end of the page (its element or time limit), if it did."""


class DomColumns(BaseModel):
    """The columnar page as ``collect.js`` returns it."""

    model_config = ConfigDict(extra="ignore")
    n: int
    parent: list[int]
    tag: list[int]
    tags: list[str]
    id: list[str]
    cls: list[str]
    text: list[str]
    tail: list[str]
    box: list[float]
    vis: list[int]
    sty: list[int]
    styles: list[list[str]]
    attrs: dict[str, list[int | str]]
    page: PageMeta
    scope: list[int] = []
    """Sparse ``node, SCOPE_* flags`` pairs (nodes of shadow trees and frames)."""
    xstep: list[int | str] = []
    """Sparse ``node, base node, step`` triples: explicit XPath steps (see ``visx.model``)."""
    step: list[int] = []
    """Sparse ``node, harvest step`` pairs (nodes first seen after the first view)."""
    frames: list[float] = []
    """``iframe node, x, y`` triples: where each frame's content box starts (capture only)."""

    @model_validator(mode="after")
    def _consistent(self) -> DomColumns:
        # Index checks run through builtins (min/max/map), not a Python loop
        # per element: validation must stay cheap for 50k-element pages.
        n = self.n
        for name in ("parent", "tag", "id", "cls", "text", "tail", "vis", "sty"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"column {name!r} has {len(getattr(self, name))} entries, expected {n}")
        if len(self.box) != 4 * n:
            raise ValueError("column 'box' must hold 4 numbers per element")
        # NaN and infinity are not JSON, but Python's json reads them: a box made of
        # them would sort, intersect and draw as garbage downstream, so it is refused.
        if not all(map(math.isfinite, self.box)):
            k = next(i for i, v in enumerate(self.box) if not math.isfinite(v))
            raise ValueError(f"element {k // 4} has a box value that is not a finite number ({self.box[k]}); "
                             "boxes must be finite")
        if not (math.isfinite(self.page.width) and math.isfinite(self.page.height)):
            raise ValueError("the page's width and height must be finite numbers")
        if any(len(s) != len(STYLE_PROPS) for s in self.styles):
            raise ValueError(f"every style tuple must hold {len(STYLE_PROPS)} properties")
        if n == 0:
            return self
        parent = self.parent
        if parent[0] != -1 or min(parent[1:], default=0) < 0 or any(map(operator.ge, parent, range(n))):
            raise ValueError("column 'parent': every element's parent must come before it (root first)")
        if min(self.tag) < 0 or max(self.tag) >= len(self.tags):
            raise ValueError("column 'tag': index out of range")
        if min(self.sty) < 0 or max(self.sty) >= len(self.styles):
            raise ValueError("column 'sty': index out of range")
        for name, flat in self.attrs.items():
            idx, vals = flat[0::2], flat[1::2]
            if len(idx) != len(vals) or not all(type(i) is int and 0 <= i < n for i in idx) \
                    or not all(type(v) is str for v in vals):
                raise ValueError(f"attrs {name!r}: expected element index, value pairs")
        for name in ("scope", "step"):
            flat = getattr(self, name)
            if len(flat) % 2 or not all(0 <= i < n for i in flat[0::2]):
                raise ValueError(f"column {name!r}: expected element index, value pairs")
        xs = self.xstep
        if len(xs) % 3 or not all(type(i) is int and 0 <= i < n for i in xs[0::3]) \
                or not all(type(b) is int and -1 <= b < n for b in xs[1::3]) \
                or not all(type(v) is str and v for v in xs[2::3]):
            raise ValueError("column 'xstep': expected element index, base index, step triples")
        return self


class SnapshotFile(BaseModel):
    model_config = ConfigDict(extra="ignore")
    format: Literal["visx-snapshot"]
    version: int
    source: str
    status: int
    javascript: bool
    timings: dict[str, float]
    partial: bool
    notes: list[str]
    created: str
    extra: dict[str, Any] = {}
    warnings: list[str] = []
    partial_reason: str = ""
    screenshot: str | None = None
    dom: DomColumns


def table_from_columns(dom: DomColumns) -> NodeTable:
    """Build the node table from validated columns."""
    attrs: dict[int, dict[str, str]] = {}
    for name, flat in dom.attrs.items():
        for i, v in zip(flat[0::2], flat[1::2], strict=True):
            attrs.setdefault(int(i), {})[name] = str(v)
    tags, box = dom.tags, dom.box
    # Positional arguments and one zip: this runs once per element (50k on big pages).
    nodes = [
        Node(i, p, tags[t], ident, tuple(c.split()) if c else (), attrs.get(i) or {}, text, tail,
             box[4 * i], box[4 * i + 1], box[4 * i + 2], box[4 * i + 3], vis, sty)
        for i, (p, t, ident, c, text, tail, vis, sty) in enumerate(
            zip(dom.parent, dom.tag, dom.id, dom.cls, dom.text, dom.tail, dom.vis, dom.sty, strict=True)
        )
    ]
    for i, flags in zip(dom.scope[0::2], dom.scope[1::2], strict=True):
        nodes[i].scope = flags
    if dom.step:
        for i, k in zip(dom.step[0::2], dom.step[1::2], strict=True):
            nodes[i].step = k
        for n in nodes:  # a row's step holds for everything inside it
            if not n.step and n.parent >= 0:
                n.step = nodes[n.parent].step
    xs = dom.xstep
    xsteps = {int(i): (int(b), str(v)) for i, b, v in zip(xs[0::3], xs[1::3], xs[2::3], strict=True)}
    return NodeTable(nodes, [tuple(s) for s in dom.styles], xsteps)


def columns_from_table(table: NodeTable, page: dict[str, Any]) -> dict[str, Any]:
    """The inverse of :func:`table_from_columns` (plain JSON-ready dict)."""
    tag_ids: dict[str, int] = {}
    tag_col: list[int] = []
    box: list[float] = []
    attrs: dict[str, list[int | str]] = {a: [] for a in ATTR_NAMES}
    for n in table.nodes:
        tag_col.append(tag_ids.setdefault(n.tag, len(tag_ids)))
        box.extend((n.x, n.y, n.w, n.h))
        for k, v in n.attrs.items():
            attrs.setdefault(k, []).extend((n.index, v))
    nodes = table.nodes
    return {
        "n": len(nodes),
        "parent": [n.parent for n in nodes],
        "tag": tag_col,
        "tags": list(tag_ids),
        "id": [n.id for n in nodes],
        "cls": [" ".join(n.classes) for n in nodes],
        "text": [n.text for n in nodes],
        "tail": [n.tail for n in nodes],
        "box": box,
        "vis": [n.vis for n in nodes],
        "sty": [n.style for n in nodes],
        "styles": [list(s) for s in table.styles],
        "attrs": attrs,
        "page": page,
        "scope": [v for n in nodes if n.scope for v in (n.index, n.scope)],
        "step": [v for n in nodes if n.step for v in (n.index, n.step)],
        "xstep": [v for i, (b, st) in sorted(table.xsteps.items()) for v in (i, b, st)],
    }


def snapshot_from_dom(
    dom_json: str | dict[str, Any],
    *,
    source: str,
    status: int,
    javascript: bool,
    timings: dict[str, float] | None = None,
    partial: bool = False,
    notes: list[str] | None = None,
    created: str = "",
    warnings: list[str] | None = None,
    partial_reason: str = "",
) -> PageSnapshot:
    try:
        # Straight from the JSON text: no intermediate Python objects.
        if isinstance(dom_json, str):
            dom = DomColumns.model_validate_json(dom_json)
        else:
            dom = DomColumns.model_validate(dom_json)
    except ValidationError:
        raw = json.loads(dom_json) if isinstance(dom_json, str) else dom_json
        if isinstance(raw, dict) and raw.get("n", 0) == 0:
            raise SnapshotError(f"{source}: the page has no document element", source=source) from None
        raise
    if dom.n == 0:
        raise SnapshotError(f"{source}: the page has no document element", source=source)
    cut = dom.page.cut
    snap = _snapshot(dom, source, status, javascript, timings or {}, partial or bool(cut), notes or [], created,
                     {}, None)
    snap.warnings = list(warnings or [])
    if cut:
        snap.warnings.append(f"{source}: the capture is partial: {cut}")
    reasons = [partial_reason or (reason_from_notes(snap.notes) if partial else ""), cut]
    snap.partial_reason = "; ".join(r for r in reasons if r)
    return snap


def reason_from_notes(notes: list[str]) -> str:
    """Why a capture is partial, from the render's notes (the ones that made it partial)."""
    keys = ("partial", "stopped", "not settled", "timed out", "refused")
    picked = [n for n in notes if any(k in n for k in keys)]
    return "; ".join(dict.fromkeys(picked)) or "the render did not finish (see the notes)"


def _snapshot(
    dom: DomColumns,
    source: str,
    status: int,
    javascript: bool,
    timings: dict[str, float],
    partial: bool,
    notes: list[str],
    created: str,
    extra: dict[str, Any],
    screenshot: bytes | None,
) -> PageSnapshot:
    page = dom.page
    return PageSnapshot(
        nodes=table_from_columns(dom),
        source=source,
        url=page.url,
        title=page.title,
        status=status,
        width=page.width,
        height=page.height,
        viewport=(page.vw, page.vh),
        javascript=javascript,
        timings=dict(timings),
        partial=partial,
        notes=list(notes),
        screenshot_png=screenshot,
        created=created,
        extra=dict(extra),
    )


def save_snapshot(snap: PageSnapshot, path: str | os.PathLike[str]) -> None:
    """Write ``snap`` atomically as gzip JSON."""
    page = {
        "width": snap.width,
        "height": snap.height,
        "url": snap.url,
        "title": snap.title,
        "vw": snap.viewport[0],
        "vh": snap.viewport[1],
    }
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "source": snap.source,
        "status": snap.status,
        "javascript": snap.javascript,
        "timings": snap.timings,
        "partial": snap.partial,
        "notes": snap.notes,
        "created": snap.created,
        "extra": snap.extra,
        "warnings": snap.warnings,
        "partial_reason": snap.partial_reason,
        "screenshot": base64.b64encode(snap.screenshot_png).decode() if snap.screenshot_png else None,
        "dom": columns_from_table(snap.nodes, page),
    }
    data = gzip.compress(json.dumps(doc, separators=(",", ":")).encode(), compresslevel=6, mtime=0)
    write_bytes(Path(path), data)


def load_snapshot(path: str | os.PathLike[str]) -> PageSnapshot:
    """Read and validate a snapshot written by :meth:`PageSnapshot.save`."""
    p = Path(path)
    try:
        blob = p.read_bytes()
    except OSError as e:
        raise SnapshotError(
            f"{p}: cannot read snapshot ({e.strerror}); check the path, or make one with "
            "`visx render SOURCE -o page.snapshot.json.gz`",
            source=str(p),
        ) from e
    try:
        text = gzip.decompress(blob) if blob[:2] == b"\x1f\x8b" else blob
        doc = json.loads(text)
    except (OSError, EOFError, zlib.error, ValueError, UnicodeDecodeError) as e:
        raise SnapshotError(
            f"{p}: not a visx snapshot (corrupt gzip or JSON: {e}); re-create it with `visx render`",
            source=str(p),
        ) from e
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SnapshotError(
            f"{p}: not a visx snapshot (no 'format: {FORMAT}' field); "
            "make one with `visx render SOURCE -o page.snapshot.json.gz`",
            source=str(p),
        )
    if doc.get("version") != VERSION:
        raise SnapshotError(
            f"{p}: snapshot format version {doc.get('version')!r} is not supported "
            f"(this visx reads version {VERSION}); re-render the page",
            source=str(p),
        )
    try:
        f = SnapshotFile.model_validate(doc)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise SnapshotError(
            f"{p}: invalid snapshot ({where}: {first['msg']}); re-create it with `visx render`",
            source=str(p),
        ) from e
    shot = base64.b64decode(f.screenshot) if f.screenshot else None
    snap = _snapshot(
        f.dom, f.source, f.status, f.javascript, f.timings, f.partial, f.notes, f.created, f.extra, shot
    )
    snap.warnings = list(f.warnings)
    snap.partial_reason = f.partial_reason or (reason_from_notes(f.notes) if f.partial else "")
    return snap
