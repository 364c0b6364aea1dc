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
