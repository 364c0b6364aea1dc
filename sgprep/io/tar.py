"""A minimal, fast, reproducible POSIX ustar writer for WebDataset shards.

Python's tarfile spends ~170 us per member building headers, and importing webdataset's
TarWriter pulls in torch when it is installed. Shard members are plain regular files with
short ASCII names, so their headers are simple to build directly. Every header carries the
same owner, mode and a fixed mtime, so the same samples always give the same bytes.
"""

from __future__ import annotations

from functools import lru_cache
from typing import BinaryIO, NamedTuple

BLOCK = 512
RECORD = 20 * BLOCK  # what tarfile pads archives to; readers expect a whole record
_ZEROS = bytes(BLOCK)


#: tar entries carry a fixed mtime (2000-01-01) so reruns give identical bytes.
FIXED_MTIME = 946684800


def _octal(value: int, width: int) -> bytes:
    return f"{value:0{width - 1}o}".encode("ascii") + b"\0"


def ustar_header(name: str, size: int, mtime: int, mode: int = 0o644) -> bytes:
    raw = name.encode("ascii")
    return b"".join(_header(raw, sum(raw), size, fixed_fields(mtime, mode)))


def _header(raw: bytes, raw_sum: int, size: int, fixed: FixedFields) -> tuple[bytes, ...]:
    """The header of member ``raw`` (its name, ASCII), whose bytes sum to ``raw_sum``, in
    pieces (joined once with the member's data)."""
    if len(raw) > 100:
        raise ValueError(f"member name {raw.decode()!r} is longer than 100 bytes")
    if size >= 8**11:
        raise ValueError(f"member {raw.decode()!r} is too large for a ustar header ({size} bytes)")
    size_field, size_sum = _size_field(size)
    # the checksum counts the checksum field as spaces: the fixed fields' sum has them
    checksum = b"%06o\0 " % (fixed.base + raw_sum + size_sum)
    return raw.ljust(100, b"\0"), fixed.mode_ids, size_field, fixed.mtime, checksum, fixed.tail


@lru_cache(maxsize=4096)
def _size_field(size: int) -> tuple[bytes, int]:
    """A header's size field and its byte sum: the sizes of text members repeat (a third of
    a header's cost)."""
    field = b"%011o\0" % size
    return field, sum(field)


@lru_cache(maxsize=256)
def member_suffix(ext: str) -> tuple[bytes, int]:
    """A member name's extension as ASCII bytes, and their sum (the same few, sample after
    sample)."""
    suffix = ext.encode("ascii")
    return suffix, sum(suffix)


class FixedFields(NamedTuple):
    """The header fields that are the same for every member sgprep writes (name and size
    aside): bytes 100-124 (mode, uid, gid), 136-148 (mtime) and 156-512 (type flag "0",
    "ustar" magic, empty link name and prefix), and the byte sum of a header with these
    fields, the checksum field as spaces and the name and size left zero. A header costs a
    few concatenations and two short sums."""

    mode_ids: bytes
    mtime: bytes
    tail: bytes
    base: int


@lru_cache(maxsize=8)
def fixed_fields(mtime: int, mode: int = 0o644) -> FixedFields:
    header = bytearray(BLOCK)
    header[100:108] = _octal(mode, 8)
    header[108:116] = _octal(0, 8)  # uid
    header[116:124] = _octal(0, 8)  # gid
    header[136:148] = _octal(mtime, 12)
    header[148:156] = b" " * 8
    header[156:157] = b"0"  # regular file
    header[257:265] = b"ustar\x0000"
    return FixedFields(
        bytes(header[100:124]), bytes(header[136:148]), bytes(header[156:]), sum(header)
    )


