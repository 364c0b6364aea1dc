"""Members that sgprep's own index vouches for (their checksums in its ``members`` column) are
read without parsing their headers, their samples built at once (annotations still validated);
any member that no longer matches is read the full way, headers parsed,
and an invalid one fails its sample exactly as before (nothing is lost, nothing crashes)."""

from __future__ import annotations

import json
import shutil

import pytest

from sgprep.io import vouched
from sgprep.io.readers import tars
from sgprep.schema import SCHEMA_VERSION, Sample, SceneGraph
from tests.conftest import by_reason, index_rows, parse_captions, read_samples, run_cli

CAPTIONS = [
    "a red car on a road",
    "two cats on a mat",
    "",
    "a woman holding a blue cup",
    "a man riding a horse next to a tall tree",
]


@pytest.fixture(scope="module")
def parsed(tmp_path_factory):
    return parse_captions(tmp_path_factory.mktemp("vouched"), CAPTIONS, shard_size=10)


def _validated(folder, monkeypatch):
    """The same samples, every member read and validated in full (nothing vouched for)."""
    with monkeypatch.context() as m:
        m.setattr(vouched, "sample_members", lambda *args: None)
        return read_samples(folder)


def _state(sample):
    """Everything a sample holds, the types of its values and the fields set included."""
    graph = sample.sg
    return (
        sample.model_dump(),
        sample.model_fields_set,
        sample.read_as and {k: (v[0].model_dump(), v[1]) for k, v in sample.read_as.items()},
        graph and [(type(e.span), e.model_fields_set) for e in graph.entities],
        graph and [(type(r.span), r.model_fields_set) for r in graph.relations],
        graph and (graph.model_fields_set, graph.model_dump_json()),
    )


def test_vouched_samples_are_the_ones_read_by_their_headers(parsed, monkeypatch):
    validated = _validated(parsed, monkeypatch)

    def refuse(*args):
        raise AssertionError("a header was parsed")

    monkeypatch.setattr(tars, "_sample_members", refuse)
    monkeypatch.setattr(tars, "_assemble", refuse)
    fast = read_samples(parsed)
    assert len(fast) == len(validated) == len(CAPTIONS)  # the empty caption: a failure row
    assert sum(s.ok for s in fast) == len(CAPTIONS) - 1
    for a, b in zip(fast, validated):
        assert _state(a) == _state(b)
        assert not a.ok or a.read_as["sg"][0] is a.sg  # written again as the bytes read


def _tamper(folder, old: bytes, new: bytes):
    """Replace bytes of the first sample's ``sg.json`` in the tar, keeping its size (the stats
    still vouch for the tar and the index; the member's checksum no longer matches)."""
    assert len(old) == len(new)
    tar = folder / "00000.tar"
    data = tar.read_bytes()
    at = data.index(old)
    tar.write_bytes(data[:at] + new + data[at + len(old) :])


def test_a_tampered_invalid_member_fails_its_sample_as_before(parsed, tmp_path, monkeypatch):
    copy = tmp_path / "in"
    shutil.copytree(parsed, copy)
    _tamper(copy, b'"subject":0', b'"subject":7')  # a relation out of range
    assert tars._own_index(copy / "00000.tar").members is not None  # the index is still used
    samples = read_samples(copy)
    assert len(samples) == len(CAPTIONS)
    bad = [s for s in samples if not s.ok and s.failure.reason != "source_failed"]
    assert len(bad) == 1 and bad[0].failure.stage == "read"
    assert bad[0].failure.reason == "bad_annotation"
    assert "out of range" in bad[0].failure.message
    # exactly what the reader that trusts nothing gives
    with monkeypatch.context() as m:
        m.setattr(tars, "_own_index", lambda path: None)
        by_headers = read_samples(copy)
    assert [s.model_dump() for s in samples] == [s.model_dump() for s in by_headers]
    # and through the CLI: the sample is in the index as a failure, the others are written
    out = tmp_path / "neg"
    result = run_cli(
        "negatives", "-i", copy, "-o", out, "--strategy", "swap", "--no-progress", ok=False
    )
    rows = index_rows(out)
    assert len(rows) == len(CAPTIONS)
    reasons = sorted(by_reason(rows).values(), key=str)
    assert reasons == [None, None, None, "bad_annotation", "source_failed"]
    failed = [r for r in rows if r["reason"] == "bad_annotation"]
    assert failed[0]["stage"] == "read" and "out of range" in failed[0]["error"]
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_tampered_valid_member_is_read_by_its_headers(parsed, tmp_path, monkeypatch):
    copy = tmp_path / "in"
    shutil.copytree(parsed, copy)
    _tamper(copy, b'"head":"car"', b'"head":"cat"')
    parsed_headers = []
    real = tars._sample_members
    monkeypatch.setattr(
        tars, "_sample_members", lambda data, key: parsed_headers.append(key) or real(data, key)
    )
    samples = read_samples(copy)
    assert parsed_headers == [samples[0].key]  # that one sample only
    assert sum(s.ok for s in samples) == len(CAPTIONS) - 1
    assert samples[0].sg.entities[0].head == "cat"


