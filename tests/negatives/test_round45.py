"""Blind review round 45's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round (and round 44's drummer)."""

from __future__ import annotations

from neg_helpers import texts_over_seeds


def test_one_faces_a_music_stand_or_a_drum_kit_from_either_side():
    for caption, entities, relations, flipped in (
        (
            "A young boy plays a violin in front of a music stand.",
            [("young boy", "boy", ["young"]), ("violin", "violin", [])]
            + [("music stand", "stand", [])],
            [(0, "play", 1), (0, "play in front of", 2)],
            "behind",
        ),
        (
            "A drummer sits behind a large drum kit at the back of the stage.",
            [("drummer", "drummer", []), ("large drum kit", "kit", ["large"])]
            + [("stage", "stage", [])],
            [(0, "sit behind", 1), (0, "sit at back of", 2)],
            "in front of",
        ),
    ):
        texts, rejected = texts_over_seeds(caption, entities, relations, "replace_relation", 12)
        assert not any(flipped in t for t in texts), texts
        assert rejected["may_be_true"]


def test_a_bare_verb_after_is_is_an_adjective():
    texts, rejected = texts_over_seeds(
        "A dishwasher is open with clean plates lined up in the rack.",
        [("dishwasher", "dishwasher", []), ("clean plates", "plate", ["clean"])]
        + [("rack", "rack", [])],
        [(0, "open with", 1), (1, "line in", 2)],
        "replace_relation",
        12,
    )
    assert all("is open" in t for t in texts), texts
    assert rejected["verb_as_adjective"]


def test_words_that_may_say_the_same():
    for caption, entities, relations, kind, same in (
        (
            "A snowboarder sits in the snow fastening his bindings.",
            [("snowboarder", "snowboarder", []), ("snow", "snow", [])]
            + [("bindings", "binding", [])],
            [(0, "sit in", 1), (0, "fasten", 2)],
            "replace_relation",
            ("adjusting", "tightening"),
        ),
        (
            "A worker cuts bunches of purple grapes and drops them into a large plastic bin.",
            [("worker", "worker", []), ("purple grapes", "grape", ["purple"])]
            + [("large plastic bin", "bin", ["large", "plastic"])],
            [(0, "cut", 1), (0, "drop", 1), (0, "drop into", 2)],
            "replace_relation",
            ("picks", "harvests"),
        ),
        (
            "Small white yachts are anchored in calm blue water.",
            [("Small white yachts", "yacht", ["small", "white"])]
            + [("calm blue water", "water", ["calm", "blue"])],
            [(0, "anchor in", 1)],
            "replace_object",
            ("boats",),
        ),
    ):
        texts, _ = texts_over_seeds(caption, entities, relations, kind, 40)
        assert not any(w in t for t in texts for w in same), (caption, texts)
