"""``learn_template`` and ``apply_template``: the template API (``visx learn``, ``visx apply``)."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from visx.config import Config
from visx.errors import RepairError, TemplateError, TemplateMismatchError
from visx.model import PageSnapshot
from visx.template import thresholds as th
from visx.template.apply import Problem, Run, build_extraction, check_types, run_template
from visx.template.learn import learn
from visx.template.match import explain, site_of, url_similarity
from visx.template.model import Template, load_template
from visx.template.tree import PageTree, from_snapshot
from visx.template.verify import verify

if TYPE_CHECKING:
    from visx.pipeline import Extraction

log = logging.getLogger("visx.template")


@dataclass(slots=True)
class Applied:
    """What applying a template gave: the extraction, and the template as it now stands."""

    extraction: Extraction
    template: Template
    """The template used; a repaired copy (version bumped) when ``repaired``."""
    similarity: float = 1.0
    """Seed 001's R(w, m) between the page's URL and the template's."""
    problems: list[Problem] = field(default_factory=list)
    """What the template no longer found before any repair."""
    repaired: bool = False
    changes: list[str] = field(default_factory=list)
    """The repair as readable lines ("column 'price': ./div[2]/span -> .//span[...]")."""
    confidence: float = 1.0
    """The repair's confidence (0..1): the weakest of its steps; 1.0 when nothing was repaired."""

    def diff(self) -> str:
        """The repair as a readable diff (empty when nothing was looked for)."""
        if not self.changes:
            return ""
        if not self.repaired:
            return "\n".join(["template not repaired:", *(f"  {c}" for c in self.changes)])
        head = (f"template repaired: version {self.template.version - 1} -> {self.template.version}, "
                f"confidence {self.confidence:.2f}")
        return "\n".join([head, *(f"  {c}" for c in self.changes)])


def learn_template(source: str | Path | PageSnapshot, config: Config | None = None, *, region: int | None = None,
                   hint: str | None = None, example: str | None = None) -> Template:
    """Extract ``source`` and learn a template for its main list, or the list chosen by ``region``
    (rank), ``hint`` (CSS or XPath of an element inside it) or ``example`` (text of a record or
    of one of its values). Raises :class:`visx.TemplateError` when there is nothing to learn."""
    from visx.pipeline import extract

    ex = extract(source, config)
    return learn_from(ex, region=region, hint=hint, example=example)


def learn_from(ex: Extraction, *, region: int | None = None, hint: str | None = None,
               example: str | None = None) -> Template:
    """:func:`learn_template` on an extraction already made."""
    k = 0
    if region is not None or hint is not None or example is not None:
        from visx.choose import choose_region

        chosen = choose_region(ex, region=region, hint=hint, example=example)
        k = next(i for i, rg in enumerate(ex.regions) if rg is chosen)
    return learn(ex, k)


def load_templates(template: Template | str | Path | list[Template] | None = None,
                   templates_dir: str | Path | None = None) -> list[Template]:
    """Templates from objects, files, or every ``*.json`` of a folder (a broken file is an error)."""
    out: list[Template] = []
    items = template if isinstance(template, list) else ([template] if template is not None else [])
    for t in items:
        out.append(t if isinstance(t, Template) else load_template(t))
    if templates_dir is not None:
        out.extend(load_template(f) for f in template_files(templates_dir))
    if not out:
        raise TemplateError("no template given: pass --template FILE or --templates DIR")
    return out


def template_files(templates_dir: str | Path) -> list[Path]:
    """The ``*.json`` files of a template folder, sorted; an error naming the folder when it is
    not one or holds none."""
    d = Path(templates_dir)
    if not d.is_dir():
        raise TemplateError(f"{d}: not a folder of templates; pass a folder that holds *.json "
                            "templates written by `visx learn`", source=str(d))
    files = sorted(d.glob("*.json"))
    if not files:
        raise TemplateError(f"{d}: no *.json template in this folder; write one with "
                            f"`visx learn SOURCE -o {d}/site.template.json`", source=str(d))
    return files


