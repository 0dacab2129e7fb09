"""``visx check``: does a page still yield what its template promises? For CI.

The template is applied as ``visx apply --no-repair --lenient`` would
(:func:`visx.template.apply_template` with ``repair=False, strict=False``) and
what the page yields is held against the template's promises:

- ``records``: a record count within ``MIN_RECORDS_SHARE`` x and
  ``MAX_RECORDS_FACTOR`` x the median of the template's recent counts;
- per column (visible ones; every one with ``all_columns``): found, of the
  template's type, and filled in at least the learned share less
  ``FILL_TOLERANCE`` (and never under ``FILL_DROP`` of it, where ``visx apply``
  would repair). A column learned in fewer than ``OPTIONAL_FILL`` of the
  records is optional: only its type is held to, where it has values.

What else ``visx apply`` finds wrong with a column (it now reads another
column's values; its values no longer parse as its type) breaks the column's
promise too, and the bounds above are at least as strict as those at which
``apply`` repairs: a page that passes ``check`` is one ``apply`` runs without
a repair.

A broken promise reads as a diff (``-`` what the template promises, ``+`` what
the page gives); :func:`write_junit` writes the results as JUnit XML for CI
dashboards: one testsuite per page, one testcase per promise.
"""

from __future__ import annotations

import math
import re
import socket
import statistics
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit
from xml.etree import ElementTree as ET

from visx.config import Config
from visx.errors import ExportError
from visx.template import thresholds as th
from visx.template.match import site_of
from visx.template.model import Template

if TYPE_CHECKING:
    from visx.model import PageSnapshot
    from visx.template.api import Applied
    from visx.template.apply import Problem

# ------------------------------------------------------------------ thresholds

MIN_RECORDS_SHARE = th.DRIFT
"""Fewer records than this share of the usual count: the list was lost or cut. The share at
which ``visx apply`` repairs the record list; a check passes no page that ``apply`` repairs."""
MAX_RECORDS_FACTOR = 3.0
"""More records than this many times the usual count: the record path now also matches another
list (menus, footers, a second list of the page). A site's list pages show one page size, give
or take a short last page and a few inserted items, so three times as many is no longer that.
A page that legitimately shows more (a larger page size, ``--pages N``) wants its template
learned again on such a page."""
FILL_TOLERANCE = 0.3
"""A column may be filled in this much less of the records than when it was learned (0.3 of
the records: a column learned full passes down to 70%). Which records show an optional field
(a badge, a rating) is each page's own business, so a column's fill moves from page to page;
a column learned full and now missing from a third of the records has lost its element in
some layout of the records, which is what a check is for."""
FILL_DROP = th.FILL_DROP
"""...and never below this share of its learned fill: where ``visx apply`` calls a column
sparse and repairs it."""
OPTIONAL_FILL = th.CHECK_MIN_FILL
"""Columns filled in fewer records when learned are optional: their emptiness on a page proves
nothing (``visx apply`` uses the same bound)."""
_COMPATIBLE = frozenset({"integer", "number"})
"""Types that stand in for each other: a page whose counts all happen to be whole numbers
types a number column as integer, and the reverse."""


# ------------------------------------------------------------------ results

@dataclass(slots=True)
class Promise:
    """One thing the template promises about a page, and whether the page keeps it."""

    name: str
    """``records`` or ``column <name>``: the testcase's name."""
    expected: str
    """What the template promises, one line (the diff's ``-`` line)."""
    got: str
    """What the page gives, one line (the diff's ``+`` line)."""
    broken: list[str] = field(default_factory=list)
    """Why the promise is broken; empty when it is kept."""
    skipped: str = ""
    """Why it could not be checked (a column on a page without records)."""

    @property
    def kept(self) -> bool:
        return not self.broken

    def diff(self) -> str:
        lines = [f"- {self.expected}", f"+ {self.got}"]
        lines.extend(f"    {why}" for why in self.broken)
        return "\n".join(lines)


@dataclass(slots=True)
class CheckResult:
    """The promises of one page (or the error that kept it from being checked)."""

    source: str
    promises: list[Promise] = field(default_factory=list)
    records: int = 0
    url: str = ""
    template: str = ""
    """The template's file (or its URL when it has none)."""
    version: int = 0
    error: str = ""
    error_type: str = ""
    seconds: float = 0.0
    timestamp: str = ""

    @property
    def broken(self) -> list[Promise]:
        return [p for p in self.promises if p.broken]

    @property
    def ok(self) -> bool:
        return not self.error and not self.broken

    def report(self) -> str:
        """The page's verdict on one line, then a diff per broken promise."""
        if self.error:
            return f"ERROR {self.source}: {self.error}"
        n = len(self.promises)
        if self.ok:
            return f"PASS {self.source}: {self.records} record(s); {n} promise(s) kept"
        head = (f"FAIL {self.source}: {self.records} record(s); {len(self.broken)} of {n} promise(s) "
                f"broken (template {self.template} v{self.version})")
        return "\n".join([head, *(p.diff() for p in self.broken)])


