"""What every output writer shares: a run's hold on its output (the lock and the run
token), the refusal of another run's output, ``--overwrite``, and a shard's life from its
first sample to its stats file (``ShardSink``). The writers are in ``writers.py``.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sgprep.io.records import failure_key
from sgprep.io.safefs import (
    atomic_write,
    climbs_above_root,
    make_dirs,
    read_bytes,
    real_dir,
    remove_empty_dirs,
    remove_names,
)
from sgprep.io.tables import NEGATIVES_DIR
from sgprep.schema import FileInfo, OutputDir, Sample, ShardStats

SHARD_FILE = OutputDir.SHARD_FILE
SHARD_SUFFIXES = OutputDir.SHARD_SUFFIXES


class OutputConflict(Exception):
    """The output holds another run's results and --overwrite was not given."""


class RunEnded(RuntimeError):
    """A worker's run no longer holds the output (its driver died, or another run took the
    output): the worker writes nothing there."""


shard_name = OutputDir.shard_name


class ShardSink(ABC):
    """One shard being written: samples stream in batch by batch; ``close`` finishes it.
    Only the index rows (no image bytes) are kept until the shard is done."""

    def __init__(self, writer: Writer, index: int):
        self.writer = writer
        self.index = index
        self.samples = self.ok = 0
        self.failures: Counter[str] = Counter()
        self.members: Counter[str] = Counter()  # samples carrying each member, by extension

    def add(self, samples: list[Sample]) -> None:
        for sample in samples:
            self.samples += 1
            self.ok += sample.ok
            key = failure_key(sample)
            if key:
                self.failures[key] += 1
            self._add(sample)

    @abstractmethod
    def _add(self, sample: Sample) -> None: ...

    @abstractmethod
    def _finish_data(self) -> dict[str, FileInfo]:
        """Commit the shard's data files; return them by name (recorded in the stats)."""

    def close(self, stages: dict[str, dict[str, int]]) -> ShardStats:
        files = self._finish_data()
        stats = ShardStats(
            shard=shard_name(self.index),
            samples=self.samples,
            ok=self.ok,
            failed=self.samples - self.ok,
            failures=dict(sorted(self.failures.items())),
            stages={k: v for k, v in stages.items()},
            files=files,
            members=dict(sorted(self.members.items())),
        )
        atomic_write(
            self.writer.stats_file(self.index), (stats.model_dump_json(indent=2) + "\n").encode()
        )
        self._publish()
        return stats

    def _publish(self) -> None:
        """After the stats: give a data file its final name (see ``_TarSink``)."""


#: What sgprep writes in ``OUTPUT/_meta`` (``--overwrite`` and a failed start remove these
#: names and no others; the lock stays while a run holds it).
META_FILES = (
    OutputDir.RUN,
    OutputDir.PLAN,
    OutputDir.KEYS,
    OutputDir.DATA_STATS,
    OutputDir.REPORT,
    OutputDir.FAILED,
    "dataset.json",
    OutputDir.MINED,
)
#: ``_meta/timing/NNNNN.json``: each shard's time per stage (exec/timing.py).
TIMING_DIR = OutputDir.TIMING
#: ``_meta/budget``: what the time budget learned of a shard's tries (exec/budget.py), until
#: the shard is done.
BUDGET_DIR = "budget"
#: ``_meta/lock``: held (flock) by the run writing the output; holds its pid and run token.
LOCK_FILE = OutputDir.LOCK
#: ``_meta/publish.lock``: workers hold it shared while they write a shard's files, a run that
#: takes the output holds it exclusive once (it waits for a worker of a dead run to be done).
PUBLISH_LOCK = OutputDir.PUBLISH_LOCK
#: How long a run that finds the output's lock taken tries again: a worker that checks
#: whether its run still holds the lock takes it shared for an instant (``_check_held``).
LOCK_RETRY_S = 2.0


