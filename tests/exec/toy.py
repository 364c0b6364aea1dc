"""A toy stage for executor tests: no model, so a worker starts in a moment, and importable
(``tests.exec.toy:ToyStage``) so spawned workers and Ray actors load it as they load any stage.

It writes each caption backwards into ``meta.toy``. A shard fails (its stage raises, which no
batch handler catches) while the file ``STATE/fail_KEY`` exists for a key in it; each such
failure adds a line to ``STATE/tries_KEY``. Delete the fail file and the next try passes;
``fail_KEY`` holding a number N fails only the first N tries.

While ``STATE/hold_KEY`` exists the stage waits at that sample (having written its pid to
``STATE/held_KEY``; ``STATE/released_KEY`` when it goes on). ``STATE/kill_KEY`` makes the
process kill itself (SIGKILL) at that sample, once (it is deleted first), or every time if it
holds ``always``. ``mark`` is added to every sample's ``meta.toy``.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from sgprep.exec.stage import Stage, StageSettings
from sgprep.schema import Sample

TOY = "tests.exec.toy:ToyStage"
#: the captions of :func:`toy_config`'s input: 12, so 3 shards of 4
CAPTIONS = [f"caption number {i}" for i in range(12)]


def toy_config(
    tmp_path: Path,
    out: str,
    *,
    stage: str = TOY,
    state: Path | None = None,
    settings: dict | None = None,
    **overrides,
) -> dict:
    """A run of a toy ``stage`` over :data:`CAPTIONS` in shards of 4, its state folder
    ``state`` (``tmp_path/state`` by default) and further stage ``settings``; ``overrides``
    replace run fields."""
    table = tmp_path / "c.txt"
    if not table.exists():
        table.write_text("\n".join(CAPTIONS) + "\n")
    state = state or tmp_path / "state"
    state.mkdir(exist_ok=True)
    return {
        "input": str(table),
        "output": str(tmp_path / out),
        "shard_size": 4,
        "progress": False,
        **overrides,
        "stages": [{"name": stage, "settings": {"state": str(state), **(settings or {})}}],
    }


def output_bytes(out: Path) -> dict[str, bytes]:
    """The bytes of each file at the top of an output, by name."""
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.is_file()}


class ToySettings(StageSettings):
    state: str | None = None
    mark: str = ""


class ToyFailure(RuntimeError):
    """Raised on purpose."""


class ToyStage(Stage):
    name = "toy"
    Settings = ToySettings

    def run(self, samples, on_batch=None, budget=None):
        state = Path(self.settings.state) if self.settings.state else None
        for sample in samples if state else ():
            hold = state / f"hold_{sample.key}"
            if hold.exists():
                (state / f"held_{sample.key}").write_text(str(os.getpid()))
                while hold.exists():
                    time.sleep(0.05)
                (state / f"released_{sample.key}").write_text("")
            kill = state / f"kill_{sample.key}"
            if kill.exists():
                if kill.read_text().strip() != "always":
                    kill.unlink()
                os.kill(os.getpid(), signal.SIGKILL)
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
        return super().run(samples, on_batch, budget)

    def process_batch(self, batch: list[Sample]) -> list[Sample]:
        for sample in batch:
            sample.meta["toy"] = (sample.caption or "")[::-1] + self.settings.mark
        return batch

    def sample_stats(self, samples: list[Sample]) -> dict[str, int]:
        return {"reversed": sum(1 for s in samples if "toy" in s.meta)}


SETUP_TOY = "tests.exec.toy:SetupToyStage"
FORK_TOY = "tests.exec.toy:ForkSafeToyStage"


class SetupToyStage(ToyStage):
    """The toy, telling where it runs. Its ``setup`` writes ``STATE/setup_PID``; each batch
    writes ``STATE/batch_PID`` with the descriptors of that process that are open on the
    output's ``_meta/lock`` (none expected in a worker)."""

    def setup(self) -> None:
        if self.settings.state:
            (Path(self.settings.state) / f"setup_{os.getpid()}").write_text("")

    def process_batch(self, batch: list[Sample]) -> list[Sample]:
        if self.settings.state and os.path.isdir("/proc/self/fd"):
            held = []
            for fd in os.listdir("/proc/self/fd"):
                try:
                    target = os.readlink(f"/proc/self/fd/{fd}")
                except OSError:
                    continue
                if target.endswith(os.path.join("_meta", "lock")):
                    held.append(fd)
            (Path(self.settings.state) / f"batch_{os.getpid()}").write_text(" ".join(held))
        return super().process_batch(batch)


class ForkSafeToyStage(SetupToyStage):
    """The same, allowing workers forked from the process where it was set up."""

    fork_safe = True
