"""One failure policy for every executor: the shard ledger.

An executor decides only how shard tasks are submitted (processes, actors); what happens when
a task fails is decided here, the same way for all of them:

- an error that no retry can mend ends the run at once (:data:`FATAL`: the LLM endpoint is
  down for good, a model or package is missing, the disk is full, Ctrl-C);
- any other error of a shard is retried, up to :data:`ATTEMPTS` tries in all;
- a shard that fails every try is recorded in ``_meta/failed_shards.json`` with its error,
  the other shards go on, and the run ends with :class:`ShardsFailed` (exit 1);
- a worker process that dies (a signal, the out-of-memory killer) fails the shard it ran, as
  an error would (``WorkerDied``; of several shards in flight, each runs again alone first,
  so that the one that kills its worker is known);
- a worker that the time budget ended (a stage stuck in C code, ``exec/budget.py``) is no
  failed try: its shard's flight record names the cause, and the shard runs again;
- a run that starts clears the record of an earlier one: a rerun does only what is missing,
  and its own record says what still failed.
"""

from __future__ import annotations

import json
import logging
import os
import stat
from collections import Counter
from pathlib import Path

from sgprep.errors import ModelUnavailable
from sgprep.exec.stage import StopRun
from sgprep.io.writer_base import RunEnded
from sgprep.schema import OutputDir

log = logging.getLogger(__name__)

#: Tries of one shard before it is recorded as failed (the first and two retries).
ATTEMPTS = 3
#: Errors that end the run instead of failing one shard: a retry cannot mend them.
FATAL: tuple[type[BaseException], ...] = (
    StopRun,
    ModelUnavailable,
    ImportError,
    OSError,
    RunEnded,
    KeyboardInterrupt,
    SystemExit,
)
FAILED_FILE = OutputDir.FAILED


class ShardsFailed(RuntimeError):
    """Some shards failed every try; the others are done and a rerun retries the missing."""


class ShardLedger:
    """Counts the tries of each shard of one run and keeps the record of those that failed."""

    def __init__(self, meta_dir: Path, attempts: int = ATTEMPTS):
        self.path = meta_dir / FAILED_FILE
        self.attempts = attempts
        self.tries: Counter[int] = Counter()
        self.failed: dict[int, str] = {}
        self.retried = 0
        self._clear_stale()

    def _clear_stale(self) -> None:
        try:
            mode = os.lstat(self.path).st_mode
        except FileNotFoundError:
            return
        if stat.S_ISREG(mode):  # ours; a link or anything else planted there is left alone
            os.unlink(self.path)

    def failure(self, index: int, exc: BaseException) -> bool:
        """Shard ``index`` raised ``exc``: True to submit it again, False when it is now
        recorded as failed. A fatal error is raised again (the run ends)."""
        if isinstance(exc, FATAL):
            raise exc
        self.tries[index] += 1
        error = f"{type(exc).__name__}: {exc}"
        if self.tries[index] < self.attempts:
            self.retried += 1
            log.warning(
                "shard %05d failed (try %d of %d), retrying: %s",
                index,
                self.tries[index],
                self.attempts,
                error,
            )
            return True
        log.error(
            "shard %05d failed %d times; recorded in %s: %s", index, self.attempts, self.path, error
        )
        self.failed[index] = error
        return False

    def again(self, indices: list[int], why: str) -> None:
        """Shards to run again without counting a try against any one of them (a worker died
        while they all ran: which one killed it is not known yet)."""
        self.retried += len(indices)
        log.warning(
            "%s while shards %s were running: running each again, one at a time",
            why,
            ", ".join(f"{i:05d}" for i in indices),
        )

    def close(self) -> None:
        """Write the record of the shards that failed for good, and say so (ShardsFailed)."""
        if not self.failed:
            return
        from sgprep.io.safefs import atomic_write

        record = {f"{index:05d}": error for index, error in sorted(self.failed.items())}
        atomic_write(self.path, (json.dumps(record, indent=2) + "\n").encode())
        raise ShardsFailed(
            f"{len(self.failed)} shard(s) failed {self.attempts} times (see "
            f"{self.path}); the others are done: rerun the same command to retry "
            f"the missing ones"
        )