class Writer(ABC):
    #: The output folder the user named may be a link (their path); a parts folder that
    #: sgprep makes beside a JSONL file may not.
    root_link_ok = True

    def __init__(self, root: Path):
        self.root = root
        self.layout = OutputDir(root)
        self.complete = False  # set by prepare() when this exact run has already finished
        self.created: list[Path] = []  # folders this run made (removed again by discard)
        self.fresh = False  # no earlier run had recorded itself in this output
        self._lock_fd: int | None = None
        #: The run this writer writes for (made by ``prepare``, given to workers by ``join``):
        #: shard files are written only while the output's lock holds this token.
        self.token: str | None = None

    @property
    def meta_file(self) -> Path:
        return self.layout.run_file

    def prepare(self, run_meta: dict[str, Any], fingerprint: str, overwrite: bool) -> None:
        """Take the output's lock; refuse another run's output unless ``overwrite``, and a
        directory that sgprep did not write whatever the flags; record this run's config.
        Every decision is made under the lock: a run refused for want of it touches nothing."""
        if climbs_above_root(self.root):
            raise OutputConflict(
                f"--output {self.root} climbs above / with '..'; write the "
                f"path without it ({os.path.normpath(self.root)})"
            )
        if self.root.exists() and not self.root.is_dir():
            raise OutputConflict(
                f"--output {self.root} is a file; name a directory (or FILE.jsonl)"
            )
        self.created = make_dirs(self.root, link_ok=self.root_link_ok)
        self.created += make_dirs(self.meta_file.parent)
        self._lock()
        try:
            self._prepare_locked(run_meta, fingerprint, overwrite)
        except BaseException:
            self.discard()
            self.release()
            raise

    def _prepare_locked(self, run_meta, fingerprint, overwrite) -> None:
        existing = self._existing_fingerprint()
        self.fresh = existing is None
        has_results = any(SHARD_FILE.match(p.name) for p in self._result_files())
        if existing is None and has_results:
            raise OutputConflict(
                f"{self.root} already holds shard files that sgprep did not write (no "
                f"{self.meta_file.relative_to(self.root)}); sgprep never replaces files it did not "
                f"make. Choose another --output"
            )
        if overwrite:
            self._clear()
        elif existing is not None and existing != fingerprint and has_results:
            done = len(self.layout.stats_files())
            raise OutputConflict(
                f"{self.root} holds {done} finished shard(s) of a run with other settings: "
                f"{settings_diff(self._existing_settings(), run_meta.get('settings'))}. Rerun with "
                f"the output's settings to resume it, choose another --output, or pass "
                f"--overwrite to start again (its finished shards are deleted)"
            )
        self._recover_published()
        remove_names(self.root, self._temp_names(self._shard_names()))  # of a killed run
        remove_names(self.meta_file.parent, self._temp_names(META_FILES))
        meta = {**run_meta, "fingerprint": fingerprint}
        atomic_write(self.meta_file, (json.dumps(meta, indent=2, sort_keys=True) + "\n").encode())

    def _lock(self) -> None:
        """One run per output: an exclusive lock on ``_meta/lock``, held until the process
        ends (the OS releases it even after a SIGKILL). It records the pid and a new run
        token; a worker writes a shard only while the lock holds its run's token
        (:meth:`publishing`), so a worker left over from a killed run never writes into the
        run that comes next."""
        import fcntl

        path = self.meta_file.parent / LOCK_FILE
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        deadline = time.monotonic() + LOCK_RETRY_S
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() < deadline:  # a worker's check holds it for an instant
                    time.sleep(0.05)
                    continue
                holder = os.pread(fd, 64, 0).decode(errors="replace").split() or ["?"]
                os.close(fd)
                raise OutputConflict(
                    f"another sgprep run (pid {holder[0]}) is writing to {self.root}; wait for "
                    f"it to finish, or choose another --output"
                ) from None
        self.token = secrets.token_hex(16)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} {self.token}\n".encode(), 0)
        self._lock_fd = fd  # kept open: closing it would release the lock
        # wait for the workers of a dead run that are writing a shard right now; from here on
        # they find another token in the lock and write nothing
        barrier = os.open(
            self.meta_file.parent / PUBLISH_LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644
        )
        try:
            fcntl.flock(barrier, fcntl.LOCK_EX)
        finally:
            os.close(barrier)

    def join(self, token: str) -> None:
        """A worker's writer: write shards for the run whose token this is (see ``_lock``)."""
        self.token = token

    @contextmanager
    def publishing(self) -> Iterator[None]:
        """Around every write of a shard's files by a run's worker: raises :class:`RunEnded`,
        and writes nothing, unless the output's lock is still held with this run's token.
        A writer used outside a run (no token) is not checked."""
        if self.token is None:
            yield
            return
        import fcntl

        try:
            fd = os.open(self.meta_file.parent / PUBLISH_LOCK, os.O_RDWR | os.O_NOFOLLOW)
        except FileNotFoundError:
            raise RunEnded(
                f"{self.root} holds no run's lock any more; this worker's run is "
                f"over and writes nothing"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)  # a run taking the output waits for this write
            self._check_held()
            yield
        finally:
            os.close(fd)

    def _check_held(self) -> None:
        import fcntl

        try:
            fd = os.open(self.meta_file.parent / LOCK_FILE, os.O_RDONLY | os.O_NOFOLLOW)
        except FileNotFoundError:
            fd = None
        try:
            if fd is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)  # free: its run is dead
                except BlockingIOError:
                    holder = os.pread(fd, 128, 0).decode(errors="replace").split()
                    if holder[1:2] == [self.token]:
                        return
                    raise RunEnded(
                        f"another run (pid {holder[0] if holder else '?'}) now "
                        f"writes to {self.root}; this worker's run is over and "
                        f"writes nothing"
                    ) from None
        finally:
            if fd is not None:
                os.close(fd)
        raise RunEnded(
            f"the run that started this worker no longer holds {self.root} (it "
            f"was killed?); this worker writes nothing"
        )

    def release(self) -> None:
        """Give the output's lock back (the end of a run)."""
        fd, self._lock_fd = self._lock_fd, None
        if fd is not None:
            os.close(fd)

    def discard(self) -> None:
        """After a run failed before finishing any shard: remove what it made (its records,
        and the folders it created when they are left empty), nothing else. Only the run that
        holds the lock may: a run refused for want of it never deletes the other's files."""
        if self._lock_fd is None or self.layout.stats_files():
            return
        meta = self.meta_file.parent
        if self.fresh:  # no earlier run's records here: this run's are removed
            remove_names(
                meta, {*META_FILES, *self._temp_names(META_FILES), LOCK_FILE, PUBLISH_LOCK}
            )
        remove_names(self.root, self._temp_names(self._shard_names()))
        remove_empty_dirs(self.created)

    def _existing_settings(self) -> dict[str, Any] | None:
        return self._read_meta(self.meta_file).get("settings")

    def _existing_fingerprint(self) -> str | None:
        return self._read_meta(self.meta_file).get("fingerprint")

    @staticmethod
    def _read_meta(path: Path) -> dict[str, Any]:
        try:
            data = json.loads(read_bytes(path))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _result_files(self) -> list[Path]:
        return [p for p in self.root.iterdir() if p.is_file()] if self.root.is_dir() else []

    def _planned_shards(self) -> int:
        try:
            plan = json.loads(read_bytes(self.layout.plan_file))
            return len(plan.get("tasks", []))
        except (OSError, ValueError, AttributeError):
            return 0

    def _shard_names(self) -> set[str]:
        """The shard files that sgprep's records name: every shard of the saved plan, and
        the files each finished shard's stats list."""
        names: set[str] = set()
        for index in range(self._planned_shards()):
            names.update(shard_name(index) + s for s in SHARD_SUFFIXES)
        for path in self.layout.stats_files():
            names.add(path.name)
            try:
                names.update(
                    n
                    for n in ShardStats.model_validate_json(read_bytes(path)).files
                    if SHARD_FILE.match(n)
                )
            except (OSError, ValueError):
                continue
        return names

    @staticmethod
    def _temp_names(names) -> set[str]:
        return {f".{n}.tmp" for n in names}

    def _clear(self) -> None:
        """``--overwrite``: remove the files that this output's records name (shards, their
        temp files, sgprep's ``_meta`` files), never a file sgprep did not write."""
        from sgprep.io.card import is_ours, recorded

        shards = self._shard_names()
        remove_names(self.root, shards | self._temp_names(shards))
        self._remove_timing()  # before plan.json goes: it says which shards there were
        # sizes.json, README.md: only while they are as sgprep wrote them
        remove_names(self.root, {n for n in recorded(self.root) if is_ours(self.root, n)})
        remove_names(self.meta_file.parent, {*META_FILES, *self._temp_names(META_FILES)})
        folder = self.root / NEGATIVES_DIR
        if os.path.lexists(folder):  # the flat negatives tables of the planned shards
            tables = {shard_name(i) + ".parquet" for i in range(self._planned_shards())}
            remove_names(real_dir(folder), tables | self._temp_names(tables))

    def _remove_timing(self) -> None:
        """The timing records of the planned shards, and their folder when that leaves it
        empty; and the time budget's records of those shards (a killed run's), which must not
        teach the next run anything."""
        folder = self.layout.timing_dir
        names = {f"{shard_name(i)}.json" for i in range(self._planned_shards())}
        remove_names(folder, names | self._temp_names(names))
        budget = self.layout.meta / BUDGET_DIR
        if os.path.lexists(budget):  # a real folder of ours, never through a link
            learned = {
                f"{shard_name(i)}{suffix}"
                for i in range(self._planned_shards())
                for suffix in (".json", ".flight")
            }
            remove_names(real_dir(budget), learned | self._temp_names(learned))
        remove_empty_dirs([folder, budget])

    def _recover_published(self) -> None:
        """A shard's data file gets its final name after its stats (``ShardSink._publish``);
        a run killed between the two left it under its temp name: name it now."""

    def stats_file(self, index: int) -> Path:
        return self.layout.stats_file(index)

    def is_done(self, index: int) -> bool:
        return self.stats_file(index).exists()

    def reopen(self, index: int) -> None:
        """A finished shard is to be written again: it is not done until then (its stats go
        first), and its data leaves the names a reader globs for (``_unpublish``)."""
        self.stats_file(index).unlink()
        self._unpublish(index)

    def _unpublish(self, index: int) -> None:
        """Take a reopened shard's data off its final names."""

    def read_stats(self, index: int) -> ShardStats:
        return ShardStats.model_validate_json(read_bytes(self.stats_file(index)))

    @abstractmethod
    def open_shard(self, index: int) -> ShardSink: ...

    @abstractmethod
    def read_index(self, index: int) -> list[dict[str, Any]]:
        """A finished shard's rows, every sample: ``key``, ``status`` and ``sg`` (its JSON)."""

    def finish(self) -> None:
        """Called once every shard is done."""


