"""Measure learned templates on the dev testbed (issue 13, section 7).

``sites``: for each site, learn a template on one of its pages and apply it to
its other pages (every page takes a turn as the learned one), scored against
the gold records beside a full extraction of the same pages.

``redesign``: learn on each original dev page, then apply (and repair) on the
same page changed as a redesign changes it (``scripts/redesign.py`` writes the
changed pages, one folder per kind of change). Reports records and cells per
kind of change, how often repair ran and how often each gold field keeps its
column name, beside re-mining the changed page without a template.

    .venv/bin/python scripts/eval_templates.py sites ../shared/testbed/dev
    .venv/bin/python scripts/redesign.py ../shared/testbed/dev --out /tmp/redesign
    .venv/bin/python scripts/eval_templates.py redesign ../shared/testbed/dev /tmp/redesign
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from visx.config import Config
from visx.evaluate.cache import get_snapshot
from visx.evaluate.dataset import Page, load_dataset
from visx.evaluate.report import summarize, summary_table
from visx.evaluate.runner import PageResult, eval_config, evaluate_page
from visx.pipeline import Extraction, analyse
from visx.template import Template, apply_template, learn_from

Analyse = Callable[[Any, Config], Extraction]


def _learn(page: Page, cache: Path, cfg: Config) -> Template | None:
    try:
        snap = get_snapshot(page, cache, cfg)
        return learn_from(analyse(snap, cfg))
    except Exception as e:  # a page that cannot be learned is counted, not fatal
        print(f"  learn failed on {page.id}: {type(e).__name__}: {e}", file=sys.stderr)
        return None


class _Applier:
    """``analyse`` for the evaluator: the template applied (and repaired), with what happened kept."""

    def __init__(self, t: Template) -> None:
        self.t = t
        self.repaired = False
        self.failed = ""
        self.seconds = 0.0

    def __call__(self, snap: Any, cfg: Config) -> Extraction:
        t0 = time.perf_counter()
        try:
            res = apply_template(snap, self.t, cfg, strict=False, min_similarity=0.0)
        except Exception as e:
            self.failed = f"{type(e).__name__}: {e}"
            raise
        finally:
            self.seconds = time.perf_counter() - t0
        self.repaired = res.repaired
        return res.extraction


def _print(label: str, results: list[PageResult]) -> dict[str, Any]:
    s = summarize(results)
    print(summary_table(s, label))
    return s.as_dict()


def run_sites(args: argparse.Namespace) -> int:
    cfg = eval_config()
    pages = load_dataset(args.dataset, pages=args.pages)
    by_site: dict[str, list[Page]] = defaultdict(list)
    for p in pages:
        by_site[p.id.split("/")[0]].append(p)
    cache = Path(args.cache)
    full: list[PageResult] = []
    tmpl: list[PageResult] = []
    repaired = failed = 0
    apply_s: list[float] = []
    for _site, group in sorted(by_site.items()):
        group.sort(key=lambda p: p.id)
        if len(group) < 2:
            continue
        learners = group if args.rotate else group[:1]
        for learned in learners:
            t = _learn(learned, cache, cfg)
            for page in group:
                if page is learned:
                    continue
                full.append(evaluate_page(page, cache, cfg, analyse))
                if t is None:
                    r = evaluate_page(page, cache, cfg, _fail)
                    failed += 1
                else:
                    ap = _Applier(t)
                    r = evaluate_page(page, cache, cfg, ap)
                    repaired += ap.repaired
                    failed += bool(ap.failed)
                    apply_s.append(ap.seconds)
                tmpl.append(r)
                if args.verbose:
                    print(f"{learned.id} -> {page.id}: records F1 {r.score.top.f1:.3f} (full "
                          f"{full[-1].score.top.f1:.3f}), cells {r.fields.score.f1:.3f}"
                          f"{' repaired' if t is not None and ap.repaired else ''} {r.error}")
    out = {"full": _print("full extraction of the same pages", full),
           "template": _print("template learned on another page of the site", tmpl),
           "applications": len(tmpl), "repaired": repaired, "failed": failed,
           "apply_median_ms": round(statistics.median(apply_s) * 1000, 2) if apply_s else None}
    print(f"applications {len(tmpl)}, repaired {repaired}, failed {failed}, "
          f"apply median {out['apply_median_ms']} ms")
    _write(args, out)
    return 0


def _fail(snap: Any, cfg: Config) -> Extraction:
    raise RuntimeError("no template: learning failed on the site's other page")


def run_redesign(args: argparse.Namespace) -> int:
    cfg = eval_config()
    cache = Path(args.cache)
    changed_root = Path(args.changed)
    changes = [c for c in args.changes.split(",") if (changed_root / c).is_dir()]
    out: dict[str, Any] = {}
    for change in changes:
        pages = load_dataset(changed_root / change, pages=args.pages)
        originals = {p.id: p for p in load_dataset(args.dataset, pages=args.pages)}
        ccache = Path(args.changed_cache) / change
        tmpl: list[PageResult] = []
        remine: list[PageResult] = []
        kept = kept_base = total = total_base = 0
        repaired = failed = 0
        for page in pages:
            orig = originals.get(page.id)
            if orig is None:
                continue
            t = _learn(orig, cache, cfg)
            base = evaluate_page(orig, cache, cfg, analyse)
            if t is None:
                continue
            learned_names = _names(evaluate_page(orig, cache, cfg, _Applier(t)))
            ap = _Applier(t)
            r = evaluate_page(page, ccache, cfg, ap)
            tmpl.append(r)
            repaired += ap.repaired
            failed += bool(ap.failed)
            k, n = _same_names(learned_names, _names(r))
            kept, total = kept + k, total + n
            rm = evaluate_page(page, ccache, cfg, analyse)
            remine.append(rm)
            k, n = _same_names(_names(base), _names(rm))
            kept_base, total_base = kept_base + k, total_base + n
            if args.verbose:
                print(f"{change} {page.id}: records {r.score.top.f1:.3f} (re-mined {rm.score.top.f1:.3f}) "
                      f"cells {r.fields.score.f1:.3f}{' repaired' if ap.repaired else ''} {ap.failed[:100]}")
        print(f"\n== {change}: {len(tmpl)} page(s), repaired {repaired}, failed {failed}")
        out[change] = {
            "template": _print(f"{change}: template (repaired where needed)", tmpl),
            "remined": _print(f"{change}: re-mined without a template", remine),
            "names_kept": round(kept / total, 4) if total else None, "names_pairs": total,
            "names_kept_remined": round(kept_base / total_base, 4) if total_base else None,
            "repaired": repaired, "failed": failed, "pages": len(tmpl),
        }
        print(f"field keeps its column name: template {out[change]['names_kept']} ({total} field(s)); "
              f"re-mined {out[change]['names_kept_remined']} ({total_base})")
    _write(args, out)
    return 0


def _names(r: PageResult) -> dict[int, str]:
    """Gold field -> the name of the column it was found in."""
    cols = r.fields.columns
    return {m.gold_field: cols[m.column] for m in r.fields.mapping if 0 <= m.column < len(cols) and m.agree}


def _same_names(before: dict[int, str], after: dict[int, str]) -> tuple[int, int]:
    """Fields found both times, and how many of them under the same column name."""
    both = [f for f in before if f in after]
    return sum(before[f] == after[f] for f in both), len(both)


def _write(args: argparse.Namespace, out: dict[str, Any]) -> None:
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.out}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("sites", help="learn on one page of a site, apply to its other pages")
    s.add_argument("dataset")
    s.add_argument("--no-rotate", dest="rotate", action="store_false",
                   help="learn only on each site's first page (default: every page takes a turn)")
    r = sub.add_parser("redesign", help="apply to redesigned copies of the pages (scripts/redesign.py)")
    r.add_argument("dataset")
    r.add_argument("changed", help="the --out folder of scripts/redesign.py")
    r.add_argument("--changes", default="classes,insert,wrap,headings,all")
    r.add_argument("--changed-cache", default=".eval-cache/redesign",
                   help="snapshot cache of the changed pages (default: .eval-cache/redesign)")
    for p in (s, r):
        p.add_argument("--cache", default=".eval-cache", help="snapshot cache of the dev pages")
        p.add_argument("--pages", help="only page ids matching this glob")
        p.add_argument("--out", help="write the figures as JSON here")
        p.add_argument("-v", "--verbose", action="store_true", help="one line per page")
    args = ap.parse_args(argv)
    return run_sites(args) if args.mode == "sites" else run_redesign(args)


if __name__ == "__main__":
    raise SystemExit(main())