def test_a_changed_header_is_not_vouched_for(parsed, tmp_path, monkeypatch):
    """The data intact but a header not as sgprep writes it (its mode): read by the header
    reader, as before."""
    copy = tmp_path / "in"
    shutil.copytree(parsed, copy)
    tar = copy / "00000.tar"
    data = bytearray(tar.read_bytes())
    assert data[100:107] == b"0000644"
    data[100:107] = b"0000600"
    data[148:156] = b"%06o\0 " % (sum(data[:148]) + 256 + sum(data[156:512]))
    tar.write_bytes(bytes(data))
    samples = read_samples(copy)
    assert len(samples) == len(CAPTIONS) and sum(s.ok for s in samples) == len(CAPTIONS) - 1
    block = bytes(data[: tars._own_index(tar).sizes[0]])
    assert vouched.sample_members(block, samples[0].key, tars._own_index(tar).members[0]) is None


def test_older_schema_versions_and_foreign_rows_are_not_vouched_for(parsed, tmp_path):
    copy = tmp_path / "in"
    shutil.copytree(parsed, copy)
    stats = copy / "00000_stats.json"
    meta = json.loads(stats.read_text())
    meta["schema_version"] = SCHEMA_VERSION - 1
    stats.write_text(json.dumps(meta))
    tars._cached_index.cache_clear()
    index = tars._own_index(copy / "00000.tar")
    assert index is not None and index.members is None and not index.canonical
    assert all(s.read_as is None for s in read_samples(copy))
    # a row that names another checksum, or is not JSON, vouches for nothing
    own = tars._own_index(parsed / "00000.tar")
    block = (parsed / "00000.tar").read_bytes()[: own.sizes[0]]
    assert vouched.sample_members(block, own.keys[0], own.members[0]) is not None
    other = own.members[0].replace("xxh3_64", "md5")
    for row in (other, "not json", None, "{}"):
        assert vouched.sample_members(block, own.keys[0], row) is None


def test_a_vouched_member_is_still_validated(parsed):
    """The checksum vouches for the bytes; the annotation is validated all the same (built in
    Python without validation it measured no faster)."""
    own = tars._own_index(parsed / "00000.tar")
    block = (parsed / "00000.tar").read_bytes()[: own.sizes[0]]
    members = vouched.sample_members(block, own.keys[0], own.members[0])
    loop = b'{"entities":[{"text":"a","head":"a"}],"relations":[{"subject":0,"object":0,'
    loop += b'"predicate":"on"}],"parser":"x"}'
    assert vouched.sample(own.keys[0], "s", {**members, "sg.json": loop}) is None
    with pytest.raises(ValueError, match="itself"):
        SceneGraph.model_validate_json(loop)


def test_planning_samples_are_those_of_the_model():
    made, built = vouched.keyed("k1", "a.tar:k1"), Sample(key="k1", source="a.tar:k1")
    assert _state(made) == _state(built) and made.meta is not vouched.keyed("k", "s").meta
    made.meta["x"] = 1
    assert made.model_dump() == {**built.model_dump(), "meta": {"x": 1}}


def test_samples_with_an_image_or_a_shared_one_go_to_the_tar_reader(parsed):
    own = tars._own_index(parsed / "00000.tar")
    block = (parsed / "00000.tar").read_bytes()[: own.sizes[0]]
    members = vouched.sample_members(block, own.keys[0], own.members[0])
    assert vouched.sample(own.keys[0], "s", members) is not None
    assert vouched.sample(own.keys[0], "s", {**members, "jpg": b"\xff\xd8"}) is None
    info = json.loads(members["json"])
    pointer = json.dumps({**info, "image_key": "other"}).encode()
    assert vouched.sample(own.keys[0], "s", {**members, "json": pointer}) is None
    bom = {**members, "txt": b"\xef\xbb\xbf" + members["txt"]}
    assert vouched.sample(own.keys[0], "s", bom) is None  # the reader takes the mark off
    long = json.dumps({**info, "meta": {"id": 2**70}}).encode()  # json reads it otherwise
    assert vouched.sample(own.keys[0], "s", {**members, "json": long}) is None
    # the tar reader then builds the sample
    sample = tars._assemble(own.keys[0], "s", bom, [], True, {}, True)
    assert sample.ok and sample.caption == members["txt"].decode()
