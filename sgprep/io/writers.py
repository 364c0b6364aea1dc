"""Output writers: WebDataset shards with an index, or one JSON Lines file.

Both work shard by shard; a shard's ``NNNNN_stats.json`` is written last and marks it done,
so a rerun skips finished shards. Every file is written to a temp name, then renamed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from abc import ABC, abstractmethod
from collections import Counter
from pathlib import Path
from typing import Any, BinaryIO

from sgprep.io.tar import TarWriter
from sgprep.io.records import (INDEX_COLUMNS, digest, dumps, failure_key, index_row,
                               member_checksums, tar_members, to_record)
from sgprep.schema import FileInfo, Sample, ShardStats

SHARD_FILE = re.compile(r"^\d{5,}(\.tar|\.parquet|\.jsonl|_stats\.json)$")
#: tar entries carry a fixed mtime (2000-01-01) so reruns give identical bytes.
FIXED_MTIME = 946684800


class OutputConflict(Exception):
    """The output holds another run's results and --overwrite was not given."""


def atomic_write(path: Path, data: bytes) -> None:
    tmp, fh = exclusive_temp(path)
    fh.write(data)
    commit(tmp, fh, path)


def shard_name(index: int) -> str:
    return f"{index:05d}"


def exclusive_temp(path: Path) -> tuple[Path, BinaryIO]:
    """A new temp file beside ``path``, created exclusively and never through a symlink."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.unlink()  # a stale one of a killed run (a symlink is removed, never followed)
    except FileNotFoundError:
        pass
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    return tmp, os.fdopen(fd, "wb")


def commit(tmp: Path, fh: BinaryIO, path: Path) -> None:
    fh.flush()
    os.fsync(fh.fileno())
    fh.close()
    os.replace(tmp, path)


class ShardSink(ABC):
    """One shard being written: samples stream in batch by batch; ``close`` finishes it.
    Only the index rows (no image bytes) are kept until the shard is done."""

    def __init__(self, writer: Writer, index: int):
        self.writer = writer
        self.index = index
        self.samples = self.ok = 0
        self.failures: Counter[str] = Counter()

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
        stats = ShardStats(shard=shard_name(self.index), samples=self.samples, ok=self.ok,
                           failed=self.samples - self.ok,
                           failures=dict(sorted(self.failures.items())),
                           stages={k: v for k, v in stages.items()}, files=files)
        atomic_write(self.writer.stats_file(self.index),
                     (stats.model_dump_json(indent=2) + "\n").encode())
        return stats


class Writer(ABC):
    def __init__(self, root: Path):
        self.root = root
        self.complete = False  # set by prepare() when this exact run has already finished

    @property
    def meta_file(self) -> Path:
        return self.root / "_meta" / "run.json"

    def prepare(self, run_meta: dict[str, Any], fingerprint: str, overwrite: bool) -> None:
        """Take the output's lock; refuse another run's output unless ``overwrite``, and a
        directory that sgprep did not write whatever the flags; record this run's config."""
        if self.root.exists() and not self.root.is_dir():
            raise OutputConflict(f"--output {self.root} is a file; name a directory (or FILE.jsonl)")
        existing = self._existing_fingerprint()
        has_results = any(SHARD_FILE.match(p.name) for p in self._result_files())
        if existing is None and has_results:
            raise OutputConflict(
                f"{self.root} already holds shard files that sgprep did not write (no "
                f"{self.meta_file.relative_to(self.root)}); sgprep never replaces files it did not "
                f"make. Choose another --output")
        self.meta_file.parent.mkdir(parents=True, exist_ok=True)
        self._lock()
        try:
            self._prepare_locked(run_meta, fingerprint, overwrite, existing, has_results)
        except BaseException:
            self.release()
            raise

    def _prepare_locked(self, run_meta, fingerprint, overwrite, existing, has_results) -> None:
        if overwrite:
            self._clear()
            self.meta_file.parent.mkdir(parents=True, exist_ok=True)
        elif existing is not None and existing != fingerprint and has_results:
            done = len(list(self.root.glob("[0-9]*_stats.json")))
            raise OutputConflict(
                f"{self.root} holds {done} finished shard(s) of a run with other settings: "
                f"{settings_diff(self._existing_settings(), run_meta.get('settings'))}. Rerun with "
                f"the output's settings to resume it, choose another --output, or pass "
                f"--overwrite to start again (its finished shards are deleted)")
        for stale in self.root.glob(".*.tmp"):  # left by a killed run (we hold the lock)
            stale.unlink()
        meta = {**run_meta, "fingerprint": fingerprint}
        atomic_write(self.meta_file, (json.dumps(meta, indent=2, sort_keys=True) + "\n").encode())

    def _lock(self) -> None:
        """One run per output: an exclusive lock on ``_meta/lock``, held until the process
        ends (the OS releases it even after a SIGKILL)."""
        import fcntl

        path = self.meta_file.parent / "lock"
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise OutputConflict(
                f"another sgprep run (pid {holder}) is writing to {self.root}; wait for it to "
                f"finish, or choose another --output") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._lock_fd = fd  # kept open: closing it would release the lock

    def release(self) -> None:
        """Give the output's lock back (the end of a run)."""
        fd, self._lock_fd = getattr(self, "_lock_fd", None), None
        if fd is not None:
            os.close(fd)

    def _existing_settings(self) -> dict[str, Any] | None:
        try:
            return json.loads(self.meta_file.read_text()).get("settings")
        except (OSError, ValueError):
            return None

    def _existing_fingerprint(self) -> str | None:
        try:
            return json.loads(self.meta_file.read_text()).get("fingerprint")
        except (OSError, ValueError):
            return None

    def _result_files(self) -> list[Path]:
        return [p for p in self.root.iterdir() if p.is_file()] if self.root.is_dir() else []

    def _clear(self) -> None:
        """Remove this output's own files: shard files and temp files of sgprep's naming, and
        ``_meta`` but for the lock. Called only where ``_meta/run.json`` says sgprep wrote here."""
        for path in self._result_files():
            if SHARD_FILE.match(path.name) or (path.name.startswith(".") and
                                               path.name.endswith(".tmp")):
                path.unlink()
        for path in (self.root / "_meta").iterdir():
            if path.name != "lock":
                shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()

    def stats_file(self, index: int) -> Path:
        return self.root / f"{shard_name(index)}_stats.json"

    def is_done(self, index: int) -> bool:
        return self.stats_file(index).exists()

    def read_stats(self, index: int) -> ShardStats:
        return ShardStats.model_validate_json(self.stats_file(index).read_bytes())

    @abstractmethod
    def open_shard(self, index: int) -> ShardSink: ...

    @abstractmethod
    def read_index(self, index: int) -> list[dict[str, Any]]:
        """A finished shard's rows, every sample: ``key``, ``status`` and ``sg`` (its JSON)."""

    def finish(self) -> None:
        """Called once every shard is done."""


