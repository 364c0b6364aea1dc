"""What runs in a worker process: the runner that builds the stages once and runs shard
tasks (:class:`ShardRunner`, the Ray actors' too), the worker's start (spawned or forked, bound
to its parent so it never outlives the run), and the pool's stop."""

from __future__ import annotations

import gc
import logging
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor

from sgprep.config import RunConfig
from sgprep.exec.budget import Pace, ShardBudget
from sgprep.exec.machine import local_gpus, usable_cpus
from sgprep.exec.plan import Plan
from sgprep.exec.progress import ShardTally
from sgprep.exec.shard import run_shard
from sgprep.exec.stage import Stage
from sgprep.io.intake import Intake
from sgprep.io.writer_base import Writer
from sgprep.io.writers import make_writer
from sgprep.pipeline import STAGES, build_stages
from sgprep.schema import ShardStats

log = logging.getLogger(__name__)


#: The cyclic garbage collector's thresholds while a process runs shards. Python's default
#: (700 allocations between young collections) made the collector about a tenth of the CPU of
#: `sgprep negatives` (the chunk's samples and the shard's index rows are scanned again and
#: again while they live, and very few cycles are ever found); rarer young collections cut
#: that to about a hundredth. Restored by ``close``.
GC_THRESHOLDS = (50_000, 20, 10)


class ShardRunner:
    """What one process needs to run shard tasks: the plan, the stages, the writer.
    ``cpus``: the cores this process may compute on (granted to each stage; None: all).
    ``token``: the run's token (``Writer.prepare``): shards are written only while the output's
    lock holds it, so a worker that outlives its run writes nothing. ``isolated``: this is a
    worker process of its own, which the time budget may end when a stage is stuck where it
    cannot be interrupted (exec/budget.py); a driver's runner is never ended."""

    def __init__(
        self,
        config: RunConfig,
        plan: Plan,
        cpus: int | None = None,
        token: str | None = None,
        isolated: bool = False,
    ):
        self.plan, self.cpus = plan, cpus or usable_cpus()
        self.sample_timeout, self.isolated = config.sample_timeout, isolated
        self.pace = Pace()
        self.stages: list[Stage] = build_stages(config)
        self.writer: Writer = make_writer(config.output, **config.writer_options())
        if token is not None:
            self.writer.join(token)
        self.intake = Intake(
            config.max_caption_chars,
            config.max_image_pixels,
            config.check_images,
            config.image_format,
        )
        self.ready = False

    def prepare(self) -> None:
        """Place and set up the stages (load their models), once. The collector's thresholds
        are raised first (a model's load makes many objects and few cycles), and what the setup
        made is then frozen: the models' objects are never scanned again while shards run."""
        if not self.ready:
            self.gc_thresholds = gc.get_threshold()
            gc.set_threshold(*GC_THRESHOLDS)
            try:
                gpus = local_gpus() if any(s.resources().gpus for s in self.stages) else 0
                for stage in self.stages:
                    stage.place(gpus if stage.resources().gpus else 0, self.cpus)
                    stage.setup()
            except BaseException:
                gc.set_threshold(*self.gc_thresholds)
                raise
            gc.freeze()
            self.ready = True

    def run(self, index: int, progress=None) -> ShardStats:
        self.prepare()
        task = self.plan.tasks[index]
        rows = None
        if self.writer.is_done(index) and wants_redo(self.stages, self.writer.read_stats(index)):
            rows = self.writer.read_index(index)  # done again: keep what need not be redone
            self.writer.reopen(index)  # not done until it is written again
        for stage in self.stages:
            stage.reuse(rows)
        budget = None
        if self.sample_timeout > 0:
            meta = self.writer.layout.meta
            budget = ShardBudget(self.sample_timeout, index, meta, self.pace, self.isolated)
        try:
            return run_shard(
                self.plan, task, self.stages, self.writer, self.intake, progress, budget
            )
        except Exception:
            for stage in self.stages:  # what a failed try counted is not the retry's to report
                stage.take_stats()
            raise
        finally:
            if budget is not None:
                budget.close(finished=False, meta=None)

    def close(self) -> None:
        if self.ready:
            for stage in self.stages:
                stage.teardown()
            gc.unfreeze()
            gc.set_threshold(*self.gc_thresholds)
            self.ready = False


