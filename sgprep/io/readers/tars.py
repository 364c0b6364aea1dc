"""WebDataset tar shards, img2dataset's output included (``NNNNN.tar`` + ``NNNNN.parquet``).

Members are grouped into samples the WebDataset way: the key is the member path up to the
first dot of its file name, and a sample's members are adjacent. The tar is streamed, so a
truncated tar yields everything before the damage plus one failure for the damaged part.
Nothing is ever extracted to disk, so member names like ``../x`` cannot escape anywhere;
they are refused as failures all the same.
"""

from __future__ import annotations

import bisect
import json
import math
import tarfile
from collections.abc import Iterator
from functools import lru_cache
from itertools import repeat
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import ValidationError

from sgprep.io import vouched
from sgprep.io.images import IMAGE_EXTENSIONS, UNSUPPORTED_IMAGE_EXTENSIONS
from sgprep.io.readers import (
    TAR_SUFFIXES,
    decode_text,
    failed_sample,
    files_under,
    json_loads,
    unreadable_folder,
)
from sgprep.io.records import digest
from sgprep.io.tar import FIXED_MTIME, fixed_fields
from sgprep.schema import PRODUCTS, SCHEMA_VERSION, Sample

SGPREP_META = {"key", "source", "image", "meta"}  # the KEY.json that sgprep writes
ANNOTATIONS = {p.member: (p.field, p.model) for p in PRODUCTS}
#: The statuses of a shard index's rows that are not failures (img2dataset's and sgprep's).
FAILURE_FREE = (None, "success", "ok")
#: Samples located by the index are read in order through a buffer this large: one system call
#: for many small samples (the default 8 KiB buffer made one every two or three).
READ_BUFFER = 1 << 20


def split_member(name: str) -> tuple[str, str]:
    """'dir/abc.sg.json' -> ('dir/abc', 'sg.json')."""
    parent, _, base = name.rpartition("/")
    stem, _, ext = base.partition(".")
    return (f"{parent}/{stem}" if parent else stem), ext.lower()


def _unsafe(name: str) -> bool:
    """Absolute, climbing out (``..``) or Windows-separated; string tests, as PurePosixPath's
    parts would say (empty parts never equal ``..``), at a tenth of the cost."""
    return name.startswith("/") or "\\" in name or ".." in name.split("/")


def units(paths: list[Path]) -> list[Path]:
    return files_under(paths, TAR_SUFFIXES)


def records(path: Path, start: Any = None, load: bool = True) -> Iterator[tuple[Any, Sample]]:
    """(cursor, sample) for each sample of one tar, then for each failed download listed in
    img2dataset's sidecar parquet. A cursor is ``[0, header offset]`` or ``[1, row]``; reading
    from a cursor seeks straight to it (uncompressed tars), so a resumed run does not read the
    members of finished shards. ``load=False`` reads member names only, never member data."""
    if path.is_dir():  # a folder that could not be listed (see files_under)
        yield start, unreadable_folder(path)
        return
    part, where = start if start is not None else (0, 0)
    if part == 0:
        index = _own_index(path)
        if index is not None:
            yield from _read_indexed(path, index, where, load)
            if not index.failed:  # the index, read whole, lists no failure to give
                return
        else:
            yield from _read_tar(path, where, load)
        where = 0
    for row, sample in _img2dataset_failures(path, where):
        yield [1, row], sample


def _open_at(path: Path, offset: int) -> tarfile.TarFile:
    """A TarFile whose first header is the one at ``offset``. Plain tars are opened for
    random access, so members are skipped by seeking (a huge or sparse member costs nothing
    unread); compressed ones are streamed from the start."""
    if not _compressed(path):
        fh = open(path, "rb")
        try:
            fh.seek(offset)
            tar = tarfile.open(fileobj=fh, mode="r:")
        except BaseException:
            fh.close()
            raise
        tar._sgprep_fh = fh  # member offsets are absolute: the file object was seeked
        return tar
    tar = tarfile.open(path, mode="r|*")
    tar._sgprep_fh = None
    return tar


