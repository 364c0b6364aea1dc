"""`sgprep vocab` at scale: per-file counts merged are the bytes of one pass, whatever the
workers, the executor or the split of the corpus into files; every table stays in its bound."""

from __future__ import annotations

import json
import random

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pydantic import ValidationError

from sgprep.negatives.cooc import BoundedCounter, Cooc, plain_from_json, plain_graph
from sgprep.negatives.vocab import VocabCounts, build_vocab, count_inputs, write_vocab
from sgprep.schema import SceneGraph

OBJECTS = "man woman dog cat horse hot dog tennis racket table chair tree sky shirt".split()
ATTRIBUTES = "red blue wooden big small young old white striped".split()
PREDICATES = ["on", "next to", "riding", "holds", "is sitting on", "wearing", "in front of"]


def corpus(n: int, seed: int = 0) -> list[dict]:
    """``n`` scene graphs (JSON), varied words, a few plurals and untidy spaces."""
    rng = random.Random(seed)
    graphs = []
    for _ in range(n):
        entities = []
        for _ in range(rng.randint(1, 5)):
            head = rng.choice(OBJECTS) + rng.choice(["", "", "", "s"])
            attrs = rng.sample(ATTRIBUTES, rng.randint(0, 2))
            text = " ".join([*attrs, head])
            entities.append({"text": text, "head": head, "attributes": attrs})
        relations = []
        for _ in range(rng.randint(0, 3) if len(entities) > 1 else 0):
            s, o = rng.sample(range(len(entities)), 2)
            relations.append({"subject": s, "predicate": rng.choice(PREDICATES), "object": o})
        graphs.append({"entities": entities, "relations": relations, "parser": "test"})
    return graphs


def write_parquet(path, graphs) -> None:
    rows = [{"key": f"k{i}", "status": "ok", "sg": json.dumps(g)} for i, g in enumerate(graphs)]
    rows.append({"key": "failed", "status": "failed", "sg": None})  # no graph: not counted
    pq.write_table(pa.Table.from_pylist(rows), path, row_group_size=50)


def write_jsonl(path, graphs) -> None:
    with open(path, "w") as f:
        for i, g in enumerate(graphs):
            f.write(json.dumps({"key": f"j{i}", "sg": g}) + "\n")


GRAPHS = corpus(600)


@pytest.fixture(scope="module")
def splits(tmp_path_factory):
    """The same graphs as one parquet; as 4 parquets; as 7 files of uneven sizes, parquet
    and JSONL."""
    root = tmp_path_factory.mktemp("splits")
    one, four, seven = root / "one", root / "four", root / "seven"
    for d in (one, four, seven):
        d.mkdir()
    write_parquet(one / "00000.parquet", GRAPHS)
    for i in range(4):
        write_parquet(four / f"{i:05d}.parquet", GRAPHS[i * 150 : (i + 1) * 150])
    cuts = [0, 10, 90, 200, 201, 350, 480, 600]
    for i, (a, b) in enumerate(zip(cuts, cuts[1:])):
        if i % 2:
            write_jsonl(seven / f"{i:05d}.jsonl", GRAPHS[a:b])
        else:
            write_parquet(seven / f"{i:05d}.parquet", GRAPHS[a:b])
    return one, four, seven


def test_merged_counts_are_the_bytes_of_one_pass_whatever_the_split_and_workers(splits, tmp_path):
    one, four, seven = splits
    outputs = []
    for name, folder, workers in [
        ("one", one, 1),
        ("four_1", four, 1),
        ("four_2", four, 2),
        ("seven_2", seven, 2),
        ("seven_3", seven, 3),
    ]:
        out = tmp_path / f"{name}.json"
        counts = write_vocab([folder], out, workers=workers)
        assert "pruned keys" not in counts  # nothing pruned: exact counts
        outputs.append(out.read_bytes())
    assert len(set(outputs)) == 1
    data = json.loads(outputs[0])
    assert "pruned" not in data and "pruned" not in data["cooc"]


def test_the_fast_reading_counts_what_the_model_does():
    by_model, by_json = VocabCounts(), VocabCounts()
    for g in GRAPHS:
        by_model.count(SceneGraph.model_validate_json(json.dumps(g)))
        by_json.count_plain(*plain_from_json(json.loads(json.dumps(g))))
    assert by_model.objects == by_json.objects and by_model.graphs == by_json.graphs == 600
    assert by_model.attributes == by_json.attributes
    assert by_model.relations == by_json.relations
    assert by_model.cooc.to_json() == by_json.cooc.to_json()
    # Cooc.count (the tools' build_cooc) counts the same tables
    cooc = Cooc()
    for g in GRAPHS:
        cooc.count(SceneGraph.model_validate(g))
    assert cooc.to_json() == by_json.cooc.to_json()


