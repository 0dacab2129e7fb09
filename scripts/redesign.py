"""Write redesigned copies of a testbed's pages, one dataset per kind of change.

    .venv/bin/python scripts/redesign.py ../shared/testbed/dev --out /tmp/redesign \\
        [--changes classes,insert,wrap,headings,all] [--pages GLOB] [--limit N] [--seed S]

For each page and change: OUT/<change>/<site>/<query>/<page>.htm (UTF-8), its <page>_files/
(rewritten stylesheets and frames where classes change, links to the originals otherwise, or
copies with --copy), records.csv and meta.json unchanged, and OUT/<change>/index.json, so
each change folder is a dataset for scripts/eval.py. OUT/redesign.json says per page and
change what was written or why not. The changes are in visx/evaluate/redesign.py.

Evaluate a change with its own snapshot cache (the default one is keyed by page id and
would serve the original pages):

    .venv/bin/python scripts/eval.py OUT/classes --cache OUT/classes.eval-cache --out OUT/classes.eval
"""

from __future__ import annotations

import argparse
import codecs
import json
import shutil
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from visx.errors import VisxError
from visx.evaluate.dataset import INDEX, META, RECORDS, Page, load_dataset, read_gold
from visx.evaluate.redesign import CHANGES, STEPS, RecordsNotLocated, decode_html, redesign

REPORT = "redesign.json"
CSS_SUFFIXES = (".css",)
FRAME_SUFFIXES = (".htm", ".html")


def files_dir(page: Page) -> Path:
    """The folder a browser saved with the page ("<page>_files")."""
    return page.page_file.with_name(page.page_file.stem + "_files")


