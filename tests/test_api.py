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