# ------------------------------------------------------------------ checking

def check_page(source: str | Path | PageSnapshot, template: Template, config: Config | None = None, *,
               static: bool = False, javascript: bool | None = None, all_columns: bool = False,
               template_name: str = "") -> CheckResult:
    """Apply ``template`` to ``source`` without repair and hold the page to the template's promises.

    Raises what loading the page raises (:class:`visx.VisxError`); a page that loads but breaks
    a promise is a result, not an error.
    """
    from visx.model import PageSnapshot
    from visx.pipeline import is_snapshot_path
    from visx.render.snapshot_io import load_snapshot
    from visx.template.api import apply_template

    t0 = time.perf_counter()
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    page: str | Path | PageSnapshot = source
    if not isinstance(page, PageSnapshot) and is_snapshot_path(page):
        page = load_snapshot(page)
    aimed = aimed_at(template, _page_url(page, config))
    # check applies the one template it is given: no URL is turned away (R(w, m) >= 0 > -1).
    applied = apply_template(page, aimed, config, static=static, repair=False, strict=False,
                             min_similarity=-1.0, javascript=javascript)
    res = CheckResult(
        source=_name_of(source),
        promises=promises(template, applied, all_columns=all_columns),
        records=_records_of(applied), url=applied.extraction.url,
        template=template_name or template.url, version=template.version,
        seconds=round(time.perf_counter() - t0, 3), timestamp=stamp,
    )
    return res


def _name_of(source: str | Path | PageSnapshot) -> str:
    from visx.model import PageSnapshot

    if isinstance(source, PageSnapshot):
        return source.source
    s = str(source)
    return "(HTML text)" if s.lstrip().startswith("<") else s


def aimed_at(t: Template, page_url: str) -> Template:
    """``t`` with its URL moved to the page's scheme and host (its path kept), so the site
    matching of :func:`apply_template` lets the named template run on that page: a template
    learned on www.shop.example checks staging.shop.example, or a saved copy of the page."""
    if not page_url:
        return t
    page, own = urlsplit(page_url), urlsplit(t.url)
    if site_of(page_url) == site_of(t.url):
        return t
    url = urlunsplit((page.scheme, page.netloc, own.path, own.query, own.fragment))
    return t.model_copy(update={"url": url, "site": site_of(url)})


def _page_url(page: str | Path | PageSnapshot, config: Config | None) -> str:
    """The page's URL as far as it is known before loading it (HTML text is at ``--base-url``,
    else ``about:blank``, as rendering and ``--static`` place it)."""
    from visx.model import PageSnapshot

    if isinstance(page, PageSnapshot):
        return page.url
    s = str(page).strip()
    if s.startswith("<"):
        return (config.render.base_url if config else None) or "about:blank"
    if urlsplit(s).scheme.lower() in ("http", "https", "file"):
        return s
    try:
        return Path(s).resolve().as_uri()
    except (OSError, ValueError):
        return ""


def _records_of(applied: Applied) -> int:
    ex = applied.extraction
    return len(ex.regions[0].records) if ex.regions else 0


def promises(t: Template, applied: Applied, *, all_columns: bool = False) -> list[Promise]:
    """The template's promises held against what applying it gave (see the module docstring)."""
    ex = applied.extraction
    table = ex.tables[0] if ex.tables else None
    n = _records_of(applied)
    problems: dict[str, list[Problem]] = {}
    for p in applied.problems:
        problems.setdefault(p.item, []).append(p)
    out = [_records_promise(t, n)]
    for k, col in enumerate(t.columns):
        if col.hidden and not all_columns:
            continue
        optional = col.fill < OPTIONAL_FILL
        want = f"{col.name}: type {col.type}, filled {_pct(col.fill)}" + (" (optional)" if optional else "")
        if not n or table is None or k >= len(table.columns):
            out.append(Promise(f"column {col.name}", want, f"{col.name}: no records to read it from",
                               skipped="no records found"))
            continue
        cells = [row[k] for row in table.rows]
        filled = sum(c is not None for c in cells)
        fill = filled / n
        built = table.columns[k].type
        broken: list[str] = []
        if filled:
            got = f"{col.name}: type {built}, filled {_pct(fill)}"
            if built != col.type and not {built, col.type} <= _COMPATIBLE:
                broken.append(f"its values read as {built}, not {col.type}")
        else:
            got = f"{col.name}: not found (filled 0%)"
        need = _fill_needed(col.fill)
        if not optional and fill < need:
            broken.append(f"filled in {filled} of {n} record(s), under the {_pct(need)} it promises"
                          if filled else f"no value in any of {n} record(s)")
        typed = any(b.startswith("its values read as") for b in broken)
        broken.extend(p.detail for p in problems.get(col.name, [])
                      if p.kind == "clash" or (p.kind == "mistyped" and not typed))
        out.append(Promise(f"column {col.name}", want, got, broken))
    return out


