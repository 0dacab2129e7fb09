"""A small shop list page and redesigned versions of it, for the template tests.

``shop(variant)`` writes the same twelve products as a site would before and
after a redesign: ``v1`` the original; ``redesign`` with class names hashed
(HTML and CSS together), each product's content wrapped in a new element, a
sponsored block inserted after every fourth product and headings moved down a
level; ``noprice`` the redesign with the prices gone; ``page2`` another page of
the original site (other products, one fewer).
"""

from __future__ import annotations

import hashlib

PRODUCTS = [
    ("Blue Kettle", "19.99", "4.5", "2024-03-01"),
    ("Red Toaster", "34.50", "4.1", "2024-02-11"),
    ("Steel Pan", "27.00", "3.9", "2024-01-23"),
    ("Oak Board", "15.25", "4.8", "2023-12-30"),
    ("Glass Jar", "6.75", "4.0", "2023-12-02"),
    ("Iron Skillet", "42.00", "4.7", "2023-11-19"),
    ("Tea Towel", "4.99", "3.5", "2023-11-03"),
    ("Salt Mill", "12.40", "4.2", "2023-10-28"),
    ("Cake Tin", "9.95", "3.8", "2023-10-10"),
    ("Wok Lid", "11.10", "4.4", "2023-09-15"),
    ("Egg Timer", "3.60", "3.2", "2023-09-01"),
    ("Bread Knife", "18.80", "4.6", "2023-08-20"),
]
PAGE2 = [(f"Garden {n}", f"{5 + k}.{k}0", f"{3 + k % 2}.{k}", f"2022-0{1 + k % 9}-1{k}") for k, n in
         enumerate(["Hose", "Rake", "Spade", "Pot", "Glove", "Seed Tray", "Shears", "Trowel", "Sprinkler",
                    "Bench", "Lamp"])]

CLASSES = ("product-list", "product", "title", "price", "rating", "date", "desc", "site-nav", "site-foot")


def _h(name: str) -> str:
    return "c" + hashlib.sha1(name.encode()).hexdigest()[:6]


def shop(variant: str = "v1") -> str:
    hashed = variant in ("redesign", "noprice")
    c = {k: (_h(k) if hashed else k) for k in CLASSES}
    h1, h2 = ("h2", "h3") if hashed else ("h1", "h2")
    items = PAGE2 if variant == "page2" else PRODUCTS
    css = "\n".join([
        f".{c['product-list']} {{ list-style: none; margin: 0; padding: 0; width: 640px; }}",
        f".{c['product']} {{ border-bottom: 1px solid #ddd; padding: 8px; }}",
        f".{c['title']} {{ font-size: 20px; margin: 0 0 4px; }}",
        f".{c['price']} {{ color: rgb(200, 0, 0); font-weight: bold; margin-right: 12px; }}",
        f".{c['rating']} {{ color: rgb(90, 90, 90); font-size: 13px; margin-right: 12px; }}",
        f".{c['date']} {{ color: rgb(120, 120, 120); font-size: 12px; }}",
        f".{c['desc']} {{ font-size: 14px; margin: 4px 0 0; }}",
    ])
    rows = []
    for k, (name, price, rating, date) in enumerate(items, start=1):
        slug = name.lower().replace(" ", "-")
        parts = [f'<{h2} class="{c["title"]}"><a href="/p/{slug}">{name}</a></{h2}>']
        if variant != "noprice":
            parts.append(f'<span class="{c["price"]}">${price}</span>')
        parts.append(f'<span class="{c["rating"]}">{rating} out of 5</span>')
        parts.append(f'<time class="{c["date"]}" datetime="{date}">{date}</time>')
        parts.append(f'<p class="{c["desc"]}">The {name.lower()} for every kitchen, item {k}.</p>')
        inner = "".join(parts)
        if hashed:
            inner = f'<div class="{_h("inner")}">{inner}</div>'
        rows.append(f'<li class="{c["product"]}">{inner}</li>')
        if hashed and k % 4 == 0:
            rows.append(f'<li class="{_h("ad")}"><a href="/ads/{k}">Sponsored: shop our sale</a></li>')
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Shop: kitchen</title><style>
body {{ font-family: sans-serif; margin: 0; }}
.{c['site-nav']} a {{ margin-right: 10px; }}
{css}
</style></head><body>
<nav class="{c['site-nav']}"><a href="/">Home</a><a href="/kitchen">Kitchen</a><a href="/garden">Garden</a></nav>
<main>
<{h1}>Kitchen</{h1}>
<ul id="results" class="{c['product-list']}">
{chr(10).join(rows)}
</ul>
</main>
<footer class="{c['site-foot']}"><a href="/about">About us</a> <a href="/help">Help</a></footer>
</body></html>
"""
