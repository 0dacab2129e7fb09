"""Entity typing (recall rules propose, precision rules decide), numbers, dates, names."""

from __future__ import annotations

import pytest
from table_regions import load

from visx.align import align_region
from visx.config import Config, SchemaConfig
from visx.model import Region
from visx.schema import build_table, type_text
from visx.schema.entities import Context
from visx.schema.names import snake, unique
from visx.schema.numbers import decimal_of, decimal_vote, parse_number


@pytest.mark.parametrize(("text", "type_", "value"), [
    ("$24.99", "price", {"amount": 24.99, "currency": "$"}),
    ("1.234,56 €", "price", {"amount": 1234.56, "currency": "EUR"}),
    ("£1,249.00", "price", {"amount": 1249.0, "currency": "GBP"}),
    ("US $5.00", "price", {"amount": 5.0, "currency": "USD"}),
    ("CDN $ 12.99", "price", {"amount": 12.99, "currency": "CAD"}),
    ("AU$3", "price", {"amount": 3.0, "currency": "AUD"}),
    ("A $5 voucher", "price", {"amount": 5.0, "currency": "$"}),
    ("₹1,23,456", "price", {"amount": 123456.0, "currency": "INR"}),
    ("$5 - $10", "price", {"amount": 5.0, "currency": "$", "max": 10.0}),
    ("92%", "percent", 92.0),
    ("22 Nov 2026", "date", "2026-11-22"),
    ("February 14, 2017", "date", "2017-02-14"),
    ("3 mars 2020", "date", "2020-03-03"),
    ("22.11.2026", "date", "2026-11-22"),
    ("2026-03-14", "date", "2026-03-14"),
    ("Nov 22", "date", "--11-22"),
    ("3 days ago", "date", "3 days ago"),
    ("6:45 PM", "time", "18:45"),
    ("14:05", "time", "14:05"),
    ("4:05", "duration", 245),
    ("1:02:33", "duration", 3753),
    ("2h 35m", "duration", 9300),
    ("45 min", "duration", 2700),
    ("4.5 out of 5", "rating", 4.5),
    ("8.2/10", "rating", 8.2),
    ("★★★★☆", "rating", 4.0),
    ("ann@example.org", "email", "ann@example.org"),
    ("www.example.com", "url", "www.example.com"),
    ("+1 555 010 2030", "phone", "+15550102030"),
    ("2019", "integer", 2019),
    ("500 views", "integer", 500),
    ("(123)", "integer", 123),
    ("0.5", "number", 0.5),
    ("Only 2 left", "text", "Only 2 left"),
    ("AB 101", "text", "AB 101"),
    ("Fr. 3.5.2019", "date", "2019-05-03"),
])
def test_type_text(text: str, type_: str, value: object) -> None:
    got = type_text(text)
    assert (got.type, got.value) == (type_, value)


def test_relative_dates_are_kept_raw_and_flagged() -> None:
    got = type_text("yesterday")
    assert got == ("date", "yesterday", ("relative",))


def test_a_sentence_that_mentions_a_price_stays_text() -> None:
    assert type_text("Free shipping on orders over $25 for members this week").type == "text"


@pytest.mark.parametrize(("token", "decimal"), [
    ("1.234,56", ","), ("1,234.56", "."), ("12,5", ","), ("0.125", "."), ("1.234", None),
    ("1,234", None), ("1.234.567", ","), ("42", None),
])
def test_decimal_separator_of_a_token(token: str, decimal: str | None) -> None:
    assert decimal_of(token) == decimal


def test_ambiguous_numbers_follow_the_vote() -> None:
    assert decimal_vote(["1.234,56", "39,90", "1.002"]) == ","
    assert parse_number("12.345", ",") == 12345.0
    assert parse_number("12.345", ".") == 12.345
    assert parse_number("1 234,5") == 1234.5
    assert parse_number("3.5.2019") is None


def test_numeric_date_order_is_decided_per_column() -> None:
    assert type_text("03/04/2026", Context(date_order="dmy")).value == "2026-04-03"
    assert type_text("03/04/2026", Context(date_order="mdy")).value == "2026-03-04"
    assert type_text("13/04/2026").value == "2026-04-13"


def test_names_are_snake_case_and_unique() -> None:
    assert snake("Posted by:") == "posted_by"
    assert snake("Preis (€)") == "preis"
    assert snake("2nd price") == "c_2nd_price"
    assert snake("价格") == "价格"
    assert unique(["price", "text", "price", "text", "price_2"]) == ["price", "text", "price_3", "text_2", "price_2"]


def test_constant_columns_are_hidden_from_the_default_table() -> None:
    snap, region = load("label_value")
    table = build_table(snap.nodes, region, align_region(snap.nodes, region, Config()), Config())
    shown = [table.columns[i].name for i in table.default_columns()]
    assert shown == ["title", "price", "posted_by", "contact"]
    rec = table.to_records()[0]
    assert rec == {"title": "City bike, 3 gears", "price": 120.0, "price_currency": "$",
                   "posted_by": "ann_k", "posted_by_url": "file:///u/ann", "contact": "ann@example.org"}
    assert table.to_records(raw=True)[0]["posted_by"] == "Posted by ann_k"
    assert "contact_seller" in table.to_records(all_columns=True)[0]


def test_configured_decimal_wins_over_the_vote() -> None:
    snap, region = load("locale")
    al = align_region(snap.nodes, region, Config())
    table = build_table(snap.nodes, region, al, SchemaConfig(decimal="."))
    count = next(i for i, c in enumerate(table.columns) if c.name == "number")
    assert table.rows[0][count] is not None and table.rows[0][count].value == 12.345


def test_region_without_records_gives_an_empty_table_with_a_warning() -> None:
    snap, region = load("optional_badge")
    empty = Region(region.parent, [])
    table = build_table(snap.nodes, empty, align_region(snap.nodes, empty, Config()), Config())
    assert table.columns == [] and table.rows == [] and table.to_records() == []
    assert table.warnings and "no records" in table.warnings[0]


def test_to_pandas_when_installed() -> None:
    pd = pytest.importorskip("pandas")
    snap, region = load("header_table")
    table = build_table(snap.nodes, region, align_region(snap.nodes, region, Config()), Config())
    df = table.to_pandas()
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == ["flight", "destination", "departure", "duration", "fare", "fare_currency", "on_time"]
    assert df["fare"].tolist() == [89.0, 129.5, 64.0, 110.25]
