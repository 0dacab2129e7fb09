"""Write the bad-input corpus (tests/badinput) into a folder, optionally serving it.

    python scripts/make_badinput.py OUT            # the pages only
    python scripts/make_badinput.py OUT --serve    # and serve them with every route, until Ctrl-C
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from badinput.generate import all_cases, all_routes, write_pages
from badinput.serve import serve


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", type=Path, help="folder to write the corpus into (created)")
    p.add_argument("--serve", action="store_true", help="serve the folder and the routes until Ctrl-C")
    args = p.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    pages = write_pages(args.out)
    print(f"wrote {len(pages)} page(s) into {args.out}; {len(all_cases())} case(s), "
          f"{len(all_routes())} route(s)")
    if args.serve:
        with serve(args.out, all_routes()) as url:
            print(f"serving at {url}; Ctrl-C stops")
            try:
                while True:
                    time.sleep(3600)
            except KeyboardInterrupt:
                pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
