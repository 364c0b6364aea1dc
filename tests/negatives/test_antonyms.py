"""replace_attribute's antonyms come from WordNet (data/antonyms.json, issue 32: words from the
data, not lists in the code), the one the statistics saw most with the object first; a
participle made by a noun before it ("snow covered") is no attribute to turn round. Captions
written here."""

from __future__ import annotations

from neg_helpers import texts_over_seeds

from sgprep.negatives.scene import ANTONYMS


def test_antonyms_are_wordnets_in_sense_order():
    assert ANTONYMS["small"] == ("large",) and ANTONYMS["large"] == ("small",)
    assert ANTONYMS["old"] == ("young", "new")  # sense order: of age, then of newness
    assert "shallow" in ANTONYMS["deep"] and "empty" in ANTONYMS["full"]


def test_the_antonym_seen_with_the_object_is_taken():
    # "old" has two: a car is new or old, a man young or old
    texts, _ = texts_over_seeds(
        "A man fixing the engine of an old car.",
        [("man", "man", []), ("engine", "engine", []), ("old car", "car", ["old"])],
        [(0, "fix", 1), (1, "of", 2)],
        "replace_attribute",
        12,
    )
    assert "A man fixing the engine of a new car." in texts, texts
    assert not any("young car" in t for t in texts), texts
    texts, _ = texts_over_seeds(
        "An old man sitting on a bench.",
        [("old man", "man", ["old"]), ("bench", "bench", [])],
        [(0, "sit on", 1)],
        "replace_attribute",
        12,
    )
    assert "A young man sitting on a bench." in texts, texts


def test_a_participle_made_by_a_noun_is_kept():
    texts, rejected = texts_over_seeds(
        "A young man skateboarding past a graffiti covered wall.",
        [("young man", "man", ["young"]), ("graffiti covered wall", "wall", ["covered"])],
        [(0, "skateboard past", 1)],
        "replace_attribute",
        12,
    )
    assert rejected["compound"] and not any("bare" in t for t in texts), texts
