"""The stage protocol: every processing step (parse, detect, negatives) is one of these.

A stage class declares its pydantic ``Settings``, what it ``requires`` from earlier stages and
what it ``provides`` (``"sg"``, ``"det"``, ``"neg"``), and the ``resources`` one instance needs.
It loads its model once in ``setup()``, processes a batch in ``process_batch()`` and releases in
``teardown()``. The same object runs under every executor. ``process_batch`` returns one sample
per input sample, in order; a sample that fails carries a failure and is never dropped.

Counters: ``stats()`` returns the stage's counters since ``setup()`` (ints only, flat keys such
as ``"llm_invalid/not_json"``). The shard path calls ``take_stats()`` after each shard, which
gives what was counted during that shard, so per-shard stats add up over shards and resumes.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, ClassVar, get_origin

from pydantic import BaseModel, ConfigDict, Field, model_validator

from sgprep.config import RunContext
from sgprep.exec.budget import TIMEOUT, SampleTimeout, ShardBudget
from sgprep.schema import Sample

log = logging.getLogger(__name__)


class StopRun(Exception):
    """An error that must end the run rather than fail one batch (e.g. the LLM endpoint is
    down and there is no fallback): :meth:`Stage.run` lets it through."""


class Resources(BaseModel):
    """What one instance of a stage needs; the executor places it (Ray: actor options)."""

    cpus: float = 1.0
    gpus: float = 0.0
    #: The stage starts its own Ray actors for its GPUs (the vLLM engines): an executor must
    #: not reserve them for the worker that runs the stage as well.
    own_actors: bool = False


class StageSettings(BaseModel):
    """Base of every stage's settings: validated at start-up, unknown keys refused.

    Each field is the stage's flag (``--batch-size``), a key of its YAML mapping, a
    ``--set STAGE.KEY=VALUE`` of ``sgprep run``, and is recorded in ``run.json``: add a setting
    by adding a field here or in a subclass, with ``Field(description=..., ge=...)`` and
    ``Annotated[..., Flag(...)]`` for short names, panels and paths. Run-level values (the
    seed, the intake limits) are not settings: a stage reads them from ``self.context``.
    Lists and mappings may be given as text too (``swap,shuffle``; ``a=0.2,b=0.1``)."""

    model_config = ConfigDict(extra="forbid")

    batch_size: int = Field(default=256, ge=1, description="Samples per batch.")

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        out = dict(data)
        for name, value in data.items():
            field = cls.model_fields.get(name)
            if field is None or not isinstance(value, str):
                continue
            kind = get_origin(field.annotation)
            if kind is list:
                out[name] = [part.strip() for part in value.split(",") if part.strip()]
            elif kind is dict:
                out[name] = _pairs(name, value)
        return out


def _pairs(name: str, text: str) -> dict[str, str]:
    pairs = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"{name} {text!r}: write KEY=VALUE,KEY=VALUE")
        pairs[key.strip()] = value.strip()
    return pairs


class Stage(ABC):
    name: ClassVar[str] = "stage"
    Settings: ClassVar[type[StageSettings]] = StageSettings
    requires: ClassVar[frozenset[str]] = frozenset()
    provides: ClassVar[frozenset[str]] = frozenset()
    #: The stage reads each sample's image: an input that has none (a caption table without
    #: an image column) is refused at start-up instead of failing every sample.
    needs_images: ClassVar[bool] = False

    def __init__(self, settings: StageSettings | None = None, context: RunContext | None = None):
        self.settings = settings if settings is not None else self.Settings()
        self.context = context if context is not None else RunContext()
        self._taken: Counter[str] = Counter()

    @property
    def batch_size(self) -> int:
        return self.settings.batch_size

    def resources(self) -> Resources:
        """What one instance needs; cheap (no model loaded)."""
        return Resources()

    def check(self) -> None:
        """Cheap start-up check, in the driver, that the stage can run here (its weights or
        model can be had); raises ``sgprep.errors.ModelUnavailable`` with how to fix it."""

    def place(self, gpus: int, cpus: int) -> None:
        """The executor grants this instance ``gpus`` GPUs and ``cpus`` CPU cores (before
        setup): a stage that runs several engines sizes itself here, and one that computes in
        threads uses at most ``cpus`` of them, so that workers side by side do not fight for
        cores. Placement is the executor's job alone."""

    def setup(self) -> None:
        """Load models; called once per worker before the first batch."""

    @property
    def fork_safe(self) -> bool:
        """Whether worker processes may be forked from a process where this stage is set up,
        sharing its loaded model instead of loading it again: its setup starts no thread and
        opens no connection, device or file that the workers would then share. False (the
        default): each worker is spawned and sets the stage up itself."""
        return False

    @abstractmethod
    def process_batch(self, batch: list[Sample]) -> list[Sample]: ...

    def teardown(self) -> None:
        """Release what setup() took."""

    def stats(self) -> dict[str, int]:
        """Counters since setup(), cumulative (see the module docstring)."""
        return {}

    def sample_stats(self, samples: list[Sample]) -> dict[str, int]:
        """Counters read off finished samples (what the stage made), added per shard."""
        return {}

    def problems(self, counters: dict[str, int]) -> list[str]:
        """What is wrong with an output whose shards gave this stage these counters (summed):
        a run that did less than asked (e.g. mostly fallback graphs) ends with an error."""
        return []

    @property
    def redoes(self) -> bool:
        """Whether this stage may ask for finished shards to be done again (:meth:`redo`)."""
        return False

    def redo(self, counters: dict[str, int]) -> bool:
        """On a rerun: whether the finished shard with these counters of this stage is done
        again (e.g. parse --redo-fallbacks). Its index rows then go to :meth:`reuse`."""
        return False

    def reuse(self, rows: list[dict] | None) -> None:
        """Before a shard: the index rows (``key``, ``status``, ``sg``, ...) of that shard as it
        was finished before when it is done again, so the stage keeps what it need not redo;
        ``None`` for a shard done the first time."""

    def take_stats(self) -> dict[str, int]:
        """The counters added since the last call: one shard's share."""
        now = Counter({k: int(v) for k, v in self.stats().items()})
        delta = {k: now[k] - self._taken.get(k, 0) for k in sorted(now)}
        self._taken = now
        return {k: v for k, v in delta.items() if v}

    def budget_extra(self) -> float:
        """Seconds a batch of this stage may take on top of the sample budget
        (``--sample-timeout``): what it may spend waiting rather than computing (e.g. for an
        LLM endpoint to come back)."""
        return 0.0

    def run(
        self,
        samples: list[Sample],
        on_batch: Callable[[int], None] | None = None,
        budget: ShardBudget | None = None,
    ) -> list[Sample]:
        """Process the samples that are still ok, in batches; failed ones pass through.
        ``on_batch(n)`` is told after each batch of ``n`` samples (for progress bars).
        ``budget``: the time budget of the shard's try (exec/budget.py): samples an earlier
        try found stuck fail as ``timeout`` without running, and those of a batch that was
        stuck run one at a time."""
        todo = [s for s in samples if s.ok]
        if budget is not None:
            todo = self._admit(todo, budget)
        for batch in self._batches(todo, budget):
            self._run_batch(batch, budget)
            if on_batch is not None:
                on_batch(len(batch))
        return samples

    def _admit(self, todo: list[Sample], budget: ShardBudget) -> list[Sample]:
        stuck = budget.timed_out(self.name)
        if not stuck:
            return todo
        for sample in todo:
            if sample.key in stuck:
                self._timed_out(sample, budget, hard=True)
        return [s for s in todo if s.ok]

    def _batches(self, todo: list[Sample], budget: ShardBudget | None) -> Iterator[list[Sample]]:
        """Batches of ``batch_size`` in the samples' order; a sample to run alone (it was in
        a batch that got stuck) is a batch of its own."""
        alone = budget.alone(self.name) if budget is not None else set()
        batch: list[Sample] = []
        for sample in todo:
            if sample.key in alone:
                if batch:
                    yield batch
                    batch = []
                yield [sample]
                continue
            batch.append(sample)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch:
            yield batch

    def _run_batch(self, batch: list[Sample], budget: ShardBudget | None) -> None:
        saved = [dict(s.__dict__) for s in batch] if budget is not None else []
        try:
            if budget is None:
                out = self.process_batch(batch)
            else:
                with budget.batch(self.name, batch, self.budget_extra()):
                    out = self.process_batch(batch)
            if len(out) != len(batch):
                raise RuntimeError(f"returned {len(out)} samples for {len(batch)}")
        except StopRun:
            raise
        except SampleTimeout:
            assert budget is not None
            for sample, state in zip(batch, saved):  # as before the batch began
                sample.__dict__.update(state)
            if len(batch) == 1:
                self._timed_out(batch[0], budget)
                return
            log.warning(
                "stage %s: a batch of %d samples ran over its budget of %.0f s; running "
                "them one at a time to find the one that is stuck",
                self.name,
                len(batch),
                budget.limit(self.name, len(batch)) + self.budget_extra(),
            )
            for sample in batch:
                self._run_batch([sample], budget)
        except Exception as exc:  # one broken batch must not end the run
            log.exception("stage %s failed on a batch of %d samples", self.name, len(batch))
            for sample in batch:
                sample.fail(self.name, "stage_error", f"{type(exc).__name__}: {exc}")

    def _timed_out(self, sample: Sample, budget: ShardBudget, hard: bool = False) -> None:
        seconds = budget.limit(self.name, 1) + self.budget_extra()
        how = (
            "was stuck where it could not be interrupted, and its worker was ended"
            if hard
            else "ran over the time budget"
        )
        caption = sample.caption if sample.caption is not None else ""
        text = caption if len(caption) <= 200 else caption[:200] + "..."
        log.warning(
            "stage %s: sample %s %s (%.0f s): %r", self.name, sample.key, how, seconds, text
        )
        sample.fail(
            self.name,
            TIMEOUT,
            f"{how} of {seconds:g} s per sample (--sample-timeout) in stage {self.name}; "
            f"key {sample.key}, caption {text!r}",
        )
