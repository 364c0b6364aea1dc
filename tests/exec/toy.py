"""A toy stage for executor tests: no model, so a worker starts in a moment, and importable
(``tests.exec.toy:ToyStage``) so spawned workers and Ray actors load it as they load any stage.

It writes each caption backwards into ``meta.toy``. A shard fails (its stage raises, which no
batch handler catches) while the file ``STATE/fail_KEY`` exists for a key in it; each such
failure adds a line to ``STATE/tries_KEY``. Delete the fail file and the next try passes;
``fail_KEY`` holding a number N fails only the first N tries.
"""

from __future__ import annotations

from pathlib import Path

from sgprep.exec.stage import Stage, StageSettings
from sgprep.schema import Sample

TOY = "tests.exec.toy:ToyStage"


class ToySettings(StageSettings):
    state: str | None = None


class ToyFailure(RuntimeError):
    """Raised on purpose."""


class ToyStage(Stage):
    name = "toy"
    Settings = ToySettings

    def run(self, samples, on_batch=None):
        state = Path(self.settings.state) if self.settings.state else None
        for sample in samples if state else ():
            fail = state / f"fail_{sample.key}"
            if not fail.exists():
                continue
            tries = state / f"tries_{sample.key}"
            done = len(tries.read_text().splitlines()) if tries.exists() else 0
            limit = fail.read_text().strip()
            if limit and done >= int(limit):
                continue
            with open(tries, "a") as fh:
                fh.write("try\n")
            raise ToyFailure(f"toy failure on {sample.key}")
        return super().run(samples, on_batch)

    def process_batch(self, batch: list[Sample]) -> list[Sample]:
        for sample in batch:
            sample.meta["toy"] = (sample.caption or "")[::-1]
        return batch

    def sample_stats(self, samples: list[Sample]) -> dict[str, int]:
        return {"reversed": sum(1 for s in samples if "toy" in s.meta)}
