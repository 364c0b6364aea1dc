"""replace_object on longer, COCO-style captions (issue 18): a replacement that may be true
(a person's role for who they are, a vague word, a part of another object of the caption), one
that splits a compound, one that fits the relation that drew it but not the others or not the
scene. Captions written here, of the kind COCO holds."""

from __future__ import annotations

from neg_helpers import plausible_perturber
from test_plausible import made

from sgprep.negatives.vocab import load_vocab

VOCAB = load_vocab()


def test_a_role_is_never_replaced_by_who_the_person_is():
    # "A waiter carrying a tray of drinks in a restaurant": a waiter may be a girl
    p = plausible_perturber(
        "A waiter carrying a tray", [("waiter", "waiter", []), ("tray", "tray", [])]
    )
    assert p._may_be_true("waiter", "girl", None) == "may_be_true"
    assert p._may_be_true("batter", "man", None) == "may_be_true"
    assert p._may_be_true("catcher", "umpire", None) is None  # two roles: one is false
    assert p._may_be_true("woman", "man", "person") is None  # who for who: false


def test_vague_words_are_never_drawn():
    p = plausible_perturber("A bowl of fresh strawberries", [("bowl", "bowl", [])])
    for vague in ("substance", "material", "stuff", "thing"):
        assert p._may_be_true("strawberry", vague, None) == "generic_word"


def test_a_person_is_replaced_only_by_a_person():
    # "A young man pushing a friend on a swing in the park" -> "pushing a roller cart"
    p = plausible_perturber(
        "A young man pushing a friend on a swing",
        [("young man", "man", ["young"]), ("friend", "friend", []), ("swing", "swing", [])],
        [(0, "push", 1), (1, "on", 2)],
    )
    #                        new     old     category plural related shared article
    assert p._verdict("cart", "friend", None, False, True, False, "a") is True


def test_a_compound_is_not_split():
    caption = "A fishing boat is docked at a wooden pier in the harbor."
    ents = [
        ("fishing boat", "boat", []),
        ("wooden pier", "pier", ["wooden"]),
        ("harbor", "harbor", []),
    ]
    texts, rejected = made(caption, ents, [(0, "dock at", 1)], "replace_object", with_text=True)
    assert not any("fishing" in t and "fishing boat" not in t for t in texts), texts
    assert rejected["compound"]
    assert plausible_perturber(caption, ents)._in_compound(0)
    assert not plausible_perturber(caption, ents)._in_compound(1)  # "wooden" is an attribute
    # "a snow covered fence": the noun before a participle
    caption = "A snow covered fence runs along a quiet road."
    ents = [("snow", "snow", []), ("fence", "fence", []), ("quiet road", "road", ["quiet"])]
    assert plausible_perturber(caption, ents)._in_compound(0)
    assert not plausible_perturber(caption, ents)._in_compound(2)


def test_the_new_object_fits_the_scene_of_the_caption():
    # "A man holding an umbrella over a woman in the rain" -> "in the bathroom"
    caption = "A man holding an umbrella over a woman in the rain."
    ents = [("man", "man", []), ("umbrella", "umbrella", []), ("woman", "woman", [])]
    ents.append(("rain", "rain", []))
    p = plausible_perturber(caption, ents, [(0, "hold", 1), (1, "over", 2), (2, "in", 3)])
    assert VOCAB.cooc.n("scene", "bathroom", "woman")  # the person says nothing of a scene
    assert not p._fits_scene(3, "bathroom")
    assert p._fits_scene(3, "patio")  # seen with an umbrella
    texts, rejected = made(
        caption, ents, [(0, "hold", 1), (1, "over", 2), (2, "in", 3)], "replace_object", 20, True
    )
    assert not any(t.endswith("in the bathroom.") for t in texts), texts


def test_every_relation_of_the_new_object_is_attested():
    # "A man pushing his friend who sits on a bench" -> "pushing a stroller": he may push a
    # stroller, but a stroller sitting on a bench was never seen
    caption = "A young man pushing his friend who sits on a park bench."
    ents = [("young man", "man", ["young"]), ("friend", "friend", []), ("park bench", "bench", [])]
    p = plausible_perturber(caption, ents, [(0, "push", 1), (1, "sit on", 2)])
    assert VOCAB.cooc.judge("man", "push", "stroller") is None  # what drew it holds
    assert p._unattested_relation(["young man", "stroller", "bench"], 1)
    # a person for a person: seen of some person ("a man sitting on a bench")
    assert p._unattested_relation(["young man", "lady", "bench"], 1) is None


def test_a_part_of_another_object_is_not_drawn():
    # "An old airplane with two workers on the runway" -> "two wings": the airplane has them
    caption = "An old airplane with two workers on the runway."
    ents = [("old airplane", "airplane", ["old"]), ("two workers", "worker", [], 2)]
    ents.append(("runway", "runway", []))
    p = plausible_perturber(caption, ents, [(0, "with", 1), (1, "on", 2)])
    assert VOCAB.cooc.n("spo", "airplane", "have", "wing")
    assert p._part_of_other(1, "wing")
    assert not p._part_of_other(0, "wing")  # the airplane itself replaced: no whole left
    assert not p._part_of_other(1, "truck")
