"""Pass 10 of the rule parser (``docs/rule-parser.md``).

Every caption here is written for the test. Each test checks the rule's graph and that the
rule's family switched off gives the old one, so that a test fails if the rule stops doing
anything.
"""

from __future__ import annotations

import pytest

from tests.parse.rule_helpers import facts, heads, parse, rels, switched_off

# ---- bare_positions --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption, position",
    [
        ("a boy waits in front", "front"),
        ("a red bowl with cherries on top", "top"),
        ("the radio has two knobs in the bottom .", "bottom"),
    ],
)
def test_position_with_no_landmark_is_no_thing(parser, caption, position):
    assert position not in heads(parse(parser, caption))
    assert position in heads(parse(parser, caption, off="bare_positions"))


@pytest.mark.parametrize(
    "caption, relation",
    [
        ("a boy waits in front of a shop", ("boy", "wait in front of", "shop")),
        ("a cat sleeping on top of a car", ("cat", "sleep on top of", "car")),
    ],
)
def test_position_with_its_landmark_keeps_the_relation(parser, caption, relation):
    assert relation in rels(parse(parser, caption))


def test_position_with_a_modifier_or_in_the_back_is_kept(parser):
    # "in the back" is a place in a scene, as "the background" is
    assert ("girl", "in", "back") in rels(parse(parser, "a girl in the back is laughing"))


# ---- worn_containers -------------------------------------------------------------------------


def test_a_thing_in_glasses_is_not_wearing_them(parser):
    caption = "red and white wines in the glasses on a long table"
    graph = parse(parser, caption)
    assert ("wine", "in", "glass") in rels(graph) or ("wine", "in", "glasses") in rels(graph)
    assert not any(p == "wear" for _, p, _ in rels(graph))
    off = parse(parser, caption, off="worn_containers")
    assert any(p == "wear" for _, p, _ in rels(off))


@pytest.mark.parametrize("caption", ["an old man in glasses reads a book", "a dog in glasses"])
def test_a_person_or_animal_in_glasses_wears_them(parser, caption):
    assert any(p == "wear" for _, p, _ in rels(parse(parser, caption)))


def test_in_a_shirt_is_still_worn_by_anything(parser):
    graph = parse(parser, "a statue in a red shirt stands in the square")
    assert any(p == "wear" for _, p, _ in rels(graph))


# ---- or_lists --------------------------------------------------------------------------------


def test_attributes_listed_with_or_are_no_part_of_the_name(parser):
    caption = "a small dog with black or brown spots on a porch"
    graph = parse(parser, caption)
    assert "( spots , is , brown )" in facts(graph)
    assert "( spots , is , black )" in facts(graph)
    with switched_off("or_lists"):
        assert "( or brown spots , is , brown )" in facts(graph)


def test_and_lists_unchanged(parser):
    graph = parse(parser, "a kite with red and yellow stripes")
    assert "( stripes , is , red )" in facts(graph)


# ---- colour_nouns ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption, thing, colour",
    [
        ("white painted wall in a small bedroom", "wall", "white"),
        ("white moving truck covered in graffiti .", "truck", "white"),
    ],
)
def test_colour_read_as_a_noun_is_the_next_nouns_adjective(parser, caption, thing, colour):
    graph = parse(parser, caption)
    assert colour not in heads(graph)
    assert f"( {thing} , is , {colour} )" in facts(graph)
    assert colour in heads(parse(parser, caption, off="colour_nouns"))


def test_last_colour_of_a_list_read_as_a_noun(parser):
    caption = "a shaggy black, brown and white goat standing on the ground"
    assert heads(parse(parser, caption)).count("white") == 0
    assert "white" in heads(parse(parser, caption, off="colour_nouns"))


def test_colour_as_a_thing_worn_is_left(parser):
    graph = parse(parser, "a man in white")
    assert "( man , is , white )" in facts(graph)


# ---- "shaped like" (measured, not taken) -------------------------------------------------------


@pytest.mark.parametrize(
    "caption, place",
    [
        ("a cake shaped like a car on a table", "table"),
        ("a building shaped like a castle next to a tree", "tree"),
    ],
)
def test_shaped_like_keeps_the_likeness_and_its_phrase(parser, caption, place):
    """The pass-10 trial that made "N shaped" an attribute dropped every relation of these
    captions; the likeness stays a relation and the place phrase after it stays in the graph."""
    graph = rels(parse(parser, caption))
    assert any(predicate == "shape like" for _, predicate, _ in graph)
    assert any(obj == place for _, _, obj in graph)
