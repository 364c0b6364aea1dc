"""Blind review round 40's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds

POLAR_BEAR = (
    "Children watch a polar bear swim behind a thick glass wall.",
    [
        ("Children", "child", []),
        ("polar bear swim", "swim", ["polar"]),
        ("thick glass wall", "wall", ["thick", "glass"]),
    ],
    [(0, "watch", 1), (1, "behind", 2)],
)


def test_behind_a_glass_wall_is_in_front_of_it_from_the_other_side():
    texts, rejected = texts_over_seeds(*POLAR_BEAR, "replace_relation", 24)
    assert not any("in front of" in t for t in texts), texts
    assert rejected["may_be_true"]


def test_a_glass_wall_watched_through_stays_glass():
    texts, _ = texts_over_seeds(*POLAR_BEAR, "replace_attribute", 24)
    assert all("glass wall" in t for t in texts), texts


def test_near_synonym_verbs_of_work_are_no_change():
    for caption, entities, relations, said in (
        (
            "A fisherman unloads a net full of silver fish onto the dock.",
            [("fisherman", "fisherman", []), ("net", "net", [])]
            + [("silver fish", "fish", ["silver"]), ("dock", "dock", [])],
            [(0, "unload", 1), (1, "fill with", 2), (1, "onto", 3)],
            ("hauls", "pulls"),
        ),
        (
            "Snow is shoveled from a driveway by a man in a red hat.",
            [("Snow", "Snow", []), ("driveway", "driveway", [])]
            + [("man", "man", []), ("red hat", "hat", ["red"])],
            [(0, "shovel from", 1), (2, "shovel", 0), (2, "wear", 3)],
            ("cleared",),
        ),
    ):
        texts, _ = texts_over_seeds(caption, entities, relations, "replace_relation", 24)
        assert not any(w in t for t in texts for w in said), texts


def test_sparks_keep_the_verb_that_makes_them():
    texts, _ = texts_over_seeds(
        "Sparks fly as a worker welds two metal pipes together.",
        [("Sparks", "spark", []), ("worker", "worker", []), ("two metal pipes", "pipe", ["metal"])],
        [(1, "weld", 2)],
        "replace_relation",
        24,
    )
    assert not any(w in t for t in texts for w in ("carries", "holds", "paints", "lifts")), texts


def test_several_tossing_one_ball_catch_it_too():
    texts, _ = texts_over_seeds(
        "Young men toss an American football on the beach.",
        [
            ("Young men", "man", ["young"]),
            ("American football", "football", ["american"]),
            ("beach", "beach", []),
        ],
        [(0, "toss", 1), (0, "on", 2)],
        "replace_relation",
        24,
    )
    assert not any(w in t for t in texts for w in ("catch", "throw", "kick", "pass")), texts


def test_a_bay_takes_only_colours_seen_on_bays():
    texts, _ = texts_over_seeds(
        "Sailboats with white sails glide across a calm blue bay.",
        [
            ("Sailboats", "sailboat", []),
            ("white sails", "sail", ["white"]),
            ("calm blue bay", "bay", ["calm", "blue"]),
        ],
        [(0, "with", 1), (0, "glide across", 2)],
        "swap_attribute",
        12,
    )
    assert not any("white bay" in t for t in texts), texts


def test_a_sari_is_worn_by_women():
    texts, rejected = texts_over_seeds(
        "Women in bright saris dance in a circle at a wedding celebration.",
        [
            ("Women", "woman", []),
            ("bright saris dance", "dance", ["bright"]),
            ("circle", "circle", []),
            ("wedding celebration", "celebration", []),
        ],
        [(0, "in", 1), (0, "in", 2), (2, "at", 3)],
        "replace_object",
        24,
    )
    assert not any(t.startswith(("Men", "Boys")) for t in texts), texts
    assert rejected["gender_cue"]


def test_what_people_have_must_be_seen_had():
    texts, _ = texts_over_seeds(
        "People with umbrellas hurry across a rainy city street.",
        [
            ("People", "people", []),
            ("umbrellas", "umbrella", []),
            ("rainy city street", "street", ["rainy"]),
        ],
        [(0, "with", 1), (0, "hurry across", 2)],
        "replace_object",
        24,
    )
    assert not any("awnings" in t for t in texts), texts


def test_a_bear_catches_the_salmon():
    texts, rejected = texts_over_seeds(
        "A bear stands in a rushing river trying to catch salmon.",
        [("bear", "bear", []), ("rushing river", "river", ["rushing"]), ("salmon", "salmon", [])],
        [(0, "stand in", 1), (1, "catch", 2)],
        "replace_object",
        24,
    )
    assert not any("tiger" in t or "lion" in t for t in texts), texts
    assert rejected["tied_word"]


def test_a_police_dog_goes_only_where_a_setting_places_it():
    texts, _ = texts_over_seeds(
        "A mother pushes her baby in a bucket swing.",
        [("mother", "mother", []), ("baby", "baby", []), ("bucket swing", "swing", [])],
        [(0, "push", 1), (0, "in", 2)],
        "connect",
        60,
    )
    assert not any("police dog" in t or "sheep dog" in t for t in texts), texts
