"""Pass 8b of the rule parser on long captions (``docs/rule-parser.md``): families
``adjective_roots``, ``worn_lists`` and ``colour_results``.

Every caption here is written for the test. Each test checks the rule's graph and that the
rule's family switched off gives the old one, so that a test fails if the rule stops doing
anything.
"""

from __future__ import annotations

import pytest

from tests.parse.rule_helpers import attributes, heads, parse, rels

# ---- adjective_roots ------------------------------------------------------------------------


def test_first_of_two_adjectives_read_as_the_root_describes_the_noun(parser):
    caption = "grey and black sneakers on the feet of a runner"
    graph = parse(parser, caption)
    assert attributes(graph, "sneaker") == ["grey", "black"]
    assert ("sneaker", "on", "foot") in rels(graph)
    off = parse(parser, caption, off="adjective_roots")
    assert attributes(off, "sneaker") == ["black"]
    assert ("sneaker", "on", "foot") not in rels(off)


def test_colour_read_as_a_proper_noun_root_is_no_entity(parser):
    caption = "blue and tan skateboard under the feet of a man"
    graph = parse(parser, caption)
    assert heads(graph).count("blue") == 0
    assert set(attributes(graph, "skateboard")) == {"blue", "tan"}
    assert "blue" in heads(parse(parser, caption, off="adjective_roots"))


def test_comma_list_of_adjectives_read_as_the_root_describes_the_noun(parser):
    caption = "mostly grey , concrete , tall towers with windows near a bridge"
    graph = parse(parser, caption)
    assert set(attributes(graph, "tower")) == {"grey", "concrete", "tall"}
    off = parse(parser, caption, off="adjective_roots")
    assert attributes(off, "tower") == ["tall"]


def test_colour_before_an_apposition_describes_it(parser):
    caption = "a grey , carpeted room"
    graph = parse(parser, caption)
    assert set(attributes(graph, "room")) == {"grey", "carpeted"}
    assert "grey" in heads(parse(parser, caption, off="adjective_roots"))


@pytest.mark.parametrize(
    "caption",
    [
        "the red and white bus parked on the street",  # the model's parse is right
        "old and tired , the dog sleeps on the porch",  # no noun right after the adjectives
    ],
)
def test_adjective_roots_leave_other_captions_alone(parser, caption):
    assert parse(parser, caption) == parse(parser, caption, off="adjective_roots")


# ---- worn_lists -----------------------------------------------------------------------------


def test_worn_thing_read_as_a_second_person_is_worn(parser):
    caption = "a man in a dark shirt and beige cap in the stands of a stadium"
    graph = parse(parser, caption)
    assert {("man", "wear", "shirt"), ("man", "wear", "cap"), ("man", "in", "stand")} <= rels(graph)
    off = rels(parse(parser, caption, off="worn_lists"))
    assert ("man", "wear", "cap") not in off
    assert ("cap", "in", "stand") in off


@pytest.mark.parametrize(
    "caption",
    [
        "a woman in a white shirt and a man in a blue jacket standing by a car",  # a person
        "a woman in a red dress and black hat walking down the street",  # parsed right
    ],
)
def test_worn_lists_leave_people_and_right_parses_alone(parser, caption):
    assert parse(parser, caption) == parse(parser, caption, off="worn_lists")


# ---- colour_results -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("caption", "head"),
    [
        ("the old barn is painted red", "barn"),  # white/oprd
        ("a tall tower painted yellow and shaped like a rocket stands near the road", "tower"),
    ],
)
def test_colour_after_a_participle_of_colouring_is_the_things(parser, caption, head):
    colour = "red" if "red" in caption else "yellow"
    assert colour in attributes(parse(parser, caption), head)
    assert colour not in attributes(parse(parser, caption, off="colour_results"), head)


def test_colours_coordinated_after_painted_are_all_the_things(parser):
    graph = parse(parser, "the walls are painted blue and white")
    assert {"blue", "white"} <= set(attributes(graph, "wall"))
