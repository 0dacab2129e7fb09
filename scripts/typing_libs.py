"""Do well-kept libraries type dates, prices and phone numbers better than visx's own rules?

    nice .venv/bin/python scripts/typing_libs.py [--cells fixtures/typing/cells.csv]
                                                 [--runs 3] [--examples 5] [--out typing.json]

Reads a labelled sample of real cell texts (``text,kind``; kind is date, price, phone or
other, see ``fixtures/typing/README.md``) and, for each of the three kinds, scores
precision, recall and F1 of

- visx: ``type_text`` (the schema stage's typer, which the flat miner's precision rules
  ask too) deciding that kind; for dates also the flat miner's rule (``date`` or ``time``)
  and ``parse_as`` (the kind's parser alone, as used once a column's type is decided);
- the library, in a few reasonable settings: ``dateparser.parse``, price-parser's
  ``Price.fromstring``, phonenumbers' ``PhoneNumberMatcher`` / ``parse``;
- the union and the intersection of ``type_text`` with each library setting.

Each detector is timed over the whole sample (microseconds per cell, median of
``--runs`` runs; visx's cache is cleared before each run). Union and intersection cost
the sum of their parts. A library that is not installed is skipped with the pip package
to install. The libraries are not dependencies of visx: install them by hand
(``pip install dateparser price-parser phonenumbers``).
"""

from __future__ import annotations

import argparse
import csv
import importlib
import json
import re
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from visx.schema import entities  # noqa: E402
from visx.schema.entities import Context, parse_as, type_text  # noqa: E402

KINDS = ("date", "price", "phone")
Detector = Callable[[str], bool]

_CTX = Context()
_NON_SPACE = re.compile(r"\S")
_ALNUM = re.compile(r"[^\W_]")
_DIGIT = re.compile(r"\d")


@dataclass(slots=True)
class Method:
    """One way of deciding whether a text is of ``kind``."""

    name: str
    kind: str
    detect: Detector | None = None
    parts: tuple[str, ...] = ()
    """For union and intersection: the two methods combined."""
    op: str = ""
    reset: Callable[[], None] | None = None
    """Called before each timed run (clears a cache)."""
    preds: list[bool] = field(default_factory=list)
    us_per_cell: float = 0.0


def _reset_visx() -> None:
    for name in ("_type_default", "_type_text"):
        f = getattr(entities, name, None)
        clear = getattr(f, "cache_clear", None)
        if clear is not None:
            clear()


# --- visx ------------------------------------------------------------------------------


def visx_methods() -> list[Method]:
    out = []
    for kind in KINDS:
        out.append(Method("visx type_text", kind, _is_type(kind), reset=_reset_visx))
        out.append(Method("visx parse_as", kind, _parses_as(kind)))
    out.append(Method("visx flat rule (date|time)", "date",
                      lambda t: type_text(t).type in ("date", "time"), reset=_reset_visx))
    return out


def _is_type(kind: str) -> Detector:
    return lambda t: type_text(t).type == kind


def _parses_as(kind: str) -> Detector:
    return lambda t: parse_as(kind, t, _CTX) is not None


# --- libraries -------------------------------------------------------------------------


def _import(module: str, package: str) -> Any | None:
    try:
        return importlib.import_module(module)
    except ImportError:
        print(f"skipped: {module} is not installed (pip install {package})", file=sys.stderr)
        return None


def dateparser_methods() -> list[Method]:
    dp = _import("dateparser", "dateparser")
    if dp is None:
        return []
    parse: Callable[..., Any] = dp.parse
    no_epoch = ["relative-time", "custom-formats", "absolute-time", "no-spaces-time"]

    def make(settings: dict[str, Any], languages: list[str] | None) -> Detector:
        def detect(text: str) -> bool:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return parse(text, languages=languages, settings=settings) is not None
        return detect

    variants: list[tuple[str, dict[str, Any], list[str] | None]] = [
        ("dateparser en default", {}, ["en"]),
        ("dateparser en REQUIRE_PARTS=month", {"REQUIRE_PARTS": ["month"], "PARSERS": no_epoch}, ["en"]),
        ("dateparser en STRICT_PARSING", {"STRICT_PARSING": True, "PARSERS": no_epoch}, ["en"]),
        ("dateparser any-lang REQUIRE_PARTS=month", {"REQUIRE_PARTS": ["month"], "PARSERS": no_epoch}, None),
    ]
    return [Method(name, "date", make(s, langs)) for name, s, langs in variants]


def price_parser_methods() -> list[Method]:
    pp = _import("price_parser", "price-parser")
    if pp is None:
        return []
    fromstring: Callable[[str], Any] = pp.Price.fromstring

    def leftover(text: str, price: Any) -> str:
        """The text without the amount and the currency as price-parser found them."""
        rest = text
        for part in (price.amount_text, price.currency):
            if part:
                rest = rest.replace(part, " ", 1)
        return rest

    def found(text: str) -> bool:
        p = fromstring(text)
        return p.amount is not None and p.currency is not None

    def mostly(text: str) -> bool:
        p = fromstring(text)
        if p.amount is None or p.currency is None:
            return False
        rest = len(_ALNUM.findall(leftover(text, p)))
        return rest <= len(_ALNUM.findall(text)) / 2

    def budget(text: str) -> bool:
        p = fromstring(text)
        if p.amount is None or p.currency is None:
            return False
        return len(_NON_SPACE.findall(leftover(text, p))) <= 12

    return [
        Method("price-parser amount+currency", "price", found),
        Method("price-parser mostly price (<=1/2 other)", "price", mostly),
        Method("price-parser <=12 other chars", "price", budget),
    ]


