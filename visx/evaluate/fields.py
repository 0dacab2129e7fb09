"""Field-level scores (``score_fields``, ALGORITHMS.md "Evaluation terms"), on the top-ranked region's table
(``Extraction.tables[0]``, every column, including those flagged constant or
label, since gold lists constant fields such as "Ad" or a currency too):

**Cells.** A gold cell is one non-empty cell of records.csv; gold field j is
column j of records.csv. A predicted cell is a non-None cell of the table.

**Cell agreement.** A gold cell agrees with a predicted cell when their
normalised texts (NFKC, lower case, punctuation to spaces, whitespace
collapsed) are equal, or the token Dice ``2|G ∩ P| / (|G| + |P|)`` of their
token sets (``tokens``) is >= 0.8. The predicted text is the cell's text; for
a list-valued cell also its items joined by spaces; when the gold cell is a
URL (one word starting with a scheme, ``//``, ``www.`` or ``host.tld/``) also
the cell's ``href`` and ``src``. A gold cell with no letters or
digits ("★★★★", "-") agrees only with a cell whose text is the same after
NFKC, case folding and whitespace collapsing. Dice, not containment as for
records: a cell holding two fields ("title 24.99") must not pass for either.

**Field mapping.** Over the matched record pairs (g, p) of the top region,
``agree[j][k]`` counts the pairs whose gold cell j agrees with row p's cell
in column k. Each gold field gets at most one column and each column at most
one field, maximising the total agreement (the Hungarian method,
``assign.max_weight_assignment``); among equal totals the columns with fewer
non-agreeing cells win. A field whose best column agrees nowhere is unmapped.

**Cell P/R/F1 (over matched records).** correct = sum of ``agree[j][k]`` over
the mapped pairs; P = correct / non-empty cells of the mapped columns in the
matched rows; R = correct / gold cells of the matched gold records. Columns
mapped to no gold field (buttons, extra fields the labeller skipped) do not
count against P. Record errors are measured by the record scores; the
**end-to-end** figures add them: R_e2e = correct / all gold cells of the page,
P_e2e = correct / cells of the mapped columns in every row of the table.
Pages, categories and the whole set are micro-averaged (counts summed).

**Column purity.** For each column k holding at least one gold cell, its
dominant field is the gold field with the most agreeing cells in it; purity
= sum of the dominant counts / sum of those columns' non-empty cells, over
the matched rows. A column mixing two fields (price in some rows, date in
others) or carrying non-gold values in some rows lowers it. The mapping plays
no part: purity asks whether a column mixes fields, the mapping whether each
field found one column.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import astuple, dataclass, field
from typing import Any, NamedTuple, Protocol

from rapidfuzz.utils import default_process

from visx.evaluate import thresholds as th
from visx.evaluate.assign import max_weight_assignment
from visx.evaluate.metrics import tokens


class CellLike(Protocol):
    """What the field scores read from a table cell (``visx.schema.table.Cell``)."""

    @property
    def text(self) -> str: ...
    @property
    def value(self) -> Any: ...
    @property
    def href(self) -> str | None: ...
    @property
    def src(self) -> str | None: ...


_URL = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|//|www\.|(?:[a-z0-9-]+\.)+[a-z]{2,}/)\S*$", re.IGNORECASE)
"""A gold cell that is a URL: a scheme, ``//`` or ``www.`` first, or a host name and a slash."""


class _Text(NamedTuple):
    raw: str
    """NFKC, case-folded, whitespace collapsed: compared when ``norm`` is empty."""
    norm: str
    toks: frozenset[str]


def _prep(text: str) -> _Text:
    nfkc = unicodedata.normalize("NFKC", text)
    return _Text(" ".join(nfkc.casefold().split()), " ".join(default_process(nfkc).split()), tokens(text))


def dice(a: frozenset[str], b: frozenset[str]) -> float:
    """Token Dice coefficient (0 when both sets are empty)."""
    return 2 * len(a & b) / (len(a) + len(b)) if a or b else 0.0


def _agrees(g: _Text, p: _Text) -> bool:
    if not g.norm:
        return bool(g.raw) and g.raw == p.raw
    return g.norm == p.norm or dice(g.toks, p.toks) >= th.CELL_DICE