def wants_redo(stages: list[Stage], stats: ShardStats) -> bool:
    """Whether a stage asks for this finished shard to be done again (the driver decides what
    to send; the worker checks again, so a shard finished by someone else is only rewritten)."""
    return any(s.redoes and s.redo(stats.stages.get(s.name, {})) for s in stages)


class WorkerDied(RuntimeError):
    """A worker process died while running a shard (a signal, the out-of-memory killer)."""


def resource_tracker_running() -> bool:
    from multiprocessing import resource_tracker

    return getattr(resource_tracker._resource_tracker, "_pid", None) is not None


def stop_resource_tracker() -> None:
    """Stop and reap the process that spawn's semaphores started to track them. Left alone,
    it outlives the run: it is never waited for, so it ends as an orphan after sgprep has
    exited (a child left behind). Python has no public call for this; ``_stop`` closes its
    pipe and waits for it, as Python's own tests do."""
    from multiprocessing import resource_tracker

    stop = getattr(resource_tracker._resource_tracker, "_stop", None)
    if stop is not None:
        try:
            stop()
        except Exception:  # an interpreter without it: the OS reaps the tracker later
            log.debug("resource tracker not stopped", exc_info=True)


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the pool's worker processes now: shutting the pool down would wait for the shards
    in flight, and one may be stuck. (The pool has no public call for this.)"""
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        try:
            process.kill()
        except (OSError, ValueError, AttributeError):  # already gone
            pass


def bind_to_parent() -> None:
    """End this worker process when the process that started it ends, however it ends
    (``kill -9`` included): Linux's parent-death signal, and where there is none a thread
    that watches the parent's pid. A worker is never left behind holding a model."""
    parent = os.getppid()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a forked worker: not the driver's stop
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(1, signal.SIGKILL, 0, 0, 0) != 0:  # PR_SET_PDEATHSIG
            raise OSError(ctypes.get_errno(), "prctl")
    except (OSError, AttributeError):
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # it ended before the signal was asked for
        os._exit(1)


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(1)


def drain(updates, tally: ShardTally) -> None:
    """Count what the workers reported; with nothing new, redraw the progress (``tally(0)``)."""
    tally(0)
    while not updates.empty():
        tally.add(*updates.get())


_RUNNER: ShardRunner | None = None
_UPDATES = None


def init_worker(
    config: RunConfig,
    plan: Plan,
    updates,
    cpus: int,
    token: str | None,
    lock_fd: int | None = None,
    stages: dict[str, str] | None = None,
) -> None:
    """A worker that sets the stages up itself, spawned or forked (then the output's lock,
    inherited, is closed, as in :func:`init_forked_worker`). ``stages``: the stage table
    the driver knows, entries added at run time included (a spawned worker starts afresh)."""
    global _RUNNER, _UPDATES
    from multiprocessing.util import Finalize

    bind_to_parent()
    if lock_fd is not None:
        os.close(lock_fd)
    if stages:
        STAGES.update(stages)
    _RUNNER, _UPDATES = ShardRunner(config, plan, cpus, token, isolated=True), updates
    Finalize(_RUNNER, _RUNNER.close, exitpriority=10)


def init_forked_worker(runner: ShardRunner, updates, lock_fd: int | None) -> None:
    """A forked worker: the parent's runner, its stages set up, is this process's own copy.
    The output's lock is the run's, not this worker's: its inherited descriptor is closed, so
    that a worker left over from the run never keeps the output locked."""
    global _RUNNER, _UPDATES
    from multiprocessing.util import Finalize

    bind_to_parent()
    if lock_fd is not None:
        os.close(lock_fd)
    _RUNNER, _UPDATES = runner, updates
    Finalize(_RUNNER, _RUNNER.close, exitpriority=10)


def run_in_worker(index: int, attempt: int) -> ShardStats:
    assert _RUNNER is not None
    return _RUNNER.run(index, lambda n: _UPDATES.put((index, attempt, n)))
