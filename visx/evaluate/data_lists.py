"""The "data lists" score: does visx tell a page's data lists from its other regions?

The testbed's gold labels only each page's main list, so a file of hand labels
(``fixtures/testbed/data_lists.json``, written by ``scripts/label_data_lists.py``)
says, for visx's regions on a set of dev pages, which are data lists::

    {"site/query": [{"parent": XPATH, "first": XPATH, "data": true|false, "role": "pager"}, ...]}

A region is known by its parent's XPath and its first record's. Counted per
labelled region: predicted data and labelled data (true positive), predicted
data only (false positive), labelled data only (false negative). Regions the
labels do not name (the miner changed since) are counted apart, as unlabelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, TypeAdapter, ValidationError

from visx.errors import ConfigError
from visx.model import NodeTable, Region


class RegionLabel(BaseModel):
    parent: str
    first: str
    data: bool
    role: str = ""


_LABELS = TypeAdapter(dict[str, list[RegionLabel]])


def load_labels(path: Path) -> dict[str, list[RegionLabel]]:
    try:
        return _LABELS.validate_json(path.read_bytes())
    except OSError as e:
        raise ConfigError(f"{path}: cannot read the data-list labels ({e.strerror}); give the file "
                          "scripts/label_data_lists.py collect wrote") from e
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise ConfigError(f"{path}: not a data-list label file ({where}: {first['msg']})") from e


@dataclass(slots=True)
class DataListScore:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    unlabelled: int = 0

    def __add__(self, o: DataListScore) -> DataListScore:
        return DataListScore(self.tp + o.tp, self.fp + o.fp, self.fn + o.fn, self.tn + o.tn,
                             self.unlabelled + o.unlabelled)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def labelled(self) -> int:
        return self.tp + self.fp + self.fn + self.tn


def score_data_lists(nodes: NodeTable, regions: Sequence[Region], labels: Sequence[RegionLabel]) -> DataListScore:
    known = {(lab.parent, lab.first): lab.data for lab in labels}
    out = DataListScore()
    for rg in regions:
        if not rg.records:
            continue
        key = (nodes[rg.parent].xpath, nodes[rg.records[0].parts[0]].xpath)
        if key not in known:
            out.unlabelled += 1
        elif known[key] and rg.data:
            out.tp += 1
        elif rg.data:
            out.fp += 1
        elif known[key]:
            out.fn += 1
        else:
            out.tn += 1
    return out
