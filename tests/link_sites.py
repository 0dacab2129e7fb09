"""Generated sites for link paths (``visx link``), with their tables and known answers.

``build(kind, seed, folder, size=...)`` writes a static site into ``folder`` (``index.html`` is
the source page), ``table.csv`` (the user's table) and ``gold.json`` (each row's page, or
null for a row that has no page on the site). Wording, page titles, link texts and structure
vary with the seed, so that an evaluation on seeds nobody tuned on measures the method.

- ``dept``: a department; faculty listed in a directory where some links read "Web page"
  (the name only in the page's title), or only on research-group pages two hops from the
  people page; namesakes in different groups; colleagues linked from each person's page;
  news items naming people; students (not in the table).
- ``films``: a film site by decade and year; remakes share a title (the year tells them
  apart), titles with articles, "similar films" links.
- ``shop``: a shop whose product pages are reached through category pages (with pagination);
  near-identical product names (sizes), image links, related products.

``serve(folder)`` serves a folder on 127.0.0.1 (real HTTP) and records the paths asked for.
"""

from __future__ import annotations

import csv
import json
import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from html import escape
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

KINDS = ("dept", "films", "shop")

FIRST = ["Anna", "Bruno", "Chen", "Dana", "Elif", "Farid", "Grace", "Hiro", "Ines", "José", "Karin", "Lars",
         "Maria", "Nikos", "Olga", "Priya", "Quentin", "Rosa", "Sven", "Tariq", "Uma", "Victor", "Wei",
         "Ximena", "Yusuf", "Zoë", "Amélie", "Björn", "Çağla", "Dmitri", "Emeka", "François", "Gitte",
         "Hassan", "Ivana", "Jürgen", "Kofi", "Leila", "Mateo", "Noor", "Oskar", "Pilar", "Rafael",
         "Sofía", "Thomas", "Ulla", "Valentina", "William", "Yara", "Zeynep"]
LAST = ["Andersen", "Bauer", "Costa", "Dubois", "Eriksen", "Fischer", "García", "Hansen", "Ivanova",
        "Jensen", "Kowalski", "López", "Müller", "Nakamura", "Okafor", "Petrov", "Quinn", "Rossi",
        "Schmidt", "Tanaka", "Ueda", "Valdés", "Wagner", "Xu", "Yilmaz", "Zhang", "Brown", "Novak",
        "Núñez", "O'Brien", "Smith", "Lee", "Kim", "Nguyen", "Haddad", "Sato", "Moreau", "Lindqvist",
        "Horvat", "Mendes", "Ng", "Park", "Rahman", "Suzuki", "Weber", "Young", "Zimmermann", "Ali"]
TOPICS = ["Systems", "Theory", "Graphics", "Databases", "Networks", "Security", "Robotics", "Vision",
          "Languages", "Learning", "Architecture", "Bioinformatics", "HCI", "Algorithms"]
WORDS = ["Silent", "River", "Night", "Red", "Iron", "Glass", "Summer", "Lost", "Golden", "Winter", "Dark",
         "Paper", "Broken", "Last", "Hidden", "Wild", "Blue", "Secret", "Empty", "Burning", "Stone",
         "Falling", "Distant", "Crimson", "Quiet", "Northern", "Electric", "Velvet", "Hollow", "Bright"]
NOUNS = ["City", "Garden", "Road", "Sky", "Harbor", "Letters", "Kingdom", "Mirror", "Station", "Island",
         "Orchard", "Tide", "Machine", "Promise", "Frontier", "Lantern", "Valley", "Storm", "Crown", "Bridge"]
BRANDS = ["Acme", "Norda", "Vexa", "Kalo", "Brisk", "Orbit", "Lumo", "Terra", "Pico", "Zenith"]
PRODUCTS = ["Kettle", "Toaster", "Blender", "Desk Lamp", "Backpack", "Water Bottle", "Headphones",
            "Office Chair", "Frying Pan", "Coffee Grinder", "Rain Jacket", "Tent", "Notebook", "Keyboard",
            "Monitor Stand", "Yoga Mat", "Alarm Clock", "Table Fan", "Cutting Board", "Hiking Boots"]
CATEGORIES = ["Kitchen", "Home Office", "Outdoor", "Audio", "Fitness", "Living Room", "Travel", "Garden"]
VARIANTS = ["1.5 L", "1.7 L", "Mini", "Pro", "XL", "2000", "Black", "White", "Gen 2", "Plus"]


