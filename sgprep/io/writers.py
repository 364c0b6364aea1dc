"""Output writers: WebDataset shards with an index, or one JSON Lines file.

Both work shard by shard; a shard's ``NNNNN_stats.json`` is written last and marks it done,
so a rerun skips finished shards. Every file is written to a temp name, then renamed.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import shutil
import time
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sgprep.io.images import IMAGE_EXTENSIONS, TRAINER_FORMATS
from sgprep.io.records import (
    INDEX_COLUMNS,
    digest,
    dumps,
    failure_key,
    index_values,
    member_checksums,
    tar_members,
    to_record,
)
from sgprep.io.safefs import (
    LinkRefused,
    atomic_write,
    climbs_above_root,
    commit,
    copy_file,
    exclusive_temp,
    make_dirs,
    open_read,
    read_bytes,
    real_dir,
    remove_empty_dirs,
    remove_names,
    sync_close,
)
from sgprep.io.tar import FIXED_MTIME, GzipStream, TarWriter
from sgprep.schema import FileInfo, OutputDir, Sample, ShardStats

log = logging.getLogger(__name__)

SHARD_FILE = OutputDir.SHARD_FILE
#: A shard's data file is written sample by sample through a buffer this large (the default
#: 8 KiB made a system call every sample or two).
WRITE_BUFFER = 1 << 20


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


SHARD_SUFFIXES = OutputDir.SHARD_SUFFIXES


class _TarSink(ShardSink):
    """The tar keeps its temp name until the index and the stats are written: a trainer that
    globs ``*.tar`` never reads an unfinished shard, even after Ctrl-C or a kill."""

    def __init__(self, writer: ShardWriter, index: int):
        super().__init__(writer, index)
        self.path = writer.root / f"{shard_name(index)}{writer.tar_suffix}"
        self.tmp, self.fh = exclusive_temp(self.path, WRITE_BUFFER)
        self.gzip = GzipStream(self.fh) if writer.compression == "gzip" else None
        self.tar = TarWriter(self.gzip or self.fh, mtime=FIXED_MTIME)
        #: shared_images: the last image written, its sample's key and its bytes
        self.last_image: tuple[str, bytes] | None = None
        self.rows: list[tuple[Any, ...]] = []  # index rows, in INDEX_COLUMNS order
        self.negative_rows: list[dict[str, Any]] | None = [] if writer.negatives_table else None
        #: the samples written, by their members' names (``__key__`` included): counted by
        #: extension once, at the close (a Counter update per sample cost a microsecond)
        self.member_names: Counter[tuple[str, ...]] = Counter()

    def _add(self, sample: Sample) -> None:
        checksums = offset = size = members = image_key = None
        if sample.ok:
            image_key = self._shared_image(sample)
            members = tar_members(sample, image_key)
            if self.gzip is None:
                offset = self.tar.offset
                self.tar.write_sample(members)
                size = self.tar.offset - offset
            else:  # a deflate block of its own: the index's offset and size find it
                offset = self.gzip.position
                self.tar.write_sample(members)
                self.gzip.mark()
                size = self.gzip.position - offset
            checksums = member_checksums(members)  # of the very bytes just written
            self.member_names[tuple(members)] += 1
            if self.negative_rows is not None and sample.neg is not None:
                self.negative_rows.extend(negative_rows(sample.key, sample.neg))
        self.rows.append(
            index_values(
                sample,
                checksums,
                shard_name(self.index),
                offset,
                size,
                written=members,
                image_key=image_key,
            )
        )

    def _shared_image(self, sample: Sample) -> str | None:
        """With ``shared_images``: the key of the sample just written before this one that
        holds the same image bytes (COCO's captions of one image come one after another), else
        None (this sample holds its image, and later ones may point at it)."""
        if not self.writer.shared_images or sample.image is None:
            return None
        last = self.last_image
        if last is not None and last[1] == sample.image:
            return last[0]
        self.last_image = (sample.key, sample.image)
        return None

    def _finish_data(self) -> dict[str, FileInfo]:
        import pyarrow as pa
        import pyarrow.parquet as pq

        for names, n in self.member_names.items():
            for ext in names:
                if ext != "__key__":
                    self.members[ext] += n
        self.tar.close()
        if self.gzip is not None:
            self.gzip.close()
        tar_size = self.fh.tell()
        sync_close(self.fh)
        table = index_table(self.rows)
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink, compression="zstd")
        index = sink.getvalue().to_pybytes()
        name = shard_name(self.index)
        atomic_write(self.writer.root / f"{name}.parquet", index)
        # sizes catch a truncated or extended file; the index's checksum covers its every byte
        # (the tar's members carry their own checksums in the index)
        files = {
            self.path.name: FileInfo(size=tar_size),
            f"{name}.parquet": FileInfo(size=len(index), sha256=digest(index)),
        }
        if self.negative_rows is not None:
            table = pa.Table.from_pylist(self.negative_rows, schema=NEGATIVES_SCHEMA())
            sink = pa.BufferOutputStream()
            pq.write_table(table, sink, compression="zstd")
            data = sink.getvalue().to_pybytes()
            folder = real_dir(self.writer.root / NEGATIVES_DIR, create=True)  # never a link
            atomic_write(folder / f"{name}.parquet", data)
            files[f"{NEGATIVES_DIR}/{name}.parquet"] = FileInfo(size=len(data), sha256=digest(data))
        return files

    def _publish(self) -> None:
        os.replace(self.tmp, self.path)


class ShardWriter(Writer):
    """``DIR/NNNNN.tar`` (ok samples) + ``NNNNN.parquet`` (every sample) + stats; with
    ``negatives_table``, ``negatives/NNNNN.parquet`` too (one row per negative). With
    ``shared_images``, a sample whose image is the one of the ok sample written just before
    it has no image member (``json.image_key`` names that one); with ``compression="gzip"``
    the tars are ``NNNNN.tar.gz``."""

    def __init__(
        self,
        root: Path,
        negatives_table: bool = False,
        shared_images: bool = False,
        compression: str = "none",
    ):
        super().__init__(root)
        self.negatives_table = negatives_table
        self.shared_images = shared_images
        self.compression = compression
        self.tar_suffix = ".tar.gz" if compression == "gzip" else ".tar"

    def open_shard(self, index: int) -> ShardSink:
        return _TarSink(self, index)

    def _unpublish(self, index: int) -> None:
        remove_names(self.root, {f"{shard_name(index)}{self.tar_suffix}"})  # Ctrl-C: no stale tar

    def _recover_published(self) -> None:
        for path in self.layout.stats_files():
            name = path.name.removesuffix("_stats.json") + self.tar_suffix
            tmp = self.root / f".{name}.tmp"
            try:
                recorded = ShardStats.model_validate_json(read_bytes(path)).files.get(name)
                if (
                    recorded is not None
                    and not os.path.lexists(self.root / name)
                    and os.lstat(tmp).st_size == recorded.size
                ):
                    os.replace(tmp, self.root / name)
            except (OSError, ValueError):
                continue

    def read_index(self, index: int) -> list[dict[str, Any]]:
        import pyarrow.parquet as pq

        path = self.root / f"{shard_name(index)}.parquet"
        with open_read(path) as fh:  # never through a planted link
            return pq.read_table(fh, columns=["key", "status", "sg"]).to_pylist()

    def finish(self) -> None:
        """Make the finished output self-describing: sizes.json and the dataset card."""
        from sgprep import __version__
        from sgprep.io.card import write_dataset_files

        stats = [ShardStats.model_validate_json(read_bytes(p)) for p in self.layout.stats_files()]
        write_dataset_files(self.root, stats, __version__, self.shared_images)
        odd = Counter()
        for s in stats:
            odd.update(
                {
                    ext: n
                    for ext, n in s.members.items()
                    if ext in IMAGE_EXTENSIONS and ext not in TRAINER_FORMATS
                }
            )
        if odd:
            log.warning(
                "%s samples have images in formats that open_clip and other WebDataset "
                "loaders skip without a word (%s); rerun with --image-format jpg (a new "
                "--output) to re-encode them",
                f"{sum(odd.values()):,}",
                ", ".join(f"{ext}: {n:,}" for ext, n in sorted(odd.items())),
            )


#: The flat negatives tables' folder: NegCLIP's CSV in columnar form, one file per shard.
NEGATIVES_DIR = "negatives"
NEGATIVE_COLUMNS = [
    "key",
    "positive",
    "negative",
    "kind",
    "realisation",
    "level",
    "positive_index",
    "strategy",
    "image_key",
]


def negative_rows(key: str, neg) -> list[dict[str, Any]]:
    return [
        {
            "key": key,
            "positive": n.positive,
            "negative": n.text,
            "kind": n.kind,
            "realisation": n.realisation,
            "level": n.level,
            "positive_index": n.positive_index,
            "strategy": n.strategy,
            "image_key": n.image_key,
        }
        for n in neg.negatives
    ]


def NEGATIVES_SCHEMA():  # noqa: N802 - a constant, built lazily
    import pyarrow as pa

    return pa.schema(
        [(c, pa.int32() if c == "positive_index" else pa.string()) for c in NEGATIVE_COLUMNS]
    )


def INDEX_SCHEMA():  # noqa: N802 - a constant, built lazily so pyarrow loads only when used
    import pyarrow as pa

    types = {
        "image_width": pa.int32(),
        "image_height": pa.int32(),
        "offset": pa.int64(),
        "size": pa.int64(),
    }
    return pa.schema([(c, types.get(c, pa.string())) for c in INDEX_COLUMNS])


def index_table(rows: list[tuple[Any, ...]]):
    """The index rows (:func:`index_values`: in :data:`INDEX_COLUMNS` order) as a table
    of :func:`INDEX_SCHEMA`. The columns are built from their buffers: ``pa.array`` on a
    Python list imports pandas (1.2 s) to ask whether the list is one of its arrays, and a
    captions-only run has no other use for pandas. The rows are turned into columns in one
    pass (``zip``), and a column with no null, or only nulls, is encoded without a test per
    value."""
    import numpy as np
    import pyarrow as pa

    schema = INDEX_SCHEMA()
    names = schema.names
    columns = list(zip(*rows)) if rows else [()] * len(names)
    arrays = []
    for field, values in zip(schema, columns):
        n, nulls = len(values), values.count(None)
        if nulls == 0:
            present = np.ones(n, dtype=bool)
        elif nulls == n:
            present = np.zeros(n, dtype=bool)
        else:
            present = np.array([v is not None for v in values], dtype=bool)
        valid = pa.py_buffer(np.packbits(present, bitorder="little"))
        if pa.types.is_string(field.type):
            blob = None
            if nulls == 0 and (text := "".join(values)).isascii():
                # one encoding for the column: ASCII characters are its bytes, one each
                data, blob = values, text.encode("ascii")
            elif nulls == 0:
                data = list(map(str.encode, values))
            elif nulls == n:
                data = [b""] * n
            else:
                data = [v.encode("utf-8") if v is not None else b"" for v in values]
            offsets = np.zeros(n + 1, dtype=np.int64)
            np.cumsum(list(map(len, data)), out=offsets[1:])
            if offsets[-1] >= 2**31:  # beyond 32-bit offsets: the general path
                arrays.append(pa.array(list(values), type=field.type))
                continue
            blob = b"".join(data) if blob is None else blob
            arrays.append(
                pa.StringArray.from_buffers(
                    n, pa.py_buffer(offsets.astype(np.int32)), pa.py_buffer(blob), valid
                )
            )
        else:
            dtype = field.type.to_pandas_dtype()
            numbers = np.array(
                values if nulls == 0 else [0 if v is None else v for v in values], dtype=dtype
            )
            arrays.append(pa.Array.from_buffers(field.type, n, [valid, pa.py_buffer(numbers)]))
    return pa.Table.from_arrays(arrays, schema=schema)


class _JsonlSink(ShardSink):
    def __init__(self, writer: JsonlWriter, index: int):
        super().__init__(writer, index)
        self.path = writer.root / f"{shard_name(index)}.jsonl"
        self.tmp, self.fh = exclusive_temp(self.path, WRITE_BUFFER)

    def _add(self, sample: Sample) -> None:
        self.fh.write((dumps(to_record(sample).model_dump(mode="json")) + "\n").encode("utf-8"))

    def _finish_data(self) -> dict[str, FileInfo]:
        commit(self.tmp, self.fh, self.path)
        return {}


class JsonlWriter(Writer):
    """``FILE.jsonl``: one record per input sample. Shards are kept as parts in
    ``FILE.jsonl.parts/`` until the run is complete, then joined into the file."""

    root_link_ok = False

    def __init__(self, path: Path):
        super().__init__(path.with_name(path.name + ".parts"))
        self.path = path
        self.final_meta = path.with_name(path.stem + ".run.json")

    def prepare(self, run_meta: dict[str, Any], fingerprint: str, overwrite: bool) -> None:
        if os.path.islink(self.root):
            raise LinkRefused(self.root)
        if self.path.exists() and not self.root.exists() and not overwrite:
            if self._read_meta(self.final_meta).get("fingerprint") == fingerprint:
                self.complete = True
                return
            raise OutputConflict(f"{self.path} exists; pass --overwrite to replace it")
        if (
            self.root.is_dir()
            and not self.meta_file.exists()
            and any(p.name != OutputDir.META for p in self.root.iterdir())
        ):
            raise OutputConflict(
                f"{self.root} holds files that sgprep did not write; sgprep keeps "
                f"its parts there while it works: move them, or choose another --output"
            )
        super().prepare(run_meta, fingerprint, overwrite)

    def open_shard(self, index: int) -> ShardSink:
        return _JsonlSink(self, index)

    def read_index(self, index: int) -> list[dict[str, Any]]:
        rows = []
        with open_read(self.root / f"{shard_name(index)}.jsonl") as fh:  # never through a link
            for line in fh:
                record = json.loads(line)
                rows.append({k: record.get(k) for k in ("key", "status", "sg")})
        return rows

    def is_done(self, index: int) -> bool:
        return self.complete or super().is_done(index)

    def finish(self) -> None:
        if self.complete:
            return
        parts = sorted(self.root.glob("[0-9]*.jsonl"))
        tmp, out = exclusive_temp(self.path)
        for part in parts:
            with open_read(part) as fh:
                shutil.copyfileobj(fh, out)
        commit(tmp, out, self.path)
        copy_file(self.meta_file, self.final_meta)
        self._remove_timing()
        remove_names(self.root, self._shard_names())
        meta = self.meta_file.parent
        remove_names(meta, {*META_FILES, *self._temp_names(META_FILES), LOCK_FILE, PUBLISH_LOCK})
        remove_empty_dirs([meta, self.root])  # only when empty: nothing but our own files was there


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


def check_apart(inputs: list[Path], output: Path) -> None:
    """Refuse an output that is, contains or lies inside an input: a run would read its own
    results, and --overwrite could delete the input."""
    out = output.resolve()
    for given in inputs:
        path = given.resolve()
        if out == path or path.is_relative_to(out) or out.is_relative_to(path):
            raise OutputConflict(
                f"--output {output} overlaps --input {given} (it is, contains or lies inside it); "
                f"write the output somewhere else"
            )


def make_writer(output: Path, **options: Any) -> Writer:
    """``options``: :class:`ShardWriter`'s (``RunConfig.writer_options``); a JSONL output
    has none of them."""
    if output.suffix.lower() == ".jsonl":
        return JsonlWriter(output)
    return ShardWriter(output, **options)