class _TarSink(ShardSink):
    def __init__(self, writer: ShardWriter, index: int):
        super().__init__(writer, index)
        self.path = writer.root / f"{shard_name(index)}.tar"
        self.tmp, self.fh = exclusive_temp(self.path)
        self.tar = TarWriter(self.fh, mtime=FIXED_MTIME)
        self.rows: list[dict[str, Any]] = []

    def _add(self, sample: Sample) -> None:
        checksums = None
        if sample.ok:
            members = tar_members(sample)
            self.tar.write_sample(members)
            checksums = member_checksums(members)  # of the very bytes just written
        self.rows.append(index_row(sample, checksums))

    def _finish_data(self) -> dict[str, FileInfo]:
        import pyarrow as pa
        import pyarrow.parquet as pq

        self.tar.close()
        tar_size = self.fh.tell()
        commit(self.tmp, self.fh, self.path)
        table = pa.Table.from_pylist(self.rows, schema=INDEX_SCHEMA())
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink, compression="zstd")
        index = sink.getvalue().to_pybytes()
        name = shard_name(self.index)
        atomic_write(self.writer.root / f"{name}.parquet", index)
        # sizes catch a truncated or extended file; the index's checksum covers its every byte
        # (the tar's members carry their own checksums in the index)
        return {f"{name}.tar": FileInfo(size=tar_size),
                f"{name}.parquet": FileInfo(size=len(index), sha256=digest(index))}


