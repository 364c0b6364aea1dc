"""Binding swaps wherever they hold (issue 32): attributes of one type, and the names of two
things in the same place of the scene, exchanged where each thing can take the other's; an
object the statistics do not know judged by its kind, not refused. Each refusal rule on a
caption written here."""

from __future__ import annotations

import random
from collections import Counter

from neg_helpers import graph, strategy_class, texts_over_seeds

from sgprep.negatives.realise import Realiser
from sgprep.negatives.scene import Scene
from sgprep.negatives.strategies.swap import fits_by_kind, never, thing_kind
from sgprep.negatives.vocab import load_vocab

CUBES = (
    "a red cube and a blue sphere",
    [("red cube", "cube", ["red"]), ("blue sphere", "sphere", ["blue"])],
    [],
)
SUBMARINE = (
    "a yellow submarine and a blue bus",
    [("yellow submarine", "submarine", ["yellow"]), ("blue bus", "bus", ["blue"])],
    [],
)
SQUARE = (
    "a blue square to the left of a yellow circle",
    [("blue square", "square", ["blue"]), ("yellow circle", "circle", ["yellow"])],
    [(0, "to the left of", 1)],
)
ON_TOP = (
    "a red cube on top of a green sphere",
    [("red cube", "cube", ["red"]), ("green sphere", "sphere", ["green"])],
    [(0, "on top of", 1)],
)
APRONS = (
    "a girl in a blue hat and apron and a girl in a red apron and chefs hat",
    [
        ("girl", "girl", []),
        ("blue hat", "hat", ["blue"]),
        ("apron", "apron", []),
        ("girl", "girl", []),
        ("red apron", "apron", ["red"]),
        ("chefs hat", "hat", []),
    ],
    [(0, "in", 1), (0, "in", 2), (3, "in", 4), (3, "in", 5)],
)


def made(caption, entities, relations, kind):
    """The texts ``kind`` makes of a caption with the bundled statistics, and its refusals."""
    return texts_over_seeds(caption, entities, relations, kind, seeds=1)


def rules_only(caption, entities, relations, kind):
    """The same without statistics (``--no-plausibility``): the truth rules still hold."""
    g = graph(caption, entities, relations)
    rejected: Counter = Counter()
    scene = Scene(g, load_vocab(), random.Random(0), rejected, None, caption)
    texts = set()
    for build in strategy_class(kind)(scene).candidates(kind):
        p = build()
        if p is not None:
            text, _ = Realiser(caption, g).realise(p, use_template=False)
            texts.add(text)
    return texts, rejected


# --- the binding examples get their swaps --------------------------------------------------
def test_the_binding_examples_swap_their_attributes():
    expected = [
        (SUBMARINE, "a blue submarine and a yellow bus"),
        (CUBES, "a blue cube and a red sphere"),
        (SQUARE, "a yellow square to the left of a blue circle"),
        (ON_TOP, "a green cube on top of a red sphere"),
    ]
    for example, swapped in expected:
        texts, rejected = made(*example, "swap_attribute")
        assert texts == {swapped}, (example[0], dict(rejected))


def test_the_binding_examples_swap_their_objects():
    expected = [
        (SUBMARINE, "a yellow bus and a blue submarine"),
        (CUBES, "a red sphere and a blue cube"),
        # either order stands from the camera; solids stack either way round
        (SQUARE, "a blue circle to the left of a yellow square"),
        (ON_TOP, "a red sphere on top of a green cube"),
    ]
    for example, swapped in expected:
        texts, rejected = made(*example, "swap_object")
        assert texts == {swapped}, (example[0], dict(rejected))


def test_an_object_the_statistics_never_saw_is_judged_by_its_kind():
    assert thing_kind("submarine") == "made" and thing_kind("cube") == "shape"
    assert thing_kind("fisherman") == "person" and thing_kind("zorb") is None
    for caption, entities, swapped in [
        (
            "a white submarine next to a grey warship",
            [("white submarine", "submarine", ["white"]), ("grey warship", "warship", ["grey"])],
            "a grey submarine next to a white warship",
        ),
        (  # a material of made things on a made thing
            "a wooden spoon and a metal ladle",
            [("wooden spoon", "spoon", ["wooden"]), ("metal ladle", "ladle", ["metal"])],
            "a metal spoon and a wooden ladle",
        ),
        (  # an age of people on people
            "a young fisherman and an old sailor",
            [("young fisherman", "fisherman", ["young"]), ("old sailor", "sailor", ["old"])],
            "an old fisherman and a young sailor",
        ),
        (  # a toy comes in any colour, though a bear does not
            "a pink teddy bear next to a blue toy truck",
            [
                ("pink teddy bear", "bear", ["pink", "teddy"]),
                ("blue toy truck", "truck", ["blue", "toy"]),
            ],
            "a blue teddy bear next to a pink toy truck",
        ),
    ]:
        texts, rejected = made(caption, entities, [], "swap_attribute")
        assert swapped in texts, (caption, dict(rejected))
    # ... and by the attribute's type: no material on a person, no colour of the living
    assert fits_by_kind("blue", "kayak") and not fits_by_kind("blue", "fisherman")
    assert not fits_by_kind("wooden", "sailor") and fits_by_kind("rubber", "sphere")
    assert not fits_by_kind("blue", "street") and fits_by_kind("blue", "door")
    assert never("blonde", "jacket") and not never("blonde", "woman")
    assert never("old", "boy") and not never("old", "sailor")


