"""The classes of error blind review round 9 found (captions written here, alt-text style)."""

from __future__ import annotations

from neg_helpers import graph, texts_over_seeds

from sgprep.negatives import addable
from sgprep.negatives.perturbation import MoveNPs, Perturbation, SetHead
from sgprep.negatives.realise import Realiser
from sgprep.negatives.scenes import settings_of
from sgprep.negatives.vocab import load_vocab

VOCAB = load_vocab()

FARM = (
    "Girl who is kneeling in the grass feeds a lamb from a bottle at a petting farm, as other "
    "sheep crowd around the wooden fence."
)
FARM_ENTITIES = [
    ("Girl", "girl", []),
    ("grass", "grass", []),
    ("lamb", "lamb", []),
    ("bottle", "bottle", []),
    ("petting farm", "farm", []),
    ("sheep", "sheep", []),
    ("wooden fence", "fence", ["wooden"]),
]
FARM_RELATIONS = [(0, "kneel in", 1), (0, "feed", 2), (5, "crowd around", 6)]


def test_a_young_animal_and_its_kind_are_one_kind():
    for young, kind in [("lamb", "sheep"), ("kitten", "cat"), ("foal", "horse"), ("cub", "bear")]:
        assert VOCAB.cooc.is_related(young, kind) and VOCAB.cooc.is_related(kind, young)
    assert not VOCAB.cooc.is_related("bear", "lion")  # two groups through "cub", not one
    assert not VOCAB.cooc.is_related("lamb", "horse")
    texts, rejected = texts_over_seeds(FARM, FARM_ENTITIES, FARM_RELATIONS, "swap_object", 6)
    assert not any("feeds a sheep" in t for t in texts), texts
    assert rejected["related_word"]


def test_an_invariant_noun_takes_its_number_from_the_word_before():
    g = graph(FARM, FARM_ENTITIES, FARM_RELATIONS)
    r = Realiser(FARM, g)
    assert r.plural(5)  # "other sheep crowd"
    assert not r.plural(2)  # "a lamb"
    one = "a sheep grazes near the fence"
    assert not Realiser(one, graph(one, [("sheep", "sheep", []), ("fence", "fence", [])])).plural(0)
    # a singular name put in the plural slot is made plural
    p = Perturbation("replace_object", "replace", g, (SetHead(5, "goat", "sheep"),))
    assert (
        Realiser(FARM, g)
        .realise(p, use_template=False)[0]
        .endswith("as other goats crowd around the wooden fence.")
    )


def test_a_noun_phrase_put_after_other_keeps_one_determiner_and_the_number():
    g = graph(FARM, FARM_ENTITIES, FARM_RELATIONS)
    exchange = Perturbation("redraw_relation", "swap", g, (MoveNPs(((2, 5), (5, 2))),))
    text, how = Realiser(FARM, g).realise(exchange, use_template=False)
    assert text is None, text  # never "other a lamb crowd" nor "other lamb crowd"
    assert how == "double_determiner"
    plural = FARM.replace("a lamb", "two lambs")
    ents = [(("two lambs", "lamb", [], 2) if e[0] == "lamb" else e) for e in FARM_ENTITIES]
    g = graph(plural, ents, FARM_RELATIONS)
    exchange = Perturbation("redraw_relation", "swap", g, (MoveNPs(((2, 5), (5, 2))),))
    assert Realiser(plural, g).realise(exchange, use_template=False)[1] == "double_determiner"
    bare = FARM.replace("a lamb", "lambs")
    ents = [(("lambs", "lamb", []) if e[0] == "lamb" else e) for e in FARM_ENTITIES]
    g = graph(bare, ents, FARM_RELATIONS)
    exchange = Perturbation("redraw_relation", "swap", g, (MoveNPs(((2, 5), (5, 2))),))
    text, _ = Realiser(bare, g).realise(exchange, use_template=False)
    assert text is not None and "as other lambs crowd" in text, text


def test_a_colour_named_after_a_thing_is_replaced_whole_or_not_at_all():
    cap = (
        "Close-up of a knitted wool scarf in mustard yellow, folded on a wooden chair next to a "
        "pair of brown leather gloves."
    )
    ents = [
        ("knitted wool scarf in mustard yellow", "scarf", ["knitted", "wool", "yellow"]),
        ("wooden chair", "chair", ["wooden"]),
        ("brown leather gloves", "glove", ["brown", "leather"]),
    ]
    rels = [(0, "fold on", 1), (1, "next to", 2)]
    texts, rejected = texts_over_seeds(cap, ents, rels, "replace_attribute", 20)
    assert all("mustard yellow" in t for t in texts), texts  # never "mustard pink"
    assert rejected["colour_compound"]
    # a colour after nothing, or after one of the thing's own attributes, is its own word
    assert any("brown leather" not in t for t in texts), texts
    cap = "a big yellow bus parked on a street"
    ents = [("big yellow bus", "bus", ["big", "yellow"]), ("street", "street", [])]
    texts, _ = texts_over_seeds(cap, ents, [(0, "park on", 1)], "replace_attribute", 20)
    assert any(t.startswith("a big ") and "big yellow" not in t for t in texts), texts


def test_nothing_of_the_street_is_added_in_a_hospital():
    table = addable.addable_table(load_vocab().cooc)

    def added(words: str) -> set[str]:
        return {a.word for a, _ in addable.addable_in(table, settings_of(words.split()))}

    words = "nurse talking with a patient in a hospital room while flowers sit on the windowsill"
    kinds = addable.lexicon()["kinds"]
    assert not {w for w in added(words) if kinds[w][0] == "vehicle" or kinds[w][1]}
    assert "suitcase" not in added("a guest waiting in a hotel lobby")  # may well be there
    assert "umbrella" not in added("children building a sandcastle")
