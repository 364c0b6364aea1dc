"""Blind review round 44's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds


def test_a_tree_house_is_big_never_indoors():
    texts, _ = texts_over_seeds(
        "A girl hands her homework to the teacher at the front of the room.",
        [("girl", "girl", []), ("homework", "homework", []), ("teacher", "teacher", [])]
        + [("room", "room", [])],
        [(0, "hand", 1), (0, "hand to", 2), (0, "hand at front of", 3)],
        "connect",
        400,
    )
    assert texts and not any("tree house" in t for t in texts), texts


def test_words_that_may_say_the_same():
    for caption, entities, relations, kind, same in (
        (
            "A man sharpens a kitchen knife on a gray whetstone.",
            [("man", "man", []), ("kitchen knife", "knife", [])]
            + [("gray whetstone", "whetstone", ["gray"])],
            [(0, "sharpen", 1), (0, "on", 2)],
            "replace_object",
            ("grindstone",),
        ),
        (
            "A baker pulls a tray of golden bread loaves out of a brick oven.",
            [("baker", "baker", []), ("tray", "tray", [])]
            + [("golden bread", "bread", ["golden"]), ("brick oven", "oven", ["brick"])],
            [(0, "pull", 1), (2, "on", 1), (0, "loave out of", 3)],
            "replace_relation",
            ("slides",),
        ),
    ):
        texts, _ = texts_over_seeds(caption, entities, relations, kind, 40)
        assert not any(w in t for t in texts for w in same), texts


def test_a_size_that_measures_one_way_must_be_seen_with_the_new_name():
    texts, _ = texts_over_seeds(
        "A tall cake with white frosting rests on a table beside colorful balloons.",
        [("tall cake", "cake", ["tall"]), ("white frosting", "frosting", ["white"])]
        + [("table", "table", []), ("colorful balloons", "balloon", ["colorful"])],
        [(0, "with", 1), (0, "rest on", 2), (2, "beside", 3)],
        "replace_object",
        40,
    )
    assert not any("tall pie" in t for t in texts), texts


def test_a_thing_of_brick_or_clay_keeps_their_colour():
    for caption, entities, relations, wrong in (
        (
            "A long silver train pulls into a station with a red brick platform.",
            [("long silver train", "train", ["long", "silver"]), ("station", "station", [])]
            + [("red brick platform", "platform", ["red", "brick"])],
            [(0, "pull into", 1), (1, "with", 2)],
            "silver brick",
        ),
        (
            "Yellow tennis balls are scattered across a red clay court.",
            [("Yellow tennis balls", "ball", ["yellow", "tennis"])]
            + [("red clay court", "court", ["red", "clay"])],
            [(0, "scatter across", 1)],
            "yellow clay",
        ),
    ):
        texts, rejected = texts_over_seeds(caption, entities, relations, "swap_attribute", 12)
        assert not any(wrong in t for t in texts), texts
        assert rejected["implausible_attribute"]
