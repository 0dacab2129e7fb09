"""Templates learned from one extraction, applied by XPath alone, repaired when a site changes.

After seed 001 (Wang et al. 2016, ``../shared/ALGORITHMS.md`` section 4):

- :func:`learn_template` / :func:`learn_from`: a :class:`Template` (plain JSON) for a page's list;
- :func:`apply_template`: records and columns by XPath, matched to pages by site and URL
  similarity; repaired (:mod:`.repair`) when the page changed, with a readable diff;
- :mod:`.portable`: the template as Crawl4AI schema, CSS or XPath selectors;
- :mod:`.check`: what a page must still yield, for CI.
"""

from __future__ import annotations

from visx.template.api import Applied, apply_template, learn_from, learn_template, load_templates
from visx.template.model import (
    FORMAT,
    ColumnRule,
    RecordRule,
    SearchRules,
    Template,
    load_template,
    parse_template,
)

__all__ = [
    "FORMAT",
    "Applied",
    "ColumnRule",
    "RecordRule",
    "SearchRules",
    "Template",
    "apply_template",
    "learn_from",
    "learn_template",
    "load_template",
    "load_templates",
    "parse_template",
]
