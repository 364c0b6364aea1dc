"""The rule layer's cheap doc view and the repairs' ``needs`` tests (docs/rule-parser.md, "Speed").

A repair is skipped where its ``needs`` test says it cannot change the doc, so a test that
says no where the repair does change it would change the graphs. Each repair is run here,
ungated, on captions where it fires (written from the repairs' own examples), and its test
must have said yes wherever the doc changed.
"""

from __future__ import annotations

import pytest

from sgprep.parse.base import ParserSettings, make_parser
from sgprep.parse.rules import RuleParser
from sgprep.parse.rules_extract import GraphBuilder
from sgprep.parse.rules_view import DocView, needs
from tests.parse.rule_helpers import replace_core_repairs

#: Captions on which the repairs fire, at least one each (checked below), and some on which
#: none does.
CAPTIONS = [
    "a fire hydrant on the sidewalk",
    "a multi-colored kite and a t-shirt",
    "girl swinging tennis racket",
    "man holding bowl",
    "a woman in an orange spacesuit posing between two flags",
    "a woman in a wedding dress holding flowers",
    "a boy in the background wearing shorts",
    "man with brown hair standing in a red shirt",
    "man wearing eyeglasses standing behind the cake",
    "a firefighter climbs a ladder to rescue a kitten",
    "a lamp near building",
    "two men looking toward the camera holding food",
    "seagull walking on ground",
    "surfboard on the roof",
    "a rusty fence with a bird sitting on it",
    "apples with stickers on them",
    "a man with hands in his pockets",
    "the printed heading 'Region-based segmentation' on a page",
    'a sign with the word "STOP" on it',
    "a cat with green eyes, a pink nose and long white whiskers",
    "a woman posing between a flag on the left and a model",
    "man sitting in an armless chair",
    "sky filled with light wispy clouds",
    "elephants tail on his body",
    "a womans coat on a hook",
    "a dog nose and tree branches",
    "an older man in a black shirt and brown shorts holding a bag",
    "a man with a beard and sunglasses holding a drink",
    "a woman wearing high tops, blue jeans, and a purple shirt is watching the cowboy",
    "trees with green leaves in the background",
    "a large frying pan with sliced vegetables on the stove",
    "a dry tree with some yellow leaves standing in grass",
    "four windows on the middle train car that are white on the bottom",
    "two lamps on a table that are lit",
    "a boy jumps into a muddy puddle on a rainy day in the park",
    "a red apple on a wooden table",
    "two dogs playing in the snow",
    "a chef in a white apron slices fresh vegetables on a cutting board",
    "a living room with a sofa, a coffee table and a large TV mounted on the wall",
    "travel, beach, ocean, nofilter",
    "<PERSON> speaks after the hearing on Tuesday, surrounded by microphones and cameras",
    "spray flies into the air behind him",
    "a dog with colorful life vest who is wearing a lei",
    "a photo of railing along the pier",  # a fragment as parsed again behind the prefix
    "a photo of train waiting at the station",
    "small girl holding large donut",
    "the bush has leaves",
    "a girl with a pink dress and white shoes",
    "a woman with a red hat and a blue scarf",
    "grey and black sneakers on the feet of a runner",
    "a man in a dark shirt and beige cap in the stands of a stadium",
    "a storage shelf with a basket , dvd player , and books",
    "an old fashioned vehicle with a surfboard mounted on its roof",
    "white painted wall in a small bedroom",
    "a shaggy black, brown and white goat standing on the ground",
    "two girls sit on white folding chairs",
    "a brown teddy bear with a green and white scarf on sitting on a shelf",
    "cat is lying on back of couch .",
    "seaweed washed up on shore",
    "a fisherman pulls a net from the river while seagulls circle above",
    "two boxers fight in the ring as a referee in a black shirt watches closely",
    "a yacht with a blue hull leans in the wind as its crew lean out over the side",
    "a kayaker paddles through white water rapids while the spray rises",
    "a welder in a protective mask cuts through a steel beam while bright sparks fly",
    "a white cube right of a gray ring",
]


