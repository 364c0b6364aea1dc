"""Blind review round 48's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds


def test_one_rides_one_at_a_time():
    texts, _ = texts_over_seeds(
        "A man in a straw hat leads two camels loaded with bags across the desert as the sun "
        "sets behind distant dunes.",
        [("man", "man", []), ("straw hat", "hat", ["straw"]), ("two camels", "camel", [], 2)]
        + [("bags", "bag", []), ("desert", "desert", []), ("sun", "sun", [])]
        + [("distant dunes", "dune", ["distant"])],
        [(0, "wear", 1), (0, "lead", 2), (2, "load with", 3), (3, "across", 4)]
        + [(5, "set behind", 6)],
        "replace_relation",
        20,
    )
    assert not any("rides" in t for t in texts), texts


def test_one_walking_does_what_one_does_on_the_move():
    caption = (
        "A man carrying a surfboard and a woman holding sandals walk along the shore as the "
        "tide washes over their feet."
    )
    entities = [("man", "man", []), ("surfboard", "surfboard", []), ("woman", "woman", [])]
    entities += [("sandals", "sandal", []), ("shore", "shore", []), ("tide", "tide", [])]
    entities += [("feet", "foot", [])]
    relations = [(0, "carry", 1), (2, "hold", 3), (2, "walk along", 4), (5, "wash over", 6)]
    relations += [(2, "have", 6)]
    texts, _ = texts_over_seeds(caption, entities, relations, "replace_relation", 20)
    assert not any("waxing" in t for t in texts), texts
    # standing on the shore, one may wax a surfboard
    texts, _ = texts_over_seeds(
        "A man carrying a surfboard stands on the shore.",
        [("man", "man", []), ("surfboard", "surfboard", []), ("shore", "shore", [])],
        [(0, "carry", 1), (0, "stand on", 2)],
        "replace_relation",
        20,
    )
    assert any("waxing" in t for t in texts), texts
