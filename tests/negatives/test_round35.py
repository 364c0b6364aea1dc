"""Blind review round 35's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round; and what the larger statistics (53,675 written
captions) changed."""

from __future__ import annotations

from neg_helpers import texts_over_seeds

from sgprep.negatives import addable
from sgprep.negatives.scene import plain_attribute
from sgprep.negatives.strategies.connect import describing
from sgprep.negatives.vocab import load_vocab

VOCAB = load_vocab()


def test_two_of_one_kind_by_one_thing_are_not_redrawn():
    texts, rejected = texts_over_seeds(
        "A red bicycle leans against a fence next to a blue scooter.",
        [
            ("red bicycle", "bicycle", ["red"]),
            ("fence", "fence", []),
            ("blue scooter", "scooter", ["blue"]),
        ],
        [(0, "lean against", 1), (1, "next to", 2)],
        "redraw_relation",
        12,
    )
    assert not texts and rejected["may_be_true"], texts


def test_resting_next_to_one_another_is_not_turned_round():
    texts, rejected = texts_over_seeds(
        "A fluffy gray kitten sleeps next to a sleek black puppy.",
        [
            ("fluffy gray kitten", "kitten", ["fluffy", "gray"]),
            ("sleek black puppy", "puppy", ["sleek", "black"]),
        ],
        [(0, "sleep next to", 1)],
        "shuffle_relation",
        12,
    )
    assert not texts and rejected["symmetric_relation"], texts


def test_no_attribute_of_a_verb_the_parse_took_for_a_name():
    # "peers" taken for the name, "kitten" for its attribute: "a huge kitten peers up at a
    # tiny sleeping dog"
    caption = "A tiny kitten peers up at a huge sleeping dog on the kitchen floor."
    entities = [
        ("tiny kitten peers", "peer", ["tiny", "kitten"]),
        ("huge sleeping dog", "dog", ["huge"]),
        ("kitchen floor", "floor", []),
    ]
    relations = [(0, "at", 1), (1, "on", 2)]
    texts, rejected = texts_over_seeds(caption, entities, relations, "swap_attribute", 12)
    assert not texts and rejected["noun_as_attribute"], texts
    texts, _ = texts_over_seeds(caption, entities, relations, "replace_attribute", 20)
    assert all("tiny kitten" in t for t in texts), texts


def test_a_containers_temperature_is_its_contents():
    texts, rejected = texts_over_seeds(
        "A hot cup of coffee sits next to a cold glass of orange juice.",
        [
            ("hot cup", "cup", ["hot"]),
            ("coffee", "coffee", []),
            ("cold glass", "glass", ["cold"]),
            ("orange juice", "juice", ["orange"]),
        ],
        [(1, "in", 0), (0, "sit next to", 2), (3, "in", 2)],
        "swap_attribute",
        12,
    )
    assert not texts and rejected["implausible_attribute"], texts


def test_a_thing_seen_in_several_materials_is_made_only_of_those_or_metal():
    seen = {
        m for m in ("ceramic", "glass", "porcelain", "wooden") if VOCAB.cooc.n("attr", m, "teapot")
    }
    assert seen == {"ceramic", "glass", "porcelain"}
    texts, rejected = texts_over_seeds(
        "A wooden table holds a metal teapot and a glass jar of honey.",
        [
            ("wooden table", "table", ["wooden"]),
            ("metal teapot", "teapot", ["metal"]),
            ("glass jar", "jar", ["glass"]),
            ("honey", "honey", []),
        ],
        [(0, "hold", 1), (0, "hold", 2), (3, "in", 2)],
        "swap_attribute",
        12,
    )
    assert not any("wooden teapot" in t for t in texts), texts
    assert rejected["implausible_attribute"]
    # a thing of fewer materials is still judged by its kind (issue 32: "a red cube")
    texts, _ = texts_over_seeds(
        "A wooden cube sits on top of a metal sphere.",
        [("wooden cube", "cube", ["wooden"]), ("metal sphere", "sphere", ["metal"])],
        [(0, "sit on top of", 1)],
        "swap_attribute",
        8,
    )
    assert "A metal cube sits on top of a wooden sphere." in texts, texts


def test_a_ground_the_animals_were_never_seen_on_is_not_drawn():
    assert not VOCAB.cooc.n("scene", "giraffe", "snow")
    texts, _ = texts_over_seeds(
        "A tall giraffe walks near a short zebra on the dusty plain.",
        [
            ("tall giraffe", "giraffe", ["tall"]),
            ("short zebra", "zebra", ["short"]),
            ("dusty plain", "plain", ["dusty"]),
        ],
        [(0, "walk near", 1), (1, "on", 2)],
        "replace_attribute",
        40,
    )
    assert texts and not any("snowy" in t or "icy" in t for t in texts), texts