def settings_diff(old: dict[str, Any] | None, new: dict[str, Any] | None) -> str:
    """'shard_size: 1000 there, 5 now; ...' for the settings that differ."""
    if not old or not new:
        return "the output was written by another version of sgprep"
    names = [
        [s.get("name") for s in d.get("stages") or [] if isinstance(s, dict)] for d in (old, new)
    ]
    diffs = [f"that run had no {n} stage" for n in names[1] if n not in names[0]]
    diffs += [f"that run had a {n} stage, this one has none" for n in names[0] if n not in names[1]]
    alone = {f"stages.{n}." for n in set(names[0]) ^ set(names[1])}
    a, b = _flat(old), _flat(new)
    diffs += [
        f"{k}: {a.get(k, '(unset)')!r} there, {b.get(k, '(unset)')!r} now"
        for k in sorted(set(a) | set(b))
        if a.get(k) != b.get(k) and not k.startswith(tuple(alone))
    ]
    return "; ".join(diffs) or "no setting differs (another sgprep version?)"


def _flat(data: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(data, dict):
        out = {}
        for key, value in data.items():
            out.update(_flat(value, f"{prefix}{key}."))
        return out
    if isinstance(data, list) and all(isinstance(x, dict) and "name" in x for x in data):
        out = {}
        for item in data:
            out.update(_flat(item.get("settings", {}), f"{prefix}{item['name']}."))
        return out
    return {prefix.rstrip("."): data}
