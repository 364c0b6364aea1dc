"""States of one group (``data/attribute_groups.json``: a field snowy or grassy, chicken grilled or
fried, a street busy or quiet) change and swap within their group, never to a word of the same
state (issue 32: binding swaps wherever they hold, replace_attribute beyond colours)."""

from __future__ import annotations

import json
from collections import Counter

from neg_helpers import texts_over_seeds

from sgprep.negatives.words import (
    ATTRIBUTE_GROUPS,
    attribute_group,
    attribute_kind,
    attribute_type,
    same_state,
)


def test_each_word_is_in_one_group_and_no_colour_material_or_size_is():
    groups = json.loads(ATTRIBUTE_GROUPS.read_text())["groups"]
    words = Counter(w for states in groups.values() for state in states for w in state)
    assert words and max(words.values()) == 1, [w for w, n in words.items() if n > 1]
    assert all(attribute_type(w) == "other" for w in words)
    assert all(len(states) >= 2 for states in groups.values())  # a state needs another


def test_kinds_of_states_and_two_word_colours():
    assert attribute_group("grilled") == "cooking" and attribute_kind("Snowy") == "ground"
    assert attribute_kind("wooden") == "material" and attribute_kind("fluffy") == "other"
    assert attribute_type("bright orange") == "colour" and attribute_type("dark green") == "colour"
    assert attribute_type("bright idea") == "other"
    assert same_state("busy", "crowded") and not same_state("busy", "quiet")
    assert not same_state("grilled", "grilled chicken") and not same_state("hot", "red")


def test_a_state_is_replaced_by_another_state_of_its_group_never_by_the_same_one():
    cap = "A busy street in a small town."
    ents = [("busy street", "street", ["busy"]), ("small town", "town", ["small"])]
    texts, _ = texts_over_seeds(cap, ents, [(0, "in", 1)], "replace_attribute", 16)
    assert "A quiet street in a small town." in texts, texts
    assert not any(w in t for t in texts for w in ("crowded street", "bustling", "packed")), texts


def test_two_things_exchange_states_and_two_word_colours():
    cap = "A snowy hill next to a grassy field."
    ents = [("snowy hill", "hill", ["snowy"]), ("grassy field", "field", ["grassy"])]
    texts, _ = texts_over_seeds(cap, ents, [(0, "next to", 1)], "swap_attribute", 4)
    assert texts == {"A grassy hill next to a snowy field."}, texts
    cap = "A bright orange kayak next to a blue canoe."
    ents = [("bright orange kayak", "kayak", ["bright orange"]), ("blue canoe", "canoe", ["blue"])]
    texts, _ = texts_over_seeds(cap, ents, [(0, "next to", 1)], "swap_attribute", 4)
    assert texts == {"A blue kayak next to a bright orange canoe."}, texts
    # one state said twice is no swap
    cap = "A busy street beside a crowded market."
    ents = [("busy street", "street", ["busy"]), ("crowded market", "market", ["crowded"])]
    texts, rejected = texts_over_seeds(cap, ents, [(0, "beside", 1)], "swap_attribute", 4)
    assert not texts and rejected["related_word"], texts


def test_patterns_and_shapes_change_within_their_group_never_to_a_like_pattern():
    cap = "A man in a plaid shirt chopping wood behind a cabin."
    ents = [
        ("man", "man", []),
        ("plaid shirt", "shirt", ["plaid"]),
        ("wood", "wood", []),
        ("cabin", "cabin", []),
    ]
    rels = [(0, "in", 1), (0, "chop", 2), (0, "chop behind", 3)]
    texts, _ = texts_over_seeds(cap, ents, rels, "replace_attribute", 16)
    assert "A man in a striped shirt chopping wood behind a cabin." in texts, texts
    assert not any("checkered shirt" in t or "tartan shirt" in t for t in texts), texts
    cap = "A kitchen with wooden chairs around a round table."
    ents = [
        ("kitchen", "kitchen", []),
        ("wooden chairs", "chair", ["wooden"]),
        ("round table", "table", ["round"]),
    ]
    rels = [(0, "with", 1), (1, "around", 2)]
    texts, _ = texts_over_seeds(cap, ents, rels, "replace_attribute", 16)
    assert "A kitchen with wooden chairs around a square table." in texts, texts
    assert not any("circular table" in t for t in texts), texts


def test_calm_water_becomes_choppy_and_indoors_outdoors():
    cap = "A man standing on a paddleboard in calm water."
    ents = [
        ("man", "man", []),
        ("paddleboard", "paddleboard", []),
        ("calm water", "water", ["calm"]),
    ]
    rels = [(0, "stand on", 1), (0, "in", 2)]
    texts, _ = texts_over_seeds(cap, ents, rels, "replace_attribute", 16)
    assert "A man standing on a paddleboard in choppy water." in texts, texts
    assert not any("still water" in t for t in texts), texts
    cap = "A man swimming laps in an outdoor pool."
    ents = [("man", "man", []), ("laps", "lap", []), ("outdoor pool", "pool", ["outdoor"])]
    texts, _ = texts_over_seeds(
        cap, ents, [(0, "swim", 1), (0, "swim in", 2)], "replace_attribute", 16
    )
    assert "A man swimming laps in an indoor pool." in texts, texts
