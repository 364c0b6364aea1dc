"""Pass 11 (attr) of the rule parser (``docs/rule-parser.md``, pass 11a).

Every caption here is written for the test. Each test checks the rule's graph and that the
rule's family switched off gives the old one, so that a test fails if the rule stops doing
anything.
"""

from __future__ import annotations

import pytest

from tests.parse.rule_helpers import attributes, heads, parse, rels

# ---- negation --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption, denied, kept",
    [
        (
            "a tree with no leaves stands next to a fence",
            "leaf",
            ("tree", "stand next to", "fence"),
        ),
        ("the cat has no red collar on its neck", "collar", ("cat", "have", "neck")),
        ("a man not wearing a shirt sits on a bench", "shirt", ("man", "sit on", "bench")),
        ("the old trees do not have leaves", "leaf", None),
    ],
)
def test_a_denied_thing_is_not_in_the_graph(parser, caption, denied, kept):
    graph = parse(parser, caption)
    assert denied not in heads(graph)
    assert not any(denied in (s, o) for s, _, o in rels(graph))
    if kept is not None:
        assert kept in rels(graph)
    assert denied in heads(parse(parser, caption, off="negation"))


@pytest.mark.parametrize(
    "caption, head, attribute",
    [
        ("the dress is not red", "dress", "red"),
        ("a photo of a street that is not in black and white", "street", "black"),
    ],
)
def test_a_denied_state_is_no_attribute(parser, caption, head, attribute):
    assert attribute not in attributes(parse(parser, caption), head)
    assert attribute in attributes(parse(parser, caption, off="negation"), head)


def test_a_denied_place_is_no_relation(parser):
    caption = "a dog that is not in the water"
    assert ("dog", "in", "water") not in rels(parse(parser, caption))
    assert ("dog", "in", "water") in rels(parse(parser, caption, off="negation"))


def test_a_no_parking_sign_is_a_sign(parser):
    # a noun modifier after "no" makes a name: the sign is there
    graph = parse(parser, "a no parking sign attached to a pole")
    assert any("sign" in s for s, _, _ in rels(graph))


def test_a_not_between_two_things_denies_no_relation(parser):
    # "not" that contrasts two things (the model hangs it on a noun) is no verb's negation
    caption = "a cat on the red chair, not the blue chair"
    assert ("cat", "on", "chair") in rels(parse(parser, caption))


def test_an_affirmed_caption_is_untouched(parser):
    caption = "a tree with green leaves stands next to a fence"
    assert rels(parse(parser, caption)) == rels(parse(parser, caption, off="negation"))


# ---- manner ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption, head, attribute, alone",
    [
        ("a boy holds an oddly shaped pumpkin", "pumpkin", "oddly shaped", "shaped"),
        ("a well dressed man waits at the door", "man", "well dressed", "dressed"),
        ("a neatly folded towel on a chair", "towel", "neatly folded", "folded"),
    ],
)
def test_an_adverb_of_manner_stays_with_its_participle(parser, caption, head, attribute, alone):
    graph = parse(parser, caption)
    assert attribute in attributes(graph, head)
    assert alone not in attributes(graph, head)
    off = parse(parser, caption, off="manner")
    assert alone in attributes(off, head) and attribute not in attributes(off, head)


@pytest.mark.parametrize(
    "caption, head, attribute",
    [
        ("a partly eaten pizza on a plate", "pizza", "eaten"),  # degree: grades, says no how
        ("a very large bear in a river", "bear", "large"),  # an adjective, not a participle
    ],
)
def test_an_adverb_of_degree_is_no_part_of_the_attribute(parser, caption, head, attribute):
    assert attributes(parse(parser, caption), head) == [attribute]


# ---- ing_objects -----------------------------------------------------------------------------


def test_a_participle_read_as_a_compound_is_the_nouns_verb(parser):
    caption = "dog herding sheep towards the gate"
    graph = parse(parser, caption)
    assert ("dog", "herd", "sheep") in rels(graph)
    assert "herding" not in " ".join(a for e in graph.entities for a in e.attributes)
    off = parse(parser, caption, off="ing_objects")
    assert ("dog", "herd", "sheep") not in rels(off)


def test_a_colour_before_an_ing_word_is_no_doer(parser):
    caption = "the silver serving tray on the table"
    graph = parse(parser, caption)
    assert "silver" in attributes(graph, "tray")
    assert not any(p == "serve" for _, p, _ in rels(graph))
    assert ("silver", "serve", "tray") in rels(parse(parser, caption, off="ing_objects"))


@pytest.mark.parametrize(
    "caption, relation",
    [
        ("girl swinging tennis racket", ("girl", "swing", "racket")),
        ("a post supporting street signs", ("post", "support", "sign")),
    ],
)
def test_the_old_clause_repair_still_holds(parser, caption, relation):
    assert relation in rels(parse(parser, caption))
