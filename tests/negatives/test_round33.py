"""Blind review round 33's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds


def test_hills_that_surround_a_lake_overlook_it():
    texts, _ = texts_over_seeds(
        "Mist rises from a lake surrounded by green hills.",
        [("Mist", "mist", []), ("lake", "lake", []), ("green hills", "hill", ["green"])],
        [(0, "rise from", 1), (2, "surround", 1)],
        "replace_relation",
        40,
    )
    assert not any("overlooked" in t or "ringed" in t for t in texts), texts


def test_a_verb_after_to_says_what_the_other_is_done_for():
    texts, rejected = texts_over_seeds(
        "A dog jumps high to catch a frisbee in a park.",
        [("dog", "dog", []), ("frisbee", "frisbee", []), ("park", "park", [])],
        [(0, "catch", 1), (0, "in", 2)],
        "replace_relation",
        40,
    )
    assert not any("catch" not in t for t in texts), texts
    assert rejected["purpose_clause"]


def test_a_new_verb_is_one_said_at_the_place():
    texts, _ = texts_over_seeds(
        "A man in a white apron makes pizza in a brick oven.",
        [
            ("man", "man", []),
            ("white apron", "apron", ["white"]),
            ("pizza", "pizza", []),
            ("brick oven", "oven", ["brick"]),
        ],
        [(0, "wear", 1), (0, "make", 2), (2, "in", 3)],
        "replace_relation",
        40,
    )
    assert not any("eats" in t for t in texts), texts


def test_an_attribute_after_an_adverb_stays():
    texts, rejected = texts_over_seeds(
        "A worker paints white lines on a newly paved road.",
        [
            ("worker", "worker", []),
            ("white lines", "line", ["white"]),
            ("paved road", "road", ["paved"]),
        ],
        [(0, "paint", 1), (0, "on", 2)],
        "replace_attribute",
        40,
    )
    assert not any("newly paved" not in t for t in texts), texts
    assert rejected["compound"]


def test_a_hedge_is_never_silver():
    texts, rejected = texts_over_seeds(
        "A silver car is parked beside a tall green hedge.",
        [("silver car", "car", ["silver"]), ("tall green hedge", "hedge", ["tall", "green"])],
        [(0, "park beside", 1)],
        "swap_attribute",
        12,
    )
    assert not texts, texts
    assert rejected["implausible_attribute"]


def test_a_phrase_the_parse_ran_a_clause_into_is_not_moved():
    texts, rejected = texts_over_seeds(
        "A dog runs along the shore chasing seagulls.",
        [("dog", "dog", []), ("shore chasing seagulls", "seagull", [])],
        [(0, "run along", 1)],
        "shuffle_relation",
        12,
    )
    assert not texts, texts
    assert rejected["garbled_phrase"]


def test_two_together_exchange_nothing_but_where_one_of_them_is():
    texts, rejected = texts_over_seeds(
        "A small white dog sleeps on a blue couch next to a sleeping cat.",
        [
            ("small white dog", "dog", ["small", "white"]),
            ("blue couch", "couch", ["blue"]),
            ("sleeping cat", "cat", ["sleeping"]),
        ],
        [(0, "sleep on", 1), (0, "sleep next to", 2)],
        "shuffle_relation",
        12,
    )
    assert not texts, texts
    # "sleeps next to" reads the same both ways (round 35); a verb that need not does not
    # either, where only the dog's place moves
    assert rejected["symmetric_relation"]
    # (not "a sleeping cat": since round 47 one asleep never plays, whatever else holds)
    texts, rejected = texts_over_seeds(
        "A small white dog plays on a blue couch next to a gray cat.",
        [
            ("small white dog", "dog", ["small", "white"]),
            ("blue couch", "couch", ["blue"]),
            ("gray cat", "cat", ["gray"]),
        ],
        [(0, "play on", 1), (0, "play next to", 2)],
        "shuffle_relation",
        12,
    )
    assert not texts, texts
    assert rejected["may_be_true"]


def test_several_friends_on_no_single_seat():
    texts, _ = texts_over_seeds(
        "Three friends sit on a couch laughing and eating popcorn.",
        [
            ("Three friends", "friend", [], 3),
            ("couch", "couch", []),
            ("eating popcorn", "popcorn", ["eating"]),
        ],
        [],
        "replace_object",
        40,
    )
    assert not any("armchair" in t or "stool" in t for t in texts), texts


def test_a_vehicle_does_what_it_was_seen_doing():
    texts, _ = texts_over_seeds(
        "A truck carrying logs drives along a winding mountain road.",
        [
            ("truck", "truck", []),
            ("logs drives", "drive", []),
            ("winding mountain road", "road", ["winding"]),
        ],
        [(0, "carry", 1), (1, "along", 2)],
        "replace_object",
        40,
    )
    assert not any(t.startswith("A bus") for t in texts), texts


def test_a_leopard_says_where_the_scene_is():
    texts, _ = texts_over_seeds(
        "A leopard rests on a tree branch in the afternoon heat.",
        [
            ("leopard", "leopard", []),
            ("tree", "tree", []),
            ("branch", "branch", []),
            ("afternoon heat", "heat", []),
        ],
        [(0, "rest on", 2), (1, "have", 2), (2, "in", 3)],
        "connect",
        40,
    )
    town = ("suitcase", "backpack", "skateboard", "umbrella", "bicycle", "teddy bear")
    assert not any(w in t for t in texts for w in town), texts
