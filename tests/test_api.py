"""The Python API: thin over the same code the CLI runs."""

from __future__ import annotations

import pytest

from sgprep import api


def test_parse_captions_gives_graphs_in_order():
    graphs = api.parse_captions(["a red apple to the left of a blue car", "a dog"])
    first = graphs[0]
    assert [e.head for e in first.entities] == ["apple", "car"]
    assert [(r.subject, r.predicate, r.object) for r in first.relations] == [
        (0, "to the left of", 1)
    ]
    assert [e.head for e in graphs[1].entities] == ["dog"]


def test_run_from_a_mapping_and_read_the_index(tmp_path):
    table = tmp_path / "c.txt"
    table.write_text("a cat on a mat\n\na man holding a cup\n")
    summary = api.run(
        {
            "input": str(table),
            "output": str(tmp_path / "out"),
            "shard_size": 2,
            "stages": [{"name": "parse", "settings": {"parser": "spacy"}}],
        },
        progress=False,
        workers=1,
    )
    assert (summary.output.samples, summary.output.ok, summary.output.failed) == (3, 2, 1)
    index = api.read_index(tmp_path / "out")
    assert index.column("status").to_pylist() == ["ok", "failed", "ok"]
    with pytest.raises(FileNotFoundError):
        api.read_index(tmp_path)


def test_make_negatives_from_strings_as_the_stage_makes_them():
    from sgprep import api

    captions = ["a red cube and a blue sphere", "a man riding a horse on a beach"]
    first = api.make_negatives(captions)
    assert len(first) == 2 and first[0], first
    kinds = {n.kind for n in first[0]}
    assert "swap_attribute" in kinds, kinds  # the binding example gets its swap
    texts = {n.text for n in first[0]}
    assert "a blue cube and a red sphere" in texts
    assert [[n.text for n in negs] for negs in api.make_negatives(captions)] == [
        [n.text for n in negs] for negs in first
    ]  # the same seed, the same negatives
    only = api.make_negatives(captions[:1], strategies=("swap",), per_sample=1)
    assert len(only[0]) == 1 and only[0][0].strategy == "swap"