def apply_template(source: str | Path | PageSnapshot, template: Template | str | Path | list[Template] | None = None,
                   config: Config | None = None, *, templates_dir: str | Path | None = None,
                   static: bool = False, repair: bool = True, strict: bool = True,
                   min_similarity: float = th.MIN_SIMILARITY, javascript: bool | None = None) -> Applied:
    """Extract ``source`` with a template: records and columns by XPath, no mining.

    Templates are matched by site and URL similarity (seed 001's R > ``min_similarity``), most
    similar first; the first that finds every item wins. When none does, the most similar one is
    repaired (``repair``): re-mined and mapped, or searched by its rules. ``static`` reads the page's
    HTML without a browser (plain HTTP or the file). ``javascript`` overrides the template's own
    setting for the render. With ``strict`` a repair that cannot find a column raises
    :class:`visx.RepairError` naming it; without, the result carries a warning.
    """
    cfg = config or Config()
    pool = load_templates(template, templates_dir)
    if static:
        snapshot, tree = _static_page(source, cfg)
    else:
        from visx.pipeline import load_or_render

        if isinstance(source, PageSnapshot):
            snapshot = source  # nothing to render: no render config to copy
        else:
            js = javascript if javascript is not None else pool[0].javascript
            rcfg = cfg if cfg.render.javascript == js else cfg.model_copy(
                update={"render": cfg.render.model_copy(update={"javascript": js})})
            snapshot = load_or_render(source, rcfg)
        t1 = time.perf_counter()
        tree = from_snapshot(snapshot.nodes)
        snapshot.timings["tree"] = round(time.perf_counter() - t1, 4)
    if snapshot.url in ("", "about:blank"):
        fits = [(1.0, t) for t in pool]  # HTML text has no address to compare: every template may fit
    else:
        fits = _candidates(snapshot.url, pool, min_similarity)
    if not fits:
        raise TemplateMismatchError(
            f"{snapshot.source}: no template fits this page ({explain(snapshot.url, pool)}); learn one "
            f"with `visx learn`, or lower --min-similarity (now {min_similarity:g})", source=snapshot.source)
    tried: list[tuple[float, Template, Extraction, list[Problem], Run]] = []
    for r, t in fits:
        ex, problems, run = _run(snapshot, tree, t, cfg)
        if not problems:
            return Applied(ex, t, r)
        tried.append((r, t, ex, problems, run))
    r, t, ex, problems, run = tried[0]
    what = "; ".join(str(p) for p in problems)
    if not repair:
        if strict:
            raise TemplateError(f"{snapshot.source}: the template no longer fits: {what}; run again with "
                                "repair on (the default) to find them again", source=snapshot.source)
        ex.warnings.append(f"{snapshot.source}: the template no longer fits: {what}")
        return Applied(ex, t, r, problems)
    return _repaired(snapshot, tree, t, r, problems, run, cfg, static=static, strict=strict)


def _candidates(url: str, pool: list[Template], min_similarity: float) -> list[tuple[float, Template]]:
    """:func:`candidates`, each URL parsed once (an apply on every page of a batch asks again)."""
    site = _site(url)
    got = [(_similarity(url, t.url), t) for t in pool if _site(t.url) == site]
    return sorted(((r, t) for r, t in got if r > min_similarity), key=lambda rt: -rt[0])


_site = lru_cache(maxsize=1024)(site_of)
_similarity = lru_cache(maxsize=4096)(url_similarity)


