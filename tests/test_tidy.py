"""Tables a person would keep (``visx.schema.tidy``) and price ranges with multipliers."""

from __future__ import annotations

import pytest

from visx.schema.entities import type_text
from visx.schema.table import Cell, Column, Table
from visx.schema.tidy import tidy


def cell(text: str, value: object = None, href: str | None = None, xpath: str = "/html/body/li") -> Cell:
    return Cell(text, text if value is None else value, href, None, xpath)


def test_one_url_per_record_link() -> None:
    columns = [Column("title", "text", 1.0), Column("image", "text", 1.0), Column("more", "text", 1.0),
               Column("seller", "text", 1.0)]
    rows = [[cell(f"Item {k}", href=f"http://x/{k}"), cell("pic", href=f"http://x/{k}"),
             cell("Details", href=f"http://x/{k}"), cell(f"Shop {k}", href=f"http://x/shop{k}")]
            for k in range(4)]
    tidy(columns, rows)
    keys = Table(1, columns, rows).field_names()
    assert [k for k in keys if k.endswith("_url")] == ["title_url", "seller_url"]
    assert "more" not in keys, "'Details' in every record is an interface word"


@pytest.mark.parametrize(("texts", "flagged"), [
    (["Follow", "Follow", "Following"], False),
    (["Save job", "Save job", "Save job", "Apply now"], True),
    (["Sponsored", "Sponsored", "Sponsored"], True),
    (["Kitchen", "Home", "Kitchen"], False),
])
def test_interface_words_leave_the_default_table(texts: list[str], flagged: bool) -> None:
    columns = [Column("title", "text", 1.0), Column("x", "text", 1.0)]
    rows = [[cell(f"Item {k}"), cell(t)] for k, t in enumerate(texts)]
    tidy(columns, rows)
    assert ("interface" in columns[1].flags) is flagged
    assert (columns[1].hidden) is flagged


def test_a_currency_apart_from_its_amount_is_one_price() -> None:
    columns = [Column("currency", "text", 1.0), Column("price", "number", 1.0)]
    rows = [[cell("$"), cell("14.98", 14.98)], [cell("$"), cell("9", 9)], [cell("$"), cell("120.5", 120.5)]]
    tidy(columns, rows)
    assert columns[1].type == "price" and columns[0].hidden
    recs = Table(1, columns, rows).to_records()
    assert recs[0] == {"price": 14.98, "price_currency": "$"}  # "$" alone is ambiguous, kept as written


def test_sparse_columns_of_one_role_merge_but_not_fields_named_by_type() -> None:
    n = 10
    columns = [Column("title", "text", 1.0), Column("salary", "price", 0.2, source="class"),
               Column("salary_2", "price", 0.2, source="class"), Column("text", "text", 0.2, source="type"),
               Column("text_2", "text", 0.2, source="type")]
    rows: list[list[Cell | None]] = [[cell(f"Job {k}"), None, None, None, None] for k in range(n)]
    for k in (0, 1):
        rows[k][1] = cell("$10", {"amount": 10.0, "currency": "USD"})
        rows[k][3] = cell("Remote")
    for k in (5, 6):
        rows[k][2] = cell("$20", {"amount": 20.0, "currency": "USD"})
        rows[k][4] = cell("Full time")
    tidy(columns, rows)
    assert "merged" in columns[2].flags and columns[1].fill == 0.4
    assert [r[1].text if r[1] else None for r in rows][:7] == ["$10", "$10", None, None, None, "$20", "$20"]
    assert "merged" not in columns[4].flags, "'text' says no role: two such fields stay apart"


def test_a_wide_body_of_partly_filled_columns_folds_into_one() -> None:
    n = 6
    columns = [Column("title", "text", 1.0), Column("author", "text", 1.0)]
    columns += [Column(f"text_{k}", "text", 0.5) for k in range(30)]
    rows: list[list[Cell | None]] = []
    for r in range(n):
        base = f"/html/body/div/div[{r + 1}]"
        row: list[Cell | None] = [cell(f"Post {r}", xpath=f"{base}/h3"), cell(f"by {r}", xpath=f"{base}/span")]
        row += [cell(f"part {k} of {r}", xpath=f"{base}/div[2]/p[{k + 1}]") if (k + r) % 2 else None
                for k in range(30)]
        rows.append(row)
    tidy(columns, rows)
    t = Table(1, columns, rows)
    assert t.field_names() == ["title", "author", "body"]
    assert t.to_records()[0]["body"].startswith("part 1 of 0 part 3 of 0")


def test_spread_fields_do_not_fold() -> None:
    columns = [Column("title", "text", 1.0)] + [Column(f"text_{k}", "text", 0.5) for k in range(30)]
    rows: list[list[Cell | None]] = []
    for r in range(4):
        base = f"/html/body/div/div[{r + 1}]"
        rows.append([cell(f"Post {r}", xpath=f"{base}/h3")]
                    + [cell(f"f{k}", xpath=f"{base}/span[{k + 1}]") if (k + r) % 2 else None for k in range(30)])
    tidy(columns, rows)
    assert not any("merged" in c.flags for c in columns)


@pytest.mark.parametrize(("text", "amount", "top"), [
    ("$71k - $96k", 71000.0, 96000.0),
    ("12 - 20 EUR", 12.0, 20.0),
    ("€ 3,5 Mio", 3500000.0, None),
    ("$30 monthly", 30.0, None),
])
def test_price_ranges_and_multipliers(text: str, amount: float, top: float | None) -> None:
    t = type_text(text)
    assert t.type == "price" and t.value["amount"] == amount and t.value.get("max") == top


def test_records_carry_both_bounds_of_a_range() -> None:
    columns = [Column("salary", "price", 1.0, flags=("range",))]
    rows: list[list[Cell | None]] = [[cell("$71k - $96k", type_text("$71k - $96k").value)]]
    assert Table(1, columns, rows).to_records() == [
        {"salary": 71000.0, "salary_currency": "$", "salary_max": 96000.0}]
