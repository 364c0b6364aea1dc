"""Blind review round 39's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds


def test_a_plural_the_parse_left_unlemmatised_stays_plural():
    texts, _ = texts_over_seeds(
        "Bananas, apples, and oranges fill a woven basket on the counter.",
        [
            ("Bananas", "Bananas", []),
            ("apples", "apple", []),
            ("woven basket", "basket", ["woven"]),
            ("counter", "counter", []),
        ],
        [(0, "fill", 2), (1, "fill", 2), (0, "on", 3), (1, "on", 3)],
        "replace_object",
        24,
    )
    firsts = {t.split(",")[0] for t in texts if not t.startswith("Bananas")}
    assert firsts and all(w.endswith("s") for w in firsts), texts


def test_a_double_decker_is_a_bus():
    texts, rejected = texts_over_seeds(
        "Red double-decker buses line up beside a crowded stone bridge.",
        [
            ("Red double-decker buses", "bus", ["red"]),
            ("crowded stone bridge", "bridge", ["crowded", "stone"]),
        ],
        [(0, "line up beside", 1)],
        "replace_object",
        24,
    )
    assert not any("double-decker" in t and "buses" not in t for t in texts), texts
    # refused as a kind named by a modifier of joined words (round 52's "claw-foot"), which
    # comes before the tie of "double-decker" to buses
    assert rejected["compound"] or rejected["tied_word"]


def test_what_a_person_has_must_be_seen_had():
    texts, _ = texts_over_seeds(
        "The man with the umbrella crosses a flooded street in the rain.",
        [
            ("man", "man", []),
            ("umbrella", "umbrella", []),
            ("flooded street", "street", ["flooded"]),
            ("rain", "rain", []),
        ],
        [(0, "with", 1), (0, "cross", 2), (2, "in", 3)],
        "replace_object",
        24,
    )
    assert not any("awning" in t for t in texts), texts


def test_a_new_room_keeps_fittings_seen_there_more_than_once():
    texts, rejected = texts_over_seeds(
        "A narrow bathroom has a pedestal sink and an old claw-foot tub.",
        [
            ("narrow bathroom", "bathroom", ["narrow"]),
            ("pedestal sink", "sink", ["pedestal"]),
            ("old claw-foot tub", "tub", ["old"]),
        ],
        [(0, "have", 1), (0, "have", 2)],
        "replace_object",
        24,
    )
    assert not any("kitchen" in t for t in texts), texts
    assert rejected["room_misfit"]


def test_an_animal_the_statistics_do_not_count_keeps_pets_away():
    texts, _ = texts_over_seeds(
        "A rhinoceros wallows in a muddy water hole.",
        [("rhinoceros", "rhinoceros", []), ("muddy water hole", "hole", ["muddy"])],
        [(0, "wallow in", 1)],
        "connect",
        24,
    )
    assert not any(w in t for t in texts for w in ("retriever", "dachshund", "pug", "dog")), texts


def test_places_in_the_plural_are_an_area():
    texts, rejected = texts_over_seeds(
        "The streets are empty except for a single taxi at dawn.",
        [("streets", "street", []), ("single taxi", "taxi", ["single"])],
        [(0, "empty except for", 1)],
        "connect",
        24,
    )
    assert not any("streets next to" in t or "streets beside" in t for t in texts), texts
    assert rejected["connect_scale"]


def test_a_thing_cooked_already_is_not_cooked_again():
    texts, _ = texts_over_seeds(
        "A street vendor sells roasted corn from a small cart.",
        [
            ("street vendor", "vendor", []),
            ("roasted corn", "corn", ["roasted"]),
            ("small cart", "cart", ["small"]),
        ],
        [(0, "sell", 1), (0, "sell from", 2)],
        "replace_relation",
        24,
    )
    assert not any(w in t for t in texts for w in ("grills", "roasts", "cooks")), texts


def test_releasing_a_ball_down_a_lane_is_rolling_it():
    texts, _ = texts_over_seeds(
        "A bowler releases a heavy ball down a shiny lane.",
        [("bowler", "bowler", []), ("heavy ball", "ball", ["heavy"]), ("shiny lane", "lane", [])],
        [(0, "release", 1), (0, "release down", 2)],
        "replace_relation",
        24,
    )
    assert not any("rolls" in t or "bowls" in t for t in texts), texts
