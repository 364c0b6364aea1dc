"""Pass 9 of the rule parser on long captions (``docs/rule-parser.md``).

Every caption here is written for the test. Each test checks the rule's graph and that the
rule's family switched off gives the old one, so that a test fails if the rule stops doing
anything.
"""

from __future__ import annotations

import pytest

from sgprep.parse.rules_noise import expand_shorthand
from tests.parse.rule_helpers import heads, parse, rels

# ---- shorthand ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption, written",
    [
        ("a bowl w/ two spoons", "a bowl with two spoons"),
        ("a bowl w/spoons", "a bowl with spoons"),
        ("cat+dog on a sofa", "cat and dog on a sofa"),
        ("a red + white flag", "a red and white flag"),
        ("a boy standing infront of a car", "a boy standing in front of a car"),
        ("a cake ontop of a table", "a cake on top of a table"),
    ],
)
def test_shorthand_is_written_out_with_a_map_to_the_caption(caption, written):
    text, offsets = expand_shorthand(caption)
    assert text == written
    assert offsets is not None and len(offsets) == len(text) + 1
    assert offsets[-1] == len(caption)
    # the words the caption and the written text share map onto each other
    for word in ("bowl", "spoons", "dog", "sofa", "white", "car", "table"):
        if word in caption:
            k = text.index(word)
            start = offsets[k]
            assert caption[start : start + len(word)] == word


@pytest.mark.parametrize(
    "caption",
    ["coffee w/o sugar", "C++ code on a screen", "2+2 on a board", "Google+ and Yahoo", "a w/"],
)
def test_no_shorthand_is_left_alone(caption):
    assert expand_shorthand(caption) == (caption, None)


def test_with_written_as_w_slash_is_with(parser):
    caption = "two old wooden benches w/ green cushions in a park"
    graph = parse(parser, caption)
    assert ("bench", "with", "cushion") in rels(graph)
    bench = graph.entities[heads(graph).index("bench")]
    assert caption[bench.span[0] : bench.span[1]] == bench.text  # spans index the caption
    cushion = graph.entities[heads(graph).index("cushion")]
    assert caption[cushion.span[0] : cushion.span[1]] == "green cushions"
    (with_,) = [r for r in graph.relations if r.predicate == "with"]
    assert with_.span == (bench.span[0], cushion.span[1])
    off = parse(parser, caption, off="shorthand")
    assert ("bench", "with", "cushion") not in rels(off)


def test_plus_between_two_nouns_is_and(parser):
    caption = "dad+son fishing from a small boat on the lake"
    graph = parse(parser, caption)
    assert {("dad", "fish from", "boat"), ("son", "fish from", "boat")} <= rels(graph)
    son = graph.entities[heads(graph).index("son")]
    assert caption[son.span[0] : son.span[1]] == "son"
    assert ("son", "fish from", "boat") not in rels(parse(parser, caption, off="shorthand"))


def test_entity_with_written_out_shorthand_keeps_the_captions_text(parser):
    caption = "a blue+white backpack on a bench"
    graph = parse(parser, caption)
    backpack = graph.entities[heads(graph).index("backpack")]
    assert set(backpack.attributes) == {"blue", "white"}
    assert backpack.text == caption[backpack.span[0] : backpack.span[1]] == "blue+white backpack"
    assert "white" not in parse(parser, caption, off="shorthand").entities[0].attributes


def test_shorthand_counts_and_leaves_other_captions_byte_identical(parser):
    caption = "two old wooden benches with green cushions in a park"
    assert parse(parser, caption) == parse(parser, caption, off="shorthand")
    before = parser.stats().get("shorthand_written", 0)
    parse(parser, "a mug w/ a handle")
    assert parser.stats()["shorthand_written"] == before + 1


