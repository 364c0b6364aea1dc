"""The local executor: one process, shard by shard, memory bounded by one shard."""

from __future__ import annotations

import itertools
import logging
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from rich.console import Console
from rich.progress import (BarColumn, Progress, ProgressColumn, SpinnerColumn, TextColumn,
                           TimeElapsedColumn)
from rich.text import Text

from sgprep.config import RunConfig
from sgprep.exec.intake import Intake
from sgprep.exec.stage import Stage
from sgprep.io.readers import read_samples
from sgprep.io.writers import make_writer
from sgprep.schema import Sample

log = logging.getLogger(__name__)


@dataclass
class RunSummary:
    shards_written: int = 0
    shards_skipped: int = 0
    samples: int = 0
    ok: int = 0
    failed: int = 0
    failures: Counter = field(default_factory=Counter)
    stage_stats: dict[str, dict[str, int]] = field(default_factory=dict)


class RateColumn(ProgressColumn):
    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f} samples/s" if speed else "- samples/s", style="cyan")


def chunks(samples: Iterator[Sample], size: int) -> Iterator[list[Sample]]:
    while chunk := list(itertools.islice(samples, size)):
        yield chunk


class LocalExecutor:
    def __init__(self, config: RunConfig, stages: list[Stage], console: Console | None = None):
        self.config = config
        self.stages = stages
        self.console = console or Console(stderr=True)
        self._ready = False

    def _setup(self) -> None:
        if not self._ready:
            for stage in self.stages:
                stage.setup()
            self._ready = True

    def run(self) -> RunSummary:
        config = self.config
        writer = make_writer(config.output)
        writer.prepare(config.run_meta(), config.fingerprint(), config.overwrite)
        intake = Intake(config.max_caption_chars, config.max_image_pixels, config.check_images)
        samples = read_samples(config.input, config.input_format)
        if config.limit:
            samples = itertools.islice(samples, config.limit)
        summary = RunSummary()
        progress = Progress(
            SpinnerColumn(), TextColumn("[bold]{task.description}"), BarColumn(),
            TextColumn("{task.completed:,} samples"),
            RateColumn(), TextColumn("shard {task.fields[shard]}"),
            TimeElapsedColumn(), console=self.console, disable=not config.progress, transient=False)
        position = 0
        try:
            with progress:
                task = progress.add_task(config.command, total=config.limit, shard="-")
                for index, shard in enumerate(chunks(samples, config.shard_size)):
                    done = writer.is_done(index)
                    for sample in shard:
                        intake.key(sample, position)
                        intake.check(sample, thorough=not done)
                        position += 1
                    progress.update(task, shard=f"{index:05d}")
                    if done:
                        summary.shards_skipped += 1
                        progress.advance(task, len(shard))
                        continue
                    self._setup()
                    shown = 0

                    def advance(n: int) -> None:
                        nonlocal shown
                        shown += n
                        progress.advance(task, n)

                    for i, stage in enumerate(self.stages):
                        stage.run(shard, on_batch=advance if i == len(self.stages) - 1 else None)
                    stats = writer.write(index, shard)
                    summary.shards_written += 1
                    summary.samples += stats.samples
                    summary.ok += stats.ok
                    summary.failed += stats.failed
                    summary.failures.update(stats.failures)
                    progress.advance(task, len(shard) - shown)  # samples no stage processed
            writer.finish()
        finally:
            for stage in self.stages if self._ready else []:
                summary.stage_stats[stage.name] = stage.stats()
                stage.teardown()
        return summary