def test_a_dim_candle_is_lit():
    texts, _ = texts_over_seeds(
        "A bright lamp glows next to a dim candle on the nightstand.",
        [
            ("bright lamp", "lamp", ["bright"]),
            ("dim candle", "candle", ["dim"]),
            ("nightstand", "nightstand", []),
        ],
        [(0, "glow next to", 1), (1, "on", 2)],
        "replace_attribute",
        40,
    )
    assert not any("lit candle" in t for t in texts), texts


def test_a_street_lined_with_cars_is_filled_with_them():
    texts, _ = texts_over_seeds(
        "Snow falls on a quiet street lined with parked cars.",
        [
            ("Snow", "snow", []),
            ("quiet street", "street", ["quiet"]),
            ("parked cars", "car", ["parked"], 2),
        ],
        [(0, "fall on", 1), (1, "line with", 2)],
        "replace_relation",
        40,
    )
    assert not any("filled with" in t for t in texts), texts


def test_a_posture_changes_only_for_a_posture():
    texts, rejected = texts_over_seeds(
        "Students sit at long tables working in a school library.",
        [
            ("Students", "student", [], 2),
            ("long tables", "table", ["long"], 2),
            ("school library", "library", []),
        ],
        [(0, "sit at", 1), (1, "work in", 2)],
        "replace_relation",
        40,
    )
    assert not any(w in t for t in texts for w in ("study", "read", "eat", "work at")), texts


def test_connect_adds_no_participle_of_a_compound():
    # "a horse-drawn sleigh" counted as "drawn" | "sleigh": "in front of a drawn sleigh"
    assert not plain_attribute("drawn") and plain_attribute("rusty")
    assert "drawn" not in describing(VOCAB.cooc, "sleigh")[0]


def test_thin_furniture_goes_out_of_doors_only_where_it_was_seen():
    table = {a.word: a for a in addable.addable_table(VOCAB.cooc)}
    indoors = addable.lexicon()["indoor"]
    assert table["loveseat"].possible <= indoors, table["loveseat"]
    # a hammock seen in gardens and on beaches goes there (with 53,675 captions counted, a
    # couch left on the curb went on a street)
    assert {"beach", "lawn"} <= table["hammock"].possible
    cap = "A group of cyclists ride along a winding mountain road."
    texts, _ = texts_over_seeds(
        cap,
        [("group", "group", []), ("cyclists", "cyclist", [], 2), ("mountain road", "road", [])],
        [(1, "ride along", 2)],
        "connect",
        40,
    )
    assert not any("loveseat" in t or "sofa" in t for t in texts), texts


def test_no_wild_animal_or_toy_is_a_pet_or_added_anywhere():
    table = {a.word: a for a in addable.addable_table(VOCAB.cooc)}
    # an orangutan seen once in a home: "a man shaves his beard ... next to an orangutan"
    assert "home" in table["orangutan"].possible and not addable.is_pet(table["orangutan"])
    assert "dinosaur" not in table  # a toy: never "next to a dinosaur"
    anywhere = {a.word for a, _ in addable.addable_in(tuple(table.values()), frozenset())}
    # "a sheepdog runs along a hillside ..., in front of a teddy bear"
    assert "teddy bear" not in anywhere and "orangutan" not in anywhere
    # only where the statistics saw one (with 87,045 captions counted, at home, where it is
    # typical, and on a lawn; with 72,813 at home alone)
    assert "home" in table["teddy bear"].possible <= frozenset({"home", "lawn"})


def test_connect_adds_nothing_where_one_or_two_things_may_be_added():
    # by a plate of food, the few things possible (a cat, a stool) were the commonest
    # additions of all: with fewer than three (five since round 38's recount: by an animal
    # in no setting, an umbrella), the scene says the added word
    from sgprep.negatives.strategies.connect import MIN_OPTIONS

    assert MIN_OPTIONS == 5
    texts, rejected = texts_over_seeds(
        "A black horse grazing in a fenced pasture.",
        [("black horse", "horse", ["black"]), ("fenced pasture", "pasture", ["fenced"])],
        [(0, "graze in", 1)],
        "connect",
        20,
    )
    assert rejected["connect_few_options"], (texts, rejected)
