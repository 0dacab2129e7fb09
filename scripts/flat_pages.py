"""Write a flat-page dataset from a testbed: each page's gold records as flat text.

    .venv/bin/python scripts/flat_pages.py ../shared/testbed/dev out/flat [--styles br,pre,p,sep] [--limit N] [--every K [--start I]]

For every page of DATASET and every style, OUT/<style>/<id>/page.htm holds the
page's gold records written in that style inside a page with a navigation bar,
a sidebar and a footer, beside a copy of records.csv and meta.json, and
OUT/<style>/index.json lists them: the testbed's format, so
``scripts/eval.py OUT/<style>`` scores it. Styles:

- ``br``: one field a line, ended by ``<br>``, a blank line between records;
- ``pre``: one ``<pre>``, one record a line, fields joined by one separator;
- ``p``: every field a bare ``<p>``, records one after another with nothing around them;
- ``sep``: one record a line ended by ``<br>``, fields joined by mixed separators;
- ``dl``: one definition list, the first field a ``<dt>``, the others each a ``<dd>``.

The first field is a link (as on old list pages) except in ``pre``. ``--plain``
writes a harder variant: no link on the first field and no blank line between
``br`` records, so only the fields' types tell where records start. Choices that
vary between pages (separators, markup of the other fields) follow a hash of the
page id, so a run is reproducible.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from visx.evaluate.dataset import load_dataset, read_gold

STYLES = ("br", "pre", "p", "sep", "dl")
PRE_SEPARATORS = (" | ", "\t", " · ")
MIXED = (" | ", " · ", " - ", " | ", " • ")

NAV = """<div class="top"><a href="/">Home</a> | <a href="/new">What's new</a> | <a href="/search">Search</a>
 | <a href="/help">Help</a> | <a href="/contact">Contact us</a></div>
<table width="100%"><tr><td valign="top" width="160" class="side">
<b>Browse</b><br><a href="/c/1">Categories</a><br><a href="/c/2">Popular</a><br><a href="/c/3">Recent</a><br>
<a href="/c/4">Archive</a><br><a href="/c/5">Links</a><br></td><td valign="top">
<h2>Results for "{query}"</h2><p>Showing {n} results. Sorted by relevance.</p>
"""
FOOT = """</td></tr></table><hr><div class="foot">Copyright &copy; 2003 Example Directory. All rights reserved.<br>
<a href="/about">About</a> | <a href="/privacy">Privacy policy</a> | <a href="/terms">Terms of use</a></div>
"""


def _pick(page_id: str, options: tuple[str, ...], salt: str = "") -> str:
    h = int(hashlib.sha1((page_id + salt).encode()).hexdigest(), 16)
    return options[h % len(options)]


def _esc(text: str) -> str:
    return html.escape(" ".join(text.split()))


def _fields(cells: tuple[str, ...]) -> list[str]:
    return [c for c in cells if c.strip()]


def _link(k: int, text: str) -> str:
    return f'<a href="/item/{k}">{_esc(text)}</a>'


def render_records(style: str, page_id: str, records: list[tuple[str, ...]], plain: bool = False) -> str:
    """The records in ``style`` as an HTML fragment (``plain``: no link, no blank line)."""
    out: list[str] = []
    if style == "pre":
        sep = _pick(page_id, PRE_SEPARATORS)
        lines = [sep.join(_esc(f) for f in _fields(r)) for r in records]
        return "<pre>\n" + "\n".join(lines) + "\n</pre>"
    for k, rec in enumerate(records):
        fs = _fields(rec)
        if not fs:
            continue
        first, rest = (_esc(fs[0]) if plain else _link(k, fs[0])), [_esc(f) for f in fs[1:]]
        if style == "br":
            out.append("<br>\n".join([first, *rest]) + ("<br>\n" if plain else "<br>\n<br>\n"))
        elif style == "p":
            out.append("".join(f"<p>{f}</p>\n" for f in [first, *rest]))
        elif style == "dl":
            out.append(f"<dt>{first}</dt>" + "".join(f"<dd>{f}</dd>" for f in rest) + "\n")
        elif style == "sep":
            line = first
            for j, f in enumerate(rest):
                line += MIXED[(j + len(page_id)) % len(MIXED)] + f
            out.append(line + "<br>\n")
        else:
            raise ValueError(f"unknown style {style!r}")
    if style == "dl":
        return '<dl class="results">\n' + "".join(out) + "</dl>"
    return '<div class="results">\n' + "".join(out) + "</div>"


def write_page(style: str, page_id: str, query: str, records: list[tuple[str, ...]], plain: bool = False) -> str:
    body = render_records(style, page_id, records, plain)
    head = NAV.format(query=_esc(query), n=len(records))
    return (f"<html><head><meta charset='utf-8'><title>{_esc(query)} - Example Directory</title></head>"
            f"<body>\n{head}{body}\n{FOOT}</body></html>\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="scripts/flat_pages.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("dataset", type=Path, help="a testbed folder (index.json, <id>/records.csv)")
    ap.add_argument("out", type=Path, help="folder to write OUT/<style>/ datasets into")
    ap.add_argument("--styles", default=",".join(STYLES[:4]),
                    help=f"comma-separated, of {', '.join(STYLES)} (default: the first four)")
    ap.add_argument("--limit", type=int, metavar="N", help="only the first N pages")
    ap.add_argument("--every", type=int, default=1, metavar="K", help="only every K-th page (a sample across sites)")
    ap.add_argument("--start", type=int, default=0, metavar="I",
                    help="with --every: start at the I-th page (another sample: --every 5 --start 2)")
    ap.add_argument("--plain", action="store_true",
                    help="no link on the first field, no blank line between br records (types alone)")
    args = ap.parse_args(argv)
    styles = [s for s in args.styles.split(",") if s]
    if bad := [s for s in styles if s not in STYLES]:
        ap.error(f"unknown style(s) {bad}")
    pages = load_dataset(args.dataset)[args.start :: max(1, args.every)][: args.limit]
    for style in styles:
        index = []
        for page in pages:
            gold = [g.cells for g in read_gold(page)]
            if len(gold) < 2:
                continue
            folder = args.out / style / page.id
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "page.htm").write_text(write_page(style, page.id, page.keyword or page.id, gold, args.plain),
                                             encoding="utf-8")
            shutil.copyfile(page.folder / "records.csv", folder / "records.csv")
            meta = {**page.meta, "id": page.id, "page": "page.htm", "style": style, "plain": args.plain}
            (folder / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
            index.append(meta)
        (args.out / style).mkdir(parents=True, exist_ok=True)
        (args.out / style / "index.json").write_text(json.dumps(index, indent=1), encoding="utf-8")
        print(f"wrote {len(index)} pages to {args.out / style}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
