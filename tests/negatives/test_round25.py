"""Blind review round 25's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds


def test_a_beings_colour_seen_once_is_not_its_colour():
    texts, rejected = texts_over_seeds(
        "An orange cat curled up on a blue blanket.",
        [("orange cat", "cat", ["orange"]), ("blue blanket", "blanket", ["blue"])],
        [(0, "curl on", 1)],
        "swap_attribute",
        8,
    )
    assert not texts and rejected["implausible_attribute"], texts  # "a blue cat"
    texts, _ = texts_over_seeds(
        "A black cat sleeping next to a white dog.",
        [("black cat", "cat", ["black"]), ("white dog", "dog", ["white"])],
        [(0, "sleep next to", 1)],
        "swap_attribute",
        8,
    )
    assert "A white cat sleeping next to a black dog." in texts, texts


def test_sizes_stay_across_a_verb_that_says_which_is_bigger():
    texts, rejected = texts_over_seeds(
        "A large old oak tree shading a small white chapel.",
        [
            ("large old oak tree", "tree", ["large", "old"]),
            ("small white chapel", "chapel", ["small", "white"]),
        ],
        [(0, "shade", 1)],
        "swap_attribute",
        8,
    )
    assert not any("small old oak" in t for t in texts), texts
    assert rejected["size_misfit"]


def test_a_thing_the_statistics_know_in_materials_takes_only_those():
    texts, rejected = texts_over_seeds(
        "A green glass bottle beside a white paper cup.",
        [
            ("green glass bottle", "bottle", ["green", "glass"]),
            ("white paper cup", "cup", ["white", "paper"]),
        ],
        [(0, "beside", 1)],
        "swap_object",
        8,
    )
    assert not texts and rejected["implausible_attribute"], texts  # "a white paper bottle"


def test_an_animal_named_with_its_young_is_not_replaced():
    texts, rejected = texts_over_seeds(
        "A duck and her ducklings swimming across a pond.",
        [("duck", "duck", []), ("ducklings", "duckling", []), ("pond", "pond", [])],
        [(0, "have", 1), (0, "swim across", 2), (1, "swim across", 2)],
        "replace_object",
        12,
    )
    assert not any("her ducklings" in t and not t.startswith("A duck") for t in texts), texts
    assert rejected["kin_named"]


def test_a_collective_keeps_what_it_gathers():
    texts, rejected = texts_over_seeds(
        "A bunch of bananas hanging from a hook in a kitchen.",
        [("bananas", "banana", []), ("hook", "hook", []), ("kitchen", "kitchen", [])],
        [(0, "hang from", 1), (1, "in", 2)],
        "replace_object",
        16,
    )
    assert all("bunch of bananas" in t or "bunch of grapes" in t for t in texts), texts
    assert rejected["collective"]
    texts, _ = texts_over_seeds(  # a herd gathers sheep as it does cows
        "A herd of cows grazing in a green field.",
        [("cows", "cow", []), ("green field", "field", ["green"])],
        [(0, "graze in", 1)],
        "replace_object",
        16,
    )
    assert any("herd of sheep" in t or "herd of goats" in t for t in texts), texts


def test_names_and_materials_that_may_say_the_same():
    for cap, ents, rels, kind, same in (
        (
            "A black cat sitting on a white fence.",
            [("black cat", "cat", ["black"]), ("white fence", "fence", ["white"])],
            [(0, "sit on", 1)],
            "replace_object",
            "rail",
        ),
        (
            "A woman stirring a pot of sauce on a stove.",
            [("woman", "woman", []), ("pot", "pot", []), ("sauce", "sauce", [])]
            + [("stove", "stove", [])],
            [(0, "stir", 1), (2, "in", 1), (0, "on", 3)],
            "replace_object",
            "oven",
        ),
        (
            "A pink bicycle with a wicker basket on the front.",
            [("pink bicycle", "bicycle", ["pink"]), ("wicker basket", "basket", ["wicker"])],
            [(0, "with", 1), (1, "on front of", 0)],
            "replace_attribute",
            "bamboo",
        ),
    ):
        texts, _ = texts_over_seeds(cap, ents, rels, kind, 40)
        assert not any(same in t.split() for t in texts), (cap, texts)


def test_a_jungle_gym_is_no_jungle():
    # (the round's caption, "A child climbing on a jungle gym at a school playground.", has
    # too few things seen with a gym or a playground left to draw from since round 41's rule)
    texts, _ = texts_over_seeds(
        "A kid climbing a jungle gym in a park.",
        [("kid", "kid", []), ("jungle gym", "gym", []), ("park", "park", [])],
        [(0, "climb", 1), (0, "in", 2)],
        "connect",
        40,
    )
    wild = {"gorilla", "lioness", "lion", "tortoise", "tiger", "monkey", "elephant"}
    assert texts and not any(wild & set(t.rstrip(".").split()) for t in texts), texts
