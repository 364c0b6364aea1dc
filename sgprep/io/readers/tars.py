"""WebDataset tar shards, img2dataset's output included (``NNNNN.tar`` + ``NNNNN.parquet``).

Members are grouped into samples the WebDataset way: the key is the member path up to the
first dot of its file name, and a sample's members are adjacent. The tar is streamed, so a
truncated tar yields everything before the damage plus one failure for the damaged part.
Nothing is ever extracted to disk, so member names like ``../x`` cannot escape anywhere;
they are refused as failures all the same.
"""

from __future__ import annotations

import json
import tarfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any

from pydantic import ValidationError

from sgprep.io.images import IMAGE_EXTENSIONS
from sgprep.io.readers import TAR_SUFFIXES, decode_text, failed_sample, files_under
from sgprep.schema import Detections, Negatives, Sample, SceneGraph

SGPREP_META = {"key", "source", "image", "meta"}  # the KEY.json that sgprep writes
ANNOTATIONS = {"sg.json": ("sg", SceneGraph), "det.json": ("det", Detections),
               "neg.json": ("neg", Negatives)}


def split_member(name: str) -> tuple[str, str]:
    """'dir/abc.sg.json' -> ('dir/abc', 'sg.json')."""
    parent, _, base = name.rpartition("/")
    stem, _, ext = base.partition(".")
    return (f"{parent}/{stem}" if parent else stem), ext.lower()


def _unsafe(name: str) -> bool:
    path = PurePosixPath(name)
    return path.is_absolute() or ".." in path.parts or "\\" in name


def units(paths: list[Path]) -> list[Path]:
    return files_under(paths, TAR_SUFFIXES)


def records(path: Path, start: Any = None, load: bool = True) -> Iterator[tuple[Any, Sample]]:
    """(cursor, sample) for each sample of one tar, then for each failed download listed in
    img2dataset's sidecar parquet. A cursor is ``[0, header offset]`` or ``[1, row]``; reading
    from a cursor seeks straight to it (uncompressed tars), so a resumed run does not read the
    members of finished shards. ``load=False`` reads member names only, never member data."""
    part, where = start if start is not None else (0, 0)
    if part == 0:
        yield from _read_tar(path, where, load)
        where = 0
    for row, sample in _img2dataset_failures(path, where):
        yield [1, row], sample


def _open_at(path: Path, offset: int) -> tarfile.TarFile:
    """A streaming TarFile whose first header is the one at ``offset``."""
    if offset and not path.name.lower().endswith((".gz", ".tgz")):
        fh = open(path, "rb")
        fh.seek(offset)
        tar = tarfile.open(fileobj=fh, mode="r|")
        tar._sgprep_base = offset  # member offsets below are relative to the seek
        tar._sgprep_fh = fh
        return tar
    tar = tarfile.open(path, mode="r|*")
    tar._sgprep_base = 0
    tar._sgprep_fh = None
    return tar


def _read_tar(path: Path, offset: int, load: bool) -> Iterator[tuple[Any, Sample]]:
    key: str | None = None
    first = 0
    members: dict[str, bytes] = {}
    problems: list[tuple[str, str]] = []

    def flush() -> tuple[Any, Sample]:
        return [0, first], _assemble(key or "", f"{path}:{key}", members, problems, load)

    tar = None
    try:
        tar = _open_at(path, offset)
        for info in tar:
            position = tar._sgprep_base + info.offset
            if position < offset:  # compressed: read up to the cursor, extracting nothing
                continue
            if not info.isfile():
                continue
            name_key, ext = split_member(info.name)
            if name_key != key:
                if key is not None:
                    yield flush()
                key, first, members, problems = name_key, position, {}, []
            if _unsafe(info.name):
                problems.append(("unsafe_name", f"tar member name {info.name!r} escapes the shard"))
                continue
            if ext in members:
                problems.append(("duplicate_member", f"member {info.name!r} appears twice"))
            members[ext] = tar.extractfile(info).read() if load else b""
        if key is not None:
            yield flush()
    except (tarfile.TarError, EOFError, OSError) as exc:
        message = f"{path} is truncated or corrupt: {exc}"
        if key is not None:
            problems.insert(0, ("tar_truncated", message + f" (while reading sample {key!r})"))
            yield flush()
        else:
            yield [0, offset], failed_sample("", f"{path}:<unreadable>", "tar_truncated", message)
    finally:
        if tar is not None:
            tar.close()
            if tar._sgprep_fh is not None:
                tar._sgprep_fh.close()


def _assemble(key: str, source: str, members: dict[str, bytes],
              problems: list[tuple[str, str]], load: bool = True) -> Sample:
    sample = Sample(key=key, source=source)
    if problems:
        reason, message = problems[0]
        return sample.fail("read", reason, message)
    if not load:  # planning: the key is all that is needed
        return sample
    for ext, data in members.items():
        if ext in IMAGE_EXTENSIONS and sample.image is None:
            sample.image, sample.image_ext = data, ext
    if "json" in members:
        text, error = decode_text(members["json"], f"{key}.json")
        try:
            meta = json.loads(text) if error is None else None
        except json.JSONDecodeError as exc:
            error = f"{key}.json is not JSON: {exc}"
        if error:
            return sample.fail("read", "bad_metadata", error)
        if isinstance(meta, dict) and set(meta) == SGPREP_META:  # an earlier sgprep run's own
            meta = meta["meta"]
        sample.meta = meta if isinstance(meta, dict) else {"json": meta}
    for ext in ("txt", "caption", "text"):
        if ext in members:
            sample.caption, error = decode_text(members[ext], f"{key}.{ext}")
            if error:
                return sample.fail("read", "caption_encoding", error)
            break
    else:
        if isinstance(sample.meta.get("caption"), str):
            sample.caption = sample.meta["caption"]
    for ext, (field, model) in ANNOTATIONS.items():
        if ext in members:
            try:
                setattr(sample, field, model.model_validate_json(members[ext]))
            except ValidationError as exc:
                return sample.fail("read", "bad_annotation", f"{key}.{ext} is invalid: {exc}")
    return sample


def _img2dataset_failures(tar_path: Path, start: int = 0) -> Iterator[tuple[int, Sample]]:
    """img2dataset lists the samples it failed to download in the shard's parquet."""
    stem = tar_path.name[: -len(next(s for s in TAR_SUFFIXES if tar_path.name.lower().endswith(s)))]
    index = tar_path.with_name(stem + ".parquet")
    if not index.exists():
        return
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(index)
    except Exception as exc:  # a broken index must not stop the run
        if start == 0:
            yield 0, failed_sample("", str(index), "bad_index", f"cannot read {index}: {exc}")
        return
    if "status" not in table.column_names:
        return
    for number, row in enumerate(table.to_pylist()):
        if number < start or row.get("status") in (None, "success", "ok"):  # i2d's and our own
            continue
        message = row.get("error_message") or row.get("error") or row["status"]
        sample = failed_sample(str(row.get("key") or ""), f"{index}:{row.get('key')}",
                               "source_failed", str(message))
        sample.caption = row.get("caption")
        sample.meta = {k: v for k, v in row.items() if isinstance(v, (str, int, float, type(None)))}
        yield number, sample
