"""Blind review round 54's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

import pytest
from neg_helpers import texts_over_seeds

REFUSED = [
    # a new verb must have been seen with one of the caption's other things
    (
        "A man washes lettuce in the sink while a woman chops onions.",
        [("man", "man", []), ("sink", "sink", []), ("woman", "woman", [])]
        + [("onions", "onion", [])],
        [(0, "lettuce in", 1), (2, "chop", 3)],
        "replace_relation",
        ["ties onions"],
    ),
    # one at rest carries nothing; one pushes no cart an ox pulls
    (
        "An old woman weaves a basket while sitting on the steps of her house.",
        [("old woman", "woman", ["old"]), ("basket", "basket", []), ("steps", "step", [])]
        + [("house", "house", [])],
        [(0, "weave", 1), (0, "sit on", 2), (3, "have", 2), (0, "have", 3)],
        "replace_relation",
        ["carries a basket", "pulls a basket", "drags a basket"],
    ),
    (
        "A boy reads a comic book while lying on a library carpet.",
        [("boy", "boy", []), ("comic book", "book", ["comic"])]
        + [("library carpet", "carpet", [])],
        [(0, "read", 1), (0, "lie on", 2)],
        "replace_relation",
        ["carries a comic book"],
    ),
    (
        "A man drives a cart pulled by a white ox along a village road.",
        [("man", "man", []), ("cart", "cart", []), ("white ox", "ox", ["white"])]
        + [("village road", "road", [])],
        [(0, "drive", 1), (2, "pull", 1), (1, "pull along", 3)],
        "replace_relation",
        ["pushes a cart", "pulls a cart", "drags a cart"],
    ),
    # "chocolate | frosting off": the parse took the name's last word for a verb
    (
        "A young girl licks chocolate frosting off a spoon.",
        [("young girl", "girl", ["young"]), ("chocolate", "chocolate", []), ("spoon", "spoon", [])],
        [(0, "lick", 1), (1, "frost off", 2)],
        "replace_relation",
        ["sips chocolate", "drinks chocolate"],
    ),
    # near-synonyms
    (
        "A young calf nurses from its mother in a muddy field.",
        [("young calf", "calf", ["young"]), ("mother", "mother", [])]
        + [("muddy field", "field", ["muddy"])],
        [(0, "nurse from", 1), (1, "in", 2)],
        "replace_relation",
        ["drinks from its mother", "feeds from its mother"],
    ),
    (
        "A little girl drops a coin into the fountain while her mother watches.",
        [("little girl", "girl", ["little"]), ("coin", "coin", []), ("fountain", "fountain", [])]
        + [("mother", "mother", [])],
        [(0, "drop", 1), (0, "drop into", 2), (0, "have", 3)],
        "replace_relation",
        ["tosses a coin", "throws a coin", "flips a coin"],
    ),
    (
        "A conductor raises his baton as the violinists lift their bows.",
        [("conductor", "conductor", []), ("baton", "baton", [])]
        + [("violinists", "violinist", []), ("bows", "bow", [])],
        [(0, "raise", 1), (2, "lift", 3)],
        "replace_relation",
        ["waves his baton", "lifts his baton"],
    ),
    (
        "A striped cat swats at a spotted dog lying on the sofa.",
        [("striped cat", "cat", ["striped"]), ("spotted dog", "dog", ["spotted"])]
        + [("sofa", "sofa", [])],
        [(0, "swat at", 1), (1, "lie on", 2)],
        "replace_relation",
        ["hisses at", "growls at", "paws at"],
    ),
    # a posture changes only for another ("gathers around" -> "laughs around")
    (
        "A group of friends gathers around a table playing a board game with dice.",
        [("friends", "friend", ["group of"]), ("table", "table", [])]
        + [("board game", "game", []), ("dice", "dice", [])],
        [(0, "gather around", 1), (0, "play", 2), (0, "play with", 3)],
        "replace_relation",
        ["laughs around", "eats around", "talks around"],
    ),
    # a word of the caption ties the attribute
    (
        "Motorbikes crowd a busy street in a Southeast Asian city.",
        [("Motorbikes", "motorbike", []), ("busy street", "street", ["busy"])]
        + [("Southeast Asian city", "city", ["asian", "southeast"])],
        [(0, "crowd", 1), (0, "in", 2)],
        "replace_attribute",
        ["quiet street", "empty street", "deserted street"],
    ),
    (
        "A mother and daughter plant a young tree in their yard.",
        [("mother", "mother", []), ("daughter", "daughter", []), ("young tree", "tree", ["young"])]
        + [("yard", "yard", [])],
        [(0, "plant", 2), (1, "plant", 2), (0, "in", 3), (1, "in", 3)],
        "replace_attribute",
        ["old tree", "tall tree", "large tree"],
    ),
    # a hard hat is a helmet
    (
        "Construction workers in yellow helmets pour concrete into a wooden frame.",
        [("Construction workers", "worker", []), ("yellow helmets", "helmet", ["yellow"])]
        + [("concrete", "concrete", []), ("wooden frame", "frame", ["wooden"])],
        [(0, "in", 1), (0, "pour", 2), (0, "pour into", 3)],
        "replace_object",
        ["yellow hats", "yellow caps"],
    ),
    # no animal in a public building
    (
        "Two nurses push a patient on a stretcher down a hospital hallway.",
        [("Two nurses", "nurse", [], 2), ("patient", "patient", []), ("stretcher", "stretcher", [])]
        + [("hospital hallway", "hallway", [])],
        [(0, "push", 1), (1, "on", 2), (0, "push down", 3)],
        "connect",
        ["pug", "dog", "cat", "puppy", "kitten", "corgi"],
    ),
    # a kitten stays smaller than a grown dog of a breed the classes do not know
    (
        "A tiny kitten sleeps next to a large golden retriever on the rug.",
        [("tiny kitten", "kitten", ["tiny"]), ("large golden retriever", "retriever", ["large"])]
        + [("rug", "rug", [])],
        [(0, "sleep next to", 1), (0, "sleep on", 2)],
        "swap_attribute",
        ["large kitten"],
    ),
]


@pytest.mark.parametrize("caption,entities,relations,kind,never", REFUSED)
def test_round54_failures_are_refused(caption, entities, relations, kind, never):
    texts, _ = texts_over_seeds(caption, entities, relations, kind, 60)
    assert not any(x in t for t in texts for x in never), texts
