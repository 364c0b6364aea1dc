"""Blind review round 18's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds

OFFICER = (
    "A mounted officer talking to a child beside his horse.",
    [("mounted officer", "officer", ["mounted"]), ("child", "child", []), ("horse", "horse", [])],
    [(0, "talk to", 1), (0, "talk beside", 2)],
)
HELPING = (
    "A young boy helping his father wash the family car.",
    [("young boy", "boy", ["young"]), ("father", "father", []), ("family car", "car", ["family"])],
    [(1, "wash", 2), (0, "help", 1)],
)


def test_talking_and_helping_read_the_same_either_way_round():
    for caption, entities, relations in (OFFICER, HELPING):
        for kind in ("shuffle_relation", "swap_object"):
            texts, _ = texts_over_seeds(caption, entities, relations, kind, 6)
            assert not any(
                t.startswith(("A child talking", "A father helping", "A young father"))
                for t in texts
            ), (kind, texts)


def test_no_new_verb_before_a_second_complement():
    texts, rejected = texts_over_seeds(
        "A father teaching his daughter how to ride a bike.",
        [("father", "father", []), ("daughter", "daughter", []), ("bike", "bike", [])],
        [(0, "teach", 1), (0, "ride", 2)],
        "replace_relation",
        6,
    )
    assert not any("his daughter how" in t and "teaching" not in t for t in texts), texts
    assert rejected["verb_complement"]
    texts, rejected = texts_over_seeds(*HELPING, "replace_relation", 6)
    assert not any("his father wash" in t and "helping" not in t for t in texts), texts


def test_combing_is_not_replaced_by_brushing():
    texts, _ = texts_over_seeds(
        "A woman combing the mane of a white horse.",
        [("woman", "woman", []), ("mane", "mane", []), ("white horse", "horse", ["white"])],
        [(0, "comb", 1), (2, "have", 1)],
        "replace_relation",
        12,
    )
    assert not any("brushing" in t or "grooming" in t for t in texts), texts


def test_a_hat_never_becomes_a_beanie():
    texts, _ = texts_over_seeds(
        "A woman trying on a hat in a clothing store.",
        [("woman", "woman", []), ("hat", "hat", []), ("clothing store", "store", ["clothing"])],
        [(0, "try on", 1), (1, "in", 2)],
        "replace_object",
        24,
    )
    assert not any("beanie" in t for t in texts), texts
