"""Build the regression-gate fixtures and raise their floors.

    .venv/bin/python scripts/gate_fixtures.py build [--cache .eval-cache]
        copy the snapshots (rendered by scripts/cache_testbed.py), records.csv
        and meta.json of the gate pages into fixtures/gate/, with the LICENSE
    .venv/bin/python scripts/gate_fixtures.py floors [--raise]
        score the gate pages (record F1, hits, cell F1); with --raise lift
        every floor to the measured value (rounded down to 0.01), never
        lowering one

The pages were chosen by id before visx could mine anything: one per
category, each a different layout (table rows, product grids, result
lists, thumbnail grids, forum threads, lists with ads between records).
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from visx.evaluate.cache import FOLDER_SNAPSHOT, snapshot_path  # noqa: E402
from visx.evaluate.dataset import META, RECORDS, load_dataset  # noqa: E402

TESTBED = ROOT.parent / "shared" / "testbed"
GATE = ROOT / "fixtures" / "gate"
FLOORS = GATE / "floors.json"

GATE_PAGES = (
    "imdb.com/fine-arts",                  # arts: table rows
    "goodreads.com/c-reference",           # reference: table rows, many fields
    "ebay.co.uk/world-games",              # regional: product list
    "nature.com/physical-science",         # science: article list
    "etsy.com/christmas-shopping",         # shopping: product grid
    "dailykos.com/culture",                # society: long story list
    "skysports.com/hockey",                # sports: news list
    "indeed.com/office-business",          # business: job cards with sponsored ones
    "stackoverflow.com/touchscreen",       # computers: question summaries
    "store.steampowered.com/video-games",  # games: rows as links
    "medlineplus.gov/vision-health",       # health: search results
    "yelp.com/home-furniture",             # home: business cards with ads
    "y8.com/teens-kids-dancing",           # kids-and-teens: thumbnail grid
    "reddit.com/election-news",            # news: thread list
    "booking.com/new-jersey-recreation",   # recreation: hotel cards
)


def build(cache: Path) -> int:
    pages = {p.id: p for p in load_dataset(TESTBED / "dev")}
    missing = []
    for pid in GATE_PAGES:
        page = pages[pid]
        snap = snapshot_path(cache, page)
        if not snap.is_file():
            missing.append(pid)
            continue
        dest = GATE / pid
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(snap, dest / FOLDER_SNAPSHOT)
        shutil.copyfile(page.folder / RECORDS, dest / RECORDS)
        shutil.copyfile(page.folder / META, dest / META)
    shutil.copyfile(TESTBED / "LICENSE", GATE / "LICENSE")
    if not FLOORS.is_file():
        doc = {"overall": {"top_f1": 0.0, "best_f1": 0.0, "hit_rate": 0.0, "cell_f1": 0.0},
               "pages": {pid: 0.0 for pid in GATE_PAGES}}
        FLOORS.write_text(json.dumps(doc, indent=1) + "\n")
    if missing:
        print(f"not cached yet (run scripts/cache_testbed.py): {', '.join(missing)}")
        return 1
    print(f"{len(GATE_PAGES)} pages in {GATE}")
    return 0


def floors(raise_them: bool) -> int:
    from visx.evaluate.report import summarize
    from visx.evaluate.runner import run_eval

    doc = json.loads(FLOORS.read_text())
    results = run_eval(GATE, cache_dir=None)
    summary = summarize(results)
    measured = {"top_f1": summary.top.f1, "best_f1": summary.best.f1, "hit_rate": summary.hit_rate,
                "cell_f1": summary.cells.f1}
    for key, value in measured.items():
        floor = doc["overall"].get(key, 0.0)  # a new figure starts from no floor
        print(f"overall {key:10} {value:.3f} (floor {floor:.2f})")
        if raise_them:
            doc["overall"][key] = max(floor, math.floor(value * 100) / 100)
    for r in results:
        f1 = r.score.top.f1
        print(f"{r.page.id:40} top F1 {f1:.3f} (floor {doc['pages'][r.page.id]:.2f}), "
              f"cell F1 {r.fields.score.f1:.3f}  {r.reason}")
        if raise_them:
            doc["pages"][r.page.id] = max(doc["pages"][r.page.id], math.floor(f1 * 100) / 100)
    if raise_them:
        FLOORS.write_text(json.dumps(doc, indent=1) + "\n")
        print(f"raised floors in {FLOORS}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--cache", type=Path, default=ROOT / ".eval-cache")
    f = sub.add_parser("floors")
    f.add_argument("--raise", dest="raise_them", action="store_true")
    args = ap.parse_args()
    return build(args.cache) if args.cmd == "build" else floors(args.raise_them)


if __name__ == "__main__":
    sys.exit(main())