def test_graphs_the_check_cannot_vouch_for_go_to_the_model(tmp_path):
    g = {
        "entities": [
            {"text": "  red cup ", "head": " cup", "attributes": ["red"]},
            {"text": "table", "head": "table", "attributes": []},
        ],
        "relations": [{"subject": 0, "predicate": "on  top   of", "object": 1}],
        "parser": "x",
    }
    plain = plain_from_json(g)
    assert plain == plain_graph(SceneGraph.model_validate(g))
    assert plain == ([("red cup", "cup", ("red",)), ("table", "table", ())], [(0, "on top of", 1)])
    for bad in (
        {**g, "extra": 1},  # the model forbids unknown fields
        {**g, "relations": [{"subject": 0, "predicate": "on", "object": 0}]},
        {**g, "relations": [{"subject": "0", "predicate": "on", "object": 1}]},  # lax: 0
        {"entities": [], "relations": []},  # no parser
        {**g, "entities": [{"text": " ", "head": "x"}]},
    ):
        assert plain_from_json(bad) is None
    # an invalid graph fails the command as it did (the model's error)
    write_jsonl(tmp_path / "bad.jsonl", [{**g, "extra": 1}])
    with pytest.raises(ValidationError):
        build_vocab([tmp_path / "bad.jsonl"])


def test_every_table_stays_in_its_bound():
    c = BoundedCounter(max_entries=10)
    for i in range(200):
        c.add(f"k{i % 37}", 1 + (i % 5 == 0))
        assert len(c) <= 10
    assert c.pruned > 0 and c.floor >= 1
    c.prune()
    assert len(c) <= 5
    big = BoundedCounter(max_entries=10)
    for i in range(10):
        big.add(f"m{i}")
    c.merge(big)
    assert len(c) <= 10
    counts = VocabCounts(max_entries=20)
    for g in GRAPHS:
        counts.count_plain(*plain_from_json(g))
        tables = [
            counts.objects,
            *counts.attributes.values(),
            *counts.relations.values(),
            *counts.cooc.tables.values(),
        ]
        assert all(len(t) <= 20 for t in tables)
    assert counts.pruned()["cooc/spo"] > 0


def test_pruned_counts_say_so_and_still_do_not_depend_on_the_workers(splits, tmp_path):
    _, four, _ = splits
    outs = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}.json"
        counts = write_vocab([four], out, max_entries=40, workers=workers)
        assert counts["pruned keys"] > 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    data = json.loads(outs[0])
    assert data["pruned"]["cooc/spo"] > 0 and data["cooc"]["pruned"]["spo"] > 0
    assert all(len(t) <= 40 for t in data["cooc"]["tables"].values())
    again = count_inputs([four], max_entries=40)
    assert again.pruned() == data["pruned"]


def test_vocab_command_with_workers(splits, tmp_path):
    from typer.testing import CliRunner

    from sgprep.cli import app

    _, four, _ = splits
    out1, out2 = tmp_path / "one.json", tmp_path / "two.json"
    runner = CliRunner()
    for out, workers in ((out1, "1"), (out2, "2")):
        result = runner.invoke(
            app, ["vocab", "-i", str(four), "-o", str(out), "--workers", workers]
        )
        assert result.exit_code == 0, result.output
    assert out1.read_bytes() == out2.read_bytes()
    bad = runner.invoke(app, ["vocab", "-i", str(four), "-o", str(out1), "--executor", "dask"])
    assert bad.exit_code != 0 and "--executor" in bad.output


def test_ray_tasks_write_the_same_bytes(splits, tmp_path):
    ray = pytest.importorskip("ray")
    _, four, seven = splits
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        write_vocab([seven], tmp_path / "ray.json", workers=2, executor="ray")
    finally:
        ray.shutdown()
    write_vocab([four], tmp_path / "local.json")
    assert (tmp_path / "ray.json").read_bytes() == (tmp_path / "local.json").read_bytes()


def test_with_default_adds_the_bundled_counts_to_the_corpus(splits, tmp_path):
    from sgprep.negatives.cooc import load_default

    one, _, _ = splits
    write_vocab([one], tmp_path / "own.json")
    write_vocab([one], tmp_path / "both.json", with_default=True)
    own = json.loads((tmp_path / "own.json").read_text())["cooc"]["tables"]["obj"]
    both = json.loads((tmp_path / "both.json").read_text())["cooc"]["tables"]["obj"]
    bundled = load_default().tables["obj"]
    # a word of the corpus: its count and the bundled one added; a word only the bundled
    # statistics know ("giraffe"): theirs; the words the corpus has stay its own
    assert both["dog"] == own["dog"] + bundled["dog"]
    assert "giraffe" not in own and both["giraffe"] == bundled["giraffe"]
    assert set(own) <= set(both)
