"""Record-level scores (ALGORITHMS.md, "Evaluation terms").

**Record match.** Texts are normalised (NFKC, rapidfuzz's ``default_process``:
lower case, punctuation to spaces) and split into a set of tokens; runs of
CJK or Thai script, written without spaces, become one token per character.
The similarity of a gold record G and a predicted record P is the share of
G's tokens found in P: ``|G ∩ P| / |G|``. They match when it is >= 0.8, and
matches are one-to-one (a maximum matching, so no record is counted twice).

Why containment and not a symmetric ratio: gold rows list the fields a person
chose, while a correct record also shows buttons, star widgets and labels
("Want to Read", "1 of 5 stars"); a symmetric measure (Dice) rejects ~14% of
correct records on the dev set. rapidfuzz's ``token_set_ratio`` is 1.0
whenever one token set holds the other, so a title-only fragment of a record
would score perfectly; containment of the gold in the prediction rejects it.
A prediction that swallows several gold records still matches only one of
them, so merged records cost recall.

**Main-region hit.** The top-ranked region is the gold region when its F1 is
>= 0.5, or when it holds more than half of the gold records that any region
matches (so a correct region whose records are badly cut still counts as the
right place; ranking and segmentation are reported separately).

**Perfect page.** The top-ranked region has P = R = 1.

Field-level scores (``score_fields``), on the top-ranked region's table
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
from collections.abc import Iterable, Sequence
from dataclasses import astuple, dataclass, field
from typing import Any, NamedTuple, Protocol

from rapidfuzz.utils import default_process

from visx.evaluate import thresholds as th
from visx.evaluate.assign import max_weight_assignment

_UNSPACED = re.compile(r"([\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff])")


def tokens(text: str) -> frozenset[str]:
    """The normalised token set of ``text``."""
    norm = default_process(unicodedata.normalize("NFKC", text))
    norm = _UNSPACED.sub(r" \1 ", norm)
    return frozenset(norm.split())


def containment(gold: frozenset[str], pred: frozenset[str]) -> float:
    """Share of the gold tokens present in the prediction (0 for an empty gold)."""
    if not gold:
        return 0.0
    return len(gold & pred) / len(gold)


def similarity(gold_text: str, pred_text: str) -> float:
    return containment(tokens(gold_text), tokens(pred_text))


def similarity_matrix(gold: Sequence[frozenset[str]], pred: Sequence[frozenset[str]]) -> list[list[float]]:
    """``m[g][p]``: similarity of gold record g and predicted record p."""
    return [[containment(g, p) for p in pred] for g in gold]


def match(sim: Sequence[Sequence[float]], threshold: float = th.MATCH_SIMILARITY) -> list[tuple[int, int]]:
    """A maximum one-to-one matching over the pairs with ``sim >= threshold``.

    Greedy on descending similarity first (so the pairs are the natural ones),
    then augmenting paths until no more pairs can be added: the count is the
    largest possible, which is what P and R need.
    """
    n_gold = len(sim)
    edges: list[list[int]] = []
    pairs: list[tuple[float, int, int]] = []
    for g, row in enumerate(sim):
        cand = [p for p, s in enumerate(row) if s >= threshold]
        cand.sort(key=lambda p: -row[p])
        edges.append(cand)
        pairs.extend((row[p], g, p) for p in cand)
    gold_of: dict[int, int] = {}
    pred_of: dict[int, int] = {}
    for _s, g, p in sorted(pairs, key=lambda t: (-t[0], t[1], t[2])):
        if g not in pred_of and p not in gold_of:
            pred_of[g], gold_of[p] = p, g
    for g0 in range(n_gold):
        if g0 not in pred_of and edges[g0]:
            _augment(g0, edges, pred_of, gold_of)
    return sorted(pred_of.items())


def _augment(g0: int, edges: list[list[int]], pred_of: dict[int, int], gold_of: dict[int, int]) -> bool:
    """Breadth-first search for an alternating path from free gold ``g0`` to a free prediction."""
    came_from: dict[int, int] = {}  # predicted -> gold node it was reached from
    queue = [g0]
    seen_gold = {g0}
    for g in queue:  # the list grows while it is walked: a BFS queue
        for p in edges[g]:
            if p in came_from:
                continue
            came_from[p] = g
            owner = gold_of.get(p)
            if owner is None:
                while True:  # flip the path back to g0
                    gg = came_from[p]
                    prev = pred_of.get(gg)
                    pred_of[gg], gold_of[p] = p, gg
                    if gg == g0 or prev is None:
                        return True
                    p = prev
            if owner not in seen_gold:
                seen_gold.add(owner)
                queue.append(owner)
    return False


@dataclass(slots=True, frozen=True)
class Score:
    """Matched / predicted / gold record counts and the figures they give."""

    matched: int = 0
    predicted: int = 0
    gold: int = 0

    @property
    def precision(self) -> float:
        return self.matched / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.matched / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def perfect(self) -> bool:
        return self.gold > 0 and self.matched == self.predicted == self.gold

    def __add__(self, other: Score) -> Score:
        return Score(self.matched + other.matched, self.predicted + other.predicted, self.gold + other.gold)


def micro(scores: Iterable[Score]) -> Score:
    """Micro-average: sum the counts, then take the ratios."""
    total = Score()
    for s in scores:
        total = total + s
    return total


@dataclass(slots=True)
class RegionScore:
    rank: int
    """1-based rank as the extraction ordered the regions."""
    score: Score
    matched_gold: frozenset[int]
    """Indices of the gold records this region matched."""
    merged: int = 0
    """Predicted records that each hold two or more gold records (under-split)."""
    split_gold: int = 0
    """Unmatched gold records spread over several predicted records (over-split)."""
    pairs: tuple[tuple[int, int], ...] = ()
    """The matched ``(gold record, predicted record)`` pairs; field scores are taken over them."""


@dataclass(slots=True)
class PageScore:
    """How one page's extraction compares with its gold records."""

    n_gold: int
    regions: list[RegionScore]
    top: Score
    best: Score
    best_rank: int
    """Rank of the region with the best F1 (0 when there is no region)."""
    hit: bool
    gold_matched_anywhere: int
    """Gold records matched by at least one region (each region matched on its own)."""
    gold_visible: int | None = None
    """Gold records whose tokens are in the page's visible text at all (None: not measured)."""
    gold_in_page: int | None = None
    """Gold records whose tokens are in the page's text, hidden elements included."""

    @property
    def perfect(self) -> bool:
        return self.top.perfect


