"""Tidy rules at their edges: currency merges, repeated links, interface words, folded bodies.

Tables are built by hand (columns and cells), as in ``test_tidy.py``; each case
states the rule it checks.
"""

from __future__ import annotations

from visx.schema.table import Cell, Column, Table
from visx.schema.tidy import tidy


def cell(text: str, value: object = None, href: str | None = None, xpath: str = "/html/body/li") -> Cell:
    return Cell(text, text if value is None else value, href, None, xpath)


def test_merged_price_without_its_currency_cell_has_an_empty_currency() -> None:
    # four of five records show "$" before the amount: enough to merge; the fifth has none
    columns = [Column("currency", "text", 0.8), Column("price", "number", 1.0)]
    rows: list[list[Cell | None]] = [[cell("$"), cell(str(k), k)] for k in range(1, 5)]
    rows.append([None, cell("7", 7)])
    tidy(columns, rows)
    assert columns[1].type == "price"
    assert [r[1].value for r in rows if r[1] is not None] == [
        {"amount": 1.0, "currency": "$"}, {"amount": 2.0, "currency": "$"}, {"amount": 3.0, "currency": "$"},
        {"amount": 4.0, "currency": "$"}, {"amount": 7.0, "currency": ""}]


def test_currency_merge_goes_past_a_record_without_an_amount() -> None:
    columns = [Column("currency", "text", 1.0), Column("price", "number", 0.75)]
    rows: list[list[Cell | None]] = [[cell("€"), cell("3", 3)], [cell("€"), cell("n/a", None)],
                                     [cell("€"), None], [cell("€"), cell("9.5", 9.5)]]
    rows[1][1].value = None  # type: ignore[union-attr]  # an amount that did not parse
    tidy(columns, rows)
    assert rows[0][1].value == {"amount": 3.0, "currency": "EUR"}  # type: ignore[union-attr]
    assert rows[1][1].value is None  # type: ignore[union-attr]
    assert rows[3][1].value == {"amount": 9.5, "currency": "EUR"}  # type: ignore[union-attr]


def test_same_links_after_a_column_without_links() -> None:
    # column 1 has no links at all; column 2 repeats column 0's links: no URL of its own
    columns = [Column("title", "text", 1.0), Column("note", "text", 1.0), Column("more", "text", 1.0)]
    rows: list[list[Cell | None]] = [
        [cell(f"Item {k}", href=f"http://x/{k}"), cell(f"note {k}"), cell(f"see {k}", href=f"http://x/{k}")]
        for k in range(4)]
    tidy(columns, rows)
    assert "same-link" in columns[2].flags
    assert "same-link" not in columns[1].flags
    assert Table(1, columns, rows).field_names() == ["title", "title_url", "note", "more"]


def test_interface_words_with_few_links_are_interface_not_a_url() -> None:
    # "Details" in every record but linked in only one of five: a button, not each record's link
    columns = [Column("title", "text", 1.0), Column("more", "text", 1.0)]
    rows: list[list[Cell | None]] = [[cell(f"Item {k}"), cell("Details", href="http://x/1" if k == 0 else None)]
                                     for k in range(5)]
    tidy(columns, rows)
    assert columns[1].type == "text"
    assert "interface" in columns[1].flags


def test_interface_words_linked_in_every_record_are_the_records_url() -> None:
    columns = [Column("title", "text", 1.0), Column("url", "text", 1.0), Column("more", "text", 1.0)]
    rows: list[list[Cell | None]] = [[cell(f"Item {k}"), cell(f"u{k}"), cell("Details", href=f"http://x/{k}")]
                                     for k in range(5)]
    tidy(columns, rows)
    assert (columns[2].type, columns[2].name, columns[2].source) == ("url", "url_2", "role")
    assert rows[0][2].value == "http://x/0"  # type: ignore[union-attr]


def _wide(body_depths: bool) -> tuple[list[Column], list[list[Cell | None]]]:
    """Six posts with a title, an author and 30 half-filled body fields.

    With ``body_depths`` some body fields sit one level deeper than others
    (``div[2]/p`` and ``div[2]/blockquote/p``): still one body block.
    """
    columns = [Column("title", "text", 1.0), Column("body", "text", 1.0)]
    columns += [Column(f"text_{k}", "text", 0.5) for k in range(30)]
    rows: list[list[Cell | None]] = []
    for r in range(6):
        base = f"/html/body/div/div[{r + 1}]"
        row: list[Cell | None] = [cell(f"Post {r}", xpath=f"{base}/h3"), cell(f"by {r}", xpath=f"{base}/span")]
        for k in range(30):
            deep = body_depths and k % 3 == 0
            xp = f"{base}/div[2]/blockquote/p[{k + 1}]" if deep else f"{base}/div[2]/p[{k + 1}]"
            row.append(cell(f"part {k} of {r}", xpath=xp) if (k + r) % 2 else None)
        rows.append(row)
    return columns, rows