class ShardWriter(Writer):
    """``DIR/NNNNN.tar`` (ok samples) + ``NNNNN.parquet`` (every sample) + stats."""

    def open_shard(self, index: int) -> ShardSink:
        return _TarSink(self, index)

    def read_index(self, index: int) -> list[dict[str, Any]]:
        import pyarrow.parquet as pq

        path = self.root / f"{shard_name(index)}.parquet"
        return pq.read_table(path, columns=["key", "status", "sg"]).to_pylist()


def INDEX_SCHEMA():  # noqa: N802 - a constant, built lazily so pyarrow loads only when used
    import pyarrow as pa

    types = {"image_width": pa.int32(), "image_height": pa.int32()}
    return pa.schema([(c, types.get(c, pa.string())) for c in INDEX_COLUMNS])


class _JsonlSink(ShardSink):
    def __init__(self, writer: JsonlWriter, index: int):
        super().__init__(writer, index)
        self.path = writer.root / f"{shard_name(index)}.jsonl"
        self.tmp, self.fh = exclusive_temp(self.path)

    def _add(self, sample: Sample) -> None:
        self.fh.write((dumps(to_record(sample).model_dump(mode="json")) + "\n").encode("utf-8"))

    def _finish_data(self) -> dict[str, FileInfo]:
        commit(self.tmp, self.fh, self.path)
        return {}


class JsonlWriter(Writer):
    """``FILE.jsonl``: one record per input sample. Shards are kept as parts in
    ``FILE.jsonl.parts/`` until the run is complete, then joined into the file."""

    def __init__(self, path: Path):
        super().__init__(path.with_name(path.name + ".parts"))
        self.path = path
        self.final_meta = path.with_name(path.stem + ".run.json")

    def prepare(self, run_meta: dict[str, Any], fingerprint: str, overwrite: bool) -> None:
        if self.path.exists() and not self.root.exists() and not overwrite:
            try:
                done = json.loads(self.final_meta.read_text()).get("fingerprint") == fingerprint
            except (OSError, ValueError):
                done = False
            if done:
                self.complete = True
                return
            raise OutputConflict(f"{self.path} exists; pass --overwrite to replace it")
        if (self.root.is_dir() and not self.meta_file.exists()
                and any(p.name != "_meta" for p in self.root.iterdir())):
            raise OutputConflict(f"{self.root} holds files that sgprep did not write; sgprep keeps "
                                 f"its parts there while it works: move them, or choose another --output")
        super().prepare(run_meta, fingerprint, overwrite)

    def open_shard(self, index: int) -> ShardSink:
        return _JsonlSink(self, index)

    def read_index(self, index: int) -> list[dict[str, Any]]:
        rows = []
        with open(self.root / f"{shard_name(index)}.jsonl", encoding="utf-8") as fh:
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
            with open(part, "rb") as fh:
                shutil.copyfileobj(fh, out)
        commit(tmp, out, self.path)
        shutil.copyfile(self.meta_file, self.final_meta)
        for part in parts + [self.stats_file(int(p.stem)) for p in parts]:
            part.unlink()
        shutil.rmtree(self.root / "_meta")
        self.root.rmdir()  # only when empty: nothing but our own files was there


def settings_diff(old: dict[str, Any] | None, new: dict[str, Any] | None) -> str:
    """'shard_size: 1000 there, 5 now; ...' for the settings that differ."""
    if not old or not new:
        return "the output was written by another version of sgprep"
    a, b = _flat(old), _flat(new)
    diffs = [f"{k}: {a.get(k, '(unset)')!r} there, {b.get(k, '(unset)')!r} now"
             for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
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
                f"write the output somewhere else")


def make_writer(output: Path) -> Writer:
    if output.suffix.lower() == ".jsonl":
        return JsonlWriter(output)
    return ShardWriter(output)
