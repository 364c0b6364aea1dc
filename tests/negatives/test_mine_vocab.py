"""Mined image negatives on a hand-made corpus, and the vocabulary round trip."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq

from sgprep.negatives.mine import mine_images
from sgprep.negatives.vocab import Vocabulary, build_vocab, load_vocab, write_vocab
from sgprep.schema import Negative


def sg(*entities, relations=()):
    return {
        "entities": [
            {"text": " ".join([*attrs, head]), "head": head, "attributes": list(attrs)}
            for *attrs, head in entities
        ],
        "relations": [{"subject": s, "predicate": p, "object": o} for s, p, o in relations],
        "parser": "hand",
    }


CORPUS = {
    "q": sg(("red", "cube"), ("blue", "sphere")),  # the query
    "swapped": sg(("blue", "cube"), ("red", "sphere")),  # the distractor
    "swapped_more": sg(("blue", "big", "cube"), ("red", "sphere"), ("dog",)),  # holds it too
    "both": sg(("red", "cube"), ("blue", "sphere"), ("blue", "cube"), ("red", "sphere")),
    "same": sg(("red", "cube"), ("blue", "sphere")),  # same binding: no negative
    "one_object": sg(("blue", "cube"), ("red", "cube")),  # o1 == o2: never a pair
    "other": sg(("green", "cube"), ("red", "sphere")),
}


def write_index(path, corpus, failed=()):
    rows = [
        {"key": k, "status": "failed" if k in failed else "ok", "sg": json.dumps(g)}
        for k, g in corpus.items()
    ]
    pq.write_table(pa.Table.from_pylist(rows), path)


def test_mined_pairs_are_exactly_the_swapped_bindings(tmp_path):
    write_index(tmp_path / "00000.parquet", CORPUS)
    stats = mine_images([tmp_path], tmp_path / "mined.parquet")
    rows = pq.read_table(tmp_path / "mined.parquet").to_pylist()
    pairs = {(r["key"], r["image_key"]) for r in rows}
    holders = {"q", "same"}, {"swapped", "swapped_more"}
    expected = {(a, b) for a in holders[0] for b in holders[1]} | {
        (b, a) for a in holders[0] for b in holders[1]
    }
    # "swapped_more" also holds (big cube, red sphere): its query is "a big cube and a red
    # sphere"; nobody holds "a red cube and a big sphere", so it adds nothing else
    assert pairs == expected
    row = next(r for r in rows if (r["key"], r["image_key"]) == ("q", "swapped"))
    assert row["positive"] == "a red cube and a blue sphere"
    assert row["text"] == "a blue cube and a red sphere"
    assert stats["matches"] == len(expected) and stats["samples"] == len(CORPUS)


def test_failed_samples_are_not_mined_and_the_cap_holds(tmp_path):
    write_index(tmp_path / "00000.parquet", CORPUS, failed={"swapped_more"})
    mine_images([tmp_path / "00000.parquet"], tmp_path / "m.parquet", max_per_query=1)
    rows = pq.read_table(tmp_path / "m.parquet").to_pylist()
    assert "swapped_more" not in {r["key"] for r in rows} | {r["image_key"] for r in rows}
    keys = [r["key"] for r in rows]
    assert len(keys) == len(set(keys)) and set(keys) == {"q", "same", "swapped"}


def test_jsonl_output_holds_schema_negatives(tmp_path):
    with open(tmp_path / "in.jsonl", "w") as f:
        for k, g in CORPUS.items():
            f.write(json.dumps({"key": k, "status": "ok", "sg": g}) + "\n")
    mine_images([tmp_path / "in.jsonl"], tmp_path / "out.jsonl")
    lines = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    q = next(x for x in lines if x["key"] == "q")
    negs = [Negative.model_validate(n) for n in q["negatives"]]
    assert {n.image_key for n in negs} == {"swapped", "swapped_more"}
    assert all(n.kind == "mined_image" and n.strategy == "mine-images" for n in negs)


def test_vocab_built_from_a_corpus_round_trips(tmp_path):
    corpus = {
        "a": sg(("red", "wooden", "chair"), ("cat",), relations=[(1, "on", 0)]),
        "b": sg(("red", "big", "cat"), ("dog",), relations=[(1, "chase", 0)]),
    }
    write_index(tmp_path / "00000.parquet", corpus)
    vocab = build_vocab([tmp_path])
    assert vocab.objects == {"chair": 1, "cat": 2, "dog": 1}
    assert vocab.attributes == {"colour": {"red": 2}, "material": {"wooden": 1}, "size": {"big": 1}}
    assert vocab.relations == {"spatial": {"on": 1}, "action": {"chase": 1}}
    assert vocab.categories["dog"] == "animal"  # known to the default vocabulary
    assert write_vocab([tmp_path], tmp_path / "vocab.json") == {
        "objects": 3,
        "attributes": 3,
        "relations": 2,
        "co-occurrences": 16,
    }
    again = load_vocab(tmp_path / "vocab.json")
    assert again == vocab
    # the co-occurrence statistics travel in the same file
    assert (
        again.cooc.n("spo", "dog", "chase", "cat") == 1
        and again.cooc.n("attr", "red", "chair") == 1
    )
    assert build_vocab([tmp_path], min_count=2).objects == {"cat": 2}


def test_default_vocabulary_is_typed():
    vocab = load_vocab()
    assert {"colour", "material", "size", "other"} <= set(vocab.attributes)
    assert "red" in vocab.attributes["colour"] and "wooden" in vocab.attributes["material"]
    assert "to the left of" in vocab.relations["spatial"] and "hold" in vocab.relations["action"]
    assert len(vocab.objects) > 100 and isinstance(vocab, Vocabulary)


def _members(image: str | None) -> str:
    """An index's ``members`` checksums: the caption, and the image member when held."""
    held = {"txt": {"size": 9, "xxh3_64": "0" * 16}}
    if image is not None:
        held["jpg"] = {"size": 100, "xxh3_64": image.rjust(16, "0")}
    return json.dumps(held, sort_keys=True)


