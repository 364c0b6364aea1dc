"""Blind review round 29's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds


def test_what_a_thing_is_used_for_stays():
    texts, rejected = texts_over_seeds(
        "An old man uses a magnifying glass to read a newspaper.",
        [
            ("old man", "man", ["old"]),
            ("magnifying glass", "glass", ["magnifying"]),
            ("newspaper", "newspaper", []),
        ],
        [(0, "use", 1), (0, "read", 2)],
        "replace_relation",
        12,
    )
    assert not any("to read" not in t for t in texts), texts
    assert rejected["purpose_clause"]


def test_no_one_walks_a_dog_lying_in_the_grass():
    texts, _ = texts_over_seeds(
        "A girl pets a fluffy gray dog lying in the grass.",
        [
            ("girl", "girl", []),
            ("fluffy gray dog", "dog", ["fluffy", "gray"]),
            ("grass", "grass", []),
        ],
        [(0, "pet", 1), (1, "lie in", 2)],
        "replace_relation",
        40,
    )
    assert not any(w in t for t in texts for w in ("walks", "leads")), texts
    assert "A girl hugs a fluffy gray dog lying in the grass." in texts, texts


def test_nothing_lies_behind_a_fire_or_a_mural():
    texts, _ = texts_over_seeds(
        "A brown dog sleeps on a rug in front of a crackling fire.",
        [("brown dog", "dog", ["brown"]), ("rug", "rug", []), ("crackling fire", "fire", [])],
        [(0, "sleep on", 1), (1, "in front of", 2)],
        "replace_relation",
        12,
    )
    assert not any("behind" in t for t in texts), texts
    texts, _ = texts_over_seeds(
        "A young man stands in front of a large mural painted on a brick wall.",
        [
            ("young man", "man", ["young"]),
            ("large mural", "mural", ["large"]),
            ("brick wall", "wall", ["brick"]),
        ],
        [(0, "stand in front of", 1), (1, "paint on", 2)],
        "replace_relation",
        12,
    )
    assert not any("behind" in t for t in texts), texts


def test_a_gliding_boat_may_be_racing():
    texts, _ = texts_over_seeds(
        "A small sailboat with a white sail glides across the bay.",
        [
            ("small sailboat", "sailboat", ["small"]),
            ("white sail", "sail", ["white"]),
            ("bay", "bay", []),
        ],
        [(0, "with", 1), (0, "glide across", 2)],
        "replace_relation",
        12,
    )
    assert not any(w in t for t in texts for w in ("races", "sails", "cruises", "speeds")), texts


def test_a_beard_keeps_its_gender():
    texts, rejected = texts_over_seeds(
        "An elderly man with a white beard plays cards with a young woman in glasses.",
        [
            ("elderly man", "man", ["elderly"]),
            ("white beard", "beard", ["white"]),
            ("cards", "card", [], 2),
            ("young woman", "woman", ["young"]),
            ("glasses", "glasses", []),
        ],
        [(0, "with", 1), (0, "play", 2), (0, "play with", 3), (3, "wear", 4)],
        "swap_object",
        12,
    )
    assert not any("woman with a white beard" in t for t in texts), texts
    assert rejected["gender_cue"]


def test_a_possessive_stays_in_its_slot_in_a_shuffle():
    texts, rejected = texts_over_seeds(
        "A young mother reads a picture book to her two children.",
        [
            ("young mother", "mother", ["young"]),
            ("picture book", "book", []),
            ("two children", "child", [], 2),
        ],
        [(0, "read", 1), (0, "read to", 2)],
        "shuffle_relation",
        12,
    )
    assert not any(t.startswith("Her") for t in texts), texts
    assert rejected["pronoun_reference"]


def test_a_climber_has_nothing_with_him():
    for caption, graph in (
        (
            "Children climb across a set of blue monkey bars.",
            (
                [("Children", "child", []), ("blue monkey bars", "bar", ["blue"])],
                [(0, "climb across", 1)],
            ),
        ),
        (
            "A boy climbs a tall tree in his backyard.",
            (
                [("boy", "boy", []), ("tall tree", "tree", ["tall"]), ("backyard", "backyard", [])],
                [(0, "climb", 1), (1, "in", 2), (0, "have", 2)],
            ),
        ),
    ):
        texts, _ = texts_over_seeds(caption, *graph, "connect", 40)
        assert not any(", with " in t or " with a" in t for t in texts), texts


def test_pots_may_be_pans():
    texts, _ = texts_over_seeds(
        "A kitchen sink is piled high with dirty plates, pots, and glasses.",
        [
            ("kitchen sink", "sink", []),
            ("dirty plates", "plate", ["dirty"]),
            ("pots", "pot", [], 2),
            ("glasses", "glasses", []),
        ],
        [(0, "pile with", 1), (0, "pile with", 2), (0, "pile with", 3)],
        "replace_object",
        40,
    )
    assert not any("pans" in t for t in texts), texts
