"""Pass 12 of the rule parser, clause structure in long web captions
(``docs/rule-parser.md``, pass 12a).

Every caption here is written for the test. Each test checks the rule's graph and that the
rule's family switched off gives the old one, so that a test fails if the rule stops doing
anything.
"""

from __future__ import annotations

import pytest

from tests.parse.rule_helpers import heads, parse, rels

# ---- clause_subjects -------------------------------------------------------------------------


def test_plural_subject_read_as_verb_after_while_is_the_subject(parser):
    caption = "a fisherman pulls a net from the river while seagulls circle above"
    graph = parse(parser, caption)
    assert "seagull" in heads(graph) or "seagulls" in heads(graph)
    assert not any(p.startswith("seagull") for _, p, _ in rels(graph))
    assert ("fisherman", "pull", "net") in rels(graph)
    off = parse(parser, caption, off="clause_subjects")
    assert any(p.startswith("seagull") for _, p, _ in rels(off))


@pytest.mark.parametrize(
    "caption",
    [
        "a swimmer crosses the bay while she circles a red buoy",
        "a boy draws while his sister paints a big circle",
    ],
)
def test_a_clause_with_its_own_subject_or_a_full_object_is_left(parser, caption):
    assert parse(parser, caption) == parse(parser, caption, off="clause_subjects")


# ---- clause_verbs ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption, relation, verb",
    [
        (
            "a kayaker paddles through white water rapids while the spray rises",
            ("kayaker", "paddle through", "rapid"),
            "paddle",
        ),
        (
            "a boat sails on the lake while eagles circle overhead",
            ("boat", "sail on", "lake"),
            "sail",
        ),
        (
            "a gymnast in a blue leotard balances on the beam as the judges take notes",
            ("gymnast", "balance on", "beam"),
            "balance",
        ),
        (
            "a calligrapher dips a brush into ink and writes characters",
            ("calligrapher", "write", "character"),
            "dip",
        ),
    ],
)
def test_verb_read_as_noun_above_a_clause_is_the_verb(parser, caption, relation, verb):
    graph = parse(parser, caption)
    assert relation in rels(graph)
    assert verb not in heads(graph)
    off = parse(parser, caption, off="clause_verbs")
    assert verb in heads(off)
    assert relation not in rels(off)


@pytest.mark.parametrize(
    "caption, relation",
    [
        (
            "a welder in a protective mask cuts through a steel beam while bright sparks fly",
            ("welder", "cut through", "beam"),
        ),
        (
            "a golden eagle lands on the glove of a falconer who wears a wool cap",
            ("eagle", "land on", "glove"),
        ),
    ],
)
def test_plural_root_with_a_subject_of_its_own_is_the_verb(parser, caption, relation):
    assert relation in rels(parse(parser, caption))
    assert relation not in rels(parse(parser, caption, off="clause_verbs"))


def test_a_noun_phrase_with_a_clause_keeps_its_plural(parser):
    # a plural with no singular article is a noun: "tomato slices" stays one name
    caption = "fresh tomato slices on a plate while the soup cools"
    assert parse(parser, caption) == parse(parser, caption, off="clause_verbs")


# ---- as_clauses ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption, relation, wrong",
    [
        (
            "two boxers fight in the ring as a referee in a black shirt watches closely",
            ("referee", "wear", "shirt"),
            ("boxer", "fight as", "referee"),
        ),
        (
            "balloons rise over a valley at dawn as a crew on the ground holds the basket",
            ("crew", "hold", "basket"),
            ("balloon", "hold", "basket"),
        ),
    ],
)
def test_as_read_as_a_preposition_opens_a_clause(parser, caption, relation, wrong):
    graph = parse(parser, caption)
    assert relation in rels(graph)
    assert wrong not in rels(graph)
    assert wrong in rels(parse(parser, caption, off="as_clauses"))


@pytest.mark.parametrize(
    "caption, relation",
    [
        ("a boy dressed as a pirate waves a flag", ("boy", "dress as", "pirate")),
        ("a woman works as a nurse in a hospital", ("woman", "work as", "nurse")),
    ],
)
def test_as_of_a_role_stays_a_preposition(parser, caption, relation):
    graph = parse(parser, caption)
    assert relation in rels(graph)
    assert graph == parse(parser, caption, off="as_clauses")


# ---- frames ----------------------------------------------------------------------------------


def test_opening_frame_made_a_subject_still_frames_the_caption(parser):
    caption = (
        "close-up of a potter shaping a tall clay vase on a spinning wheel, her wet hands "
        "covered in grey slip as the studio light falls from the window"
    )
    graph = parse(parser, caption)
    assert ("potter", "shape", "vase") in rels(graph)
    assert "close-up" not in heads(graph)
    off = parse(parser, caption, off="frames")
    assert "close-up" in heads(off)


def test_a_frame_that_is_described_is_a_thing(parser):
    caption = "the view of the city is stunning"
    assert parse(parser, caption) == parse(parser, caption, off="frames")


# ---- as_roots --------------------------------------------------------------------------------


def test_clause_made_the_root_after_as_is_its_own_subjects(parser):
    caption = "a yacht with a blue hull leans in the wind as its crew lean out over the side"
    graph = parse(parser, caption)
    assert ("crew", "lean out over", "side") in rels(graph)
    assert ("yacht", "lean out over", "side") not in rels(graph)
    off = parse(parser, caption, off="as_roots")
    assert ("yacht", "lean out over", "side") in rels(off)


def test_as_roots_leaves_a_clause_the_model_read_right(parser):
    caption = "a dog sleeps on the porch as the sun sets"
    assert parse(parser, caption) == parse(parser, caption, off="as_roots")
