"""Blind review round 32's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds


def test_a_new_place_was_seen_with_what_is_done_there():
    texts, rejected = texts_over_seeds(
        "A little girl splashes her feet in a fountain.",
        [
            ("little girl", "girl", ["little"]),
            ("feet", "foot", [], 2),
            ("fountain", "fountain", []),
        ],
        [(0, "have", 1), (0, "splash", 1), (0, "in", 2)],
        "replace_object",
        40,
    )
    assert not any("tower" in t or "bridge" in t for t in texts), texts
    assert rejected["place_misfit"]


def test_muffins_are_near_enough_to_cupcakes():
    texts, _ = texts_over_seeds(
        "A row of cupcakes with blue frosting sits on a cooling rack.",
        [
            ("cupcakes", "cupcake", []),
            ("blue frosting", "frosting", ["blue"]),
            ("cooling rack", "rack", ["cooling"]),
        ],
        [(0, "with", 1), (0, "sit on", 2)],
        "replace_object",
        40,
    )
    assert not any("muffin" in t for t in texts), texts


def test_no_size_swap_between_one_and_the_thing_it_is_inside():
    texts, rejected = texts_over_seeds(
        "A small puppy sleeps inside a large man's slipper.",
        [
            ("small puppy", "puppy", ["small"]),
            ("large man", "man", ["large"]),
            ("slipper", "slipper", []),
        ],
        [(0, "sleep inside", 2), (1, "have", 2)],
        "swap_attribute",
        12,
    )
    assert not any("large puppy" in t for t in texts), texts
    assert rejected["size_misfit"]


def test_a_chair_at_a_desk_is_in_front_of_it_from_either_side():
    texts, rejected = texts_over_seeds(
        "A black office chair sits in front of a desk with a laptop.",
        [
            ("black office chair", "chair", ["black"]),
            ("desk", "desk", []),
            ("laptop", "laptop", []),
        ],
        [(0, "sit in front of", 1), (1, "with", 2)],
        "replace_relation",
        20,
    )
    assert not any("behind" in t for t in texts), texts
    assert rejected["furniture_layout"]


def test_a_material_seen_once_with_a_thing_is_not_drawn():
    texts, _ = texts_over_seeds(
        "A gardener trims a tall hedge with large metal shears.",
        [
            ("gardener", "gardener", []),
            ("tall hedge", "hedge", ["tall"]),
            ("large metal shears", "shear", ["large", "metal"]),
        ],
        [(0, "trim", 1), (1, "with", 2)],
        "replace_attribute",
        40,
    )
    assert not any("wooden shears" in t for t in texts), texts


def test_a_waterfall_tumbles_as_it_pours():
    texts, _ = texts_over_seeds(
        "A waterfall pours down a cliff into a green pool.",
        [("waterfall", "waterfall", []), ("cliff", "cliff", []), ("green pool", "pool", ["green"])],
        [(0, "pour down", 1), (0, "pour into", 2)],
        "replace_relation",
        40,
    )
    assert not any(w in t for t in texts for w in ("tumbles", "cascades", "flows", "falls")), texts


def test_a_colour_keeps_its_shade_word():
    texts, rejected = texts_over_seeds(
        "A tall lamp with a cream shade stands beside a dark blue armchair.",
        [
            ("tall lamp", "lamp", ["tall"]),
            ("cream shade", "shade", ["cream"]),
            ("dark blue armchair", "armchair", ["dark", "blue"]),
        ],
        [(0, "with", 1), (0, "stand beside", 2)],
        "swap_attribute",
        12,
    )
    assert not any("dark cream" in t for t in texts), texts
    assert rejected["colour_compound"]


def test_no_new_verb_the_caption_says_elsewhere():
    texts, _ = texts_over_seeds(
        "A professional tennis player bounces a ball before serving.",
        [("professional tennis player", "player", ["professional"]), ("ball", "ball", [])],
        [(0, "bounce", 1)],
        "replace_relation",
        40,
    )
    assert not any("serves" in t for t in texts), texts