def _records_promise(t: Template, n: int) -> Promise:
    counts = t.records.counts
    if not counts:
        want = "records: at least 1"
        lo, hi = 1, math.inf
    else:
        usual = statistics.median(counts)
        lo = max(1, math.ceil(MIN_RECORDS_SHARE * usual))
        hi = MAX_RECORDS_FACTOR * usual
        want = f"records: {usual:g} usually (from {lo} to {math.floor(hi)})"
    broken: list[str] = []
    if n < lo:
        broken.append("no record found" if not n else f"{n} record(s), under the {lo} it promises")
    elif n > hi:
        broken.append(f"{n} record(s), over the {math.floor(hi)} it promises: the record path now "
                      "matches more than the list")
    return Promise("records", want, f"records: {n}", broken)


def _fill_needed(learned: float) -> float:
    return max(0.0, learned - FILL_TOLERANCE, FILL_DROP * learned)


def _pct(x: float) -> str:
    return f"{x:.0%}"


# ------------------------------------------------------------------ JUnit XML

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
"""Characters XML 1.0 cannot hold (a page's text quoted in a diff may have them)."""


def _x(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def junit_tree(results: list[CheckResult]) -> ET.Element:
    """JUnit XML of the results: a testsuite per page, a testcase per promise (``records``,
    ``column NAME``), broken ones with a ``failure`` holding the diff; a page that could not be
    checked has one ``page`` testcase with an ``error``."""
    root = ET.Element("testsuites", name="visx check")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    host = socket.gethostname()
    total_time = 0.0
    for res in results:
        suite = ET.SubElement(root, "testsuite", name=_x(res.source), hostname=host,
                              timestamp=res.timestamp or datetime.now(UTC).isoformat(timespec="seconds"),
                              time=f"{res.seconds:.3f}")
        props = ET.SubElement(suite, "properties")
        for key, value in (("template", res.template), ("template_version", str(res.version)),
                           ("url", res.url), ("records", str(res.records))):
            if value:
                ET.SubElement(props, "property", name=key, value=_x(value))
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        if res.error:
            case = ET.SubElement(suite, "testcase", classname=_x(res.source), name="page",
                                 time=f"{res.seconds:.3f}")
            err = ET.SubElement(case, "error", message=_x(res.error), type=res.error_type or "error")
            err.text = _x(res.error)
            counts["tests"] += 1
            counts["errors"] += 1
        for p in res.promises:
            case = ET.SubElement(suite, "testcase", classname=_x(res.source), name=_x(p.name), time="0")
            counts["tests"] += 1
            if p.skipped:
                ET.SubElement(case, "skipped", message=p.skipped)
                counts["skipped"] += 1
            elif p.broken:
                fail = ET.SubElement(case, "failure", message=_x("; ".join(p.broken)), type="broken-promise")
                fail.text = _x(p.diff())
                counts["failures"] += 1
        for k, v in counts.items():
            suite.set(k, str(v))
            totals[k] += v
        total_time += res.seconds
    for k, v in totals.items():
        root.set(k, str(v))
    root.set("time", f"{total_time:.3f}")
    return root


def write_junit(results: list[CheckResult], path: str | Path) -> Path:
    """Write :func:`junit_tree` to ``path`` atomically (a CI reader never sees half a file)."""
    from visx.atomic import write_bytes

    p = Path(path)
    root = junit_tree(results)
    ET.indent(root)
    data = ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"
    try:
        write_bytes(p, data)
    except OSError as e:
        raise ExportError(f"{p}: cannot write the JUnit report ({e.strerror or e}); check the folder "
                          "is writable", source=str(p)) from e
    return p
