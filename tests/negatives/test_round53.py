"""Blind review round 53's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

import pytest
from neg_helpers import texts_over_seeds

REFUSED = [
    # near-synonyms: lifting a heavy sofa is carrying it; eating bamboo chewing it;
    # snatching a french fry stealing it; cleaning fish scaling them
    (
        "Two men lift a heavy sofa through the front door of a house.",
        [("Two men", "man", [], 2), ("heavy sofa", "sofa", ["heavy"])]
        + [("front door", "door", ["front"]), ("house", "house", [])],
        [(0, "lift", 1), (0, "through", 2), (3, "have", 2)],
        "replace_relation",
        ["carry a heavy sofa", "move a heavy sofa", "haul a heavy sofa"],
    ),
    (
        "A panda eats bamboo while lying on its back in an enclosure.",
        [("panda", "panda", []), ("bamboo", "bamboo", []), ("back", "back", [])]
        + [("enclosure", "enclosure", [])],
        [(0, "eat", 1), (0, "lie on", 2), (0, "have", 2), (2, "in", 3)],
        "replace_relation",
        ["chews bamboo", "munches bamboo", "nibbles bamboo"],
    ),
    (
        "A seagull snatches a french fry from a table beside the ocean.",
        [("seagull", "seagull", []), ("french fry", "fry", []), ("table", "table", [])]
        + [("ocean", "ocean", [])],
        [(0, "snatch", 1), (1, "from", 2), (1, "beside", 3)],
        "replace_relation",
        ["steals a french fry", "grabs a french fry"],
    ),
    (
        "Seagulls circle above a man cleaning fish on the dock.",
        [("Seagulls circle", "circle", []), ("man", "man", []), ("fish", "fish", [])]
        + [("dock", "dock", [])],
        [(0, "above", 1), (1, "clean", 2), (1, "on", 3)],
        "replace_relation",
        ["scaling fish", "gutting fish"],
    ),
    # under a raised hood is over the engine
    (
        "A mechanic in blue overalls leans over the open hood of an old pickup truck.",
        [("mechanic", "mechanic", []), ("blue overalls", "overalls", ["blue"])]
        + [("open hood", "hood", ["open"]), ("old pickup truck", "truck", ["old"])],
        [(0, "wear", 1), (0, "lean over", 2), (3, "have", 2)],
        "replace_relation",
        ["under the open hood"],
    ),
    # a participle after what the plates hold says how they are carried
    (
        "A young waiter carries three plates of food balanced along one arm.",
        [("young waiter", "waiter", ["young"]), ("three plates", "plate", [], 3)]
        + [("food", "food", []), ("one arm", "arm", [], 1)],
        [(0, "carry", 1), (2, "on", 1), (1, "balance along", 3)],
        "replace_relation",
        ["sets three plates", "serves three plates"],
    ),
    # nothing rests on a window
    (
        "A neatly made bed with white sheets and a striped blanket under a window.",
        [("made bed", "bed", ["neatly made"]), ("white sheets", "sheet", ["white"])]
        + [("striped blanket", "blanket", ["striped"]), ("window", "window", [])],
        [(0, "with", 1), (2, "under", 3)],
        "replace_relation",
        ["on a window"],
    ),
    # two umbrellas named alike (the parse ran the verb into one): the same two things
    (
        "A yellow umbrella and a blue umbrella shade two beach chairs.",
        [("yellow umbrella", "umbrella", ["yellow"]), ("blue umbrella shade", "shade", ["blue"])]
        + [("two beach chairs", "chair", [], 2)],
        [],
        "swap_attribute",
        ["A blue umbrella and a yellow umbrella"],
    ),
    # a wooden tray may be of bamboo
    (
        "A ceramic mug and a glass tumbler sit on a wooden tray.",
        [("ceramic mug", "mug", ["ceramic"]), ("glass tumbler", "tumbler", ["glass"])]
        + [("wooden tray", "tray", ["wooden"])],
        [(0, "sit on", 2), (1, "sit on", 2)],
        "replace_attribute",
        ["bamboo tray"],
    ),
    # what one holds besides is of a size to hold, and never "a binoculars"
    (
        "A boy holds a fishing rod while his grandfather baits the hook.",
        [("boy", "boy", []), ("fishing rod", "rod", []), ("grandfather", "grandfather", [])]
        + [("hook", "hook", [])],
        [(0, "hold", 1), (0, "have", 2), (2, "bait", 3)],
        "connect",
        ["and a giant", "and a huge", "and a large", "and a big", "a binoculars"],
    ),
    # a new stuff must have been seen in what holds it
    (
        "Two elderly women share a pot of tea at a table covered in lace.",
        [("Two elderly women", "woman", ["elderly"], 2), ("pot", "pot", []), ("tea", "tea", [])]
        + [("table", "table", []), ("lace", "lace", [])],
        [(0, "share", 1), (2, "in", 1), (0, "at", 3), (4, "cover", 3)],
        "replace_object",
        ["pot of juice", "pot of milk"],
    ),
]


@pytest.mark.parametrize("caption,entities,relations,kind,never", REFUSED)
def test_round53_failures_are_refused(caption, entities, relations, kind, never):
    # "bamboo" is one of a tray's many materials: drawn once in a few hundred seeds
    seeds = 300 if kind == "replace_attribute" else 60
    texts, _ = texts_over_seeds(caption, entities, relations, kind, seeds)
    assert not any(x in t for t in texts for x in never), texts
