"""Per-sample properties on hand-made samples whose answers follow from the definitions."""

from __future__ import annotations

import pytest
from stats_helpers import detections, entity, graph, sample, write_index

from sgprep.schema import Sample
from sgprep.stats.properties import compute, head_label_pairs, synonym_table

PERSON = ("person", (0, 0, 400, 400), 0.9)  # the largest object
DOG = ("dog", (400, 300, 500, 400), 0.8)
FAINT_CAT = ("cat", (0, 0, 600, 470), 0.1)  # below the 0.25 threshold: not in the image


@pytest.fixture(scope="module")
def props(tmp_path_factory):
    samples = [
        sample(
            "both",
            graph(entity("man", "tall"), entity("dog"), relations=[(0, "walking", 1)]),
            detections(PERSON, DOG, FAINT_CAT),
        ),
        sample("salient", graph(entity("woman", "young", "smiling")), detections(PERSON, DOG)),
        sample("small_only", graph(entity("dog", "brown")), detections(PERSON, DOG)),
        sample("no_det", graph(entity("dog"), entity("ball", "red", "big", "round"))),
        sample("no_sg", None, detections(PERSON, DOG, DOG)),
        sample("nothing_seen", graph(entity("cat")), detections(FAINT_CAT)),
        sample("one_label", graph(entity("girls", head="girls")), detections(PERSON, PERSON)),
        sample(
            "teddy",
            graph(entity("teddy bear", "brown")),
            detections(("teddy bear", (0, 0, 50, 50), 0.7)),
        ),
        sample(
            "grizzly",
            graph(entity("bear", "brown")),
            detections(("teddy bear", (0, 0, 50, 50), 0.7)),
        ),
        sample(
            "open_vocab",
            graph(entity("cones", "orange", head="cones")),
            detections(("traffic cone", (0, 0, 5, 5), 0.6), PERSON),
        ),
        Sample(key="broken", source="hand").fail("read", "image_corrupt", "not an image"),
    ]
    root = write_index(tmp_path_factory.mktemp("props"), [samples[:6], samples[6:]])
    table = compute(root)
    return {row["key"]: row for row in table.to_pylist()}


def test_one_row_per_index_row_with_its_shard(props):
    assert len(props) == 11
    assert props["both"]["shard"] == "00000" and props["teddy"]["shard"] == "00001"
    assert props["broken"]["status"] == "failed" and props["broken"]["reason"] == "image_corrupt"


def test_caption_side_counts(props):
    row = props["both"]
    assert (
        row["caption_entities"],
        row["multi_object_caption"],
        row["attributes"],
        row["attributes_per_entity"],
        row["attributes_by_entity"],
        row["relations"],
    ) == (2, True, 1, 0.5, [1, 0], 1)
    assert props["salient"]["multi_object_caption"] is False
    assert props["no_det"]["attributes_per_entity"] == 1.5  # (0 + 3) / 2


def test_image_side_counts_drop_detections_below_the_threshold(props):
    row = props["both"]
    assert (row["image_objects"], row["multi_object_image"], row["image_categories"]) == (
        2,
        True,
        2,
    )
    assert props["no_sg"]["image_objects"] == 3 and props["no_sg"]["image_categories"] == 2
    nothing = props["nothing_seen"]
    assert (
        nothing["image_objects"],
        nothing["multi_object_image"],
        nothing["image_categories"],
    ) == (0, False, 0)


def test_coverage_matches_person_through_its_synonyms(props):
    assert props["both"]["coverage"] == 1.0  # man -> person, dog -> dog
    assert props["salient"]["coverage"] == 0.5  # woman -> person; the dog is not named
    assert props["small_only"]["coverage"] == 0.5
    assert props["one_label"]["coverage"] == 1.0  # "girls", a plural head -> person


def test_compound_labels_need_the_compound(props):
    assert props["teddy"]["coverage"] == 1.0  # "teddy bear" names the teddy bear
    assert props["grizzly"]["coverage"] == 0.0  # "brown bear" does not
    assert props["open_vocab"]["covered_categories"] == 1  # a label the table lacks: its last word


def test_salient_only(props):
    assert props["salient"]["salient_only"] is True  # names only the largest (the person)
    assert props["small_only"]["salient_only"] is False  # names only a smaller object
    assert props["both"]["salient_only"] is False
    assert props["both"]["largest_label"] == "person"
    assert props["one_label"]["salient_only"] is None  # one detected label: not defined


def test_missing_input_gives_null_not_zero(props):
    no_det = props["no_det"]
    for name in (
        "image_objects",
        "multi_object_image",
        "image_categories",
        "coverage",
        "salient_only",
        "largest_label",
        "covered_categories",
    ):
        assert no_det[name] is None, name
    no_sg = props["no_sg"]
    for name in (
        "caption_entities",
        "multi_object_caption",
        "attributes",
        "attributes_per_entity",
        "relations",
        "coverage",
        "salient_only",
    ):
        assert no_sg[name] is None, name
    assert props["nothing_seen"]["coverage"] is None  # no object above the threshold
    assert all(
        v is None
        for k, v in props["broken"].items()
        if k not in ("key", "shard", "status", "stage", "reason")
    )


def test_the_synonym_table_comes_from_wordnet():
    person = synonym_table()["person"]
    for word in ("man", "woman", "child", "boy", "girl", "people", "player", "skier", "surfer"):
        assert word in person, word
    assert "dog" not in person and "cat" not in person  # rare senses left out
    assert "puppy" in synonym_table()["dog"]
    assert len(synonym_table()) == 80


def test_head_label_pairs():
    pairs = set(head_label_pairs(["men", "puppies", "sky"], ["person", "dog", "car"]))
    assert pairs == {("men", "person"), ("puppies", "dog")}
