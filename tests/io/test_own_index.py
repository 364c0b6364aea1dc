"""sgprep's own output read back through its index: planned without reading the tar, each
sample read in one piece, the same samples as the header-by-header reader gives."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest

from sgprep.io.readers import tars
from sgprep.io.records import digest
from tests.conftest import parse_captions

CAPTIONS = [
    "a red car on a road",
    "a dog under a table",
    "",
    "two cats on a mat",
    "a man riding a horse",
    "a woman holding a blue cup",
    "a kite above a tree",
]


@pytest.fixture(scope="module")
def parsed(tmp_path_factory):
    return parse_captions(tmp_path_factory.mktemp("own"), CAPTIONS, shard_size=3)


def _read(tar, start=None, load=True):
    return [(cursor, s.model_dump()) for cursor, s in tars.records(tar, start, load=load)]


def _by_headers(monkeypatch, tar, start=None, load=True):
    with monkeypatch.context() as m:
        m.setattr(tars, "_own_index", lambda path: None)
        return _read(tar, start, load)


def test_same_samples_as_the_header_reader(parsed, monkeypatch):
    tars._cached_index.cache_clear()
    for tar in sorted(parsed.glob("*.tar")):
        assert tars._own_index(tar) is not None
        assert _read(tar) == _by_headers(monkeypatch, tar)
        assert _read(tar, load=False) == _by_headers(monkeypatch, tar, load=False)
        for cursor, _ in _read(tar, load=False):  # reading resumes from any cursor
            assert _read(tar, cursor) == _by_headers(monkeypatch, tar, cursor)


def test_planning_reads_no_tar_header(parsed, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the tar was scanned")

    monkeypatch.setattr(tars, "_members", refuse)
    monkeypatch.setattr(tars, "_ustar_names", refuse)
    keys = [s["key"] for tar in sorted(parsed.glob("*.tar")) for _, s in _read(tar, load=False)]
    assert len(keys) == len(CAPTIONS)


def test_a_changed_tar_is_read_by_its_headers(parsed, tmp_path, monkeypatch):
    """Same size, so the stats file still vouches for it: a renamed member is found when its
    sample is read, and that sample and the rest go through the header reader."""
    import shutil

    copy = tmp_path / "out"
    shutil.copytree(parsed, copy)
    tar = copy / "00000.tar"
    data = bytearray(tar.read_bytes())
    rows = pq.read_table(copy / "00000.parquet").to_pylist()
    second = [r for r in rows if r["status"] == "ok"][1]
    data[second["offset"]] = ord("X")  # the first byte of its first member's name
    tar.write_bytes(bytes(data))
    tars._cached_index.cache_clear()
    assert tars._own_index(tar) is not None
    got = _read(tar)
    assert got == _by_headers(monkeypatch, tar)
    assert any(s["failure"] for _, s in got)


def test_an_index_without_offsets_or_not_vouched_for_is_not_used(parsed, tmp_path):
    import shutil

    copy = tmp_path / "out"
    shutil.copytree(parsed, copy)
    index, stats = copy / "00000.parquet", copy / "00000_stats.json"
    tars._cached_index.cache_clear()
    pq.write_table(pq.read_table(index).drop_columns(["offset", "size"]), index)
    assert tars._own_index(copy / "00000.tar") is None  # its checksum is not the stats file's
    meta = json.loads(stats.read_text())
    meta["files"]["00000.parquet"]["sha256"] = digest(index.read_bytes())
    stats.write_text(json.dumps(meta))
    tars._cached_index.cache_clear()
    assert tars._own_index(copy / "00000.tar") is None  # an older sgprep's: no offsets


def test_failures_are_looked_up_only_in_an_index_that_lists_some(parsed, monkeypatch):
    tars._cached_index.cache_clear()
    shards = sorted(parsed.glob("*.tar"))
    failed = {tar: tars._own_index(tar).failed for tar in shards}
    assert sorted(failed.values()) == [0, 0, 1]  # the empty caption of the first shard
    expected = {tar: _read(tar) for tar in shards}
    assert [s["failure"]["reason"] for _, s in expected[shards[0]] if s["failure"]] == [
        "source_failed"  # the failure row of the index, read back
    ]

    def refuse(*args, **kwargs):
        raise AssertionError("the index was opened again for failures")

    for tar in shards:
        if failed[tar]:
            assert _read(tar) == expected[tar]
        else:
            with monkeypatch.context() as m:
                m.setattr(tars, "_img2dataset_failures", refuse)
                assert _read(tar) == expected[tar]
                assert len(_read(tar, load=False)) == len(expected[tar])
