"""Make the README's picture from ``make demo``'s annotated page.

    make demo && .venv/bin/python scripts/demo_image.py [out/report/page.png] [docs/demo-annotated.png]

Keeps the legend and the first records, scales to the README column width
and reduces to 256 colours, which keeps the file around 200 KB.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

from visx.debug.thresholds import README_IMAGE_WIDTH

TOP_PX = 1500
"""The legend band and the first five records of the demo page."""


def main(argv: list[str]) -> int:
    src = Path(argv[0] if argv else "out/report/page.png")
    dst = Path(argv[1] if len(argv) > 1 else "docs/demo-annotated.png")
    with Image.open(src) as im:
        top = im.convert("RGB").crop((0, 0, im.width, min(im.height, TOP_PX)))
    h = round(top.height * README_IMAGE_WIDTH / top.width)
    small = top.resize((README_IMAGE_WIDTH, h), Image.Resampling.LANCZOS).quantize(colors=256)
    dst.parent.mkdir(parents=True, exist_ok=True)
    small.save(dst, optimize=True)
    print(f"wrote {dst}: {small.width}x{small.height}, {dst.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
