"""Checks that the fast ``apply`` path gives exactly the reference implementation's results.

The fast path (:mod:`visx.template.native`: XPath on the node table, items read per
element) must not change what a template finds. :func:`differences` applies one
template to one page three ways and lists every difference:

- fast: ``from_snapshot(nodes)`` (lazy tree) and ``run_template(tree, t)``;
- lxml: ``from_snapshot(nodes, native=False)`` with the fast item reading (the
  combination ``--static`` uses, where the tree comes from the raw HTML);
- reference: ``run_template(tree, t, reference=True)`` on the eager tree, the first
  implementation (lxml XPath, every record's tree built), its table built by the schema
  stage's whole ``build_table`` (the fast ones by :func:`visx.template.build.build_light`).

Compared: record parts, text and boxes, the XPaths used, every item, the problems,
every record's holders (what repair reads), and the extraction built from the run
(``to_records(all_columns=True)``, columns, warnings). :func:`xpath_differences` also
compares every XPath of the template's queues, and a few other path forms, between
the node table and lxml, and :func:`holder_differences` every element's items.

Used by ``tests/test_template_speed_equiv.py`` and ``scripts/bench_templates.py --verify``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from visx.config import Config
from visx.model import PageSnapshot
from visx.template.model import Template

if TYPE_CHECKING:
    from visx.template.apply import Run
    from visx.template.tree import PageTree

EXTRA_PATHS = ("//*", "//*[2]", "//div[1]", "//a[2]", "/html/body/*[2]", "/html/*", "//*[1]/*[2]", "//li[3]/a",
               "//visx-document/*", "//#document/html", "//*[@id='main']", "//span[@id='x'][1]",
               "//div[contains(concat(' ', normalize-space(@class), ' '), ' item ')][2]")
"""Absolute paths of the grammar beyond what learning writes, tried on every page."""
EXTRA_RELATIVE = (".", "./*", "./*[2]", ".//*", ".//*[3]", ".//a", ".//a[1]", "./following-sibling::*[1]",
                  "./following-sibling::*[2]/*[1]", ".//div/span[2]", "./*[1]//*[1]", "./..", "./text()")
"""Relative paths tried from each record root (the last two fall back to lxml)."""


def differences(snapshot: PageSnapshot, t: Template, cfg: Config | None = None) -> list[str]:
    """Every way the fast and lxml runs differ from the reference on this page ([] when none)."""
    from visx.template.apply import run_template
    from visx.template.tree import from_snapshot

    cfg = cfg or Config()
    eager = from_snapshot(snapshot.nodes, native=False)
    ref = _outcome(snapshot, t, cfg, run_template(eager, t, reference=True), full=True)
    out: list[str] = []
    lazy = from_snapshot(snapshot.nodes)
    for label, tree in (("fast", lazy), ("lxml", from_snapshot(snapshot.nodes, native=False))):
        got = _outcome(snapshot, t, cfg, run_template(tree, t))
        for key, value in ref.items():
            if got[key] != value:
                out.append(f"{label}: {key} differs: {_first_diff(got[key], value)}")
    if lazy.built:
        out.append("fast: the lxml tree was built (a path fell back to lxml)")
    return out


def _outcome(snapshot: PageSnapshot, t: Template, cfg: Config, run: Run, *, full: bool = False) -> dict[str, Any]:
    from visx.template.apply import build_extraction, check_types
    from visx.template.verify import verify

    verify(run, t)
    ex = build_extraction(snapshot, t, run, cfg, {}, full=full)
    check_types(ex.tables[0], t, run.problems)
    table = ex.tables[0]
    return {
        "records": [(r.parts, r.text, r.bbox) for r in run.records],
        "roots": run.roots,
        "record_xpath": run.record_xpath,
        "column_xpaths": run.column_xpaths,
        "items": run.items,
        "problems": [(p.item, p.kind, p.detail) for p in run.problems],
        "dropped": run.dropped,
        "held": run.held,
        "rows": ex.to_records(all_columns=True),
        "columns": [(c.name, c.type, c.fill, c.flags, c.source) for c in table.columns],
        "warnings": (table.warnings, ex.warnings),
        "region": (ex.regions[0].parent, ex.regions[0].bbox),
    }


def _first_diff(a: object, b: object) -> str:
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{len(a)} vs {len(b)} entries"
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return f"[{k}]: {str(x)[:200]} vs {str(y)[:200]}"
    return f"{str(a)[:200]} vs {str(b)[:200]}"


def xpath_differences(snapshot: PageSnapshot, t: Template, roots: list[int] | None = None) -> list[str]:
    """Every XPath of the template (and :data:`EXTRA_PATHS`) on the node table against lxml."""
    from visx.template.native import select_nodes
    from visx.template.tree import from_snapshot

    lazy = from_snapshot(snapshot.nodes)
    eager = from_snapshot(snapshot.nodes, native=False)
    out: list[str] = []
    for xp in [*t.records.xpaths, *EXTRA_PATHS, *_id_paths(eager)]:
        a, b = select_nodes(lazy, xp, None), select_nodes(eager, xp, None)
        if a != b:
            out.append(f"{xp}: {_first_diff(a, b)}")
    if roots is None:
        roots = select_nodes(eager, t.records.xpaths[0], None) if t.records.xpaths else []
    rel = [xp for col in t.columns for xp in col.xpaths] + list(EXTRA_RELATIVE)
    for root in roots[:40]:
        for xp in rel:
            a, b = select_nodes(lazy, xp, root), select_nodes(eager, xp, root)
            if a != b:
                out.append(f"{xp} from node {root}: {_first_diff(a, b)}")
    return out


def _id_paths(tree: PageTree) -> list[str]:
    ids = [n.id for n in tree.nodes.nodes if n.id and "'" not in n.id][:3]
    return [f"//*[@id='{i}']" for i in ids] + [f"//*[@id='{i}']/*[2]" for i in ids]


def holder_differences(snapshot: PageSnapshot, t: Template) -> list[str]:
    """Every element's items read alone against the whole record trees (records of the first
    record XPath that finds any)."""
    from visx.template.items import record_items
    from visx.template.native import HolderItems, select_nodes
    from visx.template.tree import from_snapshot

    tree = from_snapshot(snapshot.nodes)
    roots: list[int] = []
    for xp in t.records.xpaths:
        roots = select_nodes(tree, xp, None)
        if roots:
            break
    from visx.template.apply import _record

    records = [_record(tree, i, t.records.parts) for i in roots]
    full = record_items(snapshot.nodes, records, lists=False)
    reader = HolderItems(snapshot.nodes)
    out: list[str] = []
    for rec, held in zip(records, full, strict=True):
        for p in rec.parts:
            for node in range(p, snapshot.nodes[p].end):
                got = reader.items(rec, node)
                want = held.get(node, [])
                if got != want:
                    out.append(f"node {node} of record {rec.parts}: {got} vs {want}")
    return out


def static_differences(html: str | bytes, url: str, t: Template, cfg: Config | None = None) -> list[str]:
    """:func:`differences` for ``--static``: the raw HTML's tree, XPaths on its node table and
    items read per element, against the reference (lxml XPath, whole record trees) on the
    same HTML."""
    from visx.template.apply import run_template
    from visx.template.tree import from_html

    cfg = cfg or Config()
    tree = from_html(html, url, native=False)
    snap = PageSnapshot(nodes=tree.nodes, source=url, url=url, title="", status=200, width=0.0, height=0.0,
                        viewport=(0, 0), javascript=False, extra={"static": True})
    ref = _outcome(snap, t, cfg, run_template(tree, t, reference=True), full=True)
    fast = from_html(html, url)
    snap_fast = PageSnapshot(nodes=fast.nodes, source=url, url=url, title="", status=200, width=0.0, height=0.0,
                             viewport=(0, 0), javascript=False, extra={"static": True})
    got = _outcome(snap_fast, t, cfg, run_template(fast, t))
    return [f"static: {key} differs: {_first_diff(got[key], value)}" for key, value in ref.items()
            if got[key] != value]
