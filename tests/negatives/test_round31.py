"""Blind review round 31's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds


def test_a_bare_name_and_one_with_an_article_keep_their_slots():
    texts, rejected = texts_over_seeds(
        "A woman in a green scarf sits across from a man in glasses.",
        [
            ("woman", "woman", []),
            ("green scarf", "scarf", ["green"]),
            ("man", "man", []),
            ("glasses", "glasses", []),
        ],
        [(0, "wear", 1), (2, "wear", 3)],
        "swap_object",
        12,
    )
    assert not any("in scarf" in t or "green glasses" in t for t in texts), texts
    assert rejected["article_needed"]


def test_one_hides_behind_the_bigger_thing():
    texts, rejected = texts_over_seeds(
        "A little girl hides behind a large green curtain.",
        [
            ("little girl", "girl", ["little"]),
            ("large green curtain", "curtain", ["large", "green"]),
        ],
        [(0, "hide behind", 1)],
        "swap_attribute",
        12,
    )
    assert not any("large girl" in t for t in texts), texts
    assert rejected["size_misfit"]


def test_verbs_that_say_the_same_of_bread_and_firewood():
    texts, _ = texts_over_seeds(
        "A baker takes loaves of bread out of a brick oven.",
        [
            ("baker", "baker", []),
            ("loaves", "loaf", [], 2),
            ("bread", "bread", []),
            ("brick oven", "oven", ["brick"]),
        ],
        [(0, "take", 1), (2, "have", 1), (0, "take out of", 3)],
        "replace_relation",
        40,
    )
    assert not any("pulls" in t or "removes" in t for t in texts), texts
    texts, _ = texts_over_seeds(
        "A man chops firewood with an axe behind a cabin.",
        [
            ("man", "man", []),
            ("firewood", "firewood", []),
            ("axe", "axe", []),
            ("cabin", "cabin", []),
        ],
        [(0, "chop", 1), (0, "chop with", 2), (2, "behind", 3)],
        "replace_relation",
        40,
    )
    assert not any("splits" in t or "cuts" in t for t in texts), texts