def test_what_a_thing_never_has_is_refused_whatever_its_class():
    texts, rejected = made(
        "a woman with blonde hair wearing a brown jacket",
        [
            ("woman", "woman", []),
            ("blonde hair", "hair", ["blonde"]),
            ("brown jacket", "jacket", ["brown"]),
        ],
        [(0, "with", 1), (0, "wear", 2)],
        "swap_attribute",
    )
    assert not texts and rejected["implausible_attribute"]  # "a blonde jacket"
    texts, rejected = made(
        "an old man sitting on a bench with a young boy",
        [("old man", "man", ["old"]), ("bench", "bench", []), ("young boy", "boy", ["young"])],
        [(0, "sit on", 1), (0, "with", 2)],
        "swap_attribute",
    )
    assert not texts and rejected["implausible_attribute"]  # "an old boy"


# --- a swap that may still be true is refused ---------------------------------------------
def test_shades_of_one_colour_do_not_swap():
    for caption, a, b in [
        ("a navy jacket and a blue shirt", "navy", "blue"),
        ("a crimson car behind a red truck", "crimson", "red"),
        ("a cream sofa next to a white chair", "cream", "white"),
    ]:
        words = caption.split()
        entities = [
            (f"{a} {words[2]}", words[2], [a]),
            (f"{b} {words[-1]}", words[-1], [b]),
        ]
        texts, rejected = rules_only(caption, entities, [], "swap_attribute")
        assert not texts and rejected["related_word"], caption  # a navy shirt is blue


def test_two_things_of_one_name_told_apart_by_nothing_do_not_swap():
    caption = "young spotted giraffe standing near adult giraffe"
    entities = [
        ("young spotted giraffe", "giraffe", ["young", "spotted"]),
        ("adult giraffe", "giraffe", ["adult"]),
    ]
    texts, rejected = rules_only(caption, entities, [(0, "stand near", 1)], "swap_attribute")
    # "adult spotted giraffe standing near young giraffe": the adult may be spotted
    assert not texts and rejected["may_be_true"]
    # worn by different people, two jackets are told apart
    caption = "a woman in a purple jacket behind a man in a red jacket"
    entities = [
        ("woman", "woman", []),
        ("purple jacket", "jacket", ["purple"]),
        ("man", "man", []),
        ("red jacket", "jacket", ["red"]),
    ]
    relations = [(0, "in", 1), (0, "behind", 2), (2, "in", 3)]
    texts, _ = rules_only(caption, entities, relations, "swap_attribute")
    assert texts == {"a woman in a red jacket behind a man in a purple jacket"}


def test_an_attribute_that_may_be_said_of_a_whole_list_does_not_move():
    # "a blue hat and apron": her apron may be blue too, so "a blue apron" may be true
    texts, rejected = rules_only(*APRONS, "swap_attribute")
    assert not texts and rejected["may_be_true"]


def test_names_exchanged_between_things_whose_attributes_do_not_differ_are_refused():
    for caption, entities, relations, swapped in [
        (  # "white jeans and shirt": the shirt is white, the jeans may be
            "a man wearing a white shirt and jeans",
            [("man", "man", []), ("white shirt", "shirt", ["white"]), ("jeans", "jeans", [])],
            [(0, "wear", 1), (0, "wear", 2)],
            "a man wearing white jeans and shirt",
        ),
        (  # "house next to yellow tree": the tree may be yellow
            "tree next to yellow house",
            [("tree", "tree", []), ("yellow house", "house", ["yellow"])],
            [(0, "next to", 1)],
            "house next to yellow tree",
        ),
    ]:
        texts, rejected = rules_only(caption, entities, relations, "swap_object")
        assert swapped not in texts and rejected["may_be_true"] == 1, (caption, texts)
    # a symmetric verb tells nothing apart: "a tall woman standing near a man" may be true
    texts, rejected = rules_only(
        "a tall man standing near a woman",
        [("tall man", "man", ["tall"]), ("woman", "woman", [])],
        [(0, "stand near", 1)],
        "swap_object",
    )
    assert not texts and rejected["may_be_true"]
    # ... a number does: there is one kitten, not two
    texts, _ = rules_only(
        "two puppies near a big kitten",
        [("two puppies", "puppy", [], 2), ("big kitten", "kitten", ["big"])],
        [(0, "near", 1)],
        "swap_object",
    )
    assert texts == {"two kittens near a big puppy"}
    # with attributes that differ, the same swap is false: "a white jeans and a blue shirt"
    texts, _ = rules_only(
        "a man wearing a white shirt and blue jeans",
        [
            ("man", "man", []),
            ("white shirt", "shirt", ["white"]),
            ("blue jeans", "jeans", ["blue"]),
        ],
        [(0, "wear", 1), (0, "wear", 2)],
        "swap_object",
    )
    assert "a man wearing white jeans and blue shirt" in texts


# --- a swap that breaks a list is refused -------------------------------------------------
def test_a_swap_that_puts_a_name_twice_in_one_list_is_refused():
    texts, rejected = rules_only(*APRONS, "swap_object")
    broken = {
        "a girl in a blue hat and chefs hat and a girl in a red apron and apron",
        "a girl in a blue apron and apron and a girl in a red hat and chefs hat",
    }
    assert not texts & broken, texts
    assert rejected["breaks_list"]


def test_a_word_of_the_noun_phrase_that_stays_behind_is_refused():
    # "a parking car in front of the meter": "parking" is neither attribute nor name
    texts, rejected = rules_only(
        "a parking meter in front of the car",
        [("parking meter", "meter", []), ("car", "car", [])],
        [(0, "in front of", 1)],
        "swap_object",
    )
    assert not texts and rejected["fixed_expression"]
