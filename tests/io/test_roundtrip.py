"""Write shards, read them back with real WebDataset and pyarrow readers, and compare."""

from __future__ import annotations

import io
import json
import tarfile

import pyarrow.parquet as pq
import pytest
import webdataset as wds

from sgprep.schema import Record, SceneGraph
from tests.conftest import index_rows, run_cli

CAPTIONS = {
    "astronaut": "A woman in an orange spacesuit next to a black helmet",
    "coffee": "A cup of coffee on a saucer with a spoon",
    "chelsea": "An orange cat with a white chin",
    "rocket": "A rocket standing on a launch pad under a blue sky",
}


def _image_folder(tmp_path, photos):
    folder = tmp_path / "imgs"
    folder.mkdir()
    for name, caption in CAPTIONS.items():
        (folder / f"{name}.jpg").write_bytes(photos[name])
        (folder / f"{name}.txt").write_text(caption)
    return folder


def test_shards_round_trip_through_webdataset_and_pyarrow(tmp_path, photos):
    out = tmp_path / "out"
    run_cli(
        "parse",
        "--input",
        _image_folder(tmp_path, photos),
        "--output",
        out,
        "--shard-size",
        "3",
        "--no-progress",
    )
    assert sorted(p.name for p in out.iterdir()) == [
        "00000.parquet",
        "00000.tar",
        "00000_stats.json",
        "00001.parquet",
        "00001.tar",
        "00001_stats.json",
        "README.md",
        "_meta",
        "sizes.json",
    ]
    assert json.loads((out / "sizes.json").read_text()) == {"00000.tar": 3, "00001.tar": 1}

    dataset = wds.WebDataset(sorted(str(p) for p in out.glob("*.tar")), shardshuffle=False)
    samples = {s["__key__"]: s for s in dataset}
    assert set(samples) == set(CAPTIONS)
    rows = {r["key"]: r for r in index_rows(out)}
    for key, sample in samples.items():
        assert sample["jpg"] == photos[key], "image bytes pass through unchanged"
        assert sample["txt"].decode() == CAPTIONS[key]
        meta = json.loads(sample["json"])
        assert meta["key"] == key and meta["image"]["width"] > 0
        graph = SceneGraph.model_validate_json(sample["sg.json"])
        assert graph.entities and graph.parser == "spacy"
        row = rows[key]
        assert row["status"] == "ok" and row["caption"] == CAPTIONS[key]
        assert SceneGraph.model_validate_json(row["sg"]) == graph
        assert (row["image_width"], row["image_height"]) == (
            meta["image"]["width"],
            meta["image"]["height"],
        )
        # random access: the row's shard, offset and size are exactly the sample's tar blocks
        with open(out / f"{row['shard']}.tar", "rb") as fh:
            fh.seek(row["offset"])
            block = fh.read(row["size"])
        with tarfile.open(fileobj=io.BytesIO(block + b"\0" * 1024)) as part:
            names = part.getnames()
            assert part.extractfile(f"{key}.txt").read().decode() == CAPTIONS[key]
        assert sorted(names) == sorted(f"{key}.{ext}" for ext in sample if not ext.startswith("__"))
    run_meta = json.loads((out / "_meta" / "run.json").read_text())
    assert (
        run_meta["config"]["stages"][0]["settings"]["parser"] == "spacy"
        and run_meta["sgprep_version"]
    )
    schema = pq.read_schema(out / "00000.parquet")
    for column in ("key", "caption", "status", "stage", "error", "sg", "det", "neg"):
        assert column in schema.names
    assert run_cli("validate", out).exit_code == 0


