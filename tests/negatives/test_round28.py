"""Blind review round 28's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds


def test_a_room_keeps_its_fittings():
    texts, rejected = texts_over_seeds(
        "A white toilet next to a small sink in a narrow bathroom.",
        [
            ("white toilet", "toilet", ["white"]),
            ("small sink", "sink", ["small"]),
            ("narrow bathroom", "bathroom", ["narrow"]),
        ],
        [(0, "next to", 1), (1, "in", 2)],
        "replace_object",
        16,
    )
    assert not any("kitchen" in t for t in texts), texts
    assert rejected["room_misfit"]


def test_a_pool_takes_only_its_own_colours():
    texts, rejected = texts_over_seeds(
        "A swimmer in a red cap diving into a clear blue pool.",
        [
            ("swimmer", "swimmer", []),
            ("red cap", "cap", ["red"]),
            ("clear blue pool", "pool", ["clear", "blue"]),
        ],
        [(0, "wear", 1), (0, "dive into", 2)],
        "swap_attribute",
        12,
    )
    assert not any("red pool" in t for t in texts), texts
    assert rejected["implausible_attribute"]


def test_gulls_that_follow_a_boat_surround_it():
    texts, _ = texts_over_seeds(
        "A small fishing boat returns to harbour followed by seagulls.",
        [("small fishing boat", "boat", ["small"]), ("seagulls", "seagull", [], 2)],
        [(1, "follow", 0)],
        "replace_relation",
        12,
    )
    assert not any(w in t for t in texts for w in ("surrounded", "circled", "chased")), texts


def test_a_window_seat_is_never_added():
    texts, _ = texts_over_seeds(
        "Skiers ride a chairlift up a snowy mountain slope.",
        [
            ("Skiers", "skier", []),
            ("chairlift", "chairlift", []),
            ("snowy mountain slope", "slope", ["snowy"]),
        ],
        [(0, "ride", 1), (0, "ride up", 2)],
        "connect",
        40,
    )
    assert not any("window seat" in t for t in texts), texts


def test_a_shopping_cart_is_not_driven():
    texts, _ = texts_over_seeds(
        "A man pushes a shopping cart full of groceries through a parking lot.",
        [
            ("man", "man", []),
            ("shopping cart", "cart", []),
            ("groceries", "grocery", [], 2),
            ("parking lot", "lot", []),
        ],
        [(0, "push", 1), (1, "fill with", 2), (0, "through", 3)],
        "replace_relation",
        16,
    )
    assert not any("drives" in t for t in texts), texts


def test_a_verb_that_says_little_replaces_none():
    texts, _ = texts_over_seeds(
        "A man welding a metal pipe while wearing a dark mask.",
        [("man", "man", []), ("metal pipe", "pipe", ["metal"]), ("dark mask", "mask", ["dark"])],
        [(0, "weld", 1), (0, "wear", 2)],
        "replace_relation",
        16,
    )
    assert not any("fixing" in t or "repairing" in t for t in texts), texts


def test_a_slipper_may_be_the_shoe():
    texts, _ = texts_over_seeds(
        "A small brown puppy chews on a red shoe.",
        [("small brown puppy", "puppy", ["small", "brown"]), ("red shoe", "shoe", ["red"])],
        [(0, "chew on", 1)],
        "replace_object",
        40,
    )
    assert not any("slipper" in t for t in texts), texts


def test_a_house_under_construction_stays_new():
    texts, rejected = texts_over_seeds(
        "A cement truck is parked next to a new house under construction.",
        [
            ("cement truck", "truck", ["cement"]),
            ("new house", "house", ["new"]),
            ("construction", "construction", []),
        ],
        [(0, "park next to", 1), (1, "under", 2)],
        "replace_attribute",
        12,
    )
    assert not any("old house" in t for t in texts), texts
    assert rejected["tied_word"]


def test_a_way_from_one_place_keeps_its_way_into_the_other():
    texts, rejected = texts_over_seeds(
        "A delivery man carries boxes from a truck into a shop.",
        [
            ("delivery man", "man", []),
            ("boxes", "box", [], 2),
            ("truck", "truck", []),
            ("shop", "shop", []),
        ],
        [(0, "carry", 1), (0, "carry from", 2), (0, "carry into", 3)],
        "replace_relation",
        12,
    )
    assert not any("out of a shop" in t for t in texts), texts
    assert rejected["two_paths"]
