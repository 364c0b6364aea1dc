"""Verbs the larger written corpus (38,493 captions) attests between two things that may say
the same of the photo as the caption's verb (read in the measurement set's output after the
corpus grew): replace_relation never puts one in place of the other. The captions here are
written for the test."""

from __future__ import annotations

import pytest
from neg_helpers import texts_over_seeds


@pytest.mark.parametrize(
    "caption, entities, relations, same",
    [
        (
            "Three horses running across a field.",
            [("horses", "horse", [], 3), ("field", "field", [])],
            [(0, "run across", 1)],
            "galloping",
        ),
        (
            "A man on a bench playing an acoustic guitar.",
            [("man", "man", []), ("bench", "bench", [])]
            + [("acoustic guitar", "guitar", ["acoustic"])],
            [(0, "on", 1), (0, "play", 2)],
            "strumming",
        ),
        (
            "A flock of sheep crossing a quiet country road.",
            [("sheep", "sheep", []), ("quiet country road", "road", ["quiet", "country"])],
            [(0, "cross", 1)],
            "blocking",
        ),
        (
            "A man riding a brown horse on a beach.",
            [("man", "man", []), ("brown horse", "horse", ["brown"]), ("beach", "beach", [])],
            [(0, "ride", 1), (0, "on", 2)],
            "guiding",
        ),
        (
            "A woman carrying a basket of fruit on her head.",
            [("woman", "woman", []), ("basket", "basket", []), ("fruit", "fruit", [])]
            + [("head", "head", [])],
            [(0, "carry", 1), (1, "of", 2), (1, "on", 3)],
            "balancing",
        ),
    ],
)
def test_a_verb_that_may_say_the_same_is_no_replacement(caption, entities, relations, same):
    texts, _ = texts_over_seeds(caption, entities, relations, "replace_relation", 40)
    assert not any(same in t.split() for t in texts), texts


def test_a_third_person_in_es_is_counted_by_its_own_verb():
    """The bundled statistics count "shines his shoes" as "shine", not "shin" (the rule
    lemmatizer's cut): no man shins a shoe."""
    from sgprep.negatives.vocab import load_vocab

    cooc = load_vocab().cooc
    assert not any(k.split("|")[1] == "shin" for k in cooc.tables["spo"])
    texts, _ = texts_over_seeds(
        "A man kneeling to tie his running shoe.",
        [("man", "man", []), ("running shoe", "shoe", ["running"])],
        [(0, "tie", 1)],
        "replace_relation",
        40,
    )
    assert not any("shin" in t.split() for t in texts), texts
