"""The stage protocol: every processing step (parse, detect, negatives) is one of these.

A stage declares the resources one instance needs, loads its model once in ``setup()``,
processes a batch in ``process_batch()`` and releases in ``teardown()``. The same object runs
under the local executor and, through a thin adapter, on Ray. ``process_batch`` returns one
sample per input sample, in order; a sample that fails carries a failure and is never dropped.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Callable

from pydantic import BaseModel

from sgprep.schema import Sample

log = logging.getLogger(__name__)


class Resources(BaseModel):
    cpus: float = 1.0
    gpus: float = 0.0


class Stage(ABC):
    name: str = "stage"
    resources: Resources = Resources()
    batch_size: int = 256

    def setup(self) -> None:
        """Load models; called once per worker before the first batch."""

    @abstractmethod
    def process_batch(self, batch: list[Sample]) -> list[Sample]: ...

    def teardown(self) -> None:
        """Release what setup() took."""

    def stats(self) -> dict[str, int]:
        """Counters for the run summary."""
        return {}

    def run(self, samples: list[Sample],
            on_batch: Callable[[int], None] | None = None) -> list[Sample]:
        """Process the samples that are still ok, in batches; failed ones pass through.
        ``on_batch(n)`` is told after each batch of ``n`` samples (for progress bars)."""
        todo = [s for s in samples if s.ok]
        for start in range(0, len(todo), self.batch_size):
            batch = todo[start:start + self.batch_size]
            try:
                out = self.process_batch(batch)
                if len(out) != len(batch):
                    raise RuntimeError(f"returned {len(out)} samples for {len(batch)}")
            except Exception as exc:  # one broken batch must not end the run
                log.exception("stage %s failed on a batch of %d samples", self.name, len(batch))
                for sample in batch:
                    sample.fail(self.name, "stage_error", f"{type(exc).__name__}: {exc}")
            if on_batch is not None:
                on_batch(len(batch))
        return samples