def test_a_body_at_several_depths_folds_into_one_column() -> None:
    columns, rows = _wide(body_depths=True)
    tidy(columns, rows)
    t = Table(1, columns, rows)
    # "body" is taken by the author column: the folded one is "body_2", named by its role
    assert t.field_names() == ["title", "body", "body_2"]
    assert (columns[2].name, columns[2].source) == ("body_2", "role")
    assert columns[2].fill == 1.0
    assert t.to_records()[0]["body_2"].startswith("part 1 of 0 part 3 of 0")
    assert all("merged" in c.flags for c in columns[3:])


def test_currency_merge_skips_a_column_with_too_few_currency_cells() -> None:
    # "$" in one record of five beside the first amounts: no merge there; the second pair merges
    columns = [Column("cur", "text", 0.2), Column("count", "integer", 1.0), Column("cur_2", "text", 1.0),
               Column("price", "number", 1.0)]
    rows: list[list[Cell | None]] = [[cell("$") if k == 0 else None, cell(str(k), k), cell("£"), cell("9", 9)]
                                     for k in range(5)]
    tidy(columns, rows)
    assert columns[1].type == "integer" and rows[0][1].value == 0  # type: ignore[union-attr]
    assert columns[3].type == "price" and "merged" in columns[2].flags
    assert rows[0][3].value == {"amount": 9.0, "currency": "GBP"}  # type: ignore[union-attr]


def test_links_repeated_in_few_records_are_the_columns_own() -> None:
    # two of five links repeat the title's: below the share, the column keeps its URL
    columns = [Column("title", "text", 1.0), Column("seller", "text", 1.0)]
    rows: list[list[Cell | None]] = [
        [cell(f"Item {k}", href=f"http://x/{k}"), cell(f"Shop {k}", href=f"http://x/{k}" if k < 2 else f"http://s/{k}")]
        for k in range(5)]
    tidy(columns, rows)
    assert "same-link" not in columns[1].flags


def test_a_label_column_of_interface_words_stays_a_label() -> None:
    columns = [Column("title", "text", 1.0), Column("tag", "text", 1.0, flags=("label",))]
    rows: list[list[Cell | None]] = [[cell(f"Item {k}"), cell("Sponsored")] for k in range(3)]
    tidy(columns, rows)
    assert columns[1].flags == ("label",)


def test_sparse_columns_of_different_types_stay_apart() -> None:
    columns = [Column("title", "text", 1.0), Column("pay", "price", 0.2, source="class"),
               Column("pay_2", "text", 0.2, source="class")]
    rows: list[list[Cell | None]] = [[cell(f"Job {k}"), None, None] for k in range(10)]
    for k in (0, 1):
        rows[k][1] = cell("$10", {"amount": 10.0, "currency": "$"})
    for k in (5, 6):
        rows[k][2] = cell("negotiable")
    tidy(columns, rows)
    assert "merged" not in columns[2].flags and columns[1].fill == 0.2


def _posts(width: int) -> tuple[list[Column], list[list[Cell | None]]]:
    """Six posts: a linked title and ``width - 1`` half-filled body fields in one block."""
    columns = [Column("title", "text", 1.0)] + [Column(f"text_{k}", "text", 0.5) for k in range(width - 1)]
    rows: list[list[Cell | None]] = []
    for r in range(6):
        base = f"/html/body/div/div[{r + 1}]"
        row: list[Cell | None] = [cell(f"Post {r}", xpath=f"{base}/h3")]
        row += [cell(f"p{k}", href=f"http://x/{r}", xpath=f"{base}/div[2]/p[{k + 1}]") if (k + r) % 2 else None
                for k in range(width - 1)]
        rows.append(row)
    return columns, rows


def test_a_body_folds_from_25_shown_columns() -> None:
    columns, rows = _posts(25)
    tidy(columns, rows)
    assert columns[1].name == "body"
    folded = rows[0][1]
    assert folded is not None
    assert folded.value == folded.text and folded.text.startswith("p1 p3 p5")
    assert folded.href == "http://x/0" and folded.xpath == "/html/body/div/div[1]/div[2]/p[2]"


def test_a_body_does_not_fold_below_25_shown_columns() -> None:
    columns, rows = _posts(24)
    tidy(columns, rows)
    assert not any(c.name == "body" for c in columns)
    assert not any("merged" in c.flags for c in columns)


def test_a_body_with_text_in_its_block_and_in_its_paragraphs_folds() -> None:
    # one field is the block's own text (a shorter path), the others sit in its paragraphs
    columns, rows = _posts(26)
    for r, row in enumerate(rows):
        for c in range(1, 26):
            x = row[c]
            if x is not None and c == 2:
                row[c] = Cell(x.text, x.value, x.href, None, f"/html/body/div/div[{r + 1}]/div[2]")
    tidy(columns, rows)
    assert columns[1].name == "body"
    assert rows[0][1] is not None and rows[0][1].text.startswith("p1 p3")
