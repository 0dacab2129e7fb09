"""Write the mining fixtures (fixtures/mine/*.html) and render them to snapshots.

    .venv/bin/python scripts/make_mine_fixtures.py [NAME ...]

Each page isolates one layout the miner must handle; tests/test_mine.py
asserts exact record boundaries on the saved snapshots (no browser needed).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OUT = ROOT / "fixtures" / "mine"

HEAD = ('<!doctype html><html><head><meta charset="utf-8"><style>body{font:14px sans-serif;margin:0}'
        " .wrap{width:900px;margin:0 auto}</style></head><body>")
NAV = ('<header><nav><a href="/">Home</a> <a href="/a">About</a> <a href="/b">Blog</a> '
       '<a href="/c">Contact</a></nav></header>')
FOOT = ('<footer><ul><li><a href="/t">Terms</a></li><li><a href="/p">Privacy</a></li>'
        '<li><a href="/h">Help</a></li></ul></footer>')


def page(body: str) -> str:
    return HEAD + NAV + body + FOOT + "</body></html>"


def two_rows() -> str:
    """Hacker-News style: a title row, a subtext row and a spacer row per item."""
    rows = []
    for i in range(1, 9):
        rows.append(f'<tr class="athing"><td class="rank">{i}.</td><td><a href="/item{i}">Story number {i} '
                    f'about something</a> <span class="site">(example{i}.com)</span></td></tr>')
        rows.append(f'<tr><td></td><td class="subtext"><span class="score">{i * 10} points</span> by '
                    f'<a href="/u{i}">user{i}</a> <span class="age">{i} hours ago</span> | '
                    f'<a href="/c{i}">{i * 3} comments</a></td></tr>')
        rows.append('<tr class="spacer" style="height:5px"><td></td></tr>')
    return page('<div class="wrap"><table id="items">' + "".join(rows) + "</table></div>")


def split_table() -> str:
    """Non-contiguous records: a row of names over a row of prices, two blocks of four."""
    blocks = []
    for b in range(2):
        names = "".join(f'<td style="width:200px"><a href="/p{b * 4 + k}">Product {b * 4 + k} name</a></td>'
                        for k in range(4))
        prices = "".join(f'<td style="width:200px"><span style="font-weight:bold;color:#a00">'
                         f"${(b * 4 + k) * 3 + 9}.99</span></td>" for k in range(4))
        blocks.append(f'<tr class="names">{names}</tr><tr class="prices">{prices}</tr>')
    return page('<div class="wrap"><table id="products" style="table-layout:fixed">' + "".join(blocks)
                + "</table></div>")


def grid_table() -> str:
    """Three products per table row, three rows."""
    trs = []
    for r in range(3):
        tds = "".join(f'<td style="width:280px"><img src="data:," width="100" height="80" alt="p{r * 3 + k}">'
                      f'<div class="t"><a href="/g{r * 3 + k}">Gadget {r * 3 + k}</a></div>'
                      f'<div class="pr">${r * 3 + k + 5}.00</div></td>' for k in range(3))
        trs.append(f"<tr>{tds}</tr>")
    return page('<div class="wrap"><table id="grid">' + "".join(trs) + "</table></div>")


def grid_flex() -> str:
    """Cards in flex row wrappers of four; the last row holds two."""
    wr, n = [], 0
    for k in (4, 4, 2):
        cards = ""
        for _ in range(k):
            cards += (f'<div class="card" style="width:200px;margin:5px"><img src="data:," width="180" '
                      f'height="100" alt="c{n}"><h4><a href="/c{n}">Card title {n}</a></h4><p>Card text {n}</p></div>')
            n += 1
        wr.append(f'<div class="row" style="display:flex">{cards}</div>')
    return page('<div class="wrap"><div id="cards">' + "".join(wr) + "</div></div>")


def ads_between() -> str:
    """Results with an ad slot after the third and a separator after the sixth."""
    items = []
    for i in range(9):
        items.append(f'<li class="result"><h3><a href="/r{i}">Result title {i}</a></h3><p class="snippet">'
                     f"Snippet text for result {i} that says something.</p><cite>site{i}.org/page</cite></li>")
        if i == 2:
            items.append('<li class="ad"><iframe src="about:blank" width="728" height="90"></iframe></li>')
        if i == 5:
            items.append('<li class="sep"><hr></li>')
    return page('<div class="wrap"><ol id="results">' + "".join(items) + "</ol></div>")


def optional_parts() -> str:
    """A badge on every third item, no price on two of them."""
    lis = []
    for i in range(8):
        badge = '<span class="badge">Sale</span>' if i % 3 == 0 else ""
        price = "" if i % 4 == 1 else f'<span class="price">${i + 10}.50</span>'
        lis.append(f'<li class="item"><a href="/o{i}">Optional item {i}</a>{badge}<div class="meta">{price}'
                   '<span class="stock">In stock</span></div></li>')
    return page('<div class="wrap"><ul id="list">' + "".join(lis) + "</ul></div>")


def several_regions() -> str:
    """A main list beside a menu, with a breadcrumb, pagination and footer links."""
    menu = ('<aside style="float:left;width:150px"><ul class="menu">'
            + "".join(f'<li><a href="/m{i}">Menu {i}</a></li>' for i in range(6)) + "</ul></aside>")
    crumbs = ('<div class="crumbs"><a href="/">Home</a> › <a href="/s">Search</a> › <span>Results</span></div>')
    main = ('<main style="margin-left:170px"><div id="main-list">'
            + "".join(f'<div class="res"><h2><a href="/x{i}">Main result {i} with a longer title</a></h2>'
                      f"<p>Description of main result number {i}, long enough to matter as data.</p>"
                      f'<span class="date">2026-11-{i + 1:02d}</span></div>' for i in range(10)) + "</div>")
    pager = '<div class="pager">' + "".join(f'<a href="/page{i}">{i}</a> ' for i in range(1, 8)) + "</div></main>"
    return page(crumbs + menu + main + pager)


def site_map_footer() -> str:
    """Six reviews above a site map of link columns taller than any footer band (a div,
    not <footer>, so nothing but its links says it is navigation)."""
    text = "We ate well, the staff were kind, the view over the harbour was lovely and the wine list long. " * 2
    reviews = ('<div id="reviews">'
               + "".join(f'<div class="review"><b>Service {i + 4}.0</b> <span>Food {i + 3}.0</span>'
                         f"<p>Review {i}: {text}</p><i>0{i + 1} Sep 2013</i></div>" for i in range(6))
               + "</div>")
    columns = "".join(
        f'<div class="col" style="float:left;width:25%"><h4>Cities {c}</h4>'
        + "".join(f'<a style="display:block;line-height:60px" href="/c{c}/{k}">Restaurants in city {c}-{k}</a>'
                  for k in range(16)) + "</div>" for c in range(4))
    return page('<div class="wrap">' + reviews + '</div><div class="site-map">' + columns
                + '<div style="clear:both"></div></div>')


def split_sections() -> str:
    """Job results in three sections of one column: 3 sponsored above, 10 organic, 3 sponsored below."""
    def job(i: int, extra: str) -> str:
        return (f'<div class="row result{extra}"><h2><a href="/job{i}">Business analyst {i}</a></h2>'
                f'<span class="company">Company {i}</span> - <span class="location">City {i}, AB</span>'
                f"<p>Experience developing business cases and process maps, role number {i}.</p></div>")
    top = '<div class="sponsored">' + "".join(job(i, " last" if i == 2 else "") for i in range(3)) + "</div>"
    organic = "".join(job(i, "") for i in range(3, 13))
    bottom = '<div class="sponsored">' + "".join(job(i, "") for i in range(13, 16)) + "</div>"
    return page('<div class="wrap"><div id="results">' + top + organic + bottom + "</div></div>")


def two_rows_tight() -> str:
    """A title row and a subtext row per item with no spacer row between items: only the
    period of the rows tells where an item ends."""
    rows = []
    for i in range(1, 11):
        rows.append(f'<tr class="athing"><td class="rank">{i}.</td><td><a href="/item{i}">Story number {i} '
                    f'about something</a> <span class="site">(example{i}.com)</span></td></tr>')
        rows.append(f'<tr><td></td><td class="subtext">{i * 10} points by <a href="/u{i}">user{i}</a> '
                    f'{i} hours ago | <a href="/c{i}">{i * 3} comments</a></td></tr>')
    return page('<div class="wrap"><table id="items">' + "".join(rows) + "</table></div>")


def masonry() -> str:
    """A feed in three column containers: post 1 in column 1, post 2 in column 2, ..."""
    cols: list[list[str]] = [[], [], []]
    for i in range(1, 19):
        words = " ".join(["word"] * (8 + (i * 13) % 40))
        cols[(i - 1) % 3].append(f'<article class="post" style="border:1px solid #ccc;margin:0 0 8px;padding:6px">'
                                 f'<h3><a href="/p{i}">Post title {i}</a></h3><p>{words}</p>'
                                 f'<span class="author">by author{i}</span></article>')
    columns = "".join(f'<div class="col" style="width:290px">{"".join(c)}</div>' for c in cols)
    return page(f'<div class="wrap" style="display:flex;gap:10px">{columns}</div>')


def headline_blocks() -> str:
    """Ten blocks of four headlines each, nothing else in a block: every headline is a record."""
    blocks = []
    for b in range(10):
        items = "".join(f'<div class="story"><a href="/s{b * 4 + j}">Headline number {b * 4 + j + 1} about '
                        f'events</a> <span class="time">{b * 4 + j + 1}h ago</span></div>' for j in range(4))
        blocks.append(f'<section class="block" style="margin-bottom:12px">{items}</section>')
    return page('<div class="wrap"><h1>News</h1>' + "".join(blocks) + "</div>")


def swatch_grid() -> str:
    """48 equal cards in a CSS grid whose colour-swatch lists hold 1, 2, 9 or 12 items (in a
    fixed random order): tag strings far apart, boxes the same."""
    import random

    rnd = random.Random(11)
    cards = []
    for i in range(1, 49):
        n = rnd.choice([1, 2, 9, 12])
        sw = "".join('<li class="sw"><button><span class="dot"><i></i></span></button></li>' for _ in range(n))
        cards.append(f'<div class="card" style="height:340px;border:1px solid #ddd;padding:8px;overflow:hidden">'
                     f'<img src="data:," width="200" height="150" alt="p{i}"><h3><a href="/p/{i}">Product number '
                     f'{i}</a></h3><ul class="swatches" style="display:flex;flex-wrap:wrap;padding:0">{sw}</ul>'
                     f'<span class="price">${i * 7}.99</span></div>')
    return page('<div class="wrap"><div style="display:grid;grid-template-columns:repeat(3,280px);gap:12px">'
                + "".join(cards) + "</div></div>")


PAGES = {f.__name__: f for f in (two_rows, split_table, grid_table, grid_flex, ads_between, optional_parts,
                                  several_regions, site_map_footer, split_sections, two_rows_tight, masonry,
                                  headline_blocks, swatch_grid)}


def main(argv: list[str]) -> int:
    """Every page, or only those named on the command line."""
    from visx.config import Config, RenderConfig
    from visx.render import render

    OUT.mkdir(parents=True, exist_ok=True)
    cfg = Config(render=RenderConfig(javascript=False))
    for name, make in PAGES.items():
        if argv and name not in argv:
            continue
        html = OUT / f"{name}.html"
        html.write_text(make(), encoding="utf-8")
        snap = render(html, cfg)
        snap.source = f"fixtures/mine/{name}.html"
        snap.save(OUT / f"{name}.json.gz")
        print(f"{name}: {len(snap.nodes)} elements")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
