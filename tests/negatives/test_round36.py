"""Blind review round 36's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds

from sgprep.negatives import addable
from sgprep.negatives.vocab import load_vocab

VOCAB = load_vocab()


def test_outdoor_chairs_are_typical_where_people_sit_outdoors():
    table = {a.word: a for a in addable.addable_table(VOCAB.cooc)}
    for chair in ("lounge chair", "deck chair", "lawn chair"):
        assert {"beach", "lawn", "water"} <= table[chair].typical, table[chair]
    cap = "A man carries a surfboard under his arm while walking on the sand."
    texts, _ = texts_over_seeds(
        cap,
        [
            ("man", "man", []),
            ("surfboard", "surfboard", []),
            ("arm", "arm", []),
            ("sand", "sand", []),
        ],
        [(0, "carry", 1), (1, "under", 2), (0, "have", 2), (0, "walk on", 3)],
        "connect",
        40,
    )
    assert not any(" chair" in t for t in texts), texts


def test_throwing_crumbs_is_feeding_them():
    texts, _ = texts_over_seeds(
        "A flock of pigeons gathers around a woman throwing bread crumbs.",
        [("pigeons", "pigeon", []), ("woman", "woman", []), ("bread crumbs", "crumb", [])],
        [(0, "gather around", 1), (1, "throw", 2)],
        "replace_relation",
        40,
    )
    assert not any(w in t for t in texts for w in ("feeding", "tossing", "scattering")), texts


def test_no_one_carries_several_grown_beings():
    texts, _ = texts_over_seeds(
        "A woman walks three large dogs through a snowy park.",
        [
            ("woman", "woman", []),
            ("three large dogs", "dog", ["large"], 3),
            ("snowy park", "park", ["snowy"]),
        ],
        [(0, "walk", 1), (0, "through", 2)],
        "replace_relation",
        40,
    )
    verbs = ("carries", "carrying", "lifts", "holds", "pushes", "pulls", "picks")
    assert not any(v in t for t in texts for v in verbs), texts


def test_what_a_being_does_with_its_own_part_is_not_replaced():
    texts, rejected = texts_over_seeds(
        "A gray elephant lifts its trunk while standing beside a smaller calf.",
        [
            ("gray elephant", "elephant", ["gray"]),
            ("trunk", "trunk", []),
            ("smaller calf", "calf", ["smaller"]),
        ],
        [(0, "have", 1), (0, "lift", 1), (0, "stand beside", 2)],
        "replace_relation",
        40,
    )
    assert not any("its trunk" in t and "lifts" not in t for t in texts), texts
    assert rejected["body_part"]


def test_contents_do_not_change_places_with_what_is_on_top():
    texts, rejected = texts_over_seeds(
        "A bowl of rice with vegetables and a fried egg on top.",
        [
            ("bowl", "bowl", []),
            ("rice", "rice", []),
            ("vegetables", "vegetable", []),
            ("fried egg", "egg", ["fried"]),
        ],
        [(1, "in", 0), (0, "with", 2), (0, "with", 3)],
        "swap_object",
        12,
    )
    assert not any("bowl of egg" in t or "bowl of vegetables" in t for t in texts), texts
    assert rejected["contents"]
