"""The time budget of a sample (``--sample-timeout``): no input stops a run.

Every batch a stage processes runs under a deadline. A batch of ``n`` samples gets the
budget ``S`` plus four times what ``n`` samples of that stage have taken so far in this
process (a batch of 256 spaCy parses ~1 s more, of 256 T5 generations on a CPU minutes
more), and two guards watch it:

- **soft**: in the process's main thread an interval timer raises :class:`SampleTimeout` in
  the stage's Python code, also inside a regular expression or ``time.sleep``. The batch's
  samples are then run again one at a time, each with the budget ``S``; the one that runs
  over alone fails with reason ``timeout``, the others go on.
- **hard**: code stuck in C that never returns to Python (and holds the interpreter's lock)
  cannot be interrupted. ``faulthandler``'s own C thread ends the process ``grace`` seconds
  later, after appending the stuck stack to the shard's *flight record*, the file that names
  the batch in flight (``_meta/budget/NNNNN.flight``). The executor sees its worker die and
  runs the shard again (not counted as a failed try); the new try reads the flight record:
  a batch of several samples is run one sample at a time, a sample that was alone is failed
  as ``timeout`` without being run again. So one such sample costs two restarts of a worker.

What a shard's tries learned is kept in ``_meta/budget/NNNNN.json`` until the shard is
finished; both files then go. The hard guard ends the process it runs in, so it is armed only
in worker processes (the local executor's, Ray's actors), never in a driver.
"""

from __future__ import annotations

import faulthandler
import json
import logging
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from statistics import median
from typing import TYPE_CHECKING

from sgprep.io.writer_base import BUDGET_DIR

if TYPE_CHECKING:
    from sgprep.schema import Sample

log = logging.getLogger(__name__)

#: The failure reason of a sample that ran over its budget.
TIMEOUT = "timeout"
#: How faulthandler starts what it appends on a timeout ("Timeout (0:01:30)!").
_DUMP_MARK = "Timeout ("
#: Batches a stage's pace is read from (the median of their seconds per sample).
_PACE_WINDOW = 16


class SampleTimeout(BaseException):  # noqa: N818 - raised like KeyboardInterrupt
    """A batch ran over its budget. A BaseException, so that a stage's own ``except
    Exception`` (one bad caption must not end a batch) does not swallow it."""


def grace(seconds: float) -> float:
    """How long the soft guard has to land before the hard one ends the process."""
    return min(max(2.0, seconds / 2), 30.0)


def budget_dir(meta: Path, create: bool = False) -> Path | None:
    """``meta/budget``; None where something that is not a folder of ours stands there (a
    link, a file): then no record is kept rather than writing through it."""
    from sgprep.io.safefs import own_dir

    return own_dir(meta / BUDGET_DIR, create)


def _read_text(path: Path) -> str | None:
    from sgprep.io.safefs import read_bytes

    try:
        return read_bytes(path).decode("utf-8", "replace")
    except OSError:  # missing, or a link (never followed)
        return None


def flight_of(meta: Path, index: int) -> dict | None:
    """What shard ``index``'s last try was running when the hard guard ended its process:
    ``{"stage", "keys", "seconds", "stack"}``; None when it was not ended that way (the
    try finished, failed, or its worker died of something else)."""
    folder = budget_dir(meta)
    text = _read_text(folder / f"{index:05d}.flight") if folder else None
    if not text or _DUMP_MARK not in text:
        return None
    head, _, stack = text.partition("\n")
    try:
        record = json.loads(head)
    except ValueError:
        return None
    record["stack"] = stack
    return record


def say_stuck(index: int, flight: dict) -> None:
    """Say which shard, stage and samples the hard guard ended a worker on, and where the
    code was stuck (the driver says it: a worker's own log may go nowhere)."""
    keys = flight["keys"]
    log.warning(
        "shard %05d: stage %s was stuck for over %.0f s on %s, where it could not be "
        "interrupted, and its worker was ended; %s. Where it was stuck:\n%s",
        index,
        flight["stage"],
        flight["seconds"],
        f"sample {keys[0]}" if len(keys) == 1 else f"a batch of {len(keys)} samples",
        "it fails as timeout" if len(keys) == 1 else "each of them now runs alone",
        _stack_head(flight["stack"]),
    )


def remove_records(meta: Path, index: int) -> None:
    """Shard ``index`` is finished: what its tries learned is no longer needed."""
    from sgprep.io.safefs import remove_names

    folder = budget_dir(meta)
    if folder is not None:
        name = f"{index:05d}"
        remove_names(folder, {f"{name}.flight", f"{name}.json", f".{name}.json.tmp"})


