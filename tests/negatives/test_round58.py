"""Blind review round 58's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round (the round met every review goal), with round 57's that
its rules refuse too (an old man with a grandmother, a boy with a coworker)."""

from __future__ import annotations

import pytest
from neg_helpers import texts_over_seeds

REFUSED = [
    # a violin or a workbench is kept indoors
    (
        "A man helps his neighbor push a stalled car down the street.",
        [
            ("man", "man", []),
            ("neighbor", "neighbor", []),
            ("stalled car", "car", ["stalled"]),
            ("street", "street", []),
        ],
        [(1, "push", 2), (1, "push down", 3), (0, "help", 1)],
        "connect",
        ["violin", "drum", "guitar", "bongo", "workbench"],
    ),
    (
        "A city bus pulls up to a crowded stop while people wait with umbrellas in the rain.",
        [
            ("city bus", "bus", []),
            ("crowded stop", "stop", ["crowded"]),
            ("people", "people", []),
            ("umbrellas", "umbrella", []),
            ("rain", "rain", []),
        ],
        [(0, "pull up to", 1), (2, "wait with", 3), (2, "wait in", 4)],
        "connect",
        ["workbench", "violin", "drum"],
    ),
    (
        "Several people wait in line at a food truck parked near a park.",
        [
            ("people", "people", []),
            ("line", "line", []),
            ("food truck", "truck", []),
            ("park", "park", []),
        ],
        [(0, "wait in", 1), (1, "at", 2), (2, "park near", 3)],
        "connect",
        ["violin", "drum", "bongo", "tambourine"],
    ),
    # where few things were seen, a thing no pet only where the statistics saw it
    (
        "A man shovels snow from his driveway while his son builds a snowman.",
        [
            ("man", "man", []),
            ("snow", "snow", []),
            ("driveway", "driveway", []),
            ("son", "son", []),
            ("snowman", "snowman", []),
        ],
        [(0, "shovel", 1), (0, "shovel from", 2), (0, "have", 3), (3, "build", 4)],
        "connect",
        ["suitcase", "bicycle"],
    ),
    # a liquid is poured from a vessel
    (
        "A boy pours water from a bucket onto his friend at the beach.",
        [
            ("boy", "boy", []),
            ("water", "water", []),
            ("bucket", "bucket", []),
            ("friend", "friend", []),
            ("beach", "beach", []),
        ],
        [(0, "pour", 1), (0, "pour from", 2), (0, "pour onto", 3), (3, "at", 4)],
        "replace_object",
        ["from a box", "from a basket", "from a crate"],
    ),
    # a material kept before a new name was seen with it
    (
        "A street is decorated with paper lanterns for the new year festival.",
        [
            ("street", "street", []),
            ("paper lanterns", "lantern", ["paper"]),
            ("new year festival", "festival", ["new"]),
        ],
        [(0, "decorate with", 1), (1, "for", 2)],
        "replace_object",
        ["paper candles"],
    ),
    # where a being is, a kin place must have been seen so
    (
        "A fat orange cat lies next to a thin gray cat on a sunny porch.",
        [
            ("fat orange cat", "cat", ["orange", "fat"]),
            ("thin gray cat", "cat", ["thin", "gray"]),
            ("sunny porch", "porch", ["sunny"]),
        ],
        [(0, "lie next to", 1), (1, "on", 2)],
        "replace_object",
        ["sunny tower", "sunny cross"],
    ),
    (
        "A woman waters plants on her porch as a cat rubs against her legs.",
        [
            ("woman", "woman", []),
            ("plants", "plant", []),
            ("porch", "porch", []),
            ("cat", "cat", []),
            ("legs", "leg", []),
        ],
        [(0, "water", 1), (0, "on", 2), (3, "rub against", 4), (0, "have", 4)],
        "replace_object",
        ["on her cross", "on her tower"],
    ),
    # a thing of another was seen with it
    (
        "A dog rides in the basket of a bicycle through town.",
        [
            ("dog", "dog", []),
            ("basket", "basket", []),
            ("bicycle", "bicycle", []),
            ("town", "town", []),
        ],
        [(0, "ride in", 1), (2, "in", 1), (0, "ride through", 3)],
        "replace_object",
        ["bucket of a bicycle", "box of a bicycle"],
    ),
    # an open shelf may be a stand
    (
        "A cracked blue bowl sits beside a perfect white bowl on an open shelf.",
        [
            ("cracked blue bowl", "bowl", ["cracked", "blue"]),
            ("perfect white bowl", "bowl", ["perfect", "white"]),
            ("open shelf", "shelf", ["open"]),
        ],
        [(0, "sit beside", 1), (1, "on", 2)],
        "replace_object",
        ["open stand", "open rack"],
    ),
    # what a thing named for its use is made of
    (
        "A leather welding mask and a pair of cotton gloves lie on a metal workbench.",
        [
            ("leather welding mask", "mask", ["leather"]),
            ("cotton gloves", "glove", ["cotton"]),
            ("metal workbench", "workbench", ["metal"]),
        ],
        [(0, "lie on", 2), (1, "lie on", 2)],
        "replace_attribute",
        ["wooden welding mask", "paper welding mask"],
    ),
    # no colour of the other things of its name (the last word of 'bright red')
    (
        "A bright red umbrella stands out in a crowd of black umbrellas.",
        [
            ("bright red umbrella", "umbrella", ["bright red"]),
            ("black umbrellas", "umbrella", ["black"]),
        ],
        [(0, "stand in", 1)],
        "replace_attribute",
        ["crowd of red umbrellas"],
    ),
    # a ground's stuff named otherwise too
    (
        "Two boys throw snowballs at each other in a snowy backyard.",
        [
            ("Two boy", "boy", []),
            ("snowballs", "snowball", []),
            ("other", "boy", []),
            ("snowy backyard", "backyard", ["snowy"]),
        ],
        [(0, "throw", 1), (0, "at", 2), (0, "in", 3)],
        "replace_attribute",
        ["grassy backyard", "muddy backyard", "sandy backyard"],
    ),
    # a grandparent is old; a grandchild is seldom
    (
        "An old woman knits a scarf while her granddaughter holds the yarn.",
        [
            ("old woman", "woman", ["old"]),
            ("scarf", "scarf", []),
            ("granddaughter", "granddaughter", []),
            ("yarn", "yarn", []),
        ],
        [(0, "knit", 1), (0, "have", 2), (2, "hold", 3)],
        "replace_attribute",
        ["young woman", "little woman"],
    ),
    # round 57
    (
        "A young man carries his grandmother's groceries up the stairs.",
        [
            ("young man", "man", ["young"]),
            ("grandmother", "grandmother", []),
            ("groceries", "grocery", []),
            ("stairs", "stairs", []),
        ],
        [(0, "have", 1), (1, "have", 2), (0, "carry", 2), (0, "carry up", 3)],
        "replace_attribute",
        ["old man", "elderly man"],
    ),
    # who has a coworker is grown up (round 57)
    (
        "A man hands a folder to a coworker in an office.",
        [
            ("man", "man", []),
            ("folder", "folder", []),
            ("coworker", "coworker", []),
            ("office", "office", []),
        ],
        [(0, "hand", 1), (0, "hand to", 2), (2, "in", 3)],
        "replace_object",
        ["A boy", "A girl", "A child"],
    ),
]


