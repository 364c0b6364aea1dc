"""Our ustar writer against Python's tarfile: same header bytes, readable by tarfile."""

import io
import tarfile

from sgprep.io.tar import BLOCK, RECORD, TarWriter, ustar_header


def test_header_matches_tarfile_byte_for_byte():
    for name, size, mtime in [
        ("000000001.jpg", 123_456, 946684800),
        ("k.sg.json", 0, 0),
        ("a" * 90 + ".json", 7, 1),
    ]:
        info = tarfile.TarInfo(name)
        info.size, info.mtime, info.mode = size, mtime, 0o644
        info.uname = info.gname = ""
        expected = info.tobuf(tarfile.USTAR_FORMAT, "ascii", "strict")
        assert ustar_header(name, size, mtime) == expected


def test_written_archive_reads_back_with_tarfile():
    buf = io.BytesIO()
    tar = TarWriter(buf, mtime=946684800)
    tar.write_sample({"__key__": "k1", "txt": b"a cat", "jpg": b"\xff" * 1000})
    tar.write_sample({"__key__": "k2", "json": b"{}"})
    tar.close()
    data = buf.getvalue()
    assert len(data) % RECORD == 0 and data[-2 * BLOCK :] == b"\0" * 2 * BLOCK
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        members = [(m.name, archive.extractfile(m).read(), m.mtime) for m in archive]
    assert members == [
        ("k1.jpg", b"\xff" * 1000, 946684800),
        ("k1.txt", b"a cat", 946684800),
        ("k2.json", b"{}", 946684800),
    ]


def test_reader_checks_our_headers_and_others_alike():
    """The reader's short check of headers as sgprep writes them gives tarfile's name and
    size, as the full check does for any other plain header; a flipped byte fails both."""
    from sgprep.io.readers.tars import _NotPlain, _ustar_header
    from sgprep.io.tar import FIXED_MTIME

    ours = ustar_header("000000007.sg.json", 409, FIXED_MTIME)
    info = tarfile.TarInfo("000000007.sg.json")
    info.size, info.mtime, info.mode = 409, 1_700_000_000, 0o600
    other = info.tobuf(tarfile.USTAR_FORMAT, "utf-8", "strict")
    for header in (ours, other):
        assert _ustar_header(header) == ("000000007.sg.json", b"0", 409)
        for at in (3, 126, 140, 300):  # name, size, mtime, link name
            damaged = bytearray(header)
            damaged[at] ^= 0x01
            try:
                result = _ustar_header(bytes(damaged))
            except _NotPlain:
                continue
            raise AssertionError(f"byte {at} flipped, still read as {result}")


def test_a_sample_is_written_as_its_members_one_by_one():
    """write_sample sums the key's bytes once for all its members: the same bytes as
    adding each member with its own header, sorted by extension."""
    members = {"__key__": "000000042", "txt": b"a cat", "sg.json": b"{}" * 300, "json": b""}
    one, each = io.BytesIO(), io.BytesIO()
    TarWriter(one, mtime=946684800).write_sample(members)
    writer = TarWriter(each, mtime=946684800)
    for ext in sorted(e for e in members if e != "__key__"):
        writer.add(f"000000042.{ext}", members[ext])
    assert one.getvalue() == each.getvalue()


def test_a_name_field_padded_with_other_bytes_is_summed_whole():
    """The short checksum of sgprep's own headers sums the name alone only when the rest of
    the field is zeros: a byte after the name's end counts, as tarfile counts it."""
    from sgprep.io.readers.tars import _own_header
    from sgprep.io.tar import FIXED_MTIME

    header = bytearray(ustar_header("k.txt", 5, FIXED_MTIME))
    header[60] = ord("x")  # after the name's NUL: not part of the name, part of the sum
    assert _own_header(bytes(header), 0) is None  # the checksum no longer agrees
    header[148:156] = b"%06o\0 " % (sum(header[:148]) + 256 + sum(header[156:]))
    assert _own_header(bytes(header), 0) == ("k.txt", 5)
    with tarfile.open(fileobj=io.BytesIO(bytes(header) + b"hello".ljust(BLOCK, b"\0"))) as tar:
        assert [(m.name, m.size) for m in tar] == [("k.txt", 5)]
    assert _own_header(b"\0" * BLOCK + bytes(header), BLOCK) == ("k.txt", 5)  # at an offset