def score_region(gold: Sequence[frozenset[str]], records: Sequence[str], rank: int = 1) -> RegionScore:
    pred = [tokens(t) for t in records]
    sim = similarity_matrix(gold, pred)
    pairs = match(sim)
    matched = frozenset(g for g, _ in pairs)
    cut = th.MATCH_SIMILARITY
    merged = sum(1 for p in range(len(pred)) if _holds_several(gold, sim, pred[p], p))
    split = 0
    for g, row in enumerate(sim):
        if g in matched or max(row, default=0.0) >= cut:  # whole in one record: merged, not split
            continue
        parts = [pred[p] for p, v in enumerate(row) if v >= th.FRAGMENT_SHARE]
        if len(parts) >= 2 and containment(gold[g], frozenset().union(*parts)) >= cut:
            split += 1
    return RegionScore(rank, Score(len(pairs), len(records), len(gold)), matched, merged, split,
                       tuple(pairs))


def _holds_several(gold: Sequence[frozenset[str]], sim: list[list[float]], pred: frozenset[str], p: int) -> bool:
    """True when ``pred`` holds two or more distinct gold records (it was under-split).

    Near-duplicate gold records (threads with the same title) each reach the match
    threshold against one record; only a prediction that also covers their union,
    clearly larger than any one of them, holds several.
    """
    inside = [gold[g] for g, row in enumerate(sim) if row[p] >= th.MATCH_SIMILARITY]
    if len(inside) < 2:
        return False
    union = frozenset().union(*inside)
    return (len(union) >= th.MERGED_GROWTH * max(len(g) for g in inside)
            and containment(union, pred) >= th.MATCH_SIMILARITY)


