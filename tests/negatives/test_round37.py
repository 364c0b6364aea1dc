"""Blind review round 37's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds

from sgprep.negatives import addable
from sgprep.negatives.vocab import load_vocab

VOCAB = load_vocab()


def test_a_thing_named_twice_is_not_redrawn():
    texts, rejected = texts_over_seeds(
        "A woman feeds a baby with a spoon while the baby reaches for the bowl.",
        [
            ("woman", "woman", []),
            ("baby", "baby", []),
            ("spoon", "spoon", []),
            ("baby", "baby", []),
            ("bowl", "bowl", []),
        ],
        [(0, "feed", 1), (0, "feed with", 2), (3, "reach for", 4)],
        "redraw_relation",
        12,
    )
    assert not any("baby feeds a baby" in t for t in texts), texts
    assert rejected["named_twice"]


def test_one_of_several_keeps_its_name():
    texts, rejected = texts_over_seeds(
        "A goat stands on top of a large rock while other goats graze below.",
        [("goat", "goat", []), ("large rock", "rock", ["large"]), ("goats", "goat", [])],
        [(0, "stand on top of", 1)],
        "replace_object",
        40,
    )
    assert not any("other goats" in t and not t.startswith("A goat") for t in texts), texts
    assert rejected["another"]


def test_a_verb_keeps_what_it_makes_of_its_object():
    texts, rejected = texts_over_seeds(
        "A woman in overalls repaints an old wooden chair bright green.",
        [
            ("woman", "woman", []),
            ("overalls", "overalls", []),
            ("old wooden chair", "chair", ["old", "wooden"]),
            ("bright green", "green", []),
        ],
        [(0, "wear", 1), (0, "repaint", 2)],
        "replace_relation",
        40,
    )
    assert not any("repaints" not in t for t in texts), texts
    assert rejected["verb_complement"]


def test_a_stool_is_typical_of_a_kitchen():
    table = {a.word: a for a in addable.addable_table(VOCAB.cooc)}
    assert {"kitchen", "dining", "home"} <= table["stool"].typical
    # and a suitcase of a home ("keys hang from a hook beside the front door, near a suitcase")
    assert "home" in table["suitcase"].typical
    texts, _ = texts_over_seeds(
        "A woman slices tomatoes on a cutting board next to a bowl of lettuce.",
        [
            ("woman", "woman", []),
            ("tomatoes", "tomato", []),
            ("cutting board", "board", []),
            ("bowl", "bowl", []),
            ("lettuce", "lettuce", []),
        ],
        [(0, "slice", 1), (0, "on", 2), (0, "slice next to", 3), (4, "in", 3)],
        "connect",
        40,
    )
    assert not any("stool" in t for t in texts), texts