def _member_problem(info: tarfile.TarInfo, size: int | None) -> tuple[str, str] | None:
    """Why a member must not be read, or None. Links and special files are never followed;
    a member past the end of the file is truncated; a huge one is not read into memory."""
    from sgprep.io import readers

    if _unsafe(info.name):
        return "unsafe_name", f"tar member name {info.name!r} escapes the shard"
    if not info.isfile():
        kind = (
            "symlink"
            if info.issym()
            else "hard link"
            if info.islnk()
            else "FIFO"
            if info.isfifo()
            else "device"
            if info.isdev()
            else "special member"
        )
        return "unsafe_member", (
            f"tar member {info.name!r} is a {kind}; sgprep reads regular files only"
        )
    if size is not None and info.offset_data + info.size > size:
        return "tar_truncated", f"tar member {info.name!r} runs past the end of the file"
    if info.size > readers.MAX_MEMBER_BYTES:
        return "member_too_large", (
            f"tar member {info.name!r} has {info.size:,} bytes; the limit "
            f"is {readers.MAX_MEMBER_BYTES:,}; it was not read"
        )
    return None


def _compressed(path: Path) -> bool:
    """gzip, bzip2 or xz by their first bytes, whatever the file is called."""
    with path.open("rb") as fh:
        head = fh.read(6)
    return head.startswith((b"\x1f\x8b", b"BZh", b"\xfd7zXZ\x00"))


def _file_size(path: Path) -> int | None:
    """The size that bounds member data: known for plain tars only."""
    return None if _compressed(path) else path.stat().st_size


def _members(path: Path, offset: int) -> Iterator[tuple[tarfile.TarFile, tarfile.TarInfo, int]]:
    """(tar, member, header offset) of every member but folders, from ``offset``."""
    tar = _open_at(path, offset)
    try:
        for info in tar:
            if info.offset < offset or info.isdir():  # compressed: skipped up to the cursor
                continue
            yield tar, info, info.offset
    finally:
        tar.close()
        if tar._sgprep_fh is not None:
            tar._sgprep_fh.close()


@lru_cache(maxsize=4)
def _split_keys(path: str, mtime_ns: int, size: int) -> frozenset[str]:
    """Keys whose members lie in several runs apart, none repeating another's extensions: one
    sample cut in pieces (``a.txt``, ``b.png``, ``b.txt``, ``a.png``). WebDataset groups
    adjacent members only, so each piece would be read as an incomplete sample; sgprep fails
    every piece as ``split_key``. Runs that repeat extensions are a duplicate key instead (the
    first is kept). Found from headers only, once per tar and process."""
    runs: dict[str, tuple[int, set[str]]] = {}  # key -> (runs, extensions)
    total: dict[str, int] = {}
    last = None
    try:
        for name in _member_names(Path(path)):
            key, ext = split_member(name)
            count, exts = runs.get(key, (0, set()))
            runs[key] = (count + (key != last), exts | {ext})
            total[key] = total.get(key, 0) + 1
            last = key
    except (tarfile.TarError, EOFError, OSError, ValueError):
        pass  # the damage is reported by the read itself
    return frozenset(k for k, (count, exts) in runs.items() if count > 1 and len(exts) == total[k])


class _NotPlain(Exception):
    """A header the fast scan does not handle (long names, pax, base-256 sizes)."""


def _member_names(path: Path) -> Iterator[str]:
    """The names of all members but folders, from headers only. Plain ustar headers are
    parsed here, several times faster than tarfile; anything else goes through tarfile."""
    if not _compressed(path):
        names: list[str] = []
        try:
            with path.open("rb") as fh:
                names = list(_ustar_names(fh))
        except _NotPlain:
            names = None
        if names is not None:
            yield from names
            return
    for _, info, _ in _members(path, 0):
        yield info.name