def test_jsonl_output_has_one_record_per_input(tmp_path, photos):
    out = tmp_path / "graphs.jsonl"
    folder = _image_folder(tmp_path, photos)
    (folder / "broken.jpg").write_bytes(b"\xff\xd8 not really")
    run_cli("parse", "--input", folder, "--output", out, "--no-progress", "--shard-size", "2")
    records = [Record.model_validate_json(line) for line in out.read_text().splitlines()]
    assert sorted(r.key for r in records) == sorted([*CAPTIONS, "broken"])
    broken = next(r for r in records if r.key == "broken")
    assert (broken.status, broken.stage, broken.reason) == ("failed", "read", "image_corrupt")
    assert all(r.sg is not None for r in records if r.status == "ok")
    assert not out.with_name(out.name + ".parts").exists()
    # A rerun of the finished run is a no-op, not an error.
    before = out.read_bytes()
    run_cli("parse", "--input", folder, "--output", out, "--no-progress", "--shard-size", "2")
    assert out.read_bytes() == before


def test_validate_finds_tampering(tmp_path, photos):
    out = tmp_path / "out"
    run_cli("parse", "--input", _image_folder(tmp_path, photos), "--output", out, "--no-progress")
    stats = out / "00000_stats.json"
    data = json.loads(stats.read_text())
    data["ok"] += 1
    stats.write_text(json.dumps(data))
    result = run_cli("validate", out, ok=False)
    assert result.exit_code == 1 and "disagree with the index" in result.output


def test_sgprep_output_is_valid_input_and_keeps_annotations(tmp_path, photos):
    first = tmp_path / "first"
    run_cli("parse", "--input", _image_folder(tmp_path, photos), "--output", first, "--no-progress")
    second = tmp_path / "second.jsonl"
    run_cli("parse", "--input", first, "--output", second, "--no-progress", "--parser", "spacy")
    records = [Record.model_validate_json(line) for line in second.read_text().splitlines()]
    assert sorted(r.key for r in records) == sorted(CAPTIONS)
    assert all(r.status == "ok" and r.meta == {"path": r.key} for r in records)


def test_sgprep_jsonl_output_read_again_keeps_its_metadata_only(tmp_path):
    """A JSONL record's own fields (key, status, an annotation it lacks) are not metadata of the
    next run's record."""
    captions = tmp_path / "c.csv"
    captions.write_text("key,caption,site\nk1,a red cat on a mat,a\nk2,a dog under a table,b\n")
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    run_cli("parse", "--input", captions, "--output", first, "--no-progress")
    run_cli("negatives", "--input", first, "--output", second, "--no-progress")
    before = {r.key: r.meta for r in map(Record.model_validate_json, first.open())}
    after = {r.key: r for r in map(Record.model_validate_json, second.open())}
    assert before == {"k1": {"key": "k1", "site": "a"}, "k2": {"key": "k2", "site": "b"}}
    assert {k: r.meta for k, r in after.items()} == before
    assert all(r.neg is not None for r in after.values())


@pytest.mark.slow  # end to end: `make test` runs it, `make test-fast` does not
def test_index_locates_each_sample_in_its_tar(tmp_path, photos):
    """shard/offset/size: the tar's bytes [offset, offset + size) are the sample, whole."""
    import io
    import tarfile

    table = tmp_path / "captions.csv"
    table.write_text("caption\na dog on a mat\n\nthe cat under a red table\n")  # one empty: failed
    folder = _image_folder(tmp_path, photos)
    for name, spec in (("caps", table), ("imgs", folder)):
        out = tmp_path / f"out_{name}"
        run_cli("parse", "--input", spec, "--output", out, "--shard-size", "2", "--no-progress")
        rows = index_rows(out)
        assert {r["status"] for r in rows} >= {"ok"}
        for row in rows:
            if row["status"] != "ok":
                assert row["offset"] is None and row["size"] is None and row["shard"]
                continue
            data = (out / f"{row['shard']}.tar").read_bytes()[
                row["offset"] : row["offset"] + row["size"]
            ]
            with tarfile.open(fileobj=io.BytesIO(data + bytes(1024))) as tar:
                names = tar.getnames()
                members = {n.split(".", 1)[1]: tar.extractfile(n).read() for n in names}
            assert {n.split(".", 1)[0] for n in names} == {row["key"]}
            assert set(members) == set(json.loads(row["members"]))
            assert members["txt"].decode() == row["caption"]
            assert members["sg.json"].decode() == row["sg"]
        assert any(r["status"] == "failed" for r in rows) == (name == "caps")
