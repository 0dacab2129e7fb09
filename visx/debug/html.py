"""``report.html``: one self-contained page (inline CSS and JS, embedded image).

Every piece of page text passes :func:`esc` (``html.escape``) on its way into
markup, and the data block for the script is JSON with ``<``, ``>`` and ``&``
escaped (:func:`safe_json`), so no page can close the script element. A
Content-Security-Policy with a per-report nonce is a second fence: only the
report's own script may run.
"""

from __future__ import annotations

import base64
import html
import json
import secrets
import shlex
from importlib import resources
from typing import TYPE_CHECKING, Any

from visx.clean.reasons import family
from visx.debug import explain
from visx.debug.flat import flat_section
from visx.debug.layers import Box, Layers, table_for
from visx.debug.palette import column_colour, family_colour, region_colour, rgb
from visx.debug.template_link import region_template_json
from visx.debug.thresholds import CELL_ALPHA, REMOVED_ALPHA, TEXT_LIMIT

if TYPE_CHECKING:
    from visx.model import NodeTable, Region
    from visx.pipeline import Extraction
    from visx.schema.table import Cell


def esc(value: object) -> str:
    """HTML-escape any value for text or a quoted attribute."""
    return html.escape(str(value), quote=True)


def safe_json(obj: Any) -> str:
    """JSON that can sit inside ``<script type="application/json">`` whatever its strings hold."""
    text = json.dumps(obj, ensure_ascii=False, default=str, separators=(",", ":"))
    for ch, code in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                     ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(ch, code)
    return text


def _asset(name: str) -> str:
    return resources.files("visx.debug").joinpath(name).read_text(encoding="utf-8")


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= TEXT_LIMIT else text[: TEXT_LIMIT - 1] + "…"


def _rgba(colour: str, alpha: int) -> str:
    r, g, b = rgb(colour)
    return f"rgba({r},{g},{b},{alpha / 255:.2f})"


def _style(b: Box) -> str:
    x, y, w, h = b.bbox
    return f"left:{x:.1f}px;top:{y:.1f}px;width:{max(w, 1.0):.1f}px;height:{max(h, 1.0):.1f}px"


def render_html(ex: Extraction, layers: Layers, image_src: str, notes: list[str]) -> str:
    """The whole report as one string; ``image_src`` is a data: URI or a relative file name."""
    nonce = secrets.token_urlsafe(16)
    title = ex.title or "(no title)"
    csp = (f"default-src 'none'; img-src data: 'self' file:; style-src 'unsafe-inline'; "
           f"script-src 'nonce-{nonce}'")
    data = {"image": [layers.width, layers.height], "page": [layers.page_width, layers.page_height],
            "keys": _descriptions(ex)}
    parts = [
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{esc(csp)}\">",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        f"<title>visx report: {esc(title)}</title>",
        f"<style>{_asset('report.css')}{_EXTRA_CSS}</style></head><body>",
        _header(ex, notes),
        "<main><div class=\"pane shot\">",
        _toolbar(),
        _stage(layers, image_src, ex),
        "</div><div class=\"pane info\"><div id=\"status\">Click a box or a row.</div>",
        _summary(ex),
        *(_region_section(ex, k, layers, hint) for k, hint in enumerate(_hints(ex))),
        _removed_section(ex, layers),
        "</div></main>",
        f"<script type=\"application/json\" id=\"visx-data\">{safe_json(data)}</script>",
        f"<script nonce=\"{nonce}\">{_asset('report.js')}</script>",
        "</body></html>\n",
    ]
    return "".join(parts)


_EXTRA_CSS = (".cmd { margin: 4px 0 8px; font-size: 12px; }"
              ".cmd code { display: block; margin: 2px 0; padding: 3px 6px; background: #f2f2f2; "
              "border: 1px solid #ddd; border-radius: 3px; overflow-wrap: anywhere; user-select: all; }"
              ".chosen { display: inline-block; margin-left: 6px; padding: 0 5px; border-radius: 3px; "
              "background: #1d1d1d; color: #fff; font-size: 12px; font-weight: 600; }")
"""The commands and the chosen-list badge (report.css holds the rest)."""


def _hints(ex: Extraction) -> list[str | None]:
    """A ``--hint`` that chooses each region again (:func:`visx.choose.region_hints`)."""
    from visx.choose import region_hints

    try:
        return region_hints(ex)
    except ValueError:  # a page lxml cannot hold as a tree: the --region form still works
        return [None] * len(ex.regions)


def _source_arg(ex: Extraction) -> str:
    """SOURCE for a command line: the URL or file, quoted for a POSIX shell; ``-`` for HTML
    that was given as text (it is read from standard input again)."""
    return "-" if ex.source.lstrip().startswith("<") else shlex.quote(ex.source)