def cell_agrees(gold: str, cell: CellLike) -> bool:
    """True when the gold cell text agrees with the predicted cell (see the module docstring)."""
    texts, links = _cell_texts(cell)
    g = _prep(gold)
    return any(_agrees(g, p) for p in (texts + links if _URL.match(gold.strip()) else texts))


def _cell_texts(cell: CellLike) -> tuple[list[_Text], list[_Text]]:
    """The cell's texts (its text, its list items joined) and its links (href, src)."""
    texts = [_prep(cell.text or "")]
    if isinstance(cell.value, list) and cell.value:
        texts.append(_prep(" ".join(str(v) for v in cell.value)))
    links = [_prep(u) for u in (cell.href, cell.src) if u]
    return texts, links


@dataclass(slots=True, frozen=True)
class FieldScore:
    """Cell counts of the field mapping and the figures they give (micro-averaged by ``+``)."""

    correct: int = 0
    """Gold cells of matched records found in the column their field maps to."""
    predicted: int = 0
    """Non-empty cells of the mapped columns in the matched rows."""
    gold: int = 0
    """Non-empty gold cells of the matched gold records."""
    predicted_all: int = 0
    """Non-empty cells of the mapped columns in every row of the table."""
    gold_all: int = 0
    """Non-empty gold cells of every gold record of the page."""
    pure: int = 0
    """Per column holding gold cells: the cells of its dominant gold field, summed."""
    column_cells: int = 0
    """Non-empty cells (matched rows) of the columns holding gold cells."""

    @property
    def precision(self) -> float:
        return self.correct / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.correct / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        return _f1(self.precision, self.recall)

    @property
    def e2e_precision(self) -> float:
        return self.correct / self.predicted_all if self.predicted_all else 0.0

    @property
    def e2e_recall(self) -> float:
        return self.correct / self.gold_all if self.gold_all else 0.0

    @property
    def e2e_f1(self) -> float:
        return _f1(self.e2e_precision, self.e2e_recall)

    @property
    def purity(self) -> float:
        return self.pure / self.column_cells if self.column_cells else 0.0

    def __add__(self, other: FieldScore) -> FieldScore:
        return FieldScore(*(a + b for a, b in zip(astuple(self), astuple(other), strict=True)))


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


@dataclass(slots=True, frozen=True)
class FieldMap:
    """One gold field mapped to one predicted column."""

    gold_field: int
    column: int
    agree: int
    """Matched records whose gold cell agrees with the column's cell."""
    gold_cells: int
    """Non-empty gold cells of the field in the matched records."""
    column_cells: int
    """Non-empty cells of the column in the matched rows."""


@dataclass(slots=True)
class PageFields:
    """Field-level result of one page (top-ranked region)."""

    score: FieldScore = FieldScore()
    mapping: list[FieldMap] = field(default_factory=list)
    gold_cells: list[int] = field(default_factory=list)
    """Non-empty gold cells per gold field, in the matched records."""
    samples: list[str] = field(default_factory=list)
    """A value of each gold field (for reasons)."""
    columns: list[str] = field(default_factory=list)
    """Names of the table's columns (all of them)."""
    matched: int = 0
    """Matched record pairs the mapping was taken over."""

    @property
    def gold_fields(self) -> int:
        """Gold fields with a value in at least one matched record."""
        return sum(1 for n in self.gold_cells if n)


