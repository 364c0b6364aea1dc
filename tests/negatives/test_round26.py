"""Blind review round 26's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds


def test_a_plural_only_name_does_not_take_a_plurals_place():
    # "young soccer players in bright yellow shirts and white shorts" -> "yellow shortses and
    # white shirt"
    texts, rejected = texts_over_seeds(
        "Two boys in yellow shirts and white shorts.",
        [
            ("boys", "boy", [], 2),
            ("yellow shirts", "shirt", ["yellow"]),
            ("white shorts", "shorts", ["white"]),
        ],
        [(0, "in", 1), (0, "in", 2)],
        "swap_object",
        8,
    )
    assert not texts and rejected["number_mismatch"], texts


def test_a_baby_animal_is_the_smaller():
    texts, rejected = texts_over_seeds(
        "A large gray elephant walks beside a small baby elephant on a dirt road.",
        [
            ("large gray elephant", "elephant", ["large", "gray"]),
            ("small baby elephant", "elephant", ["small", "baby"]),
            ("dirt road", "road", ["dirt"]),
        ],
        [(0, "walk beside", 1), (0, "on", 2)],
        "swap_attribute",
        8,
    )
    assert not any("large baby" in t for t in texts) and rejected["size_misfit"], texts


def test_a_child_does_not_pull_a_person_of_no_age_said():
    texts, rejected = texts_over_seeds(
        "A skier pulls a child on a sled up a gentle hill.",
        [
            ("skier", "skier", []),
            ("child", "child", []),
            ("sled", "sled", []),
            ("gentle hill", "hill", ["gentle"]),
        ],
        [(0, "pull", 1), (1, "on", 2), (0, "up", 3)],
        "swap_object",
        8,
    )
    assert not any(t.startswith("A child pulls") for t in texts) and rejected["role_size"], texts


def test_a_sofa_is_never_glass():
    texts, rejected = texts_over_seeds(
        "A living room with a brown leather sofa and a glass coffee table.",
        [
            ("living room", "room", ["living"]),
            ("brown leather sofa", "sofa", ["brown", "leather"]),
            ("glass coffee table", "table", ["glass", "coffee"]),
        ],
        [(0, "with", 1), (0, "with", 2)],
        "swap_attribute",
        8,
    )
    assert not any("glass sofa" in t for t in texts), texts
    assert rejected["implausible_attribute"]


def test_a_worn_state_does_not_move_onto_a_new_thing():
    texts, rejected = texts_over_seeds(
        "An old rusty tractor and a shiny new pickup truck parked by a red barn.",
        [
            ("old rusty tractor", "tractor", ["old", "rusty"]),
            ("shiny new pickup truck", "truck", ["shiny", "new", "pickup"]),
            ("red barn", "barn", ["red"]),
        ],
        [(0, "park by", 2), (1, "park by", 2)],
        "swap_attribute",
        8,
    )
    assert not any("rusty new" in t for t in texts) and rejected["implausible_attribute"], texts


def test_a_catcher_stays_behind_home_plate_though_the_parse_took_his_verb_for_a_noun():
    texts, rejected = texts_over_seeds(
        "A batter swings at a pitch while the catcher crouches behind home plate.",
        [
            ("batter", "batter", []),
            ("pitch", "pitch", []),
            ("catcher crouches", "crouch", ["catcher"]),
            ("home plate", "plate", []),
        ],
        [(0, "swing at", 1), (2, "behind", 3)],
        "replace_relation",
        8,
    )
    assert not any("in front of home plate" in t for t in texts), texts
    assert rejected["fixed_position"]