def region_commands(ex: Extraction, k: int, hint: str | None) -> list[str]:
    """The ``visx extract`` commands that make region ``k`` the main list: by rank, and by a
    hint when one chooses it again."""
    src = _source_arg(ex)
    out = [f"visx extract {src} --region {ex.regions[k].rank}"]
    if hint is not None:
        out.append(f"visx extract {src} --hint {shlex.quote(hint)}")
    return out


def template_link(rank: int, template_json: str) -> str:
    """A download link holding a region's template (a data: URI, nothing fetched)."""
    data = base64.b64encode(template_json.encode("utf-8")).decode("ascii")
    return (f"<a class=\"template\" download=\"region-{rank}.template.json\" "
            f"href=\"data:application/json;base64,{data}\">download a template for region #{rank}</a>")


def _chosen_text(ex: Extraction) -> str:
    c = ex.chosen
    if not c:
        return ""
    return f"#{c.get('rank')} by {c.get('by')} {c.get('value')!r}"


def _header(ex: Extraction, notes: list[str]) -> str:
    snap = ex.snapshot
    n_rec = sum(len(rg.records) for rg in ex.regions)
    timings = ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in ex.timings.items())
    meta = [f"<span class=\"k\">source</span> {esc(ex.source)}"]
    if ex.url and ex.url != ex.source:
        meta.append(f"<span class=\"k\">url</span> {esc(ex.url)}")
    meta += [f"<span class=\"k\">page</span> {snap.width:.0f}x{snap.height:.0f} px, {len(snap.nodes)} elements, "
             f"JavaScript {'on' if snap.javascript else 'off'}",
             f"<span class=\"k\">found</span> {len(ex.regions)} region(s), {n_rec} record(s), "
             f"{len(ex.cleaned.removed)} removal(s)",
             f"<span class=\"k\">time</span> {esc(timings)}", f"<span class=\"k\">created</span> {esc(ex.created)}"]
    if ex.chosen:
        meta.append(f"<span class=\"k\">chosen</span> {esc(_chosen_text(ex))} (the main list)")
    items = [f"<li>{esc(n)}</li>" for n in [*notes, *snap.notes]]
    items += [f"<li class=\"warn\">{esc(w)}</li>" for w in ex.warnings]
    for k in range(len(ex.regions)):
        t = table_for(ex, k)
        items += [f"<li class=\"warn\">{esc(w)}</li>" for w in (t.warnings if t else [])]
    notes_html = f"<ul class=\"notes\">{''.join(items)}</ul>" if items else ""
    return (f"<header><h1>{esc(ex.title or '(no title)')}</h1>"
            f"<div class=\"meta\">{' &middot; '.join(meta)}</div>{notes_html}</header>")


def _toolbar() -> str:
    layers = (("regions", "regions"), ("records", "records"), ("cells", "column cells"),
              ("removed", "removed areas"))
    boxes = "".join(f"<label><input type=\"checkbox\" data-layer=\"{k}\" checked> {t}</label>"
                    for k, t in layers)
    zoom = "".join(f"<option value=\"{v}\"{' selected' if v == 'fit' else ''}>{t}</option>"
                   for v, t in (("fit", "fit width"), ("0.25", "25%"), ("0.5", "50%"),
                                ("0.75", "75%"), ("1", "100%")))
    return (f"<div class=\"toolbar\">{boxes}<label>zoom <select id=\"zoom\">{zoom}</select></label>"
            "</div>")


def _stage(layers: Layers, image_src: str, ex: Extraction) -> str:
    out = [f"<div class=\"stage-wrap\" style=\"width:{layers.width}px;height:{layers.height}px\">"
           f"<div class=\"stage\" style=\"width:{layers.width}px;height:{layers.height}px\">"
           f"<img src=\"{esc(image_src)}\" width=\"{layers.width}\" height=\"{layers.height}\" "
           "alt=\"the page as rendered\">"]
    removed = ex.cleaned.removed
    for b in layers.removed:
        rm = removed[int(b.key[2:])]
        out.append(_box(layers, b, "rm", _rgba(b.colour, REMOVED_ALPHA), f"{rm.reason}: "
                        f"{explain.reason_text(rm.reason)}"))
    for b in layers.cells:
        out.append(_box(layers, b, "cell", _rgba(b.colour, CELL_ALPHA), ""))
    for b in layers.records:
        out.append(_box(layers, b, "rec", "", "", num=b.label))
    for b in layers.regions:
        out.append(_box(layers, b, "rg", "", "", num=b.label))
    out.append("</div></div>")
    return "".join(out)


