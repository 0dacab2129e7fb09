"""Filters, breadcrumbs and menus told by their controls and markup (``visx.mine.roles``):
checkboxes, radios and selects in most records, a breadcrumb container, icons in a menu,
and the page bands when the page height is unknown."""

from __future__ import annotations

from test_rules_mine_roles import LONG_TEXT, PAGE_H, PAGE_W, Page, role

from visx.mine import thresholds as th
from visx.mine.roles import _role
from visx.mine.stats import Stats
from visx.model import NodeTable, Record, Region


def controls_list(controls: list[tuple[str, dict[str, str]] | None], *, wrapper_attrs: dict[str, str] | None = None,
                  label: str = "Lamps") -> tuple[NodeTable, Stats, Region]:
    """A list whose records hold a short label and, where given, one control (tag, attrs)."""
    p = Page()
    html = p.add(-1, "html", (0, 0, PAGE_W, PAGE_H))
    body = p.add(html, "body", (0, 0, PAGE_W, PAGE_H))
    wrap = p.add(body, "div", (0, 500, 300, 40 * len(controls)), wrapper_attrs)
    ul = p.add(wrap, "ul", (0, 500, 300, 40 * len(controls)))
    recs = []
    for k, c in enumerate(controls):
        box = (0, 500 + 40.0 * k, 300, 40)
        li = p.add(ul, "li", box, counts=(12, 1, 0, 0))
        if c is not None:
            p.add(li, c[0], (0, 500 + 40.0 * k, 12, 12), c[1])
        p.add(li, "label", (20, 500 + 40.0 * k, 200, 20))
        recs.append(Record([li], box, f"{label} of kind {k} here"))
    table, st = p.table()
    return table, st, Region(ul, recs, bbox=(0, 500, 300, 40.0 * len(controls)))


def role_of(controls: list[tuple[str, dict[str, str]] | None], **kw: object) -> str:
    table, st, rg = controls_list(controls, **kw)  # type: ignore[arg-type]
    return _role(table, st, rg, PAGE_H)


def test_checkboxes_radios_and_selects_make_a_filter() -> None:
    assert role_of([None] * 5) == "data"
    assert role_of([("input", {"type": "checkbox"})] * 5) == "filter"
    assert role_of([("input", {"type": "RADIO"})] * 5) == "filter"
    assert role_of([("select", {})] * 5) == "filter"


def test_other_inputs_make_no_filter() -> None:
    # A quantity box in each record (an input without a type is a text field).
    assert role_of([("input", {})] * 5) == "data"
    assert role_of([("input", {"type": "number"})] * 5) == "data"


def test_a_few_checkboxes_among_records_make_no_filter() -> None:
    box = ("input", {"type": "checkbox"})
    assert 2 < th.ROLE_SHARE * 5 <= 3
    assert role_of([box, box, None, None, None]) == "data"
    assert role_of([box, box, box, None, None]) == "filter"


def test_a_breadcrumb_container_is_told_by_its_class_alone() -> None:
    assert role_of([None] * 4, wrapper_attrs={}) == "data"
    table, st, rg = controls_list([None] * 4)
    table.nodes[2].classes = ("site-breadcrumb",)
    assert _role(table, st, rg, PAGE_H) == "breadcrumb"


def test_short_links_with_an_icon_each_are_no_menu() -> None:
    words = ["Home", "Shop", "Deals", "Blog", "Help"]
    assert role(words, chars=5, leaves=1, links=1, media=0, y=100.0) == "navigation"
    assert role(words, chars=5, leaves=1, links=1, media=1, y=100.0) == "data"


def test_words_limit_in_the_footer_band() -> None:
    # Mean words exactly three times CONTROL_MAX_WORDS (10 and 11 words): records.
    low = (1.0 - th.FOOTER_BAND) * PAGE_H + 5
    ten, eleven = " ".join(["word"] * 10), " ".join(["word"] * 11)
    assert th.CONTROL_MAX_WORDS * 3 == 10.5
    assert role([ten, eleven] * 2, chars=60, leaves=3, y=low) == "data"
    assert role([ten, ten] * 2, chars=60, leaves=3, y=low) == "footer-links"


def test_without_a_page_height_no_region_is_in_the_footer_band() -> None:
    words = ["About", "Privacy", "Terms", "Careers", "Press"]
    assert role(words, page_h=0.0, chars=7, leaves=1, links=1, y=100.0) == "navigation"
    assert role([LONG_TEXT] * 4, page_h=0.0, chars=60, leaves=3, y=100.0) == "data"