def score_page(
    gold_texts: Sequence[str],
    regions: Sequence[Sequence[str]],
    page_text: str | None = None,
    hidden_text: str | None = None,
) -> PageScore:
    """Score ``regions`` (record texts per region, in rank order) against the gold records.

    ``page_text`` is the page's visible text and ``hidden_text`` all its text, hidden
    elements included; given, they tell a page whose gold records are not in the
    rendered page (or not visible) from one where visx missed them.
    """
    gold = [tokens(t) for t in gold_texts]
    n_gold = len(gold)
    scored: list[RegionScore] = []
    for rank, records in enumerate(regions, start=1):
        scored.append(score_region(gold, records, rank))
    anywhere: set[int] = set()
    for rs in scored:
        anywhere |= rs.matched_gold
    if scored:
        top = scored[0].score
        best_rs = max(scored, key=lambda rs: (rs.score.f1, rs.score.matched, -rs.rank))
        best, best_rank = best_rs.score, best_rs.rank
    else:
        top = best = Score(0, 0, n_gold)
        best_rank = 0
    m_top = top.matched
    hit = bool(scored) and (top.f1 >= th.HIT_F1 or (m_top > 0 and 2 * m_top > len(anywhere)))
    return PageScore(n_gold, scored, top, best, best_rank, hit, len(anywhere),
                     _findable(gold, page_text), _findable(gold, hidden_text))


def _findable(gold: Sequence[frozenset[str]], text: str | None) -> int | None:
    if text is None:
        return None
    page_tokens = tokens(text)
    return sum(1 for g in gold if containment(g, page_tokens) >= th.MATCH_SIMILARITY)


def failure_reason(ps: PageScore) -> str:
    """A short label for why a page scores below perfect, most basic cause first."""
    if ps.n_gold == 0:
        return "no gold records"
    if ps.gold_in_page is not None and ps.gold_in_page < th.GOLD_PRESENT * ps.n_gold:
        return f"gold records absent from the rendered page ({ps.gold_in_page}/{ps.n_gold} findable)"
    if ps.gold_visible is not None and ps.gold_visible < th.GOLD_PRESENT * ps.n_gold:
        return f"gold text hidden in the render ({ps.gold_visible}/{ps.n_gold} records visible)"
    if not ps.regions:
        return "no region found"
    top, best = ps.top, ps.best
    if not ps.hit and best.f1 >= th.HIT_F1:
        return f"wrong region ranked first (best region is rank {ps.best_rank}, F1 {best.f1:.2f})"
    if top.perfect:
        return "perfect"
    # Explain the top region when it is the right one, else the closest region.
    rs = ps.regions[0] if ps.hit else ps.regions[ps.best_rank - 1]
    where = "" if rs.rank == 1 else f" (in rank {rs.rank})"
    if not ps.hit and rs.score.matched == 0 and not rs.merged and not rs.split_gold:
        return "no region holds the gold records"
    missing = ps.n_gold - rs.score.matched
    if rs.merged and rs.merged >= rs.split_gold and rs.merged * 2 >= missing:
        return f"records under-split ({rs.merged} predicted records hold several gold records){where}"
    if rs.split_gold and rs.split_gold * 2 >= missing:
        return f"records over-split ({rs.split_gold} gold records cut into parts){where}"
    if not ps.hit:
        if best.matched:
            return f"no region holds most gold records (best: rank {ps.best_rank}, F1 {best.f1:.2f})"
        return "no region holds the gold records"
    s = rs.score
    if s.recall < s.precision:
        return f"low recall ({s.matched}/{ps.n_gold} gold records found)"
    return f"low precision ({s.predicted - s.matched} of {s.predicted} records are not gold)"


# Field level ------------------------------------------------------------------

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
