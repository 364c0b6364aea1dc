"""Blind review round 41's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds

#: what connect put by the round's captions, and the breeds it drew by "dog"
DOGS = ("dog", "corgi", "retriever", "hound", "mastiff", "puppy", "greyhound", "pomeranian")


def test_connect_adds_only_what_was_seen_with_the_captions_things():
    for caption, entities, relations, added in (
        (
            "A figure skater spins on the ice in a sparkling red dress.",
            [("figure skater spins", "spin", ["skater"]), ("ice", "ice", [])]
            + [("sparkling red dress", "dress", ["sparkling", "red"])],
            [(0, "on", 1), (0, "wear", 2)],
            DOGS,
        ),
        (
            "Dirty dishes are piled high in a stainless steel sink.",
            [("Dirty dishes", "dish", ["dirty"])]
            + [("stainless steel sink", "sink", ["stainless", "steel"])],
            [(0, "pile in", 1)],
            DOGS,
        ),
        (
            "A group of cross country skiers follows a trail through the woods.",
            [("cross country skiers", "skier", ["group of"]), ("trail", "trail", [])]
            + [("woods", "wood", [])],
            [(0, "follow", 1), (0, "through", 2)],
            # (with 72,813 captions counted, a bicycle and a bench are seen on trails, a cat
            # once with "wood", as "woods" is counted: they pass the rule now)
            ("sedan", "gondola", "tram", "corgi"),
        ),
        (
            "An old steam locomotive puffs smoke through the green countryside.",
            [("old steam locomotive puffs", "puff", ["old", "locomotive"])]
            + [("green countryside", "countryside", ["green"])],
            [(0, "smoke through", 1)],
            ("backpack", "umbrella", *DOGS),
        ),
    ):
        texts, rejected = texts_over_seeds(caption, entities, relations, "connect", 24)
        assert not any(w in t for t in texts for w in added), texts
        assert rejected["connect_unseen_with"]


def test_a_new_place_keeps_the_captions_things():
    texts, rejected = texts_over_seeds(
        "A woman with a suitcase reads the departure board at a station.",
        [("woman", "woman", []), ("suitcase", "suitcase", [])]
        + [("departure board", "board", []), ("station", "station", [])],
        [(0, "with", 1), (0, "read", 2), (0, "at", 3)],
        "replace_object",
        24,
    )
    assert not any("zoo" in t for t in texts), texts
    assert rejected["place_misfit"]


def test_past_is_a_preposition_no_verb_replaces():
    texts, _ = texts_over_seeds(
        "A boy on roller skates glides down a sloped sidewalk past parked cars.",
        [("boy", "boy", []), ("roller skates glides", "glide", [])]
        + [("sloped sidewalk", "sidewalk", ["sloped"]), ("parked cars", "car", ["parked"])],
        [(0, "on", 1), (0, "down", 2), (0, "past", 3)],
        "replace_relation",
        24,
    )
    assert all("past parked cars" in t for t in texts), texts


def test_surrounded_by_is_lined_by():
    texts, _ = texts_over_seeds(
        "Boats are moored in a harbor surrounded by houses.",
        [("Boats", "boat", []), ("harbor", "harbor", []), ("houses", "house", [])],
        [(0, "moor in", 1), (2, "surround", 1)],
        "replace_relation",
        24,
    )
    assert not any(w in t for t in texts for w in ("lined", "ringed", "framed")), texts


def test_a_quilt_is_a_blanket():
    texts, _ = texts_over_seeds(
        "The small bedroom has a blue quilt, a brass lamp, and a wicker chair.",
        [("small bedroom", "bedroom", ["small"]), ("blue quilt", "quilt", ["blue"])]
        + [("brass lamp", "lamp", []), ("wicker chair", "chair", ["wicker"])],
        [(0, "have", 1), (0, "have", 3)],
        "replace_object",
        40,
    )
    assert not any(w in t for t in texts for w in ("blanket", "comforter", "duvet")), texts


def test_a_lights_colour_is_the_statistics_alone():
    texts, rejected = texts_over_seeds(
        "A bridge is lit with blue lights over a black river.",
        [("bridge", "bridge", []), ("blue lights", "light", ["blue"])]
        + [("black river", "river", ["black"])],
        [(0, "light with", 1), (0, "light over", 2)],
        "swap_attribute",
        12,
    )
    assert not any("black lights" in t for t in texts), texts
    assert rejected["implausible_attribute"]


def test_a_role_wears_only_what_it_was_seen_in():
    texts, rejected = texts_over_seeds(
        "Chefs in white hats work at a busy restaurant grill.",
        [("Chefs", "chef", []), ("white hats", "hat", ["white"])]
        + [("busy restaurant grill", "grill", ["busy"])],
        [(0, "in", 1), (0, "work at", 2)],
        "replace_object",
        40,
    )
    assert not any("helmet" in t for t in texts), texts
    # refused as a garment chefs are not seen in, or (since round 54: a hard hat is a
    # helmet) as one that may be the same thing
    assert rejected["unworn_by_wearer"] or rejected["may_be_true"]
    texts, rejected = texts_over_seeds(
        "Chefs in white caps work at a busy restaurant grill.",
        [("Chefs", "chef", []), ("white caps", "cap", ["white"])]
        + [("busy restaurant grill", "grill", ["busy"])],
        [(0, "in", 1), (0, "work at", 2)],
        "replace_object",
        40,
    )
    assert not any("helmet" in t for t in texts), texts
    assert rejected["unworn_by_wearer"]