@dataclass
class Site:
    pages: dict[str, str] = field(default_factory=dict)
    columns: list[str] = field(default_factory=list)
    key: str = ""
    rows: list[dict[str, str]] = field(default_factory=list)
    answers: list[str | None] = field(default_factory=list)
    robots: str = "User-agent: *\nDisallow: /private/\n"

    def add_row(self, row: dict[str, str], path: str | None) -> None:
        self.rows.append(row)
        self.answers.append(path)


def page(title: str, body: str, nav: str = "") -> str:
    head = f"<title>{escape(title)}</title>" if title else ""
    return (f"<!doctype html><html><head><meta charset='utf-8'>{head}</head><body>"
            f"<nav>{nav}</nav><main>{body}</main><footer><a href='/index.html'>Home</a> "
            f"<a href='/private/admin.html'>Staff login</a></footer></body></html>")


def a(href: str, text: str) -> str:
    return f"<a href='{escape(href)}'>{escape(text)}</a>"


def img_link(href: str, alt: str) -> str:
    return f"<a href='{escape(href)}'><img src='/img/x.png' alt='{escape(alt)}'></a>"


def slug(text: str) -> str:
    import unicodedata

    t = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return "-".join("".join(c if c.isalnum() else " " for c in t).split())


# --- department --------------------------------------------------------------------------

