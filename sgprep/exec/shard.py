"""``run_shard``: the only path from a shard task to a finished shard, for every executor.

Read the task's slice, assign keys and run the intake checks, run the stages a chunk at a
time, stream each finished chunk into the shard's temp files, then write the stats (last: they
mark the shard done). Memory holds one chunk of samples plus the shard's index rows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

from sgprep.exec.budget import ShardBudget
from sgprep.exec.plan import Plan, ShardTask, read_task
from sgprep.exec.stage import Stage
from sgprep.exec.timing import StageClock, write_timing
from sgprep.io.intake import Intake, assign_key
from sgprep.io.writer_base import Writer
from sgprep.schema import Sample, ShardStats

DEFAULT_CHUNK = 256


def run_shard(
    plan: Plan,
    task: ShardTask,
    stages: list[Stage],
    writer: Writer,
    intake: Intake,
    progress: Callable[[int], None] | None = None,
    budget: ShardBudget | None = None,
) -> ShardStats:
    with writer.publishing():  # a worker whose run is over makes no file (RunEnded)
        sink = writer.open_shard(task.index)
    chunk_size = max([s.batch_size for s in stages] or [DEFAULT_CHUNK])
    product_counts: dict[str, Counter[str]] = {s.name: Counter() for s in stages}
    clock = StageClock()
    for chunk in _chunks(_checked(plan, task, intake), chunk_size):
        for stage in stages:
            with clock.timed(stage.name, sum(s.ok for s in chunk)):
                stage.run(chunk, budget=budget)
            product_counts[stage.name].update(stage.sample_stats(chunk))
        sink.add(chunk)
        if progress is not None:
            progress(len(chunk))
    counters = {}
    for stage in stages:
        merged = Counter(stage.take_stats())
        merged.update(product_counts[stage.name])
        counters[stage.name] = dict(sorted((k, v) for k, v in merged.items() if v))
    with writer.publishing():  # only while this run holds the output
        write_timing(writer.layout.meta, task.index, clock)  # before the stats: they mark done
        stats = sink.close(counters)
    if budget is not None:
        budget.close(finished=True, meta=writer.layout.meta)
    return stats


def _checked(plan: Plan, task: ShardTask, intake: Intake) -> Iterator[Sample]:
    duplicates = set(task.duplicates)
    position = task.first
    for sample in read_task(plan, task):
        assign_key(sample, position, position in duplicates)
        yield intake.check(sample)
        position += 1
    if position != task.first + task.count:
        raise RuntimeError(
            f"shard {task.index}: the input gave {position - task.first} samples "
            f"where the plan has {task.count}; did it change during the run?"
        )


def _chunks(samples: Iterator[Sample], size: int) -> Iterator[list[Sample]]:
    chunk: list[Sample] = []
    for sample in samples:
        chunk.append(sample)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