def css_codec(data: bytes) -> tuple[str, str]:
    """Codec and error handler of a sheet: UTF-16 when it starts with its BOM (an add-on saved
    one so), else UTF-8 with undecodable bytes kept as they were."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16", "replace"
    return "utf-8", "surrogateescape"


def read_css(folder: Path) -> dict[str, str]:
    """Stylesheets under ``folder`` by relative path."""
    if not folder.is_dir():
        return {}
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file() and p.suffix.lower() in CSS_SUFFIXES:
            data = p.read_bytes()
            out[p.relative_to(folder).as_posix()] = data.decode(*css_codec(data))
    return out


def read_frames(folder: Path) -> dict[str, str]:
    if not folder.is_dir():
        return {}
    return {p.relative_to(folder).as_posix(): decode_html(p.read_bytes())
            for p in sorted(folder.rglob("*")) if p.is_file() and p.suffix.lower() in FRAME_SUFFIXES}


def write_files(src: Path, dest: Path, rewritten: dict[str, bytes], *, copy: bool) -> None:
    """``dest`` mirrors ``src``: rewritten files written, the others linked (or copied)."""
    if not src.is_dir():
        return
    for p in sorted(src.rglob("*")):
        if not p.is_file():
            continue
        rel = p.relative_to(src).as_posix()
        out = dest / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        if rel in rewritten:
            out.write_bytes(rewritten[rel])
        elif copy:
            shutil.copyfile(p, out)
        else:
            out.symlink_to(p.resolve())


def write_page(page: Page, base: Path, change: str, html: str, css: dict[str, str],
               frames: dict[str, str], *, copy: bool) -> None:
    folder = base / change / page.id
    if folder.exists():  # a page left by an earlier run
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    # The BOM settles the encoding even where the page declares none.
    (folder / page.page_file.name).write_bytes(("\ufeff" + html).encode("utf-8", "surrogatepass"))
    src = files_dir(page)
    rewritten = {k: v.encode(*css_codec((src / k).read_bytes())) for k, v in css.items()}
    rewritten.update({k: ("\ufeff" + v).encode("utf-8", "surrogatepass") for k, v in frames.items()})
    write_files(src, folder / src.name, rewritten, copy=copy)
    for name in (RECORDS, META):
        if (page.folder / name).is_file():
            shutil.copyfile(page.folder / name, folder / name)


def run_page(page: Page, base: Path, changes: list[str], seed: int, *, copy: bool) -> dict[str, Any]:
    """Write every change of one page; returns its entry of the report."""
    gold = [g.cells for g in read_gold(page)]
    entry: dict[str, Any] = {"records_gold": len(gold), "changes": {}}
    try:
        html = decode_html(page.page_file.read_bytes())
    except OSError as e:
        reason = f"page unreadable: {e.strerror}"
        entry["changes"] = {c: {"status": "skipped", "reason": reason} for c in changes}
        return entry
    folder = files_dir(page)
    css = read_css(folder)
    frames = read_frames(folder) if any("classes" in STEPS[c] for c in changes) else {}
    for change in changes:
        renames = "classes" in STEPS[change]
        try:
            out = redesign(html, gold, change, css=css if renames else None,
                           frames=frames if renames else None, seed=seed)
        except RecordsNotLocated as e:
            entry["changes"][change] = {"status": "skipped", "reason": str(e)}
            continue
        except Exception as e:  # one odd page must not stop the run; the report names it
            entry["changes"][change] = {"status": "skipped", "reason": f"error: {type(e).__name__}: {e}"}
            continue
        write_page(page, base, change, out.html, out.css if renames else {},
                   out.frames if renames else {}, copy=copy)
        entry["records_located"] = out.stats.records_located
        entry["changes"][change] = {"status": "written", **out.stats.as_dict()}
    return entry


def parse_changes(text: str) -> list[str]:
    changes = [c.strip() for c in text.split(",") if c.strip()]
    bad = [c for c in changes if c not in STEPS]
    if bad or not changes:
        raise argparse.ArgumentTypeError(f"unknown change(s) {', '.join(bad) or '(none)'}; "
                                         f"choose from {','.join(CHANGES)}")
    return changes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="scripts/redesign.py",
        description="Write changed copies of a dataset's pages, as a site redesign would change "
        "them: class names hashed (HTML and CSS alike), ad blocks inserted among the records, "
        "each record's content wrapped one level deeper, headings moved a level, all four at "
        "once, and 'none' (only re-serialised by lxml: the baseline). One dataset folder per change.")
    parser.add_argument("dataset", type=Path, help="folder with index.json, pages and records.csv")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="where to write")
    parser.add_argument("--changes", type=parse_changes, default=list(CHANGES), metavar="LIST",
                        help=f"comma-separated, from {','.join(CHANGES)} (default: every one)")
    parser.add_argument("--pages", metavar="GLOB", help="only page ids matching this glob")
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N pages")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="salt of the class hashes and pick of the ad texts (default: 0)")
    parser.add_argument("--copy", action="store_true",
                        help="copy unchanged files of <page>_files/ instead of linking them")
    args = parser.parse_args(argv)
    try:
        pages = load_dataset(args.dataset, pages=args.pages, limit=args.limit)
    except VisxError as e:
        print(f"redesign: error: {e}", file=sys.stderr)
        return 2
    base: Path = args.out
    base.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {"dataset": str(args.dataset), "seed": args.seed,
                              "changes": args.changes, "pages": {}}
    written: dict[str, list[dict[str, Any]]] = {c: [] for c in args.changes}
    for i, page in enumerate(pages, 1):
        try:
            entry = run_page(page, base, args.changes, args.seed, copy=args.copy)
        except VisxError as e:  # e.g. no records.csv
            entry = {"changes": {c: {"status": "skipped", "reason": str(e)} for c in args.changes}}
        report["pages"][page.id] = entry
        for change, res in entry["changes"].items():
            if res["status"] == "written":
                written[change].append({k: v for k, v in page.meta.items() if not k.startswith("_")})
        if i % 25 == 0 or i == len(pages):
            print(f"{i}/{len(pages)} pages", file=sys.stderr, flush=True)
    for change, entries in written.items():
        (base / change).mkdir(parents=True, exist_ok=True)
        (base / change / INDEX).write_text(json.dumps(entries, indent=1, ensure_ascii=False) + "\n",
                                          encoding="utf-8")
    (base / REPORT).write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(summary(report, base))
    return 0


def summary(report: dict[str, Any], base: Path) -> str:
    lines = [f"{'change':<10} {'written':>7} {'skipped':>7}  totals"]
    for change in report["changes"]:
        results = [p["changes"][change] for p in report["pages"].values()]
        done = [r for r in results if r["status"] == "written"]
        totals = Counter[str]()
        for r in done:
            totals.update({k: v for k, v in r.items() if isinstance(v, int) and k != "records_located"})
        shown = ", ".join(f"{k} {v}" for k, v in totals.items() if v)
        lines.append(f"{change:<10} {len(done):>7} {len(results) - len(done):>7}  {shown}")
    skipped = {pid: {c: r["reason"] for c, r in p["changes"].items() if r["status"] == "skipped"}
               for pid, p in report["pages"].items()}
    skipped = {pid: why for pid, why in skipped.items() if why}
    if skipped:
        lines.append(f"pages skipped ({len(skipped)}):")
        for pid, why in sorted(skipped.items()):
            if len(set(why.values())) == 1 and len(why) == len(report["changes"]):
                lines.append(f"  {pid}: {next(iter(why.values()))}")
            else:
                lines += [f"  {pid} [{c}]: {reason}" for c, reason in why.items()]
    lines.append(f"report: {base / REPORT}")
    first = report["changes"][0]
    lines.append(f"evaluate: .venv/bin/python scripts/eval.py {base / first} "
                 f"--cache {base / first}.eval-cache --out {base / first}.eval  "
                 "(a cache of its own per change)")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