def dept(rng: random.Random, size: int) -> Site:
    s = Site()
    name = rng.choice(["Department of Computer Science", "School of Informatics", "Computing Department",
                       "Institute of Computer Engineering"])
    short = rng.choice(["CS", "Informatics", "Computing", "ICE"])
    lbl = {k: rng.choice(v) for k, v in {
        "people": ["People", "Our People", "Directory", "Who we are", "Members"],
        "faculty": ["Faculty", "Academic staff", "Professors", "Faculty members"],
        "groups": ["Research groups", "Groups", "Labs", "Research"],
        "students": ["Students", "PhD students", "Graduate students"],
        "news": ["News", "Latest news", "Announcements"],
        "web": ["Web page", "Homepage", "Home page", "Website", "Profile", "More", "»"],
    }.items()}
    title_styles = ["{n}", "{n} | {d}", "{d} - {n}", "Home page of {n}", "{n}'s Home Page",
                    "{n} - {s}", "Prof. {n}", "{last}, {first} | {s}"]
    styles = rng.sample(title_styles, 3)
    web_share = rng.choice([0.3, 0.5, 0.7])  # directory links reading "Web page"
    only_group = rng.choice([0.15, 0.3])  # faculty absent from the directory, only on group pages
    table_style = rng.choice(["plain", "last_first", "initial", "mixed"])
    n_fac = max(8, size // 3)
    n_groups = max(3, min(len(TOPICS), n_fac // 5))
    groups = rng.sample(TOPICS, n_groups)
    group_lbl = rng.choice(["{t} Group", "{t} Lab", "{t} Research Group", "Laboratory for {t}"])
    used: set[tuple[str, str]] = set()
    people: list[dict[str, Any]] = []

    def person(kind: str, group: str, fixed: tuple[str, str] | None = None) -> dict[str, Any]:
        while fixed is None:
            f, last = rng.choice(FIRST), rng.choice(LAST)
            if (f, last) not in used:
                fixed = (f, last)
        used.add(fixed)
        f, last = fixed
        path = rng.choice(["/people/{s}.html", "/~{u}/index.html", "/staff/{s}/"]).format(
            s=slug(f"{f} {last}") + (f"-{len(people)}" if fixed in {(p["first"], p["last"]) for p in people} else ""),
            u=slug(last)[:6] + str(len(people)))
        if path.endswith("/"):
            path += "index.html"
        p = {"first": f, "last": last, "name": f"{f} {last}", "group": group, "kind": kind, "path": path,
             "dir": kind == "faculty" and rng.random() >= only_group, "web": rng.random() < web_share}
        people.append(p)
        return p

    for _ in range(n_fac):
        person("faculty", rng.choice(groups))
    # Namesakes: the same name in two groups (told apart by the table's group column).
    for _ in range(max(1, n_fac // 15)):
        src = rng.choice([p for p in people if p["kind"] == "faculty"])
        other = rng.choice([g for g in groups if g != src["group"]])
        person("faculty", other, (src["first"], src["last"]))
    for _ in range(max(4, n_fac // 2)):
        person("student", rng.choice(groups))
    fac = [p for p in people if p["kind"] == "faculty"]
    for p in fac:
        if not p["dir"] and any(q["name"] == p["name"] and q is not p for q in fac):
            p["dir"] = True  # a namesake must be told apart by its group link or directory entry

    gpath = {g: f"/groups/{slug(g)}.html" for g in groups}
    nav = " ".join([a("/index.html", "Home"), a("/people.html", lbl["people"]), a("/news.html", lbl["news"]),
                    a("/groups.html", lbl["groups"])])
    home_news = rng.sample(fac, min(3, len(fac)))
    s.pages["/index.html"] = page(f"{name} | Home", f"<h1>{escape(name)}</h1><p>Welcome. "
                                  f"{a('/archive/2009.html', 'Old site')} (gone: a 404)</p>" + "".join(
        f"<p>{a(p['path'], 'Award for ' + p['name'])}</p>" for p in home_news), nav)
    s.pages["/people.html"] = page(f"{lbl['people']} - {name}", "<h1>{}</h1><ul>{}</ul>".format(
        escape(lbl["people"]), "".join(f"<li>{a(h, t)}</li>" for h, t in [
            ("/faculty.html", lbl["faculty"]), ("/students.html", lbl["students"]),
            ("/groups.html", lbl["groups"])])), nav)
    rows = []
    for p in fac:
        if not p["dir"]:
            continue
        if p["web"]:
            rows.append(f"<tr><td>{escape(p['name'])}</td><td>{escape(p['group'])}</td>"
                        f"<td>{a(p['path'], lbl['web'])}</td></tr>")
        else:
            rows.append(f"<tr><td>{a(p['path'], p['name'])}</td><td>{escape(p['group'])}</td><td></td></tr>")
    s.pages["/faculty.html"] = page(f"{lbl['faculty']} | {short}", f"<h1>{escape(lbl['faculty'])}</h1>"
                                    f"<table>{''.join(rows)}</table>", nav)
    st = [p for p in people if p["kind"] == "student"]
    s.pages["/students.html"] = page(lbl["students"], "<ul>" + "".join(
        f"<li>{a(p['path'], p['name'])}</li>" for p in st) + "</ul>", nav)
    s.pages["/groups.html"] = page(lbl["groups"], "<ul>" + "".join(
        f"<li>{a(gpath[g], group_lbl.format(t=g))}</li>" for g in groups) + "</ul>", nav)
    for g in groups:
        members = [p for p in people if p["group"] == g]
        s.pages[gpath[g]] = page(f"{group_lbl.format(t=g)} - {short}", f"<h1>{escape(group_lbl.format(t=g))}</h1>"
                                 + "".join(f"<p>{a(p['path'], p['name'] if rng.random() < 0.7 else lbl['web'])}"
                                           f" ({p['kind']})</p>" for p in members), nav)
    s.pages["/news.html"] = page(lbl["news"], "".join(
        f"<p>{a(p['path'], rng.choice(['Interview with ', 'Grant to ', 'Paper by ']) + p['name'])}</p>"
        for p in rng.sample(people, min(5, len(people)))), nav)
    for p in people:
        style = rng.choice(styles)
        title = style.format(n=p["name"], d=name, s=short, first=p["first"], last=p["last"])
        if rng.random() < 0.1:
            title = f"Profile | {name}"  # templated title: only the heading names the person
        colleagues = rng.sample([q for q in people if q is not p], 2)
        body = (f"<h1>{escape(p['name'])}</h1><p>{escape(p['kind'].title())}, {a(gpath[p['group']], group_lbl.format(t=p['group']))}</p>"
                f"<p>Works with {a(colleagues[0]['path'], colleagues[0]['name'])} and "
                f"{a(colleagues[1]['path'], colleagues[1]['name'])}.</p>")
        s.pages[p["path"]] = page(title, body, nav)
    s.pages["/private/admin.html"] = page("Admin", "<p>Private</p>")
    s.columns = ["name", "group", "office"]
    s.key = "name"
    for p in fac:
        style = table_style if table_style != "mixed" else rng.choice(["plain", "last_first", "initial"])
        key = {"plain": p["name"], "last_first": f"{p['last']}, {p['first']}",
               "initial": f"{p['first'][0]}. {p['last']}"}[style]
        s.add_row({"name": key, "group": p["group"], "office": f"Room {rng.randint(100, 499)}"}, p["path"])
    for _ in range(max(1, n_fac // 10)):  # people who left: no page on the site
        while True:
            f, last = rng.choice(FIRST), rng.choice(LAST)
            if (f, last) not in used:
                break
        used.add((f, last))
        s.add_row({"name": f"{f} {last}", "group": rng.choice(groups), "office": ""}, None)
    return s


# --- films -------------------------------------------------------------------------------

def films(rng: random.Random, size: int) -> Site:
    s = Site()
    site = rng.choice(["FilmVault", "Reel Archive", "CineBase", "Movie Shelf"])
    n = max(10, size)
    titles: list[tuple[str, int]] = []
    seen: set[tuple[str, int]] = set()
    while len(titles) < n:
        t = f"{rng.choice(WORDS)} {rng.choice(NOUNS)}"
        if rng.random() < 0.25:
            t = rng.choice(["The ", "A "]) + t
        y = rng.randint(1950, 2024)
        if (t, y) not in seen:
            seen.add((t, y))
            titles.append((t, y))
    for _ in range(max(2, n // 8)):  # remakes: same title, another year
        t, y = rng.choice(titles)
        y2 = y + rng.randint(8, 30)
        if (t, y2) not in seen and y2 <= 2025:
            seen.add((t, y2))
            titles.append((t, y2))
    by_decade: dict[int, list[tuple[str, int]]] = {}
    for t, y in titles:
        by_decade.setdefault(y // 10 * 10, []).append((t, y))
    more = rng.choice(["Details", "More info", "Read more", "»", "(poster)"])
    title_fmt = rng.choice(["{t} ({y}) - {site}", "{site}: {t} ({y})", "{t} ({y})", "{t} | {site}"])
    anchor_mode = rng.choice(["title", "more", "poster", "mixed"])
    path_of = {ty: f"/film/{slug(ty[0])}-{ty[1]}.html" for ty in titles}
    nav = a("/index.html", "Home") + " " + a("/decades.html", rng.choice(["Browse", "By decade", "Years"]))
    s.pages["/index.html"] = page(f"{site} - home", "<h1>" + site + "</h1>" + "".join(
        f"<p>{a(path_of[ty], ty[0])}</p>" for ty in rng.sample(titles, min(4, len(titles)))), nav)
    s.pages["/decades.html"] = page(f"Decades | {site}", "".join(
        f"<p>{a(f'/decade/{d}.html', f'{d}s')}</p>" for d in sorted(by_decade)), nav)
    for d, films_d in by_decade.items():
        items = []
        for t, y in sorted(films_d, key=lambda x: (x[1], x[0])):
            mode = anchor_mode if anchor_mode != "mixed" else rng.choice(["title", "more", "poster"])
            link = {"title": a(path_of[t, y], t), "more": f"{escape(t)} {a(path_of[t, y], more)}",
                    "poster": f"{img_link(path_of[t, y], 'poster')} {escape(t)}"}[mode]
            items.append(f"<li>{link} <span>{y}</span></li>")
        s.pages[f"/decade/{d}.html"] = page(f"Films of the {d}s - {site}", f"<h1>The {d}s</h1><ul>{''.join(items)}</ul>", nav)
    for t, y in titles:
        similar = rng.sample(titles, 2)
        s.pages[path_of[t, y]] = page(title_fmt.format(t=t, y=y, site=site), f"<h1>{escape(t)}</h1><p>Released {y}.</p>"
                                      "<p>Similar: " + ", ".join(a(path_of[x], x[0]) for x in similar if x != (t, y)) + "</p>", nav)
    key_style = rng.choice(["title_year_col", "title_with_year", "article_last"])
    s.columns = ["title", "year", "director"]
    s.key = "title"
    for t, y in titles:
        key = t
        if key_style == "title_with_year":
            key = f"{t} ({y})"
        elif key_style == "article_last" and t.split()[0] in ("The", "A"):
            key = f"{t.split(' ', 1)[1]}, {t.split()[0]}"
        s.add_row({"title": key, "year": str(y), "director": f"{rng.choice(FIRST)} {rng.choice(LAST)}"}, path_of[t, y])
    return s


# --- shop --------------------------------------------------------------------------------

def shop(rng: random.Random, size: int) -> Site:
    s = Site()
    shop_name = rng.choice(["Homestead Goods", "Urban Supply", "Nordic Store", "ShopRite Online"])
    n = max(10, size)
    per_page = rng.choice([12, 20, 30])
    cats = rng.sample(CATEGORIES, min(len(CATEGORIES), max(3, n // 40 + 2)))
    products: list[dict[str, Any]] = []
    names: set[str] = set()
    while len(products) < n:
        base = f"{rng.choice(BRANDS)} {rng.choice(PRODUCTS)}"
        nm = base if base not in names else f"{base} {rng.choice(VARIANTS)}"
        if nm in names:
            nm = f"{base} {rng.choice(VARIANTS)} {rng.choice(VARIANTS)}"
        if nm in names:
            continue
        names.add(nm)
        products.append({"name": nm, "cat": rng.choice(cats), "path": f"/p/{len(products) + 1000}.html",
                         "price": f"{rng.randint(5, 400)}.{rng.choice(['00', '49', '99'])}"})
    view = rng.choice(["View", "Details", "See product", "Buy"])
    next_label = rng.choice(["Next", "Next page", "›"])
    anchor_mode = rng.choice(["name", "image", "view", "mixed"])
    title_fmt = rng.choice(["{n} | {s}", "{n} - {c} - {s}", "{s}: {n}", "{n}"])
    nav = a("/index.html", "Home") + "".join(" " + a(f"/c/{slug(c)}/1.html", c) for c in cats)
    s.pages["/index.html"] = page(f"{shop_name}", f"<h1>{escape(shop_name)}</h1><p>Bestsellers: " + ", ".join(
        a(p["path"], p["name"]) for p in rng.sample(products, 3)) + "</p>", nav)
    for c in cats:
        items = [p for p in products if p["cat"] == c]
        chunks = [items[i:i + per_page] for i in range(0, len(items), per_page)] or [[]]
        for i, chunk in enumerate(chunks, 1):
            cells = []
            for p in chunk:
                mode = anchor_mode if anchor_mode != "mixed" else rng.choice(["name", "image", "view"])
                cells.append({"name": f"<div>{a(p['path'], p['name'])} <b>${p['price']}</b></div>",
                              "image": f"<div>{img_link(p['path'], p['name'])} <b>${p['price']}</b></div>",
                              "view": f"<div>{escape(p['name'])} <b>${p['price']}</b> {a(p['path'], view)}</div>"}[mode])
            pager = " ".join(a(f"/c/{slug(c)}/{j}.html", str(j)) for j in range(1, len(chunks) + 1) if j != i)
            if i < len(chunks):  # numbered pages, as most shops have, and a next link
                pager += " " + a(f"/c/{slug(c)}/{i + 1}.html", next_label)
            s.pages[f"/c/{slug(c)}/{i}.html"] = page(f"{c} - page {i} | {shop_name}", f"<h1>{escape(c)}</h1>{''.join(cells)}{pager}", nav)
    for p in products:
        rel = rng.sample(products, 2)
        s.pages[p["path"]] = page(title_fmt.format(n=p["name"], c=p["cat"], s=shop_name),
                                  f"<h1>{escape(p['name'])}</h1><p>${p['price']}</p><p>Related: "
                                  + ", ".join(a(r["path"], r["name"]) for r in rel if r is not p) + "</p>", nav)
    s.columns = ["product", "price", "category"]
    s.key = "product"
    for p in products:
        s.add_row({"product": p["name"], "price": p["price"], "category": p["cat"]}, p["path"])
    return s


BUILDERS = {"dept": dept, "films": films, "shop": shop}


def build(kind: str, seed: int, folder: Path, size: int = 40) -> Site:
    """Write the site, ``table.csv`` and ``gold.json`` into ``folder``; ``size`` is about the
    number of rows (faculty, films, products)."""
    site = BUILDERS[kind](random.Random(f"{kind}-{seed}"), size)
    folder.mkdir(parents=True, exist_ok=True)
    for path, html in site.pages.items():
        f = folder / path.lstrip("/")
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(html, encoding="utf-8")
    (folder / "robots.txt").write_text(site.robots, encoding="utf-8")
    with (folder / "table.csv").open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=site.columns, lineterminator="\n")
        w.writeheader()
        w.writerows(site.rows)
    (folder / "gold.json").write_text(json.dumps({"key": site.key, "answers": site.answers}, indent=1),
                                      encoding="utf-8")
    return site


class _Quiet(SimpleHTTPRequestHandler):
    asked: list[str]

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self.asked.append(self.path)
        super().do_GET()


@dataclass
class Served:
    base: str
    asked: list[str]

    def url(self, path: str) -> str:
        return self.base + "/" + path.lstrip("/")


@contextmanager
def serve(folder: Path) -> Iterator[Served]:
    """``folder`` over real HTTP on 127.0.0.1 (a free port) while the block runs."""
    asked: list[str] = []
    handler = type("Handler", (_Quiet,), {"asked": asked})
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(folder)))
    server.daemon_threads = True
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    try:
        yield Served(f"http://127.0.0.1:{server.server_address[1]}", asked)
    finally:
        server.shutdown()
        server.server_close()