def _box(layers: Layers, b: Box, cls: str, tint: str, title: str, num: str = "") -> str:
    extra = " beyond" if layers.beyond(b) else ""
    t = f" title=\"{esc(title)}\"" if title else ""
    tint_css = f";--t:{tint}" if tint else ""
    inner = f"<span class=\"num\">{esc(num)}</span>" if num else ""
    key = "" if cls == "cell" else f" data-key=\"{b.key}\""
    return (f"<div class=\"box {cls}{extra}\"{key}{t} style=\"{_style(b)};--c:{b.colour}{tint_css}\">"
            f"{inner}</div>")


def _summary(ex: Extraction) -> str:
    if not ex.regions:
        return "<h2>Regions</h2><p>No repeated records were found on this page.</p>"
    nodes = ex.snapshot.nodes
    rows = []
    for k, rg in enumerate(ex.regions):
        badge = "<span class=\"chosen\">chosen</span>" if ex.chosen and k == 0 else ""
        rows.append(f"<tr data-key=\"g{rg.rank}\"><td><span class=\"chip\" style=\"--c:{region_colour(rg.rank)}\">"
                    f"#{rg.rank}</span>{badge}</td><td>{esc(rg.role)}</td><td>{esc(rg.kind)}</td><td>{len(rg.records)}</td>"
                    f"<td>{rg.score:.4g}</td><td>{esc(_label(nodes, rg.parent))}</td></tr>")
    return ("<h2>Regions</h2><div class=\"scroll\"><table><thead><tr><th>rank</th><th>role</th><th>kind</th>"
            "<th>records</th><th>score</th><th>parent</th></tr></thead><tbody>"
            f"{''.join(rows)}</tbody></table></div>")


def _label(nodes: NodeTable, i: int) -> str:
    return nodes[i].label if 0 <= i < len(nodes) else "?"


def _region_section(ex: Extraction, k: int, layers: Layers, hint: str | None = None) -> str:
    rg = ex.regions[k]
    nodes = ex.snapshot.nodes
    by_rank = sorted(ex.regions, key=lambda r: r.rank)  # a chosen region sits first, out of rank order
    j = next(i for i, r in enumerate(by_rank) if r is rg)
    above = by_rank[j - 1] if j > 0 else None
    below = by_rank[j + 1] if j + 1 < len(by_rank) else None
    colour = region_colour(rg.rank)
    xpath = nodes[rg.parent].xpath if 0 <= rg.parent < len(nodes) else ""
    chosen = (f"<span class=\"chosen\" title=\"{esc(_chosen_text(ex))}\">chosen</span>"
              if ex.chosen and k == 0 else "")
    cmds = "".join(f"<code>{esc(c)}</code>" for c in region_commands(ex, k, hint))
    if hint is None:
        cmds += "<div class=\"sub\">No --hint form: no selector tells this region from another.</div>"
    template = region_template_json(ex, k)
    link = template_link(rg.rank, template) if isinstance(template, str) else ""
    head = (f"<section id=\"sec-g{rg.rank}\"><h2><span class=\"chip\" style=\"--c:{colour}\">#{rg.rank}</span>"
            f"{esc(rg.kind)} region, {len(rg.records)} records, score {rg.score:.4g}, "
            f"{'a data list' if rg.data else 'not data: ' + esc(rg.role)}{chosen}</h2>"
            f"<div class=\"sub\">{esc(_label(nodes, rg.parent))} &middot; {esc(xpath)} &middot; "
            f"miner {esc(rg.miner)}, {rg.gn_size} element(s) per record</div>"
            f"<p class=\"why\">{esc(explain.why_rank(rg, above, below))}</p>"
            f"<div class=\"cmd\"><span class=\"sub\">extract this list:</span>{cmds}{link}</div>")
    ev = "".join(f"<tr><td>{esc(explain.part_text(key))}</td><td>{esc(explain.fmt_value(key, float(v)))}</td></tr>"
                 for key, v in rg.evidence.items())
    ev_html = (f"<details><summary>score parts ({len(rg.evidence)})</summary><table class=\"ev\">"
               f"<tbody>{ev}</tbody></table></details>") if ev else ""
    beyond = {b.key for b in layers.records if layers.beyond(b)}
    return head + ev_html + flat_section(rg) + _data_table(ex, k, rg, beyond) + "</section>"


