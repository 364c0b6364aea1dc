"""Blind review round 43's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds

SHEARING = (
    "A man shears the thick wool from a sheep on a wooden floor.",
    [("man", "man", []), ("thick wool", "wool", ["thick"])]
    + [("sheep", "sheep", []), ("wooden floor", "floor", ["wooden"])],
    [(0, "shear", 1), (0, "shear from", 2), (2, "on", 3)],
)
CYCLIST = (
    "A man riding a green bicycle past a parked blue car.",
    [("man", "man", []), ("green bicycle", "bicycle", ["green"])]
    + [("parked blue car", "car", ["parked", "blue"])],
    [(0, "ride", 1), (0, "ride past", 2)],
)


def test_a_sheep_shears_no_man_with_a_preposition_either():
    texts, _ = texts_over_seeds(*SHEARING, "swap_object", 12)
    assert not any(t.startswith("A sheep shears") for t in texts), texts


def test_a_wooden_floor_may_be_a_platform():
    texts, _ = texts_over_seeds(*SHEARING, "replace_object", 40)
    assert not any(w in t for t in texts for w in ("platform", "deck", "stage")), texts


def test_the_phrase_before_a_lists_first_item_is_its_own():
    texts, rejected = texts_over_seeds(
        "An office with two large monitors on a white desk and a black swivel chair.",
        [("office", "office", []), ("two large monitors", "monitor", ["large"])]
        + [("white desk", "desk", ["white"]), ("black swivel chair", "chair", ["black"])],
        [(0, "with", 1), (1, "on", 2), (1, "on", 3)],
        "swap_object",
        12,
    )
    assert not any("on a white swivel chair" in t for t in texts), texts
    assert rejected["implausible_relation"]


def test_a_class_does_not_say_what_each_member_undergoes():
    for kind in ("swap_object", "redraw_relation"):
        texts, _ = texts_over_seeds(*CYCLIST, kind, 12)
        assert not any("riding a green car" in t or "riding a parked" in t for t in texts), texts


def test_a_flip_by_the_whole_of_a_part_acted_on():
    texts, rejected = texts_over_seeds(
        "A mechanic changing a tire on a small yellow car.",
        [("mechanic", "mechanic", []), ("tire", "tire", [])]
        + [("small yellow car", "car", ["small", "yellow"])],
        [(0, "change", 1), (0, "on", 2)],
        "replace_relation",
        12,
    )
    assert not any("under" in t for t in texts), texts
    assert rejected["part_of_whole"]


def test_a_new_container_holds_what_the_old_one_held():
    texts, rejected = texts_over_seeds(
        "A boy pouring milk into a bowl of cereal at the breakfast bar.",
        [("boy", "boy", []), ("milk", "milk", []), ("bowl", "bowl", [])]
        + [("cereal", "cereal", []), ("breakfast bar", "bar", [])],
        [(0, "pour", 1), (0, "pour into", 2), (3, "in", 2), (2, "at", 4)],
        "replace_object",
        40,
    )
    assert not any("bottle of cereal" in t for t in texts), texts
    assert rejected["contents"]


def test_words_that_may_say_the_same():
    for caption, entities, relations, kind, same in (
        (
            "A subway train arrives at a crowded underground station.",
            [("subway train", "train", []), ("crowded underground station", "station", [])],
            [(0, "arrive at", 1)],
            "replace_relation",
            ("stops", "pulls"),
        ),
        (
            "A row of bicycles locked to a metal rack outside a train station.",
            [("bicycles", "bicycle", []), ("metal rack", "rack", ["metal"])]
            + [("train station", "station", [])],
            [(0, "lock to", 1), (1, "outside", 2)],
            "replace_attribute",
            ("wire", "steel", "iron"),
        ),
    ):
        texts, _ = texts_over_seeds(caption, entities, relations, kind, 40)
        assert not any(w in t for t in texts for w in same), texts


def test_a_tennis_court_keeps_a_tennis_surface():
    texts, _ = texts_over_seeds(
        "A tennis player serves the ball on a red clay court.",
        [("tennis player", "player", []), ("ball", "ball", [])]
        + [("red clay court", "court", ["red", "clay"])],
        [(0, "serve", 1), (0, "on", 2)],
        "replace_attribute",
        40,
    )
    assert not any(w in t for t in texts for w in ("glass court", "wooden court")), texts


def test_a_name_in_the_text_before_a_verb_taken_for_the_name():
    texts, rejected = texts_over_seeds(
        "A red fox trots across a snowy field with its tail held low.",
        [("red fox trots", "trot", ["red"]), ("snowy field", "field", ["snowy"])]
        + [("tail", "tail", ["held"])],
        [(0, "across", 1), (1, "have", 2)],
        "replace_attribute",
        30,
    )
    assert not any(w in t for t in texts for w in ("orange fox", "white fox")), texts
    assert rejected["noun_as_attribute"]
