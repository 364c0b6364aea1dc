"""Annotations read from sgprep's own shards of this schema version are written again as the
bytes they were read from (no encoding), while the sample still holds the object read; any
other input, and any annotation a stage replaced, is encoded as before."""

from __future__ import annotations

import json
import shutil
import tarfile

import pytest

from sgprep.io.readers import tars
from sgprep.io.records import _json_dumps, tar_members
from sgprep.schema import SCHEMA_VERSION
from tests.conftest import parse_captions, read_samples, run_cli

CAPTIONS = ["a red car on a road", "two cats on a mat", "a woman holding a blue cup"]


@pytest.fixture(scope="module")
def parsed(tmp_path_factory):
    return parse_captions(tmp_path_factory.mktemp("bytes"), CAPTIONS, shard_size=2)


def _members(tar) -> dict[str, bytes]:
    with tarfile.open(tar) as archive:
        return {m.name: archive.extractfile(m).read() for m in archive}


def test_own_shards_keep_the_bytes_read_and_write_them_again(parsed):
    samples = read_samples(parsed)
    assert len(samples) == len(CAPTIONS) and all(s.ok for s in samples)
    read = {}
    for tar in parsed.glob("*.tar"):
        read.update(_members(tar))
    for sample in samples:
        graph, data = sample.read_as["sg"]
        assert graph is sample.sg and data == read[f"{sample.key}.sg.json"]
        written = tar_members(sample)["sg.json"]
        assert written is data  # not encoded again
        # ... and they are what encoding the graph gives (the shard is canonical)
        assert data == _json_dumps(sample.sg.model_dump(mode="json"))


def test_a_replaced_annotation_is_encoded(parsed):
    sample = read_samples(parsed)[0]
    old = sample.read_as["sg"][1]
    sample.sg = sample.sg.model_copy(update={"parser": "other"})
    written = tar_members(sample)["sg.json"]
    assert written != old and json.loads(written)["parser"] == "other"


def test_other_schema_versions_and_header_reads_keep_nothing(parsed, tmp_path, monkeypatch):
    """An older sgprep's shards may encode a graph otherwise than this one (fields added
    since): they are read and encoded anew. So is a tar read by its headers."""
    copy = tmp_path / "out"
    shutil.copytree(parsed, copy)
    for stats in copy.glob("*_stats.json"):
        meta = json.loads(stats.read_text())
        assert meta["schema_version"] == SCHEMA_VERSION
        meta["schema_version"] = SCHEMA_VERSION - 1
        stats.write_text(json.dumps(meta))
    samples = read_samples(copy)
    assert tars._own_index(copy / "00000.tar") is not None  # still located by the index
    assert len(samples) == len(CAPTIONS) and all(s.read_as is None for s in samples)
    monkeypatch.setattr(tars, "_own_index", lambda path: None)
    assert all(s.read_as is None for s in read_samples(parsed))


def test_negatives_output_holds_the_graphs_as_parse_wrote_them(parsed, tmp_path):
    out = tmp_path / "neg"
    run_cli("negatives", "--input", parsed, "--output", out, "--strategy", "swap", "--no-progress")
    before, after = {}, {}
    for tar in parsed.glob("*.tar"):
        before.update(_members(tar))
    for tar in out.glob("*.tar"):
        after.update(_members(tar))
    graphs = {n: d for n, d in before.items() if n.endswith(".sg.json")}
    assert graphs and graphs == {n: d for n, d in after.items() if n.endswith(".sg.json")}
    assert all(n.replace(".sg.json", ".neg.json") in after for n in graphs)


def test_bytes_are_kept_only_by_the_index_reader(parsed, tmp_path):
    """What vouches for the bytes is the stats file and index beside the tar: a copy of
    the tar alone is read by its headers and keeps nothing."""
    tar = sorted(parsed.glob("*.tar"))[0]
    (tmp_path / tar.name).write_bytes(tar.read_bytes())
    samples = read_samples(tmp_path)
    assert samples and all(s.ok and s.sg is not None and s.read_as is None for s in samples)
