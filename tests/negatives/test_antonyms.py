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


def test_a_thing_seen_in_many_colours_takes_any_a_thing_of_few_its_own():
    # a car, seen in seven colours, may be purple or orange; never a shade of its own colour
    texts, _ = texts_over_seeds(
        "A red car parked on a quiet street.",
        [("red car", "car", ["red"]), ("quiet street", "street", ["quiet"])],
        [(0, "park on", 1)],
        "replace_attribute",
        60,
    )
    colours = {t.split()[1] for t in texts if t.endswith("car parked on a quiet street.")}
    assert colours - {"black", "blue", "green", "silver", "white", "yellow"}, colours
    assert not colours & {"maroon", "burgundy", "crimson", "scarlet"}, colours
    # a stop sign, seen red or white: never green
    texts, _ = texts_over_seeds(
        "A red stop sign at a quiet corner.",
        [("red stop sign", "stop sign", ["red"]), ("quiet corner", "corner", ["quiet"])],
        [(0, "at", 1)],
        "replace_attribute",
        30,
    )
    assert all(" red stop sign" in t or " white stop sign" in t for t in texts), texts
