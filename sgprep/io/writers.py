"""Output writers: WebDataset shards with an index, or one JSON Lines file.

Both work shard by shard; a shard's ``NNNNN_stats.json`` is written last and marks it done,
so a rerun skips finished shards. Every file is written to a temp name, then renamed.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

from sgprep.io.images import IMAGE_EXTENSIONS, TRAINER_FORMATS
from sgprep.io.records import (
    digest,
    dumps,
    index_values,
    member_checksums,
    tar_members,
    to_record,
)
from sgprep.io.safefs import (
    LinkRefused,
    atomic_write,
    commit,
    copy_file,
    exclusive_temp,
    open_read,
    read_bytes,
    real_dir,
    remove_empty_dirs,
    remove_names,
    sync_close,
)
from sgprep.io.tables import NEGATIVES_DIR, NEGATIVES_SCHEMA, index_table, negative_rows
from sgprep.io.tar import FIXED_MTIME, GzipStream, TarWriter
from sgprep.io.writer_base import (
    LOCK_FILE,
    META_FILES,
    PUBLISH_LOCK,
    OutputConflict,
    ShardSink,
    Writer,
    shard_name,
)
from sgprep.schema import FileInfo, OutputDir, Sample, ShardStats

log = logging.getLogger(__name__)

#: A shard's data file is written sample by sample through a buffer this large (the default
#: 8 KiB made a system call every sample or two).
WRITE_BUFFER = 1 << 20


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