def remove_empty(meta: Path) -> None:
    """The run is over: the records' folder goes when no record is left in it (only the
    driver removes it, so that no worker makes a record in a folder that is going)."""
    folder = budget_dir(meta)
    if folder is not None:
        try:
            os.rmdir(folder)
        except OSError:
            pass


class Pace:
    """Seconds per sample of each stage's recent batches in this process."""

    def __init__(self) -> None:
        self.seen: dict[str, deque[float]] = {}

    def add(self, stage: str, seconds: float, samples: int) -> None:
        if samples:
            window = self.seen.setdefault(stage, deque(maxlen=_PACE_WINDOW))
            window.append(seconds / samples)

    def of(self, stage: str) -> float:
        window = self.seen.get(stage)
        return median(window) if window else 0.0


class ShardBudget:
    """One try of one shard under the budget: what earlier tries learned (which samples to
    run alone, which to fail without running), and the guards of each batch.

    ``seconds``: the budget ``S``; ``hard``: whether the hard guard may end this process (a
    worker's); ``meta``: the output's ``_meta`` (None: no flight record, soft guard only)."""

    def __init__(
        self, seconds: float, index: int, meta: Path | None, pace: Pace, hard: bool = False
    ):
        self.seconds, self.index, self.pace = seconds, index, pace
        self.folder = budget_dir(meta, create=hard) if meta is not None else None
        self.hard = hard and self.folder is not None
        self.known: dict[str, dict[str, list[str]]] = self._learn(meta)
        self._fd: int | None = None
        self._armed = False

    # -- what earlier tries learned -------------------------------------------------------
    def _path(self, suffix: str) -> Path:
        assert self.folder is not None
        return self.folder / f"{self.index:05d}{suffix}"

    def _learn(self, meta: Path | None) -> dict[str, dict[str, list[str]]]:
        if self.folder is None or meta is None:
            return {}
        text = _read_text(self._path(".json"))
        known = json.loads(text) if text else {}
        flight = flight_of(meta, self.index)
        if flight is not None:
            entry = known.setdefault(flight["stage"], {"alone": [], "timed_out": []})
            keys = flight["keys"]
            target = "timed_out" if len(keys) == 1 else "alone"
            entry[target] = sorted(set(entry[target]) | set(keys))
            from sgprep.io.safefs import atomic_write, remove_names

            atomic_write(self._path(".json"), json.dumps(known, sort_keys=True).encode())
            remove_names(self.folder, {self._path(".flight").name})  # learned: not twice
        return known

    def timed_out(self, stage: str) -> set[str]:
        return set(self.known.get(stage, {}).get("timed_out", ()))

    def alone(self, stage: str) -> set[str]:
        return set(self.known.get(stage, {}).get("alone", ()))

    def limit(self, stage: str, samples: int) -> float:
        """The budget of a batch of ``samples`` of ``stage``."""
        return self.seconds + 4 * samples * self.pace.of(stage)

    # -- the guards -----------------------------------------------------------------------
    @contextmanager
    def batch(self, stage: str, samples: list[Sample], extra: float = 0.0) -> Iterator[None]:
        """Run a batch of ``stage`` under its budget (``extra``: seconds the stage may wait
        on top, e.g. for an LLM endpoint)."""
        seconds = self.limit(stage, len(samples)) + extra
        soft = threading.current_thread() is threading.main_thread()
        if self.hard:
            self._record(stage, samples, seconds)
            faulthandler.dump_traceback_later(
                seconds + grace(seconds), repeat=False, file=self._fd, exit=True
            )
        previous = None
        if soft:
            previous = signal.signal(signal.SIGALRM, self._interrupt)
            self._armed = True
            signal.setitimer(signal.ITIMER_REAL, seconds)
        started = time.perf_counter()
        try:
            yield
        finally:
            self._armed = False
            if soft:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
            if self.hard:
                faulthandler.cancel_dump_traceback_later()
        self.pace.add(stage, time.perf_counter() - started, len(samples))

    def _interrupt(self, signum, frame) -> None:
        if self._armed:
            self._armed = False
            raise SampleTimeout()

    def _record(self, stage: str, samples: list[Sample], seconds: float) -> None:
        """The flight record: the batch in flight, where faulthandler appends the stack."""
        line = json.dumps({"stage": stage, "keys": [s.key for s in samples], "seconds": seconds})
        if self._fd is None:
            flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
            self._fd = os.open(self._path(".flight"), flags, 0o644)
        os.lseek(self._fd, 0, os.SEEK_SET)
        os.write(self._fd, line.encode() + b"\n")
        os.ftruncate(self._fd, len(line) + 1)  # faulthandler writes after it

    def close(self, finished: bool, meta: Path | None) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        if finished and meta is not None:
            remove_records(meta, self.index)


def _stack_head(stack: str, lines: int = 12) -> str:
    return "\n".join(stack.strip().splitlines()[:lines])
