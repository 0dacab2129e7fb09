"""Prepare dev pages for labelling which of visx's regions are data lists.

For each chosen page of the testbed's dev split it renders the page (JavaScript
and network off, with a screenshot), extracts it, and writes into OUT/<page id>/:

- ``page.png``: the screenshot with every region outlined and numbered by rank;
- ``regions.json``: per region its rank, key (``parent`` XPath and the XPath of
  its first record), record count, the text of its first records, and whether
  it holds the page's gold records (the main list, labelled already).

A person (or a helper) then writes ``labels.json`` beside them: a list of
``{"rank": k, "data": true|false, "role": "..."}``. ``collect`` gathers every
page's labels into the file ``visx eval`` reads (``fixtures/testbed/data_lists.json``).

    .venv/bin/python scripts/label_data_lists.py prepare OUT [--every 5 | --ids FILE] [--testbed DIR]
    .venv/bin/python scripts/label_data_lists.py collect OUT -o fixtures/testbed/data_lists.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from visx.config import Config, RenderConfig  # noqa: E402
from visx.debug import write_report  # noqa: E402
from visx.evaluate.dataset import load_dataset  # noqa: E402
from visx.pipeline import extract  # noqa: E402

DEFAULT_TESTBED = ROOT.parent / "shared" / "testbed" / "dev"
ROLES = ("data", "navigation", "filter", "pager", "breadcrumb", "footer-links", "tag-cloud", "fragment", "other")


def prepare(out: Path, testbed: Path, every: int, ids: Path | None = None) -> None:
    from visx.evaluate.dataset import read_gold
    from visx.evaluate.metrics import score_region, tokens

    pages = load_dataset(testbed)[::every]
    if ids is not None:
        wanted = set(ids.read_text(encoding="utf-8").split())
        pages = [p for p in load_dataset(testbed) if p.id in wanted]
    cfg = Config(render=RenderConfig(javascript=False, screenshot=True, timeout_s=60))
    for k, page in enumerate(pages, 1):
        folder = out / page.id.replace("/", "__")
        ex = extract(page.page_file, cfg)
        nodes = ex.snapshot.nodes
        write_report(ex, folder, cfg)
        gold = [tokens(g.text) for g in read_gold(page)]
        regions = []
        for rg in ex.regions:
            texts = [r.text or " ".join(nodes.text(p) for p in r.parts) for r in rg.records]
            hits = score_region(gold, texts).score.matched if gold else 0
            regions.append({
                "rank": rg.rank,
                "parent": nodes[rg.parent].xpath,
                "first": nodes[rg.records[0].parts[0]].xpath if rg.records else "",
                "records": len(rg.records),
                "gold_hits": hits,
                "texts": [t[:120] for t in texts[:4]],
            })
        (folder / "regions.json").write_text(json.dumps({"page": page.id, "regions": regions}, indent=1,
                                                        ensure_ascii=False), encoding="utf-8")
        print(f"[{k}/{len(pages)}] {page.id}: {len(regions)} region(s)", flush=True)


def collect(out: Path, target: Path) -> None:
    doc: dict[str, list[dict[str, object]]] = {}
    for folder in sorted(p for p in out.iterdir() if (p / "labels.json").is_file()):
        regions = {r["rank"]: r for r in json.loads((folder / "regions.json").read_text())["regions"]}
        page = json.loads((folder / "regions.json").read_text())["page"]
        labels = json.loads((folder / "labels.json").read_text())
        rows = []
        for lab in labels:
            rg = regions[lab["rank"]]
            role = "data" if lab["data"] else str(lab.get("role") or "other")
            if role not in ROLES:
                raise SystemExit(f"{folder}: role {role!r} is not one of {', '.join(ROLES)}")
            rows.append({"parent": rg["parent"], "first": rg["first"], "data": bool(lab["data"]), "role": role})
        doc[page] = rows
    target.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {target}: {len(doc)} page(s), {sum(len(v) for v in doc.values())} region(s)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("out", type=Path)
    p.add_argument("--every", type=int, default=5, help="take every N-th dev page (default 5: 60 pages)")
    p.add_argument("--testbed", type=Path, default=DEFAULT_TESTBED)
    p.add_argument("--ids", type=Path, help="a file of page ids (one a line) to prepare instead of every N-th")
    c = sub.add_parser("collect")
    c.add_argument("out", type=Path)
    c.add_argument("-o", "--output", type=Path, required=True)
    args = ap.parse_args()
    if args.cmd == "prepare":
        prepare(args.out, args.testbed, args.every, args.ids)
    else:
        collect(args.out, args.output)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