def parser_for_view() -> RuleParser:
    parser = make_parser("spacy", ParserSettings(batch_size=64))
    parser.setup()
    return parser


@pytest.fixture(scope="module")
def parser() -> RuleParser:
    return parser_for_view()


def _state(doc) -> tuple:
    from spacy.attrs import DEP, HEAD, LEMMA, POS, TAG

    quoted = sorted(doc.user_data.get("quoted", ()))
    return len(doc), doc.to_array([POS, TAG, DEP, HEAD, LEMMA]).tobytes(), quoted


def fired_repairs(parser: RuleParser, caption: str) -> list[str]:
    """The repairs that changed the doc of ``caption``, each run in order without its test;
    fails where one changed it although its test said it could not."""
    doc = parser.nlp(caption)
    fired = []
    for repair, args in parser._repair_steps():
        test = getattr(repair, "needs", None)
        said = test is None or test(DocView(doc), *args)
        before = _state(doc)
        doc = repair(doc, *args)
        if _state(doc) != before:
            assert said, f"{repair.__name__} changed {caption!r} where its test said it could not"
            fired.append(repair.__name__)
    return fired


def test_every_repair_has_a_test_that_lets_it_fire(parser):
    fired = {name for caption in CAPTIONS for name in fired_repairs(parser, caption)}
    names = {repair.__name__ for repair, _ in parser._repair_steps()}
    assert all(hasattr(repair, "needs") for repair, _ in parser._repair_steps())
    assert names - fired == set(), "no caption here makes these repairs fire"


def test_the_view_reads_what_the_tokens_say(parser):
    for doc in parser.nlp.pipe(CAPTIONS + ["", "   ", "A man -- in 'quotes' -- waves."]):
        view = DocView(doc)
        assert view.pos == [t.pos_ for t in doc]
        assert view.tag == [t.tag_ for t in doc]
        assert view.dep == [t.dep_ for t in doc]
        assert view.head == [t.head.i for t in doc]
        assert view.lower == [t.lower_ for t in doc]
        assert view.lemma == [t.lemma_ for t in doc]
        assert view.words == {t.lower_ for t in doc} and len(view) == len(doc)
        assert view.children == [[c.i for c in t.children] for t in doc]


def test_the_builder_reads_children_and_conjuncts_as_spacy_does(parser):
    for caption in CAPTIONS + ["cats, dogs and birds, and a man or a woman with a hat and a cap"]:
        doc, view = parser._repaired(parser.nlp(caption))
        builder = GraphBuilder(doc, view=view)
        for tok in doc:
            assert [c.i for c in builder.kids[tok.i]] == [c.i for c in tok.children]
            assert [c.i for c in builder._conjuncts(tok)] == [c.i for c in tok.conjuncts]


def test_gated_repairs_give_the_graphs_of_ungated_ones(parser, monkeypatch):
    gated = parser.parse_batch(CAPTIONS)
    for repair, _ in parser._repair_steps():
        monkeypatch.delattr(repair, "needs")
    ungated = parser.parse_batch(CAPTIONS)
    assert [g.model_dump() for g in gated] == [g.model_dump() for g in ungated]


def test_a_repair_runs_where_its_test_says_on_the_doc_as_repaired_so_far(parser, monkeypatch):
    ran = []

    @needs(lambda view: "with" in view.words or "XX" in view.tags)
    def gated(doc):
        ran.append(doc.text)
        return doc

    def retag(doc):  # no test: always runs, and the view is read again after it
        if doc[0].lower_ == "two":
            doc[0].tag_ = "XX"
        return doc

    # gated runs after retag
    replace_core_repairs(monkeypatch, {"repair_quoted": retag, "repair_with_list": gated})
    fresh = RuleParser(ParserSettings())  # its repair steps are made with the two above
    fresh.nlp = parser.nlp
    fresh.parse_batch(["a dog on a bed", "a cat with a hat", "two birds on a wire"])
    assert ran == ["a cat with a hat", "two birds on a wire"]