# three images, five captions each (COCO), written image by image: the query image "a", two
# images "b" and "c" with the other binding (in one caption each), and "d" with both
IMAGES = {
    "a": [sg(("red", "cube"), ("blue", "sphere"))] + [sg(("cube",), ("sphere",))] * 4,
    "b": [sg(("blue", "cube"), ("red", "sphere"))] * 2 + [sg(("toy",))] * 3,
    "c": [sg(("cube",))] * 4 + [sg(("blue", "cube"), ("red", "sphere"))],
    "d": [sg(("red", "cube"), ("blue", "sphere")), sg(("blue", "cube"), ("red", "sphere"))]
    + [sg(("cube",))] * 3,
}


def write_coco_index(path, shared: bool, hold_first_fails: bool = False):
    """An index like sgprep writes it for IMAGES: plain (every caption's sample holds the
    image member) or ``--shared-images`` (the first holds it, the others name its key)."""
    rows = []
    for image, graphs in IMAGES.items():
        for n, graph in enumerate(graphs):
            holds = n == 0 or not shared
            rows.append(
                {
                    "key": f"{image}{n}",
                    "status": "ok",
                    "sg": json.dumps(graph),
                    "members": _members(image if holds else None),
                    "image_key": None if holds else f"{image}0",
                }
            )
    pq.write_table(pa.Table.from_pylist(rows), path)


def test_distractors_are_distinct_images_each_named_by_a_sample_that_holds_it(tmp_path):
    for shared in (False, True):
        write_coco_index(tmp_path / "00000.parquet", shared)
        stats = mine_images([tmp_path / "00000.parquet"], tmp_path / "m.parquet")
        rows = pq.read_table(tmp_path / "m.parquet").to_pylist()
        by_query: dict[str, list[str]] = {}
        for row in rows:
            by_query.setdefault(row["key"], []).append(row["image_key"])
        # one query per image, its distractors each another image, named by its first caption
        # (which holds the image in both layouts); "d" holds both bindings: neither side
        assert by_query == {"a0": ["c0", "b0"], "b0": ["a0"], "c0": ["a0"]}  # hash order
        assert stats["samples"] == 20 and stats["images"] == 4 and stats["queries"] == 3
        row = next(r for r in rows if r["key"] == "a0")
        assert (row["positive"], row["text"]) == (
            "a red cube and a blue sphere",
            "a blue cube and a red sphere",
        )


def test_an_image_is_named_by_a_sample_that_holds_it_even_when_a_caption_comes_first(tmp_path):
    from sgprep.negatives.mine import Sample, signature_table

    samples = [
        Sample("b_caption", IMAGES["b"][0], image="B"),  # points at B, written elsewhere
        Sample("b_holder", None, image="B", holds_image=True),  # holds it; no graph
        Sample("a", IMAGES["a"][0], image="A", holds_image=True),
        Sample("text_only", IMAGES["c"][4]),  # no image record: an image of its own
    ]
    table, images = signature_table(samples)
    assert images.keys == ["b_holder", "a", "text_only"]
    assert (images.samples, images.described) == (3, 3)
    assert sorted(set(table["qid"].to_pylist())) == [0, 1, 2]