class TarWriter:
    """Writes members to a binary stream; ``close()`` writes the end-of-archive marker."""

    def __init__(self, stream: BinaryIO, mtime: int):
        self.stream = stream
        self.mtime = mtime
        self.offset = 0

    def add(self, name: str, data: bytes) -> None:
        self._write(self._member(name, data))

    def _member(self, name: str, data: bytes) -> list[bytes]:
        """One member's pieces: header, data, padding."""
        return [ustar_header(name, len(data), self.mtime), data, _ZEROS[: -len(data) % BLOCK]]

    def _write(self, pieces: list[bytes]) -> None:
        data = b"".join(pieces)
        self.stream.write(data)
        self.offset += len(data)

    def write_sample(self, members: dict[str, bytes | str]) -> None:
        """A WebDataset sample dict: ``__key__`` plus extension -> bytes, written sorted, in
        one write. The members' names share ``KEY.``: its byte sum is taken once."""
        stem = f"{members['__key__']}.".encode("ascii")
        stem_sum, fixed, pieces = sum(stem), fixed_fields(self.mtime), []
        for ext in sorted(members):
            if ext == "__key__":
                continue
            data, (suffix, suffix_sum) = members[ext], member_suffix(ext)
            pieces += _header(stem + suffix, stem_sum + suffix_sum, len(data), fixed)
            pieces += (data, _ZEROS[: -len(data) % BLOCK])
        self._write(pieces)

    def close(self) -> None:
        end = 2 * BLOCK
        end += -(self.offset + end) % RECORD
        self.stream.write(b"\0" * end)


#: gzip's header with no name and mtime 0, so the same samples always give the same bytes.
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
GZIP_LEVEL = 6


class GzipStream:
    """A gzip file of one member whose deflate stream is fully flushed (``Z_FULL_FLUSH``) at
    each :meth:`mark`: every stretch between two marks is a raw deflate block that decompresses
    on its own (:func:`read_block`), and the whole file is an ordinary ``.tar.gz`` for tarfile,
    webdataset, ``datasets`` and ``tar xzf``. ``position``: compressed bytes written so far."""

    def __init__(self, stream: BinaryIO, level: int = GZIP_LEVEL):
        import zlib

        self.stream = stream
        self._zlib = zlib
        self._compress = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
        self.crc = self.length = 0
        stream.write(GZIP_HEADER)
        self.position = len(GZIP_HEADER)

    def _out(self, data: bytes) -> None:
        if data:
            self.stream.write(data)
            self.position += len(data)

    def write(self, data: bytes) -> None:
        self.crc = self._zlib.crc32(data, self.crc)
        self.length += len(data)
        self._out(self._compress.compress(data))

    def mark(self) -> None:
        """End a block: what follows decompresses without what came before."""
        self._out(self._compress.flush(self._zlib.Z_FULL_FLUSH))

    def close(self) -> None:
        import struct

        self._out(self._compress.flush())
        self._out(struct.pack("<II", self.crc, self.length & 0xFFFFFFFF))


def read_block(path, offset: int, size: int) -> bytes:
    """The ``size`` bytes at ``offset`` of a shard's tar (the index's ``offset``/``size`` of a
    sample): its members, tar headers included. In a ``.tar.gz`` they are a deflate block of
    their own (:class:`GzipStream`), returned decompressed."""
    from sgprep.io.safefs import open_read

    with open_read(path) as fh:  # never through a link
        fh.seek(offset)
        block = fh.read(size)
    if str(path).endswith(".gz"):
        import zlib

        block = zlib.decompressobj(-zlib.MAX_WBITS).decompress(block)
    return block


def image_at(path, offset: int, size: int) -> tuple[str, bytes] | None:
    """The image member (its extension and bytes) of the sample at ``offset``/``size`` of a
    shard's tar (the index's columns), read by random access; None when it holds none."""
    import io
    import tarfile

    from sgprep.io.images import IMAGE_EXTENSIONS

    block = read_block(path, offset, size)
    with tarfile.open(fileobj=io.BytesIO(block + b"\0" * 1024)) as part:
        for member in part:
            ext = member.name.rpartition(".")[2]
            if ext in IMAGE_EXTENSIONS:
                return ext, part.extractfile(member).read()
    return None
