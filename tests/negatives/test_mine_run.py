"""``mine-images`` as a step of ``sgprep run``: Cola-style distractor images mined over the
finished output, one table per output, each distractor an image of its own."""

from __future__ import annotations

import json
import re

import pyarrow.parquet as pq
import pytest

from tests.conftest import index_rows, run_cli

CAPTIONS = {  # per image, its captions (COCO: written image by image)
    "astronaut": ["a red cube and a blue sphere", "a red cube next to a blue sphere"],
    "coffee": ["a blue cube and a red sphere", "a blue cube near a red sphere"],
    "chelsea": ["a blue cube with a red sphere", "a cat on a sofa"],
    "rocket": ["a green cube"],
}


@pytest.fixture()
def table(tmp_path, photos):
    rows = ["caption,image"]
    for name, captions in CAPTIONS.items():
        (tmp_path / f"{name}.jpg").write_bytes(photos[name])
        rows += [f"{caption},{tmp_path / name}.jpg" for caption in captions]
    path = tmp_path / "captions.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def _pipeline(tmp_path, table, out, steps="  mine-images: {max_per_query: 3}\n"):
    path = tmp_path / f"{out}.yaml"
    path.write_text(
        f"input: {table}\noutput: {tmp_path / out}\nstages:\n  parse: {{parser: spacy}}\n{steps}"
    )
    return path


@pytest.mark.parametrize("shared", [False, True])
def test_run_mines_distinct_distractor_images_each_held_by_its_key(tmp_path, table, shared):
    flags = ["--shared-images"] if shared else []
    done = run_cli("run", _pipeline(tmp_path, table, "out"), "--no-progress", *flags)
    out = tmp_path / "out"
    mined = out / "_meta" / "mined_images.parquet"
    rows = pq.read_table(mined).to_pylist()
    holders = {r["key"] for r in index_rows(out) if r["image_key"] is None}
    key_of = {r["caption"]: r["key"] for r in index_rows(out)}
    first = {name: key_of[captions[0]] for name, captions in CAPTIONS.items()}
    pairs = sorted((r["key"], r["image_key"]) for r in rows)
    assert pairs == sorted(
        [
            (first["astronaut"], first["coffee"]),
            (first["astronaut"], first["chelsea"]),
            (first["coffee"], first["astronaut"]),
            (first["chelsea"], first["astronaut"]),
        ]
    )
    assert {k for pair in pairs for k in pair} <= holders  # each names a sample with its image
    assert re.search(r"mine-images: queries\s*\W\s*3\b", done.output)
    assert re.search(r"mine-images: images\s*\W\s*4\b", done.output)
    assert run_cli("validate", out).exit_code == 0
    # a rerun finds the shards done and mines the same bytes again
    before = mined.read_bytes()
    run_cli("run", _pipeline(tmp_path, table, "out"), "--no-progress", *flags)
    assert mined.read_bytes() == before
    config = json.loads((out / "_meta" / "run.json").read_text())["config"]
    assert config["after"] == [
        {"name": "mine-images", "optional": False, "settings": {"max_per_query": 3}}
    ]


def test_a_run_without_the_step_writes_what_it_wrote_before(tmp_path, table):
    run_cli("run", _pipeline(tmp_path, table, "plain", steps=""), "--no-progress")
    out = tmp_path / "plain"
    assert not (out / "_meta" / "mined_images.parquet").exists()
    assert "after" not in json.loads((out / "_meta" / "run.json").read_text())["config"]
    # the step does not change the output's fingerprint: adding it resumes the same shards
    stats = (out / "00000_stats.json").read_bytes()
    pipe = _pipeline(tmp_path, table, "plain")
    done = run_cli("run", pipe, "--no-progress")
    assert re.search(r"shards already done\s*\W\s*1\b", done.output)
    assert (out / "00000_stats.json").read_bytes() == stats
    assert (out / "_meta" / "mined_images.parquet").is_file()


def test_the_step_needs_graphs_and_a_shard_directory(tmp_path, table):
    from sgprep.errors import PipelineError
    from sgprep.pipeline import check_requires, make_config

    config = make_config(
        {
            "input": str(table),
            "output": str(tmp_path / "o"),
            "stages": [{"name": "detect"}],
            "after": [{"name": "mine-images"}],
        }
    )
    with pytest.raises(PipelineError, match="step 'mine-images' needs sg"):
        check_requires(config)
    jsonl = tmp_path / "to_jsonl.yaml"
    jsonl.write_text(
        f"input: {table}\noutput: {tmp_path / 'o.jsonl'}\nstages:\n"
        f"  parse: {{parser: spacy}}\n  mine-images: {{}}\n"
    )
    result = run_cli("run", jsonl, "--no-progress", ok=False)
    assert result.exit_code == 2 and "name a directory output" in result.output
    bad = _pipeline(tmp_path, table, "bad", steps="  mine-images: {per_query: 3}\n")
    result = run_cli("run", bad, "--no-progress", ok=False)
    assert result.exit_code == 2 and "'per_query' is not one of its settings" in result.output


@pytest.mark.parametrize("shared", [False, True])
def test_a_trainer_reads_each_captions_distractor_images(tmp_path, table, photos, shared):
    """sgprep.data gives each caption of an image the mined images of the other binding, as
    the bytes of those images, also where --shared-images stores an image once; mined by the
    `negatives` command as well as by the step."""
    pytest.importorskip("webdataset")
    import sgprep.data as sd

    flags = ["--shared-images"] if shared else []
    steps = "" if shared else "  mine-images: {max_per_query: 3}\n"
    run_cli("run", _pipeline(tmp_path, table, "out", steps=steps), "--no-progress", *flags)
    out = tmp_path / "out"
    if shared:  # mined after the run, by the command the error message names
        target = out / "_meta" / "mined_images.parquet"
        run_cli("negatives", "--input", out, "--strategy", "mine-images", "--output", target)
    image_of = {c: name for name, captions in CAPTIONS.items() for c in captions}
    seen = {}
    for s in sd.webdataset(out, distractors=3, decode=False):
        seen[s["caption"]] = sorted(
            next(n for n, data in photos.items() if data == d["image"]) for d in s["distractors"]
        )
    expected = {"astronaut": ["chelsea", "coffee"], "coffee": ["astronaut"]}
    expected["chelsea"] = ["astronaut"]
    for caption, name in image_of.items():
        assert seen[caption] == expected.get(name, []), caption
