"""Blind review round 24's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds


def test_two_things_of_one_name_that_exchange_descriptions_are_the_same_two():
    texts, rejected = texts_over_seeds(
        "A green apple sitting beside a red apple on a white plate.",
        [
            ("green apple", "apple", ["green"]),
            ("red apple", "apple", ["red"]),
            ("white plate", "plate", ["white"]),
        ],
        [(0, "sit beside", 1), (1, "on", 2)],
        "swap_attribute",
        8,
    )
    assert not texts and rejected["may_be_true"], texts
    # two cars, one behind the other, do not say the same exchanged
    texts, _ = texts_over_seeds(
        "A red car parked behind a blue car.",
        [("red car", "car", ["red"]), ("blue car", "car", ["blue"])],
        [(0, "park behind", 1)],
        "swap_attribute",
        8,
    )
    assert "A blue car parked behind a red car." in texts, texts


def test_a_material_bound_to_the_word_before_stays():
    texts, rejected = texts_over_seeds(
        "A stainless steel toaster next to a ceramic cookie jar.",
        [
            ("stainless steel toaster", "toaster", ["stainless", "steel"]),
            ("ceramic cookie jar", "jar", ["ceramic", "cookie"]),
        ],
        [(0, "next to", 1)],
        "replace_attribute",
        12,
    )
    assert not any("stainless" in t and "steel" not in t for t in texts), texts
    assert rejected["compound"]


def test_verbs_and_names_that_may_say_the_same():
    for cap, ents, rels, kind, same in (
        (
            "A black and white cow standing near a red wooden barn.",
            [
                ("black and white cow", "cow", ["black", "white"]),
                ("red wooden barn", "barn", ["red", "wooden"]),
            ],
            [(0, "stand near", 1)],
            "replace_relation",
            "grazing",
        ),
        (
            "A young man checking a map while standing outside a train station.",
            [
                ("young man", "man", ["young"]),
                ("map", "map", []),
                ("train station", "station", ["train"]),
            ],
            [(0, "check", 1), (0, "stand outside", 2)],
            "replace_relation",
            "reading",
        ),
        (
            "A blue and white train passing a small red station.",
            [
                ("blue and white train", "train", ["blue", "white"]),
                ("small red station", "station", ["small", "red"]),
            ],
            [(0, "pass", 1)],
            "replace_relation",
            "leaving",
        ),
        (
            "A small dog wearing a raincoat walking on a wet street.",
            [
                ("small dog", "dog", ["small"]),
                ("raincoat", "raincoat", []),
                ("wet street", "street", ["wet"]),
            ],
            [(0, "wear", 1), (0, "walk on", 2)],
            "replace_object",
            "jacket",
        ),
    ):
        texts, _ = texts_over_seeds(cap, ents, rels, kind, 16)
        assert not any(same in t for t in texts), (cap, texts)