# ---- small_clauses --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption, watcher, watched",
    [
        ("a group of kids watch the horses jump over the fence", "kid", "horse"),
        ("a girl at the window watches the snow falling on the garden", "girl", "snow"),
    ],
)
def test_subject_of_a_small_clause_is_the_verbs_object(parser, caption, watcher, watched):
    graph = parse(parser, caption)
    assert (watcher, "watch", watched) in rels(graph)
    assert (watcher, "watch", watched) not in rels(parse(parser, caption, off="small_clauses"))


def test_small_clause_keeps_its_own_relation(parser):
    caption = "a crowd of fans watches the cyclists race down the hill"
    graph = parse(parser, caption)
    assert any(s == "cyclist" and o == "hill" for s, _, o in rels(graph))


@pytest.mark.parametrize(
    "caption",
    [
        "a woman thinks the dogs are hungry",  # a finite clause
        "a man watches the game on a large television",  # an object, no clause
    ],
)
def test_small_clauses_leave_other_captions_alone(parser, caption):
    assert parse(parser, caption) == parse(parser, caption, off="small_clauses")


# ---- shared_lists ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption, owner, items",
    [
        ("a storage shelf with a basket , dvd player , and books", "shelf", ["player", "book"]),
    ],
)
def test_bare_noun_after_a_with_phrase_and_comma_is_the_next_item(parser, caption, owner, items):
    graph = parse(parser, caption)
    off = rels(parse(parser, caption, off="shared_lists"))
    for item in items:
        assert (owner, "with", item) in rels(graph)
        assert (owner, "with", item) not in off


@pytest.mark.parametrize(
    "caption",
    [
        "a kitchen with a table , a sofa and a lamp",  # an article: maybe a second owner
        "a desk with a computer , a mouse and a cat",
    ],
)
def test_shared_lists_leave_other_captions_alone(parser, caption):
    assert parse(parser, caption) == parse(parser, caption, off="shared_lists")


# ---- participle_roots -----------------------------------------------------------------------


def test_participle_root_after_a_with_object_is_the_objects(parser):
    caption = "an old fashioned vehicle with a surfboard mounted on its roof"
    graph = parse(parser, caption)
    assert ("surfboard", "mount on", "roof") in rels(graph)
    assert ("vehicle", "have", "roof") in rels(graph)  # "its": not the surfboard's own roof
    off = rels(parse(parser, caption, off="participle_roots"))
    assert ("vehicle", "mount on", "roof") in off and ("surfboard", "mount on", "roof") not in off


def test_place_of_a_put_thing_is_not_its_own(parser):
    caption = "a small car with a bike strapped to its roof"
    assert ("car", "have", "roof") in rels(parse(parser, caption))
    assert ("bike", "have", "roof") in rels(parse(parser, caption, off="participle_roots"))


@pytest.mark.parametrize(
    "caption",
    [
        "the surfboard is mounted on the roof of the van",  # an auxiliary: a sentence
        "a dog carrying its toy across the yard",
    ],
)
def test_participle_roots_leave_other_captions_alone(parser, caption):
    assert parse(parser, caption) == parse(parser, caption, off="participle_roots")


# ---- absolutes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption, doer, thing, place, old",
    [  # "with" hung on the verb, then on the noun
        ("a woman reading a book on a bench, with a lamp above the bench",
         "woman", "lamp", ("lamp", "above", "bench"), "read with"),
        ("a farmer selling apples from a small stall, with a green awning over the stall",
         "farmer", "awning", ("awning", "over", "stall"), "with"),
    ],
)  # fmt: skip
def test_with_phrase_after_a_comma_with_its_own_place_is_a_scene(
    parser, caption, doer, thing, place, old
):
    graph = rels(parse(parser, caption))
    assert place in graph
    assert not any(s == doer and o == thing for s, _, o in graph)
    assert (doer, old, thing) in rels(parse(parser, caption, off="absolutes"))


def test_absolutes_leave_a_with_phrase_without_comma_alone(parser):
    caption = "a girl playing with a puppy on the steps"
    assert parse(parser, caption) == parse(parser, caption, off="absolutes")
