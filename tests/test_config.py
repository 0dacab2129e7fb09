"""``with_overrides``: SECTION.KEY=VALUE settings for ablations (``visx eval --set``)."""

from __future__ import annotations

import pytest

from visx.config import Config, with_overrides
from visx.errors import ConfigError


def test_settings_apply_with_their_types() -> None:
    cfg = with_overrides(Config(), ["align.join_complementary=false", "mine.threshold=0.25", "table.decimal=,"])
    assert cfg.align.join_complementary is False
    assert cfg.mine.threshold == 0.25
    assert cfg.table.decimal == ","
    assert cfg.align.lists is True and Config().align.join_complementary is True  # the rest, and the input, stay


@pytest.mark.parametrize(("setting", "says"), [
    ("align.lists", "is not SECTION.KEY=VALUE"),
    ("nosuch.key=1", "cannot be set here"),
    ("align.nope=1", "align has no 'nope'"),
    ("mine.threshold=abc", "setting mine.threshold"),
])
def test_bad_settings_name_the_setting(setting: str, says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        with_overrides(Config(), [setting])


def test_sections_can_be_limited() -> None:
    with pytest.raises(ConfigError, match="render"):
        with_overrides(Config(), ["render.javascript=false"], sections=("align",))