def _ustar_names(fh) -> Iterator[str]:
    offset = 0
    while True:
        fh.seek(offset)
        header = fh.read(512)
        if len(header) < 512 or header == bytes(512):
            return  # the end, or damage the read itself reports
        text, kind, size = _ustar_header(header)
        if kind != b"5" and not text.endswith("/"):
            yield text
        offset += 512 + -(-size // 512) * 512


def _ustar_header(data: bytes, at: int = 0) -> tuple[str, bytes, int]:
    """(name, type flag, data size) of the plain ustar header at byte ``at`` of ``data``;
    _NotPlain for anything else. A header as sgprep writes them (its fixed fields, its
    checksum format) is checked in place on its name and size fields alone, a quarter of the
    bytes to sum; the answer is the same. Any other header is copied out and read whole."""
    own = _own_header(data, at)
    if own is not None:
        return own[0], b"0", own[1]
    header = data[at : at + 512]
    kind = header[156:157]
    checksum = header[148:156].split(b"\0")[0].strip()
    if (
        kind not in b"0123456\0"
        or header[124] & 0x80
        or not checksum
        or int(checksum, 8) != sum(header[:148]) + 256 + sum(header[156:])
    ):
        raise _NotPlain
    name = header[:100].split(b"\0")[0]
    prefix = header[345:500].split(b"\0")[0]
    if prefix:  # as tarfile reads it: ustar's prefix field, whatever the magic
        name = prefix + b"/" + name
    size = int(header[124:136].split(b"\0")[0].strip() or b"0", 8) if kind in b"07\0" else 0
    return name.decode("utf-8", "surrogateescape"), kind, size


def _own_header(data: bytes, at: int) -> tuple[str, int] | None:
    """(name, data size) of the header at byte ``at`` of ``data`` when it is one as sgprep
    writes them: its fixed fields, its checksum format, the checksum of its name and size
    fields (the rest is fixed). Compared in place, without copying the header; else None."""
    fixed = _FIXED
    if not (
        data.startswith(fixed.tail, at + 156)
        and data.startswith(fixed.mode_ids, at + 100)
        and data.startswith(fixed.mtime, at + 136)
        and not data[at + 124] & 0x80
    ):
        return None
    name_field, size_field = data[at : at + 100], data[at + 124 : at + 136]
    name = name_field.partition(b"\0")[0]
    # a name padded with zeros (as written) sums as the name alone: a short sum
    padded = name_field.count(0) == 100 - len(name)
    name_sum = sum(name) if padded else sum(name_field)
    if not data.startswith(b"%06o\0 " % (fixed.base + name_sum + sum(size_field)), at + 148):
        return None
    size = int(size_field.partition(b"\0")[0].strip() or b"0", 8)
    return name.decode("utf-8", "surrogateescape"), size


_FIXED = fixed_fields(FIXED_MTIME)


class _Index(NamedTuple):
    """The ok samples of a tar that sgprep wrote, in tar order, from the index beside it."""

    keys: list[str]
    offsets: list[int]
    sizes: list[int]
    #: Written by an sgprep of this schema version: its annotation members are the bytes this
    #: sgprep would write for what they hold (``Sample.read_as``).
    canonical: bool = False
    #: Rows of the index that are failures (:func:`_img2dataset_failures` gives them): with
    #: none, the index is not opened again to look for them.
    failed: int = 1
    #: Of a canonical index: each ok sample's ``members`` (sizes and checksums), which vouch
    #: for the members that still match them (``sgprep.io.vouched``).
    members: list[str | None] | None = None


def _own_index(path: Path) -> _Index | None:
    """sgprep's own index of this tar, when the shard's stats file (written last, after both)
    vouches for the tar's size and the index's SHA-256, and the index has offsets (written
    since the ``offset`` column exists); else None, and the tar is read by its headers."""
    if not path.name.endswith(".tar"):
        return None
    try:
        stat = path.stat()
    except OSError:
        return None
    return _cached_index(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=4)
def _cached_index(path: str, mtime_ns: int, size: int) -> _Index | None:
    tar = Path(path)
    name = tar.name[: -len(".tar")]
    index = tar.with_name(f"{name}.parquet")
    try:
        stats = json.loads(tar.with_name(f"{name}_stats.json").read_bytes())
        files = stats["files"]
        data = index.read_bytes()
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if (
        not isinstance(files, dict)
        or (files.get(f"{name}.tar") or {}).get("size") != size
        or (files.get(f"{name}.parquet") or {}).get("sha256") != digest(data)
    ):
        return None
    import pyarrow as pa
    import pyarrow.parquet as pq

    names = ("key", "status", "offset", "size")
    try:
        parquet = pq.ParquetFile(pa.BufferReader(data))
        if not set(names) <= set(parquet.schema_arrow.names):
            return None  # an older sgprep's index: no offsets
        canonical = stats.get("schema_version") == SCHEMA_VERSION
        if canonical and "members" in parquet.schema_arrow.names:
            names += ("members",)
        table = parquet.read(columns=list(names))
        columns = [table.column(c).to_pylist() for c in names]
        if len(columns) == 4:
            columns.append([None] * len(columns[0]))
        rows = [(k, o, n, m) for k, s, o, n, m in zip(*columns) if s == "ok"]
        failed = sum(s not in FAILURE_FREE for s in columns[1])
    except Exception:  # unreadable: read the headers (the read reports the damage)
        return None
    if any(o is None or n is None for _, o, n, _ in rows):
        return None
    return _Index(
        [k for k, _, _, _ in rows],
        [o for _, o, _, _ in rows],
        [n for _, _, n, _ in rows],
        canonical,
        failed,
        [m for _, _, _, m in rows] if canonical else None,
    )


def _read_indexed(
    path: Path, index: _Index, offset: int, load: bool
) -> Iterator[tuple[Any, Sample]]:
    """The ok samples from the one at ``offset``, located by the index: planning reads no
    byte of the tar, and a read takes each sample's bytes in one piece and parses their
    headers here. A sample whose bytes are not what the index says (a tar changed behind
    the stats file) sends the rest of the tar to the header-by-header reader, which reports
    the damage as it always does."""
    first = bisect.bisect_left(index.offsets, offset)
    if first == len(index.offsets) or index.offsets[first] != offset:
        yield from _read_tar(path, offset, load)  # not a sample's start: the plain way
        return
    if not load:
        for key, start in zip(index.keys[first:], index.offsets[first:]):
            yield [0, start], vouched.keyed(key, f"{path}:{key}")
        return
    shared: dict[str, tuple[bytes, str]] = {}
    recorded = index.members[first:] if index.members is not None else repeat(None)
    rows = zip(index.keys[first:], index.offsets[first:], index.sizes[first:], recorded)
    with path.open("rb", buffering=READ_BUFFER) as fh:
        fh.seek(offset)
        for key, start, size, checksums in rows:
            block = fh.read(size)
            members = vouched.sample_members(block, key, checksums)
            trusted = members is not None
            if members is None:  # not what the index recorded: read and validated in full
                members = _sample_members(block, key)
            if members is None:
                yield from _read_tar(path, start, load)
                return
            source = f"{path}:{key}"
            sample = vouched.sample(key, source, members) if trusted else None
            if sample is not None:  # no image: the shared one stays as it is
                yield [0, start], sample
                continue
            try:
                sample = _assemble(key, source, members, [], load, shared, index.canonical)
            except Exception as exc:  # as _read_tar's flush
                sample = failed_sample(
                    key,
                    source,
                    "bad_metadata",
                    f"cannot use the members of {key!r}: {type(exc).__name__}: {exc}",
                )
            yield [0, start], sample


def _sample_members(data: bytes, key: str) -> dict[str, bytes] | None:
    """ext -> bytes of one sample's members, all regular files named ``KEY.EXT`` filling
    ``data`` exactly; None when they are not."""
    members: dict[str, bytes] = {}
    at, end = 0, len(data)
    while at < end:
        if end - at < 512:
            return None
        try:
            name, kind, size = _ustar_header(data, at)
        except (_NotPlain, ValueError):
            return None
        stem, dot, ext = name.partition(".")
        ext = ext.lower()
        if (
            kind not in b"0\0"
            or stem != key
            or not dot
            or _unsafe(name)
            or at + 512 + size > end
            or ext in members
        ):
            return None
        members[ext] = data[at + 512 : at + 512 + size]
        at += 512 + -(-size // 512) * 512
    return members if at == end and members else None


def _read_tar(path: Path, offset: int, load: bool) -> Iterator[tuple[Any, Sample]]:
    key: str | None = None
    first = 0
    members: dict[str, bytes] = {}
    problems: list[tuple[str, str]] = []
    shared: dict[str, tuple[bytes, str]] = {}

    def flush() -> tuple[Any, Sample]:
        if key in split:
            problems.insert(
                0,
                (
                    "split_key",
                    f"the members of key {key!r} are not adjacent in "
                    f"{path} (WebDataset groups consecutive members); this part holds "
                    f"{', '.join(sorted(members)) or 'no readable member'}. Rewrite "
                    f"the tar with each sample's members together",
                ),
            )
        source = f"{path}:{key}"
        try:
            return [0, first], _assemble(key or "", source, members, problems, load, shared)
        except Exception as exc:  # odd member contents fail this sample only
            return [0, first], failed_sample(
                key or "",
                source,
                "bad_metadata",
                f"cannot use the members of {key!r}: {type(exc).__name__}: {exc}",
            )

    try:
        stat = path.stat()
        split = _split_keys(str(path), stat.st_mtime_ns, stat.st_size)
        size = _file_size(path)
        for tar, info, position in _members(path, offset):
            name_key, ext = split_member(info.name)
            if name_key != key:
                if key is not None:
                    yield flush()
                key, first, members, problems = name_key, position, {}, []
            problem = _member_problem(info, size)
            if problem is not None:
                problems.append(problem)
                continue
            if ext in members:
                problems.append(("duplicate_member", f"member {info.name!r} appears twice"))
            members[ext] = tar.extractfile(info).read() if load else b""
        if key is not None:
            yield flush()
    except (tarfile.TarError, EOFError, OSError, ValueError) as exc:
        message = f"{path} is truncated or corrupt: {exc}"
        if key is not None:
            problems.insert(0, ("tar_truncated", message + f" (while reading sample {key!r})"))
            yield flush()
        else:
            yield [0, offset], failed_sample("", f"{path}:<unreadable>", "tar_truncated", message)


def _assemble(
    key: str,
    source: str,
    members: dict[str, bytes],
    problems: list[tuple[str, str]],
    load: bool = True,
    shared: dict[str, tuple[bytes, str]] | None = None,
    canonical: bool = False,
) -> Sample:
    """``shared``: the image of the last sample read from this tar that had one, by key: a
    sample written with ``shared_images`` names it in ``image_key`` instead of an image.
    ``canonical``: the members are sgprep's own, of this schema version (``_Index``): the
    annotations keep the bytes they were read from, to be written again as they are."""
    sample = Sample(key=key, source=source)
    if problems:
        reason, message = problems[0]
        return sample.fail("read", reason, message)
    if not load:  # planning: the key is all that is needed
        return sample
    for ext, data in members.items():
        if ext in IMAGE_EXTENSIONS and sample.image is None:
            sample.image, sample.image_ext = data, ext
    if shared is not None and sample.image is not None:
        shared.clear()  # a sample with its own image member: the one the next pointers name
        shared[key] = (sample.image, sample.image_ext)
    unsupported = sorted(set(members) & UNSUPPORTED_IMAGE_EXTENSIONS)
    if sample.image is None and unsupported:
        return sample.fail(
            "read",
            "image_unsupported",
            f"{key}.{unsupported[0]}: this Pillow cannot read .{unsupported[0]} images",
        )
    if "json" in members:
        text, error = decode_text(members["json"], f"{key}.json")
        try:
            meta = json_loads(text) if error is None else None
        except json.JSONDecodeError as exc:
            error = f"{key}.json is not JSON: {exc}"
        if error:
            return sample.fail("read", "bad_metadata", error)
        pointer = None
        if isinstance(meta, dict) and set(meta) - {"image_key"} == SGPREP_META:
            pointer = meta.get("image_key")  # an earlier sgprep run's own KEY.json
            meta = meta["meta"]
        sample.meta = meta if isinstance(meta, dict) else {"json": meta}
        if sample.image is None and isinstance(pointer, str):
            got = (shared or {}).get(pointer)
            if got is None:
                return sample.fail(
                    "read",
                    "image_missing",
                    f"{key} shares the image of sample {pointer!r} (shared_images), which "
                    f"was not read just before it; read the whole shard",
                )
            sample.image, sample.image_ext = got
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
                value = model.model_validate_json(members[ext])
            except ValidationError as exc:
                return sample.fail("read", "bad_annotation", f"{key}.{ext} is invalid: {exc}")
            setattr(sample, field, value)
            if canonical:
                if sample.read_as is None:
                    sample.read_as = {}
                sample.read_as[field] = (value, members[ext])
    return sample


def _img2dataset_failures(tar_path: Path, start: int = 0) -> Iterator[tuple[int, Sample]]:
    """img2dataset lists the samples it failed to download in the shard's parquet (and sgprep
    its failed samples in its index)."""
    suffix = next((s for s in TAR_SUFFIXES if tar_path.name.lower().endswith(s)), None)
    if suffix is None:  # a file given with --input-format wds that is not named like a shard
        return
    index = tar_path.with_name(tar_path.name[: -len(suffix)] + ".parquet")
    if not index.exists():
        return
    import pyarrow.parquet as pq

    try:
        parquet = pq.ParquetFile(index)
        if "status" not in parquet.schema_arrow.names:
            return
        statuses = parquet.read(columns=["status"]).column("status").to_pylist()
        failed = [
            n for n, status in enumerate(statuses) if n >= start and status not in FAILURE_FREE
        ]  # i2d's and our own
        table = parquet.read().take(failed) if failed else None
    except Exception as exc:  # a broken index must not stop the run
        if start == 0:
            yield 0, failed_sample("", str(index), "bad_index", f"cannot read {index}: {exc}")
        return
    if table is None:
        return
    # sgprep's own place columns say where a sample lies in the tar: not the sample's metadata
    skip = {"shard", "offset", "size"} if "members" in table.column_names else set()
    for number, row in zip(failed, table.to_pylist()):
        message = row.get("error_message") or row.get("error") or row["status"]
        sample = failed_sample(
            str(row.get("key") or ""), f"{index}:{row.get('key')}", "source_failed", str(message)
        )
        caption = row.get("caption")
        sample.caption = caption if isinstance(caption, str) else None  # text or nothing
        sample.meta = {
            k: None if isinstance(v, float) and math.isnan(v) else v
            for k, v in row.items()
            if isinstance(v, (str, int, float, type(None))) and k not in skip
        }
        yield number, sample