def phonenumbers_methods() -> list[Method]:
    pn = _import("phonenumbers", "phonenumbers")
    if pn is None:
        return []

    def whole(text: str, leniency: Any) -> bool:
        """One number that is the cell, give or take a short label without digits ("Tel:")."""
        for m in pn.PhoneNumberMatcher(text, "US", leniency=leniency):
            rest = text[:m.start] + text[m.end:]
            return not _DIGIT.search(rest) and len(rest.strip()) <= 8
        return False

    def parsed_valid(text: str) -> bool:
        try:
            num = pn.parse(text, "US")
        except pn.NumberParseException:
            return False
        return bool(pn.is_valid_number(num))

    return [
        Method("phonenumbers matcher VALID, whole cell", "phone",
               lambda t: whole(t, pn.Leniency.VALID)),
        Method("phonenumbers matcher POSSIBLE, whole cell", "phone",
               lambda t: whole(t, pn.Leniency.POSSIBLE)),
        Method("phonenumbers parse+is_valid_number", "phone", parsed_valid),
    ]


# --- scoring ---------------------------------------------------------------------------


def read_cells(path: Path) -> list[tuple[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        rows = [(r["text"], r["kind"]) for r in csv.DictReader(f)]
    bad = {k for _, k in rows} - {*KINDS, "other"}
    if bad:
        raise SystemExit(f"{path}: unknown kinds {sorted(bad)}")
    return rows


def run(m: Method, texts: list[str], runs: int) -> None:
    assert m.detect is not None
    times = []
    for i in range(runs):
        if m.reset is not None:
            m.reset()
        t0 = time.perf_counter()
        preds = [m.detect(t) for t in texts]
        times.append(time.perf_counter() - t0)
        if i == 0:
            m.preds = preds
    m.us_per_cell = statistics.median(times) / len(texts) * 1e6


def combine(visx: Method, lib: Method) -> list[Method]:
    out = []
    for op, f in (("union", any), ("inter", all)):
        m = Method(f"{op}(visx, {lib.name})", lib.kind, parts=(visx.name, lib.name), op=op)
        m.preds = [f(p) for p in zip(visx.preds, lib.preds, strict=True)]
        m.us_per_cell = visx.us_per_cell + lib.us_per_cell
        out.append(m)
    return out


def score(m: Method, rows: list[tuple[str, str]], examples: int) -> dict[str, Any]:
    gold = [k == m.kind for _, k in rows]
    tp = sum(p and g for p, g in zip(m.preds, gold, strict=True))
    fp_texts = [f"{t} [{k}]" for (t, k), p, g in zip(rows, m.preds, gold, strict=True) if p and not g]
    fn_texts = [t for (t, _), p, g in zip(rows, m.preds, gold, strict=True) if g and not p]
    prec = tp / (tp + len(fp_texts)) if tp + len(fp_texts) else 0.0
    rec = tp / (tp + len(fn_texts)) if tp + len(fn_texts) else 0.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    return {
        "kind": m.kind, "method": m.name, "tp": tp, "fp": len(fp_texts), "fn": len(fn_texts),
        "precision": round(prec, 4), "recall": round(rec, 4), "f1": round(f1, 4),
        "us_per_cell": round(m.us_per_cell, 2), "timed": "sum of parts" if m.op else "measured",
        "false_positives": fp_texts[:examples], "false_negatives": fn_texts[:examples],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cells", type=Path, default=ROOT / "fixtures" / "typing" / "cells.csv")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--examples", type=int, default=5, help="error examples per method and side")
    ap.add_argument("--out", type=Path, help="write the results as JSON here")
    args = ap.parse_args(argv)

    rows = read_cells(args.cells)
    texts = [t for t, _ in rows]
    libs = dateparser_methods() + price_parser_methods() + phonenumbers_methods()
    methods = visx_methods() + libs
    for m in methods:
        if m.detect is not None:
            m.detect("warm-up 12 May 2016 $3")  # loads data files, compiles expressions
    for m in methods:
        run(m, texts, args.runs)
    base = {m.kind: m for m in methods if m.name == "visx type_text"}
    combos = [c for lib in libs for c in combine(base[lib.kind], lib)]

    results = [score(m, rows, args.examples) for m in methods + combos]
    results.sort(key=lambda r: KINDS.index(r["kind"]))
    counts = {k: sum(g == k for _, g in rows) for k in (*KINDS, "other")}
    print(f"{len(rows)} cells from {args.cells}: " + ", ".join(f"{k} {n}" for k, n in counts.items()))
    head = f"{'kind':6} {'method':58} {'P':>6} {'R':>6} {'F1':>6} {'TP':>4} {'FP':>4} {'FN':>4} {'us/cell':>9}"
    print(head)
    print("-" * len(head))
    for r in results:
        us = f"{r['us_per_cell']:.1f}" + ("+" if r["timed"] != "measured" else "")
        print(f"{r['kind']:6} {r['method'][:58]:58} {r['precision']:6.3f} {r['recall']:6.3f} {r['f1']:6.3f}"
              f" {r['tp']:4} {r['fp']:4} {r['fn']:4} {us:>9}")
    print(f"us/cell: median of {args.runs} runs over the sample; '+' = sum of the two parts.")
    if args.out:
        payload = {"cells": str(args.cells), "counts": counts, "runs": args.runs, "results": results}
        args.out.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
