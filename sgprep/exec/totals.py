"""Adding up shard stats: the one function behind the run summary and ``sgprep stats``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pydantic import BaseModel, Field

from sgprep.schema import ShardStats


class Totals(BaseModel):
    shards: int = 0
    samples: int = 0
    ok: int = 0
    failed: int = 0
    failures: dict[str, int] = Field(default_factory=dict)
    stages: dict[str, dict[str, int]] = Field(default_factory=dict)

    def add(self, stats: ShardStats) -> Totals:
        self.shards += 1
        self.samples += stats.samples
        self.ok += stats.ok
        self.failed += stats.failed
        self.failures = _merge(self.failures, stats.failures)
        for stage, counters in stats.stages.items():
            self.stages[stage] = _merge(self.stages.get(stage, {}), counters)
        return self


def total(stats: Iterable[ShardStats]) -> Totals:
    out = Totals()
    for item in stats:
        out.add(item)
    return out


def _merge(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    merged = Counter(a)
    merged.update(b)
    return dict(sorted(merged.items()))


def shown_counters(counters: dict[str, int], every: bool) -> list[tuple[str, int, str]]:
    """A stage's counters as the run summary and the report show them, ``(name, count,
    text)``: plain counts and negatives by kind (with the kind's mean length ratio, not the
    sum the shards keep); with ``every``, all of them, refusals and repairs by reason
    included. Sums of ratios are never shown raw."""
    out = []
    for name, value in counters.items():
        if name.startswith("length_ratio_permille/"):
            continue  # a sum: shown as the mean beside its kind
        if name.startswith("kind/"):
            kind = name.removeprefix("kind/")
            ratio = counters.get(f"length_ratio_permille/{kind}", 0)
            mean = f" (length x{ratio / value / 1000:.2f})" if ratio and value else ""
            out.append((kind, value, f"{value:,}{mean}"))
        elif every or "/" not in name:
            out.append((name, value, f"{value:,}"))
    return out


def warnings(stages: dict[str, dict[str, int]]) -> list[str]:
    """What the run summary and ``sgprep stats`` warn about in the summed counters: a detect
    stage that linked none of the caption entities it saw to a box (weights whose labels
    are not the captions' objects leave every ``entity_boxes`` link null)."""
    out = []
    detect = stages.get("detect", {})
    entities = detect.get("entities", 0)
    if entities and not detect.get("entities_linked", 0):
        out.append(
            f"detect linked none of {entities:,} caption entities to a detected box: the "
            "detector's labels name none of the captions' objects (weights trained on other "
            "classes?), so every entity_boxes link is null"
        )
    return out
