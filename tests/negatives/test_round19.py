"""Blind review round 19's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused or mended after the round."""

from __future__ import annotations

import re

from neg_helpers import graph, texts_over_seeds

from sgprep.negatives.perturbation import Perturbation, SetPredicate
from sgprep.negatives.realise import Realiser


def test_a_verb_after_to_stays_in_its_base_form():
    # "cut" reads as a participle as well: "to cut" -> "to carried" (round 19)
    cap = "A man using a chainsaw to cut a fallen tree."
    g = graph(
        cap,
        [("man", "man", []), ("chainsaw", "chainsaw", []), ("fallen tree", "tree", ["fallen"])],
        [(0, "use", 1), (0, "cut", 2)],
    )
    edit = SetPredicate(1, "cut", "carry", True)
    p = Perturbation("replace_relation", "replace", g, (edit,))
    text, _ = Realiser(cap, g).realise(p, use_template=False)
    assert text == "A man using a chainsaw to carry a fallen tree.", text
    # and a participle stays one: "a tree cut by a man" keeps its form
    cap = "A fallen tree cut into logs."
    g = graph(cap, [("fallen tree", "tree", ["fallen"]), ("logs", "log", [])], [(0, "cut into", 1)])
    p = Perturbation("replace_relation", "replace", g, (SetPredicate(0, "cut", "carve", True),))
    text, _ = Realiser(cap, g).realise(p, use_template=False)
    assert text == "A fallen tree carved into logs.", text


def test_verbs_that_may_say_the_same_are_not_replaced_by_each_other():
    for cap, entities, relations, old, same in (
        (
            "A large stone bridge spanning a wide river.",
            [
                ("large stone bridge", "bridge", ["large", "stone"]),
                ("wide river", "river", ["wide"]),
            ],
            [(0, "span", 1)],
            "spanning",
            ("crossing",),
        ),
        (
            "A woman wheeling a bicycle through a train station.",
            [("woman", "woman", []), ("bicycle", "bicycle", []), ("train station", "station", [])],
            [(0, "wheel", 1), (0, "wheel through", 2)],
            "wheeling",
            ("walking", "pushing"),
        ),
    ):
        texts, _ = texts_over_seeds(cap, entities, relations, "replace_relation", 12)
        assert not any(w in t and old not in t for t in texts for w in same), texts


def test_a_stormy_sky_is_never_made_cloudy():
    texts, _ = texts_over_seeds(
        "A field of cows under a stormy gray sky.",
        [
            ("field", "field", []),
            ("cows", "cow", []),
            ("stormy gray sky", "sky", ["stormy", "gray"]),
        ],
        [(1, "in", 0), (0, "under", 2)],
        "replace_attribute",
        12,
    )
    assert not any(re.search(r"\b(cloudy|overcast|rainy) gray sky", t) for t in texts), texts


def test_what_was_done_to_a_thing_keeps_its_sibling_out():
    texts, rejected = texts_over_seeds(
        "A bedroom with a neatly made bed and two nightstands.",
        [
            ("bedroom", "bedroom", []),
            ("neatly made bed", "bed", ["made"]),
            ("nightstands", "nightstand", [], 2),
        ],
        [(0, "with", 1), (0, "with", 2)],
        "replace_object",
        12,
    )
    assert not any("made couch" in t or "made armchair" in t for t in texts), texts
    assert rejected["compound"]


def test_a_beach_chair_is_never_added_to_a_shore():
    # round 19: "walking hand in hand along the shore near a beach chair" may be true
    texts, _ = texts_over_seeds(
        "An older couple walking hand in hand along the shore.",
        [("older couple", "couple", ["older"]), ("hand", "hand", []), ("shore", "shore", [])],
        [(0, "walk along", 2)],
        "connect",
        24,
    )
    assert not any("beach chair" in t for t in texts), texts


def test_a_verb_used_with_its_preposition_alone_takes_no_verb_that_wants_an_object():
    texts, _ = texts_over_seeds(
        "A man holding a baby while talking to a friend.",
        [("man", "man", []), ("baby", "baby", []), ("friend", "friend", [])],
        [(0, "hold", 1), (0, "talk to", 2)],
        "replace_relation",
        24,
    )
    assert not any(
        re.search(r"\b(throwing|handing|passing|giving) to a friend", t) for t in texts
    ), texts


def test_a_shuffle_never_gives_the_second_one_s_verb_to_the_first():
    # "a dog watching a man mow the lawn", parsed "dog | mow | lawn": exchanged, the dog mows
    texts, rejected = texts_over_seeds(
        "A dog watching a man mow the lawn.",
        [("dog", "dog", []), ("man", "man", []), ("lawn", "lawn", [])],
        [(0, "watch", 1), (0, "mow", 2)],
        "shuffle_relation",
        12,
    )
    assert not any("dog mow" in t for t in texts), texts
    assert rejected["parsed_backwards"]