def score_fields(
    gold: Sequence[Sequence[str]],
    rows: Sequence[Sequence[CellLike | None]] | None,
    pairs: Sequence[tuple[int, int]],
    columns: Sequence[str] = (),
) -> PageFields:
    """Map gold fields to the table's columns and count cells (module docstring, "Field-level").

    ``gold`` holds the cells of each gold record, ``rows`` the top table's rows
    (``rows[p]`` belongs to predicted record p; None when there is no table),
    ``pairs`` the matched ``(gold, predicted)`` record pairs of that region.
    """
    n_fields = max((len(g) for g in gold), default=0)
    gold_all = sum(1 for g in gold for c in g if c)
    pairs = [(g, p) for g, p in pairs if rows is not None and p < len(rows)]
    gold_cells = [sum(1 for g, _ in pairs if j < len(gold[g]) and gold[g][j]) for j in range(n_fields)]
    samples = [next((g[j] for g in gold if j < len(g) and g[j]), "") for j in range(n_fields)]
    if not rows or not pairs:
        matched_gold = sum(1 for g, _ in pairs for c in gold[g] if c)
        return PageFields(FieldScore(gold=matched_gold, gold_all=gold_all), [], gold_cells, samples,
                          list(columns), len(pairs))
    n_cols = max(len(r) for r in rows)
    agree = [[0] * n_cols for _ in range(n_fields)]
    cells = [0] * n_cols
    for g, p in pairs:
        row = rows[p]
        prepared = [_cell_texts(c) if c is not None else None for c in row]
        for k, c in enumerate(prepared):
            if c is not None:
                cells[k] += 1
        for j, text in enumerate(gold[g]):
            if not text:
                continue
            gt = _prep(text)
            is_url = bool(_URL.match(text.strip()))
            for k, c in enumerate(prepared):
                if c is not None and any(_agrees(gt, t) for t in (c[0] + c[1] if is_url else c[0])):
                    agree[j][k] += 1
    # Lexicographic weight: most agreeing cells first, then fewest other cells in the column.
    big = sum(cells) + 1
    weights = [[a * big - (cells[k] - a) if a else 0 for k, a in enumerate(row)] for row in agree]
    mapping = [FieldMap(j, k, agree[j][k], gold_cells[j], cells[k])
               for j, k in max_weight_assignment(weights)]
    mapped = {m.column for m in mapping}
    dominant = [max((agree[j][k] for j in range(n_fields)), default=0) for k in range(n_cols)]
    score = FieldScore(
        correct=sum(m.agree for m in mapping),
        predicted=sum(cells[k] for k in mapped),
        gold=sum(gold_cells),
        predicted_all=sum(1 for r in rows for k in mapped if k < len(r) and r[k] is not None),
        gold_all=gold_all,
        pure=sum(dominant),
        column_cells=sum(cells[k] for k in range(n_cols) if dominant[k]),
    )
    return PageFields(score, mapping, gold_cells, samples, list(columns), len(pairs))


def field_reason(pf: PageFields, record_reason: str = "") -> str:
    """A short label for the largest loss of cells on a page."""
    s = pf.score
    if not s.gold_all:
        return "no gold cells"
    if not pf.matched:
        return f"no matched records ({record_reason})" if record_reason else "no matched records"
    if s.correct == s.gold == s.predicted:
        return "perfect"
    by_field = {m.gold_field: m for m in pf.mapping}
    lost = [(n - (by_field[j].agree if j in by_field else 0), j) for j, n in enumerate(pf.gold_cells)]
    worst_lost, j = max(lost, default=(0, -1))
    wrong = [(m.column_cells - m.agree, m) for m in pf.mapping]
    worst_wrong, m_wrong = max(wrong, key=lambda t: t[0], default=(0, None))
    unmapped = sum(1 for j2, n in enumerate(pf.gold_cells) if n and j2 not in by_field)
    if m_wrong is not None and worst_wrong > worst_lost:
        why = (f"column {_col(pf, m_wrong.column)} holds other values ({worst_wrong} of "
               f"{m_wrong.column_cells} cells are not field {m_wrong.gold_field + 1})")
    elif j in by_field:
        m = by_field[j]
        why = (f"field {j + 1} ({_quote(pf.samples[j])}) agrees in {m.agree}/{m.gold_cells} "
               f"records with column {_col(pf, m.column)}")
    else:
        why = f"field {j + 1} ({_quote(pf.samples[j])}) in no column"
        unmapped -= 1
        if unmapped:
            why += f"; {unmapped} more of {pf.gold_fields} fields in none"
        return why
    if unmapped:
        why += f"; {unmapped} of {pf.gold_fields} fields in no column"
    return why


def _col(pf: PageFields, k: int) -> str:
    return f"{k} '{pf.columns[k]}'" if k < len(pf.columns) else str(k)


def _quote(text: str, n: int = 30) -> str:
    return repr(text if len(text) <= n else text[: n - 3] + "...")
