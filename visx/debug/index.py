"""One page that lists a batch's debug reports: each source, what was found, or why it failed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from visx.debug.html import esc
from visx.errors import ExportError

INDEX_HTML = "index.html"

_STYLE = """body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse}td,th{padding:.3em .8em;border-bottom:1px solid #ddd;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}tr.failed td{color:#a40000}"""


@dataclass(frozen=True, slots=True)
class IndexEntry:
    """One source of the batch: its report folder (relative to the index) or its error."""

    number: int
    """1-based position in the batch."""
    source: str
    report: str | None = None
    regions: int = 0
    records: int = 0
    error: str = ""


def index_html(entries: list[IndexEntry]) -> str:
    failed = sum(1 for e in entries if e.report is None)
    rows = []
    for e in entries:
        if e.report is None:
            rows.append(f'<tr class="failed"><td class="n">{e.number}</td><td>{esc(e.source)}</td>'
                        f'<td colspan="2">failed: {esc(e.error)}</td></tr>')
        else:
            rows.append(f'<tr><td class="n">{e.number}</td><td><a href="{esc(e.report)}">{esc(e.source)}</a></td>'
                        f'<td class="n">{e.regions}</td><td class="n">{e.records}</td></tr>')
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>visx batch: {len(entries)} sources'
            f"</title><style>{_STYLE}</style></head><body><h1>visx batch</h1>"
            f"<p>{len(entries)} source(s), {failed} failed. Each link opens that page's report.</p>"
            "<table><tr><th>#</th><th>source</th><th>regions</th><th>records in the main one</th></tr>"
            + "".join(rows) + "</table></body></html>")


def write_index(out_dir: Path, entries: list[IndexEntry]) -> Path:
    """Write ``index.html`` into ``out_dir`` (whole or not at all); return its path."""
    from visx.atomic import write_bytes

    path = Path(out_dir) / INDEX_HTML
    try:
        write_bytes(path, index_html(entries).encode("utf-8"))
    except OSError as e:
        raise ExportError(f"{path}: cannot write the batch index ({e.strerror}); "
                          "choose a writable folder with --debug") from e
    return path
