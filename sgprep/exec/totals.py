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