def _data_table(ex: Extraction, k: int, rg: Region, beyond: set[str]) -> str:
    table = table_for(ex, k)
    nodes = ex.snapshot.nodes
    cols = table.default_columns() if table is not None else []
    colour = region_colour(rg.rank)
    heads = "".join(f"<th><span class=\"swatch\" style=\"--c:{column_colour(c)}\"></span>"
                    f"{esc(table.columns[c].name)}<span class=\"type\">{esc(table.columns[c].type)}"
                    f" &middot; {table.columns[c].fill:.0%}</span></th>"
                    for c in cols) if table is not None else ""
    if not cols:
        heads = "<th>record text</th>"
    rows = []
    for r, rec in enumerate(rg.records, 1):
        key = f"g{rg.rank}r{r}"
        cls = " class=\"beyond\"" if key in beyond else ""
        if cols and table is not None and r <= len(table.rows):
            row = table.rows[r - 1]
            tds = "".join(_cell_html(row[c] if c < len(row) else None) for c in cols)
        else:
            text = rec.text or " ".join(nodes.text(p) for p in rec.parts)
            tds = f"<td>{esc(_clip(text))}</td>"
        rows.append(f"<tr data-key=\"{key}\"{cls}><td><span class=\"chip\" style=\"--c:{colour}\">{r}</span></td>"
                    f"{tds}</tr>")
    note = ""
    if table is None:
        note = "<p class=\"sub\">No table for this region (the table stages did not run): record text shown.</p>"
    elif table.columns and len(cols) < len(table.columns):
        hidden = ", ".join(f"{c.name} ({'/'.join(c.flags)})" for c in table.columns if c.hidden)
        note = f"<p class=\"sub\">Left out of the table: {esc(hidden)}.</p>"
    return (f"<div class=\"scroll\"><table class=\"data\"><thead><tr><th>#</th>{heads}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>{note}")


def _cell_html(cell: Cell | None) -> str:
    if cell is None:
        return "<td class=\"val\"></td>"
    link = cell.href or cell.src
    title = f" title=\"{esc(link)}\"" if link else ""
    shown = _value_text(cell.value)
    if cell.src and shown == cell.src:  # an image: its file name says enough, the title has the rest
        shown = "image " + cell.src.rstrip("/").rsplit("/", 1)[-1]
    extra = f"<span class=\"v\">{esc(_clip(shown))}</span>" if shown and shown != cell.text else ""
    return f"<td{title}>{esc(_clip(cell.text))}{extra}</td>"


def _value_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dict):
        return " ".join(str(v) for v in value.values() if v is not None)
    if isinstance(value, list):
        return " | ".join(str(v) for v in value)
    return str(value)


def _removed_section(ex: Extraction, layers: Layers) -> str:
    nodes = ex.snapshot.nodes
    drawn = {b.key for b in layers.removed}
    shown: list[str] = []
    folded: list[str] = []
    for i, rm in enumerate(ex.cleaned.removed):
        if not 0 <= rm.node < len(nodes):
            continue
        key = f"rm{i}"
        n = nodes[rm.node]
        row = (f"<tr data-key=\"{key}\"><td><span class=\"chip\" style=\"--c:{family_colour(family(rm.reason))}\">"
               f"{esc(rm.reason)}</span></td><td>{esc(explain.reason_text(rm.reason))}"
               f"{' (' + esc(rm.detail) + ')' if rm.detail else ''}</td>"
               f"<td>{esc(n.label)}<div class=\"sub\">{esc(n.xpath)}</div></td>"
               f"<td>{n.x:.0f},{n.y:.0f} {n.w:.0f}x{n.h:.0f}</td></tr>")
        (shown if key in drawn else folded).append(row)
    head = "<thead><tr><th>reason</th><th>why</th><th>element</th><th>box</th></tr></thead>"
    out = [f"<section id=\"removed\"><h2>Removed areas ({len(ex.cleaned.removed)})</h2>"]
    if shown:
        out.append(f"<div class=\"scroll\"><table>{head}<tbody>{''.join(shown)}</tbody></table></div>")
    if folded:
        out.append(f"<details><summary>{len(folded)} removed element(s) with no area on the page "
                   f"(scripts, hidden elements)</summary><div class=\"scroll\"><table>{head}<tbody>"
                   f"{''.join(folded)}</tbody></table></div></details>")
    if not ex.cleaned.removed:
        out.append("<p>Nothing was removed.</p>")
    out.append("</section>")
    return "".join(out)


def _descriptions(ex: Extraction) -> dict[str, str]:
    """Status-bar text for every key (page text included: it goes out as JSON, shown via textContent)."""
    nodes = ex.snapshot.nodes
    out: dict[str, str] = {}
    for rg in ex.regions:
        out[f"g{rg.rank}"] = (f"region #{rg.rank}: {rg.kind}, {len(rg.records)} records, score {rg.score:.4g}, "
                              f"{_label(nodes, rg.parent)}")
        for r, rec in enumerate(rg.records, 1):
            text = rec.text or " ".join(nodes.text(p) for p in rec.parts)
            parts = ", ".join(_label(nodes, p) for p in rec.parts)
            out[f"g{rg.rank}r{r}"] = f"region #{rg.rank}, record {r} ({parts}): {_clip(text)}"
    for i, rm in enumerate(ex.cleaned.removed):
        out[f"rm{i}"] = (f"removed {_label(nodes, rm.node)}: {rm.reason}, "
                         f"{explain.reason_text(rm.reason)}{' (' + rm.detail + ')' if rm.detail else ''}")
    return out
