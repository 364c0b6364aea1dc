"""Pass 11 of the rule parser, relations (``docs/rule-parser.md``, pass 11b).

Every caption here is written for the test. Each test checks the rule's graph and that the
rule's family switched off gives the old one, so that a test fails if the rule stops doing
anything.
"""

from __future__ import annotations

import pytest

from tests.parse.rule_helpers import attributes, parse, rels

# ---- whole_places ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption, whole, part",
    [
        ("a body of water near a rocky beach", ("water", "near", "beach"), "body"),
        ("a stand of trees behind a house", ("tree", "behind", "house"), "stand"),
        ("a sea of umbrellas on the beach", ("umbrella", "on", "beach"), "sea"),
    ],
)
def test_place_phrase_after_part_of_bare_noun_is_the_wholes(parser, caption, whole, part):
    assert whole in rels(parse(parser, caption))
    assert (part, whole[1], whole[2]) not in rels(parse(parser, caption))
    off = rels(parse(parser, caption, off="whole_places"))
    assert (part, whole[1], whole[2]) in off and whole not in off


@pytest.mark.parametrize(
    "caption, kept",
    [
        # a container, a framing noun or a whole with an article keeps the model's reading
        ("a man holds a cup of tea on a table", ("cup", "on", "table")),
        ("a woman looks at a painting of horses on the wall", ("painting", "on", "wall")),
        ("the tail of the plane in the sky", ("tail", "in", "sky")),
        ("the premiere of their film at the theater", ("premiere", "at", "theater")),
    ],
)
def test_place_phrase_stays_on_containers_pictures_and_parts_of_things(parser, caption, kept):
    assert kept in rels(parse(parser, caption))


# ---- gerund_nouns ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption, place, made_up",
    [
        # the model: folding -pcomp-> of "on", chairs its object (no relation at all)
        ("people sitting on folding chairs on the lawn", ("people", "sit on", "chair"), None),
        # the model: black/pobj, folding/advcl of "sit" with chairs as its object
        (
            "two girls sit on white folding chairs",
            ("girl", "sit on", "chair"),
            ("girl", "fold", "chair"),
        ),
    ],
)
def test_ing_word_and_bare_noun_after_place_preposition_are_a_noun(parser, caption, place, made_up):
    graph = parse(parser, caption)
    assert place in rels(graph)
    assert made_up not in rels(graph)
    assert "folding" in attributes(graph, "chair")
    off = rels(parse(parser, caption, off="gerund_nouns"))
    assert place not in off
    if made_up is not None:
        assert made_up in off


def test_gerund_clause_after_by_is_left(parser):
    caption = "a man helps his friend by holding the ladder"
    assert parse(parser, caption) == parse(parser, caption, off="gerund_nouns")


# ---- antecedents -----------------------------------------------------------------------------


def test_pronoun_does_not_stand_for_a_time(parser):
    caption = "the light shines on the ferry at sunset as it leaves the harbor"
    assert ("ferry", "leave", "harbor") in rels(parse(parser, caption))
    off = rels(parse(parser, caption, off="antecedents"))
    assert ("sunset", "leave", "harbor") in off and ("ferry", "leave", "harbor") not in off


# ---- worn_owners -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption, worn, pattern",
    [
        ("a hat with a feather worn by a man", ("man", "wear", "hat"), "feather"),
        ("a red scarf with white dots worn by a woman", ("woman", "wear", "scarf"), "dot"),
    ],
)
def test_worn_by_on_a_with_object_is_the_worn_things(parser, caption, worn, pattern):
    assert worn in rels(parse(parser, caption))
    assert (worn[0], "wear", pattern) not in rels(parse(parser, caption))
    off = rels(parse(parser, caption, off="worn_owners"))
    assert (worn[0], "wear", pattern) in off and worn not in off


def test_worn_by_on_the_worn_thing_itself_is_kept(parser):
    assert ("woman", "wear", "necklace") in rels(parse(parser, "a necklace worn by a woman"))


# ---- noun_verbs ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption, named, misread",
    [
        # bear/VBP with "teddy" as its subject
        (
            "a brown teddy bear with a green and white scarf on sitting on a shelf",
            "teddy bear",
            ("teddy", "bear with", "scarf"),
        ),
    ],
)
def test_base_verb_after_a_singular_noun_is_a_name(parser, caption, named, misread):
    graph = parse(parser, caption)
    assert any(e.text.endswith(named) for e in graph.entities)
    assert misread not in rels(graph)
    assert misread in rels(parse(parser, caption, off="noun_verbs"))


@pytest.mark.parametrize(
    "caption, relation",
    [
        ("a dog sit on the grass", ("dog", "sit on", "grass")),  # "sit" is no noun
        ("the word stop on a red sign", ("word", "stop on", "sign")),  # the word written
    ],
)
def test_base_verb_that_is_no_name_is_left(parser, caption, relation):
    assert relation in rels(parse(parser, caption))


# ---- stray_positions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption, relation",
    [
        # on/RP, back/advmod of the verb: "of couch" alone gave couch have back
        ("cat is lying on back of couch .", ("cat", "lie on back of", "couch")),
        # right/advmod of "wearing", read as the clause of "on"
        ("man on right wearing blue and white shirt .", ("man", "wear", "shirt")),
        # "down" read as an adverb with "side" as its object
        ("green stripe down side of bus", ("stripe", "down side of", "bus")),
    ],
)
def test_position_with_no_article_is_the_prepositions_object(parser, caption, relation):
    assert relation in rels(parse(parser, caption))
    assert relation not in rels(parse(parser, caption, off="stray_positions"))


def test_position_as_a_compound_is_left(parser):
    caption = "bus parked on side street"
    assert parse(parser, caption) == parse(parser, caption, off="stray_positions")
