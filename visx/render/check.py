"""``python -m visx.render.check``: exit 0 when a Chromium and the fonts are present.

Used by the Makefile to decide whether to install Debian's chromium. Box
sizes depend on fonts, so a missing Liberation font counts as missing.
"""

from __future__ import annotations

import sys
from pathlib import Path

from visx.errors import BrowserNotFoundError
from visx.render.browser import find_chromium

FONT_DIRS = (Path("/usr/share/fonts/truetype/liberation"), Path("/usr/share/fonts/truetype/dejavu"))


def main(argv: list[str]) -> int:
    quiet = "--quiet" in argv
    try:
        exe = find_chromium()
    except BrowserNotFoundError as e:
        print(f"visx: {e}", file=sys.stderr)
        return 1
    if Path("/etc/debian_version").exists() and not all(d.is_dir() for d in FONT_DIRS):
        print("visx: fonts-liberation / fonts-dejavu-core missing (box sizes depend on them)", file=sys.stderr)
        return 1
    if not quiet:
        print(f"visx: using Chromium at {exe}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
