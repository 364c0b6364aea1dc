"""The local executor: shard tasks over ``--workers`` processes on this machine.

Each worker process builds the stages once and sets them up before its first shard; every
shard goes through :func:`~sgprep.exec.shard.run_shard`, so the bytes do not depend on the
number of workers. Stages that want a GPU run in one process (placing several on one machine's
GPUs is the Ray executor's job).
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import threading
import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from sgprep.config import RunConfig
from sgprep.exec.budget import (
    TIMEOUT,
    flight_of,
    remove_empty,
    say_stuck,
)
from sgprep.exec.ledger import ATTEMPTS, ShardLedger
from sgprep.exec.machine import native_threads, usable_cpus
from sgprep.exec.plan import Plan, make_plan
from sgprep.exec.progress import LineProgress, RateColumn, ShardTally
from sgprep.exec.timing import read_timing
from sgprep.exec.totals import Totals
from sgprep.exec.workers import (
    ShardRunner,
    WorkerDied,
    drain,
    init_forked_worker,
    init_worker,
    resource_tracker_running,
    run_in_worker,
    stop_resource_tracker,
    stop_workers,
    wants_redo,
)
from sgprep.io.readers import resolve_inputs
from sgprep.io.writer_base import Writer
from sgprep.io.writers import check_apart, make_writer
from sgprep.pipeline import (
    STAGES,
    build_stages,
    check_requires,
    check_stages,
    resolve,
    run_after,
)
from sgprep.schema import ShardStats

if TYPE_CHECKING:
    from sgprep.exec.stage import Stage

log = logging.getLogger(__name__)


@dataclass
class RunSummary:
    shards_written: int = 0
    shards_skipped: int = 0
    planned_samples: int = 0
    planned_shards: int = 0
    workers: int = 1
    shards_retried: int = 0
    shards_failed: int = 0
    seconds: float = 0.0
    totals: Totals = field(default_factory=Totals)  # of the shards this run wrote
    output: Totals = field(default_factory=Totals)  # of every finished shard of the output
    shards_redone: int = 0  # finished shards done again (parse --redo-fallbacks)
    #: What is wrong with the output (e.g. mostly fallback graphs): the run ends with an error.
    problems: list[str] = field(default_factory=list)
    #: stage -> wall_s, cpu_s, items, summed over the shards this run wrote
    timing: dict[str, dict[str, float]] = field(default_factory=dict)
    #: corpus step (pipeline.AFTER) -> its counters, from its run over the finished output
    after: dict[str, dict[str, int]] = field(default_factory=dict)


def _has_fallback_graphs(jsonl: Path) -> bool:
    import json

    from sgprep.io.safefs import open_read

    with open_read(jsonl) as fh:  # never through a link
        return any((json.loads(line).get("sg") or {}).get("fallback_from") for line in fh)


class LocalExecutor:
    def __init__(self, config: RunConfig, console: Console | None = None):
        self.config = config
        self.console = console or Console(stderr=True)
        self.token: str | None = None  # the run's, given to every worker
        self._lock_fd: int | None = None
        self.meta: Path | None = None  # the output's _meta, once the run has it
        #: shards whose worker the time budget ended, and how often (exec/budget.py)
        self.hard_deaths: Counter[int] = Counter()
        self.plan_counts: dict[int, int] = {}
        self._stages: list[Stage] | None = None

    @property
    def stages(self) -> list[Stage]:
        """The run's stages, built once here for what the driver asks of them (which need
        images, redo shards, want a GPU, see problems); each worker builds its own."""
        if self._stages is None:
            self._stages = build_stages(self.config)
        return self._stages

    def run(self) -> RunSummary:
        self.config = config = check_stages(resolve(self.config))
        self._stages = None  # of the checked config
        check_requires(config)
        check_apart(resolve_inputs(config.input), config.output)
        writer = make_writer(config.output, **config.writer_options())
        writer.prepare(config.run_meta(), config.fingerprint(), config.overwrite)
        self.token = writer.token
        self._lock_fd: int | None = getattr(writer, "_lock_fd", None)  # closed in forked workers
        try:
            summary = self._run(writer)
            summary.after = run_after(config)  # under the output's lock, like the shards
            return summary
        except Exception:
            writer.discard()  # a start that failed before any shard leaves nothing behind
            raise
        finally:
            writer.release()

    def _run(self, writer: Writer) -> RunSummary:
        config = self.config
        if writer.complete:  # a finished JSONL output of this very run
            if any(s.redoes for s in self.stages) and _has_fallback_graphs(config.output):
                raise ValueError(
                    f"{config.output} is complete and holds graphs from the "
                    "fallback parser, but its parts are joined, so no shard can be "
                    "done again (--redo-fallbacks redoes the shards of a directory "
                    "output, or of a JSONL output not yet complete)"
                )
            log.info("%s is already complete", config.output)
            return RunSummary(workers=0)
        plan = make_plan(
            config.input,
            config.input_format,
            config.shard_size,
            config.limit,
            writer,
            config.columns,
            any(s.needs_images for s in self.stages),
            config.image_root,
            config.allow_outside_paths,
        )
        todo = [t.index for t in plan.tasks if not writer.is_done(t.index)]
        redo = self._redo(plan, writer)
        todo = sorted(todo + redo)
        summary = RunSummary(
            shards_skipped=len(plan.tasks) - len(todo),
            planned_samples=plan.samples,
            planned_shards=len(plan.tasks),
            shards_redone=len(redo),
        )
        summary.workers = self._workers(len(todo))
        started = time.monotonic()
        done = plan.samples - sum(plan.tasks[i].count for i in todo)
        self.meta = writer.layout.meta
        ledger = ShardLedger(self.meta)
        written = []
        try:
            # worker processes are forked from this one: no progress thread may run then
            pooled = self._pooled(summary.workers)
            with self._progress(plan.samples, done, threads=not pooled) as advance:
                tally = ShardTally(advance)
                for stats in self._execute_tasks(plan, todo, summary.workers, tally, ledger):
                    summary.shards_written += 1
                    summary.totals.add(stats)
                    written.append(int(stats.shard))
                    self._say_timeouts(stats, summary.totals)
        finally:
            summary.seconds = time.monotonic() - started
            summary.timing = read_timing(self.meta, written)
            summary.shards_retried, summary.shards_failed = ledger.retried, len(ledger.failed)
            self.summary = summary  # what was done, also when the ledger ends the run
            remove_empty(self.meta)
        ledger.close()
        for task in plan.tasks:
            summary.output.add(writer.read_stats(task.index))
        summary.problems = run_problems(config, summary.output) + [
            problem
            for stage in self.stages
            for problem in stage.problems(summary.output.stages.get(stage.name, {}))
        ]
        for problem in summary.problems:
            log.error("%s", problem)
        if not summary.problems:  # a JSONL output keeps its parts: a rerun can redo them
            writer.finish()
        return summary

    def _redo(self, plan: Plan, writer: Writer) -> list[int]:
        """Finished shards that a stage wants done again (parse --redo-fallbacks)."""
        stages = [s for s in self.stages if s.redoes]
        if not stages:
            return []
        redo = [
            t.index
            for t in plan.tasks
            if writer.is_done(t.index) and wants_redo(stages, writer.read_stats(t.index))
        ]
        if redo:
            log.info(
                "%d finished shard(s) hold graphs from the fallback parser: parsing those "
                "samples again (--redo-fallbacks)",
                len(redo),
            )
        return redo

    def _say_timeouts(self, stats: ShardStats, so_far: Totals) -> None:
        """Say, as the run goes, which shards had samples time out, and when their share is
        over --max-timeout-share (the run will then end with an error)."""
        now = timeouts(stats.failures)
        if not now:
            return
        total = timeouts(so_far.failures)
        share = total / max(so_far.samples, 1)
        log.warning(
            "shard %s: %d sample(s) ran over the time budget of %g s (failed as timeout; "
            "%d so far, %.2f%% of the samples)",
            stats.shard,
            now,
            self.config.sample_timeout,
            total,
            100 * share,
        )
        if share > self.config.max_timeout_share:
            log.error(
                "more than --max-timeout-share %g of the samples so far timed out: the run "
                "goes on and will end with an error",
                self.config.max_timeout_share,
            )

    def _pooled(self, workers: int) -> bool:
        """Whether shards run in worker processes: with several workers, and with a time
        budget (a worker is what the budget may end when a stage is stuck in C code)."""
        return workers > 1 or self.config.sample_timeout > 0

    def _workers(self, tasks: int) -> int:
        wanted = self.config.workers or usable_cpus()
        if wanted > 1 and any(s.resources().gpus > 0 for s in self.stages):
            log.info(
                "a stage uses a GPU: running one worker process (use --executor ray to "
                "spread GPU stages)"
            )
            wanted = 1
        return max(1, min(wanted, tasks))

    @contextmanager
    def _progress(self, total: int, done: int, threads: bool = True):
        """A callback ``advance(n)``: a rich bar on a terminal, periodic log lines otherwise.
        Without ``threads`` the bar is redrawn by ``advance`` (the pool's loop calls it with 0
        five times a second), not by rich's refresh thread."""
        config = self.config
        if config.progress and not self.console.is_terminal:
            lines = LineProgress(config.command, total, done, config.progress_interval)
            yield lines.advance
            if lines.done > lines.first:
                log.info("%s", lines.line(time.monotonic()))
            return
        progress = Progress(
            SpinnerColumn(),
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            TaskProgressColumn(),
            MofNCompleteColumn(),
            RateColumn(),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            console=self.console,
            disable=not config.progress,
            transient=False,
            auto_refresh=threads,
        )
        with progress:
            bar = progress.add_task(config.command, total=total, completed=done, first=done)
            if threads:
                yield lambda n: progress.advance(bar, n)
                return

            def advance(n: int) -> None:
                progress.advance(bar, n)
                progress.refresh()

            yield advance

    def _execute_tasks(
        self, plan: Plan, todo: list[int], workers: int, tally: ShardTally, ledger: ShardLedger
    ):
        """Run the tasks; yield each finished shard's stats (in any order). A task that
        fails goes to the ledger, which says whether to submit it again."""
        if not self._pooled(workers):
            return self._in_process(plan, todo, tally, ledger)
        return self._in_pool(plan, todo, workers, tally, ledger)

    def _in_process(self, plan: Plan, todo: list[int], tally: ShardTally, ledger: ShardLedger):
        runner = ShardRunner(self.config, plan, token=self.token)
        try:
            queue = list(todo)
            while queue:
                index = queue.pop(0)
                try:
                    stats = runner.run(index, partial(tally.add, index, tally.attempt(index)))
                except Exception as exc:  # noqa: BLE001 - the ledger decides
                    tally.failed(index)
                    if ledger.failure(index, exc):
                        queue.append(index)
                    continue
                yield stats
        finally:
            runner.close()

    def _in_pool(
        self, plan: Plan, todo: list[int], workers: int, tally: ShardTally, ledger: ShardLedger
    ):
        """At most ``workers`` tasks in flight, so that a worker that dies (killed, out of
        memory: the pool is then broken) leaves few suspects. A new pool takes over; the
        suspects are run one at a time, so that the one that kills its worker is known and
        goes to the ledger (retried, then recorded as failed) as any failing shard does.

        Workers are forked from this process after it has set the stages up, when every stage
        allows it (:attr:`Stage.fork_safe`) and no other thread runs here: they share the
        loaded models (no model loaded again per worker). Otherwise they are spawned and each
        sets the stages up itself."""
        cpus = max(1, usable_cpus() // workers)  # each worker's share of the cores
        parent = self._forking_runner(plan, cpus)
        fork = parent is not None or self._may_fork(plan)
        context = multiprocessing.get_context("fork" if fork else "spawn")
        tracker_was_running = resource_tracker_running()
        # progress from the workers: a SimpleQueue, written by each worker's own thread with
        # no feeder thread, so that a worker ended mid-write (the time budget, SIGKILL) leaves
        # no thread of another holding the queue's lock, nor one to join at its exit
        updates = context.SimpleQueue()
        if parent is not None:
            initargs = (parent, updates, self._lock_fd)
            initializer = init_forked_worker
        else:
            lock_fd = self._lock_fd if fork else None
            initargs = (self.config, plan, updates, cpus, self.token, lock_fd, dict(STAGES))
            initializer = init_worker
        self.plan_counts = {t.index: t.count for t in plan.tasks}
        queue = list(todo)
        suspects: set[int] = set()
        try:
            while queue:
                if parent is not None:
                    gc.freeze()  # the models' objects: never scanned, their pages stay shared
                with ProcessPoolExecutor(
                    workers, mp_context=context, initializer=initializer, initargs=initargs
                ) as pool:
                    broken = yield from self._pool_tasks(
                        pool, queue, suspects, workers, updates, tally, ledger
                    )
                if broken:
                    for index in broken:
                        tally.failed(index)
                    queue[:0] = self._after_death(broken, suspects, ledger)
        finally:
            if parent is not None:
                gc.unfreeze()
                parent.close()
            updates.close()
            # the pool's and the queue's semaphores are released before their tracker stops
            pool = updates = initargs = parent = None
            if not tracker_was_running:
                gc.collect()
                stop_resource_tracker()

    def _may_fork(self, plan: Plan) -> bool:
        """Whether workers that set their stages up themselves may still be forked (they
        start at once, and a stage or parser of the caller's own is theirs too): where no
        other thread runs here, not even a native one (a thread pool of OpenMP or ONNX
        Runtime that a stage's check() started does not survive a fork), and no stage wants a
        GPU (CUDA does not survive one either)."""
        if "fork" not in multiprocessing.get_all_start_methods():
            return False
        if threading.active_count() > 1 or native_threads() > 1:
            return False
        return not any(s.resources().gpus for s in self.stages)

    def _forking_runner(self, plan: Plan, cpus: int) -> ShardRunner | None:
        """A runner set up here for forked workers to share, or None where they are spawned."""
        if "fork" not in multiprocessing.get_all_start_methods():
            return None
        runner = ShardRunner(self.config, plan, cpus, self.token, isolated=True)
        if not all(stage.fork_safe for stage in runner.stages):
            return None
        if threading.active_count() > 1:  # a lock held by another thread would stay held
            log.info("other threads run in this process: worker processes are spawned")
            return None
        runner.prepare()
        return runner

    @staticmethod
    def _pool_tasks(
        pool,
        queue: list[int],
        suspects: set[int],
        workers: int,
        updates,
        tally: ShardTally,
        ledger: ShardLedger,
    ):
        """Run ``queue`` on ``pool`` until it is empty or the pool breaks; return the shards
        in flight when it broke (empty when it did not)."""
        pending: dict = {}
        try:
            while queue or pending:
                while queue and len(pending) < workers:
                    if queue[0] in suspects and pending:
                        break  # a suspect runs alone
                    index = queue.pop(0)
                    future = pool.submit(run_in_worker, index, tally.attempt(index))
                    pending[future] = index
                    if index in suspects:
                        break
                done, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                drain(updates, tally)
                for future in done:
                    index = pending.pop(future)
                    try:
                        stats = future.result()
                    except BrokenProcessPool:  # a worker died: this pool cannot go on
                        return sorted([index, *pending.values()])
                    except Exception as exc:  # noqa: BLE001 - the ledger decides
                        tally.failed(index)
                        if ledger.failure(index, exc):
                            queue.append(index)
                        continue
                    suspects.discard(index)
                    yield stats
            drain(updates, tally)
            return []
        except BaseException:
            for future in pending:
                future.cancel()
            stop_workers(pool)  # a stop (Ctrl-C, SIGTERM, a fatal error) waits for no shard
            raise

    def _after_death(self, broken: list[int], suspects: set[int], ledger: ShardLedger) -> list[int]:
        """A worker died while ``broken`` were in flight: the shards to run again first. A
        shard that was alone in flight killed its worker: that is a failed try (the ledger).
        Of several, which one did is not known: each is a suspect and runs alone next. A
        worker that the time budget ended (a stage stuck in C code) says so in its shard's
        flight record: that shard is the cause, none is a suspect, and no try is counted
        (its next try knows the samples to run alone or to fail as timeout)."""
        stuck = [i for i in broken if self._stuck_in_c(i)]
        if stuck:
            return [i for i in broken if i not in stuck or not self._gave_up(i, ledger)]
        if len(broken) == 1:
            index = broken[0]
            error = WorkerDied(
                f"the worker process died while running shard {index:05d} "
                f"(killed, or out of memory?)"
            )
            return [index] if ledger.failure(index, error) else []
        ledger.again(broken, "a worker process died (killed, or out of memory?)")
        suspects.update(broken)
        return list(broken)

    def _stuck_in_c(self, index: int) -> bool:
        flight = flight_of(self.meta, index) if self.meta is not None else None
        if flight is not None:
            say_stuck(index, flight)
        return flight is not None

    def _gave_up(self, index: int, ledger: ShardLedger) -> bool:
        """Each end by the budget teaches the next try a sample to fail or a batch to split,
        so a shard ends after at most about two per sample; past that something else is wrong
        (its record cannot be kept): the ledger counts it as any failure."""
        self.hard_deaths[index] += 1
        if self.hard_deaths[index] <= 2 * self.plan_counts.get(index, 0) + ATTEMPTS:
            return False
        error = WorkerDied(f"the time budget ended shard {index:05d}'s worker too many times")
        return not ledger.failure(index, error)


def timeouts(failures: dict[str, int]) -> int:
    """The samples that ran over the time budget, of a shard's or a run's failure counts."""
    return sum(n for key, n in failures.items() if key.rpartition("/")[2] == TIMEOUT)


def run_problems(config: RunConfig, output: Totals) -> list[str]:
    """What is wrong with an output as a whole: too many samples timed out, or failed."""
    if not output.samples:
        return []
    problems = []
    late = timeouts(output.failures)
    if late and late / output.samples > config.max_timeout_share:
        problems.append(
            f"{late:,} of {output.samples:,} samples ({late / output.samples:.1%}) ran over "
            f"the time budget of {config.sample_timeout:g} s per sample, more than "
            f"--max-timeout-share {config.max_timeout_share:g}; their failure rows (reason "
            f"timeout) name them. Raise --sample-timeout where the stage is slow, not stuck"
        )
    limit = config.max_failed_share
    over = output.ok == 0 if limit is None else output.failed / output.samples > limit
    if over:
        reasons = sorted(output.failures.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
        why = ", ".join(f"{key} {n:,}" for key, n in reasons)
        allowed = "every sample failed" if limit is None else f"more than {limit:g} failed"
        problems.append(
            f"{output.failed:,} of {output.samples:,} samples failed ({why}): "
            f"{allowed}, so the output is not a success (--max-failed-share allows it; "
            f"the failures are in the index)"
        )
    return problems
