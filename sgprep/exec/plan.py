"""Planning: the input -> shard tasks, reading keys and offsets only, never image bytes.

A shard covers ``shard_size`` consecutive input samples. Its task says where those samples
are: segments ``[unit, cursor, count]`` (a unit is an input file or folder; a cursor is where
its reader starts again, see ``io/readers``), the position of its first sample, and which of
its positions repeat a key seen earlier in the input.

The plan is saved in ``OUTPUT/_meta/plan.json`` with each unit's size and mtime. A rerun
whose input still has those sizes and mtimes uses the saved plan and reads nothing of the
input but the slices of unfinished shards; a changed input is refused while finished shards
exist (they would mix two inputs).

Duplicate keys, the rule: a key (the source key when valid, else the position) is a duplicate
when any earlier sample of the whole input had it. The check runs in bounded memory: keys go
to an on-disk SQLite table, a batch at a time, so 12M keys cost disk, not RAM.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from sgprep.io.intake import base_key
from sgprep.io.readers import InputError, input_format, reader
from sgprep.io.safefs import atomic_write, read_bytes
from sgprep.io.writer_base import OutputConflict, Writer
from sgprep.schema import OutputDir

log = logging.getLogger(__name__)

PLAN_VERSION = 1
_KEY_BATCH = 20_000


class ShardTask(BaseModel):
    index: int
    first: int = Field(description="Position of the shard's first sample in the input.")
    count: int = 0
    segments: list[list[Any]] = Field(default_factory=list, description="[unit, cursor, count]")
    duplicates: list[int] = Field(default_factory=list, description="Positions repeating a key.")


class Unit(BaseModel):
    path: str = Field(description="Absolute, as typed but made absolute (no link followed).")
    size: int
    mtime_ns: int

    def identity(self) -> tuple[str, int, int]:
        """What says two units are one file: however its path was spelled (a plan saved
        before paths were stored absolute holds them as typed, relative to where it ran)."""
        return os.path.abspath(self.path), self.size, self.mtime_ns


class Plan(BaseModel):
    version: int = PLAN_VERSION
    input: str
    format: str
    shard_size: int
    limit: int | None
    reader_options: dict[str, Any] = Field(default_factory=dict)
    units: list[Unit]
    samples: int = 0
    tasks: list[ShardTask] = Field(default_factory=list)

    def same_input(self, other: Plan) -> bool:
        """The same files (by absolute path, size and modification time: "data/x.tsv" from
        /abs and "/abs/data/x.tsv" are one file) read the same way."""
        return (
            self.version,
            self.format,
            self.shard_size,
            self.limit,
            self.reader_options,
            [u.identity() for u in self.units],
        ) == (
            other.version,
            other.format,
            other.shard_size,
            other.limit,
            other.reader_options,
            [u.identity() for u in other.units],
        )


def plan_file(writer: Writer) -> Path:
    return OutputDir(writer.root).plan_file


def make_plan(
    spec: str,
    fmt: str | None,
    shard_size: int,
    limit: int | None,
    writer: Writer,
    columns: dict[str, str] | None = None,
    need_images: bool = False,
    images: str | None = None,
    allow_outside_paths: bool = False,
) -> Plan:
    """The plan for this input: the saved one when the input is unchanged, else a new one.
    ``columns`` (tables only) name the caption, key, image and url columns; with
    ``need_images`` (a stage reads images) a table without an image column is refused.
    ``images``: the folder of the images (COCO captions and tables only)."""
    paths, fmt = input_format(spec, fmt)
    module = reader(fmt)
    options: dict[str, Any] = {"columns": dict(columns)} if columns else {}
    if options and fmt != "table":
        raise InputError(
            f"--caption-column and the other column flags apply to tables; this "
            f"input is read as {fmt!r}"
        )
    if images is not None:
        if fmt not in ("coco", "table"):
            raise InputError(
                f"--image-root applies to COCO captions and tables; this input is read as {fmt!r}, "
                "which says where its images are"
            )
        if not os.path.isdir(images):
            raise InputError(f"--image-root {images}: no such folder")
        options["images_dir"] = os.path.abspath(images)
    if allow_outside_paths and fmt in ("coco", "table", "images"):
        options["allow_outside"] = True  # (left out when off: older plans stay the same)
    if need_images and fmt == "table":
        options["need"] = ["image"]
    units = [_unit(p) for p in module.units(paths)]
    fresh = Plan(
        input=spec,
        format=fmt,
        shard_size=shard_size,
        limit=limit,
        reader_options=options,
        units=units,
    )
    saved = _load(plan_file(writer))
    if saved is not None and saved.same_input(fresh):
        log.info("plan: %s (saved) - %d samples in %d shards", fmt, saved.samples, len(saved.tasks))
        return saved
    if saved is not None and any(writer.is_done(t.index) for t in saved.tasks):
        raise OutputConflict(
            f"the input changed since {writer.root} was started (files added, removed or "
            f"modified); finished shards would mix two inputs. Rerun on the original input, or "
            f"pass --overwrite to start again"
        )
    _scan(fresh, module, writer)
    atomic_write(plan_file(writer), fresh.model_dump_json().encode())
    log.info(
        "plan: %s from %d file(s) - %d samples in %d shards",
        fmt,
        len(units),
        fresh.samples,
        len(fresh.tasks),
    )
    return fresh


def _unit(path: Path) -> Unit:
    where = os.path.abspath(path)  # "data/x.tsv" and "/abs/data/x.tsv" are one file (issue 34)
    try:
        stat = path.stat()
    except OSError:  # unreadable: its reader reports it as a failure row
        return Unit(path=where, size=-1, mtime_ns=-1)
    return Unit(path=where, size=stat.st_size, mtime_ns=stat.st_mtime_ns)


def _load(path: Path) -> Plan | None:
    try:
        return Plan.model_validate_json(read_bytes(path))
    except (OSError, ValueError):
        return None


def _scan(plan: Plan, module: Any, writer: Writer) -> None:
    position = 0
    task: ShardTask | None = None
    with _KeySet(OutputDir(writer.root).keys_file) as keys:
        for unit_number, unit in enumerate(plan.units):
            if plan.limit is not None and position >= plan.limit:
                break  # the limit is covered: the later units are not opened
            for cursor, sample in module.records(
                Path(unit.path), load=False, **plan.reader_options
            ):
                if plan.limit is not None and position >= plan.limit:
                    break
                if position % plan.shard_size == 0:
                    task = ShardTask(index=len(plan.tasks), first=position)
                    plan.tasks.append(task)
                if not task.segments or task.segments[-1][0] != unit_number:
                    task.segments.append([unit_number, cursor, 0])
                task.segments[-1][2] += 1
                keys.add(base_key(sample.key, position), position, task)
                position += 1
    plan.samples = position
    # each task counts the positions up to the next one's first (a model's attribute set a
    # sample cost a microsecond)
    ends = [t.first for t in plan.tasks[1:]] + [position]
    for task, end in zip(plan.tasks, ends):
        task.count = end - task.first


class _KeySet:
    """Keys seen so far, on disk. ``add`` buffers; a flush marks the positions whose key was
    seen before (earlier in the batch or in the table) as duplicates of their task."""

    def __init__(self, path: Path):
        self.path = path
        self.pending: list[tuple[str, int, ShardTask]] = []

    def __enter__(self) -> _KeySet:
        self.path.unlink(missing_ok=True)
        self.db = sqlite3.connect(self.path)
        self.db.executescript(
            "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
            "CREATE TABLE keys (key TEXT PRIMARY KEY) WITHOUT ROWID;"
        )
        return self

    def add(self, key: str, position: int, task: ShardTask) -> None:
        self.pending.append((key, position, task))
        if len(self.pending) >= _KEY_BATCH:
            self._flush()

    def _flush(self) -> None:
        batch = [k for k, _, _ in self.pending]
        known = {
            row[0]
            for row in self.db.execute(
                "SELECT key FROM keys WHERE key IN (SELECT value FROM json_each(?))",
                (json.dumps(batch),),
            )
        }
        fresh: list[str] = []
        for key, position, task in self.pending:
            if key in known:
                task.duplicates.append(position)
            else:
                known.add(key)
                fresh.append(key)
        self.db.executemany("INSERT INTO keys VALUES (?)", ((k,) for k in fresh))
        self.pending = []

    def __exit__(self, *exc: Any) -> None:
        if self.pending and exc[0] is None:
            self._flush()
        self.db.close()
        self.path.unlink(missing_ok=True)


def read_task(plan: Plan, task: ShardTask) -> Iterator[Any]:
    """The samples of one shard task, in order, images loaded."""
    module = reader(plan.format)
    for unit_number, cursor, count in task.segments:
        taken = 0
        for _, sample in module.records(
            Path(plan.units[unit_number].path), cursor, **plan.reader_options
        ):
            yield sample
            taken += 1
            if taken == count:  # stop before reading anything of the next shard
                break
