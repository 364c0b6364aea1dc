"""Blind review round 23's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds

from sgprep.negatives.cooc import load_default


def test_a_thing_named_after_the_object_is_where_the_object_is():
    # "on a silver car" says where the tire is: "rolling a tire on a car" reads wrong
    texts, _ = texts_over_seeds(
        "A mechanic changing a tire on a silver car.",
        [("mechanic", "mechanic", []), ("tire", "tire", []), ("silver car", "car", ["silver"])],
        [(0, "change", 1), (0, "on", 2)],
        "replace_relation",
        16,
    )
    assert not any("rolling" in t for t in texts), texts


def test_verbs_that_may_say_the_same():
    for cap, ents, rels, same in (
        (
            "A dog sitting patiently by the front door.",
            [("dog", "dog", []), ("front door", "door", ["front"])],
            [(0, "sit by", 1)],
            "waiting",
        ),
        (
            "Men unloading crates of fish at a busy harbor market.",
            [
                ("Men", "man", []),
                ("crates", "crate", []),
                ("fish", "fish", []),
                ("busy harbor market", "market", ["busy", "harbor"]),
            ],
            [(0, "unload", 1), (0, "at", 3)],
            "carrying",
        ),
    ):
        texts, _ = texts_over_seeds(cap, ents, rels, "replace_relation", 16)
        assert not any(same in t for t in texts), (cap, texts)


def test_a_sheep_shears_no_man():
    # the statistics count "sheep" as the subject of "shear" (a parse of "sheep shearing"),
    # never shearing a person or an animal
    assert load_default().judge_reversed("sheep", "shear", "man") == "implausible_agent"
    texts, _ = texts_over_seeds(
        "A man shearing a sheep in a crowded shed.",
        [("man", "man", []), ("sheep", "sheep", []), ("crowded shed", "shed", ["crowded"])],
        [(0, "shear", 1), (0, "in", 2)],
        "swap_object",
        8,
    )
    assert not texts, texts
    # a dog chases a man as a man chases a dog
    assert load_default().judge_reversed("dog", "chase", "man") is None


def test_a_size_of_no_named_dimension_takes_its_antonym_only():
    texts, _ = texts_over_seeds(
        "A narrow bathroom with a toilet, a bathtub, and a striped shower curtain.",
        [
            ("narrow bathroom", "bathroom", ["narrow"]),
            ("toilet", "toilet", []),
            ("bathtub", "bathtub", []),
            ("striped shower curtain", "curtain", ["striped"]),
        ],
        [(0, "with", 1), (0, "with", 3)],
        "replace_attribute",
        16,
    )
    assert not any(w in t for t in texts for w in ("tiny", "small", "little")), texts


def test_a_boat_may_be_a_ship():
    texts, _ = texts_over_seeds(
        "A small wooden boat beside a large steel ship.",
        [
            ("small wooden boat", "boat", ["small", "wooden"]),
            ("large steel ship", "ship", ["large", "steel"]),
        ],
        [(0, "beside", 1)],
        "swap_object",
        8,
    )
    assert not texts, texts


def test_a_food_keeps_what_was_done_to_it_and_a_drink_its_lemon():
    texts, _ = texts_over_seeds(
        "A bowl of chili topped with shredded cheese and sour cream.",
        [
            ("bowl", "bowl", []),
            ("chili", "chili", []),
            ("shredded cheese", "cheese", ["shredded"]),
            ("sour cream", "cream", ["sour"]),
        ],
        [(1, "in", 0), (0, "top with", 2), (0, "top with", 3)],
        "replace_object",
        16,
    )
    assert not any(w in t for t in texts for w in ("shredded butter", "sour butter")), texts
    texts, _ = texts_over_seeds(
        "A tall glass of iced tea with a lemon wedge on the rim.",
        [
            ("tall glass", "glass", ["tall"]),
            ("iced tea", "tea", ["iced"]),
            ("lemon wedge", "wedge", ["lemon"]),
            ("rim", "rim", []),
        ],
        [(1, "in", 0), (1, "with", 2), (1, "on", 3)],
        "replace_object",
        16,
    )
    assert not any(w in t for t in texts for w in ("iced milk", "iced coffee")), texts