def _run(snapshot: PageSnapshot, tree: PageTree, t: Template,
         cfg: Config) -> tuple[Extraction, list[Problem], Run]:
    """Apply ``t``: the extraction, its problems (one per item), and the run for a repair, whose
    problems are those found on the items (the built table's type check is not the repair's)."""
    t1 = time.perf_counter()
    run = run_template(tree, t)
    verify(run, t)
    found = list(run.problems)
    ex = build_extraction(snapshot, t, run, cfg, dict(snapshot.timings))
    check_types(ex.tables[0], t, run.problems)
    ex.timings["apply"] = round(time.perf_counter() - t1, 4)
    first: dict[str, Problem] = {}
    for p in run.problems:
        first.setdefault(p.item, p)  # one problem per item: the first found says most
    run.problems = found
    return ex, list(first.values()), run


def _repaired(snapshot: PageSnapshot, tree: PageTree, t: Template, r: float, problems: list[Problem],
              run: Run, cfg: Config, *, static: bool, strict: bool) -> Applied:
    from visx.template.repair import repair as do_repair

    t1 = time.perf_counter()
    fixed = do_repair(snapshot, tree, t, run, cfg)
    failed = sorted(set(fixed.failed) | {p.item for p in fixed.run.problems if p.kind in FAILED_KINDS})
    _blank(fixed.run, fixed.template, failed)  # a column not found again gives no values, not wrong ones
    core = {c.name for c in fixed.template.columns if not c.hidden and c.fill >= th.CORE_FILL} | {"records"}
    ex = build_extraction(snapshot, fixed.template, fixed.run, cfg, dict(snapshot.timings))
    ex.timings["repair"] = round(time.perf_counter() - t1, 4)
    what = "; ".join(str(p) for p in problems)
    if failed:
        hint = " (a page read with --static has no layout to re-mine: run without --static)" if static else ""
        msg = (f"{snapshot.source}: the template no longer fits ({what}) and repair could not find "
               f"{', '.join(repr(f) for f in failed)} again{hint}")
        vital = [f for f in failed if f in core]
        if vital and (strict or "records" in failed):
            # Optional columns (filled in under CORE_FILL of the records when learned) may well be
            # absent from a page: a warning, not an error.
            raise RepairError(msg, source=snapshot.source, column=vital[0])
        ex.warnings.append(msg)
    applied = Applied(ex, fixed.template, r, problems, bool(fixed.changes), fixed.changes + fixed.misses,
                      fixed.confidence)
    if fixed.changes:
        ex.warnings.append(f"{snapshot.source}: {what}; " + applied.diff().replace("\n  ", "; "))
        log.warning("%s: %s", snapshot.source, applied.diff())
    return applied


FAILED_KINDS = ("missing", "empty", "mistyped", "clash")
"""Problems that, still there after a repair, make it a failed one."""


def _blank(run: Run, t: Template, names: list[str]) -> None:
    for k, col in enumerate(t.columns):
        if col.name in names:
            run.items[k] = [None] * len(run.records)


# ------------------------------------------------------------------ --static

def _static_page(source: str | Path | PageSnapshot, cfg: Config) -> tuple[PageSnapshot, PageTree]:
    from visx.pipeline import is_snapshot_path, load_or_render
    from visx.template.fetch import fetch_html

    if isinstance(source, PageSnapshot) or is_snapshot_path(source):
        snap = load_or_render(source, cfg)  # a saved snapshot already holds the page: no browser
        return snap, from_snapshot(snap.nodes)
    t0 = time.perf_counter()
    page = fetch_html(str(source), cfg)
    t1 = time.perf_counter()
    tree = from_html(page.body, page.url)
    title = tree.root.findtext(".//title") or ""
    snap = PageSnapshot(nodes=tree.nodes, source=str(source), url=page.url, title=" ".join(title.split()),
                        status=page.status, width=0.0, height=0.0, viewport=(0, 0), javascript=False,
                        timings={"fetch": round(t1 - t0, 4), "tree": round(time.perf_counter() - t1, 4)},
                        extra={"static": True})
    return snap, tree


def from_html(body: bytes, url: str) -> PageTree:
    from visx.template.tree import from_html as build

    return build(body, url)
