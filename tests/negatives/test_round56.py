"""Blind review round 56's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round (the round met every review goal)."""

from __future__ import annotations

import pytest
from neg_helpers import texts_over_seeds

REFUSED = [
    # a fruit's colour says how ripe it is
    (
        "A fruit stand displays ripe yellow bananas next to unripe green mangoes.",
        [("fruit stand", "stand", []), ("ripe yellow bananas", "banana", ["ripe", "yellow"])]
        + [("green mangoes", "mango", ["green"])],
        [(0, "display", 1), (0, "unripe", 2)],
        "swap_attribute",
        ["ripe green bananas"],
    ),
    # "the world" says little
    (
        "A teacher points at a map of the world while students watch.",
        [("teacher", "teacher", []), ("map", "map", []), ("world", "world", [])]
        + [("students", "student", [])],
        [(0, "point at", 1), (2, "have", 1)],
        "replace_object",
        ["map of the rock", "map of the "],
    ),
    # a paperback may be a novel
    (
        "A woman reads a paperback in a hammock strung between two palm trees.",
        [("woman", "woman", []), ("paperback", "paperback", []), ("hammock strung", "strung", [])]
        + [("two palm trees", "tree", [], 2)],
        [(0, "read", 1), (1, "in", 2), (2, "between", 3)],
        "replace_object",
        ["reads a novel", "reads a book", "reads a hardcover"],
    ),
    # an oven ties its stuff and its heat
    (
        "A baker pulls a tray of golden loaves out of a brick oven.",
        [("baker", "baker", []), ("tray", "tray", []), ("golden loaves", "loaf", ["golden"])]
        + [("brick oven", "oven", ["brick"])],
        [(0, "pull", 1), (2, "on", 1), (0, "pull out of", 3)],
        "replace_attribute",
        ["wooden oven", "plastic oven", "glass oven"],
    ),
    (
        "A hot pizza is being pulled from a wood fired oven with a long paddle.",
        [("hot pizza", "pizza", ["hot"]), ("wood", "wood", ["fired"])]
        + [("long paddle", "paddle", ["long"])],
        [(0, "pull from", 1), (0, "pull with", 2)],
        "replace_attribute",
        ["cold pizza", "frozen pizza", "iced pizza"],
    ),
    # a cat swatting at a bowl is looking at it
    (
        "A cat swats at a goldfish bowl sitting on a bookshelf.",
        [
            ("cat", "cat", []),
            ("goldfish bowl", "bowl", ["goldfish"]),
            ("bookshelf", "bookshelf", []),
        ],
        [(0, "swat at", 1), (1, "sit on", 2)],
        "replace_relation",
        ["stares at", "looks at", "watches"],
    ),
    # soup is set where the customer faces it (a customer is a person by the binding kinds)
    (
        "A waiter sets a steaming bowl of soup in front of a customer.",
        [("waiter", "waiter", []), ("steaming bowl", "bowl", ["steaming"]), ("soup", "soup", [])]
        + [("customer", "customer", [])],
        [(0, "set", 1), (2, "in", 1), (0, "set in front of", 3)],
        "replace_relation",
        ["behind a customer"],
    ),
]


@pytest.mark.parametrize("caption,entities,relations,kind,never", REFUSED)
def test_round56_failures_are_refused(caption, entities, relations, kind, never):
    texts, _ = texts_over_seeds(caption, entities, relations, kind, 60)
    assert not any(x in t for t in texts for x in never), texts