@pytest.mark.parametrize("caption,entities,relations,kind,never", REFUSED)
def test_round58_failures_are_refused(caption, entities, relations, kind, never):
    texts, _ = texts_over_seeds(caption, entities, relations, kind, 60)
    assert not any(x in t for t in texts for x in never), texts


def test_round58_rules_still_make_their_negatives():
    # the rules refuse the failures, not the kind: an instrument where a home is named, a
    # colour no other umbrella has, an age with no grandchild named
    made = [
        (
            "A cat sleeps on a rug in a living room.",
            [("cat", "cat", []), ("rug", "rug", []), ("living room", "room", [])],
            [(0, "sleep on", 1), (1, "in", 2)],
            "connect",
        ),
        (
            "A bright red umbrella stands out in a crowd of black umbrellas.",
            [("bright red umbrella", "umbrella", ["bright red"])]
            + [("black umbrellas", "umbrella", ["black"])],
            [(0, "stand in", 1)],
            "replace_attribute",
        ),
        (
            "An old woman knits a scarf by the window.",
            [("old woman", "woman", ["old"]), ("scarf", "scarf", []), ("window", "window", [])],
            [(0, "knit", 1), (0, "by", 2)],
            "replace_attribute",
        ),
    ]
    for caption, entities, relations, kind in made:
        texts, _ = texts_over_seeds(caption, entities, relations, kind, 60)
        assert texts, caption
        if kind == "connect":
            instruments = ("drum", "guitar", "violin", "cello", "harp", "sitar", "piano")
            assert any(x in t for t in texts for x in instruments), texts
