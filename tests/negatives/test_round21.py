"""Blind review round 21's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds


def test_a_young_ones_size_is_not_swapped_with_a_grown_ones():
    cap = "A tiny kitten sleeping beside a big black dog."
    ents = [("tiny kitten", "kitten", ["tiny"]), ("big black dog", "dog", ["big", "black"])]
    rels = [(0, "sleep beside", 1)]
    for kind in ("swap_attribute", "swap_object"):
        texts, rejected = texts_over_seeds(cap, ents, rels, kind, 8)
        assert not texts and rejected["size_misfit"], (kind, texts)
    texts, rejected = texts_over_seeds(
        "A large brown bear standing next to a small black cub.",
        [
            ("large brown bear", "bear", ["large", "brown"]),
            ("small black cub", "cub", ["small", "black"]),
        ],
        [(0, "stand next to", 1)],
        "swap_attribute",
        8,
    )
    assert not any("large black cub" in t for t in texts), texts


def test_a_towed_one_stays_behind():
    texts, rejected = texts_over_seeds(
        "A man wakeboarding behind a fast motorboat.",
        [("man", "man", []), ("fast motorboat", "motorboat", ["fast"])],
        [(0, "wakeboard behind", 1)],
        "replace_relation",
        8,
    )
    assert not any("in front of" in t for t in texts) and rejected["tied_position"], texts


def test_verbs_that_may_say_the_same_stay():
    for cap, ents, rels, old, same in (
        (
            "Children in winter coats sledding down a snowy hill.",
            [
                ("Children", "child", [], 2),
                ("winter coats", "coat", ["winter"]),
                ("snowy hill", "hill", ["snowy"]),
            ],
            [(0, "in", 1), (0, "sled down", 2)],
            "sledding",
            "sliding",
        ),
        (
            "A man sitting at a desk typing on a laptop in an office.",
            [
                ("man", "man", []),
                ("desk", "desk", []),
                ("laptop", "laptop", []),
                ("office", "office", []),
            ],
            [(0, "sit at", 1), (0, "type on", 2), (1, "in", 3)],
            "sitting",
            "working",
        ),
    ):
        texts, _ = texts_over_seeds(cap, ents, rels, "replace_relation", 12)
        assert not any(same in t and old not in t for t in texts), texts


def test_nothing_is_put_beside_a_game_in_play():
    from test_connect import connected

    for cap, entities, relations in (
        (
            "A baseball catcher crouching behind home plate with his mitt raised.",
            [("baseball catcher", "catcher", ["baseball"]), ("home plate", "plate", ["home"])],
            [(0, "crouch behind", 1)],
        ),
        (
            "A goalie blocking a shot during a water polo match.",
            [("goalie", "goalie", []), ("shot", "shot", []), ("water polo match", "match", [])],
            [(0, "block", 1)],
        ),
        (
            "A boxer throwing a punch at his opponent in the ring.",
            [("boxer", "boxer", []), ("opponent", "opponent", []), ("ring", "ring", [])],
            [(0, "throw at", 1), (1, "in", 2)],
        ),
    ):
        texts, rejected = connected(cap, entities, relations)
        assert not texts and rejected["connect_game"], (cap, texts)
    # a field with no game named still takes one: "a dog running across a field, near a bench"
    texts, rejected = connected(
        "A dog running across a grassy field.",
        [("dog", "dog", []), ("grassy field", "field", ["grassy"])],
        [(0, "run across", 1)],
    )
    assert not rejected["connect_game"]
