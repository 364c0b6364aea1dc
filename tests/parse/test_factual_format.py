"""FACTUAL string form <-> SceneGraph: round trips, real-format lines, malformed model output."""

from __future__ import annotations

import pytest

from sgprep.parse.factual_format import (
    caption_spans,
    entity_name,
    from_factual,
    split_tuples,
    to_factual,
)
from sgprep.schema import Entity, Relation, SceneGraph


def summary(graph: SceneGraph) -> tuple[list, list]:
    """Entities and relations by name, for comparisons that ignore indices and spans."""
    names = [entity_name(e) for e in graph.entities]
    entities = [(n, sorted(e.attributes), e.count) for n, e in zip(names, graph.entities)]
    relations = sorted((names[r.subject], r.predicate, names[r.object]) for r in graph.relations)
    return entities, relations


def test_reads_the_benchmark_form():
    caption = "two people sitting on brown couch"
    graph = from_factual(
        "( couch , is , brown ) , ( people , sit on , couch ) , ( people , is , 2 )",
        caption,
        "gold",
    )
    assert graph.parser == "gold"
    couch, people = graph.entities
    assert (couch.text, couch.attributes, couch.count) == ("couch", ["brown"], None)
    assert (people.text, people.attributes, people.count) == ("people", [], 2)
    assert graph.relations == [Relation(subject=1, predicate="sit on", object=0)]
    assert caption[slice(*people.span)] == "people"
    assert caption[slice(*couch.span)] == "couch"


def test_object_only_tuple():
    graph = from_factual("( city bus )", "A City Bus")
    assert [e.text for e in graph.entities] == ["city bus"]
    assert graph.entities[0].span == (2, 10)  # case-insensitive
    assert to_factual(graph) == "( city bus )"


def test_round_trip_keeps_every_tuple():
    graph = SceneGraph(
        parser="test",
        entities=[
            Entity(text="two young girls", head="girl", attributes=["young"], count=2),
            Entity(text="dinner table", head="table"),
            Entity(text="the window", head="window"),
        ],
        relations=[Relation(subject=0, predicate="sit at", object=1)],
    )
    text = to_factual(graph)
    assert text == (
        "( girls , sit at , dinner table ) , ( girls , is , 2 ) , ( girls , is , young ) , "
        "( window )"
    )
    back = from_factual(text, "two young girls sitting at a dinner table by the window")
    assert summary(back) == summary(graph)
    assert to_factual(back) == text


def test_same_named_entities_plain_and_with_ids():
    caption = "man hitting other man with bat"
    plain = from_factual("( man , hit , man ) , ( man , with , bat )", caption)
    assert [e.text for e in plain.entities] == ["man", "man", "bat"]
    assert [(r.subject, r.object) for r in plain.relations] == [(0, 1), (0, 2)]
    assert [e.span for e in plain.entities] == [(0, 3), (18, 21), (27, 30)]
    assert to_factual(plain, ids=True) == "( man , hit , man:1 ) , ( man , with , bat )"
    assert to_factual(plain) == "( man , hit , man ) , ( man , with , bat )"

    with_ids = from_factual("( monkey , v:sit next to , monkey:1 ) , ( car , pv:park on , ground )")
    assert [e.text for e in with_ids.entities] == ["monkey", "monkey", "car", "ground"]
    assert [r.predicate for r in with_ids.relations] == ["sit next to", "park on"]


def test_self_loop_and_repeats_are_dropped():
    graph = from_factual(
        "( man:1 , look at , man:1 ) , ( man , on , canopy ) , ( man , on , canopy ) , "
        "( Man , is , tall ) , ( man , is , tall )"
    )
    assert [e.text for e in graph.entities] == ["man", "man", "canopy"]
    assert graph.relations == [Relation(subject=1, predicate="on", object=2)]
    assert graph.entities[1].attributes == ["tall"]


@pytest.mark.parametrize("text", ["", "   ", "()", "( , , )", " , , ", ")(", "( ( ) )"])
def test_empty_or_contentless_output_gives_an_empty_graph(text):
    graph = from_factual(text, "a caption")
    assert graph.entities == [] and graph.relations == []


@pytest.mark.parametrize(
    ("text", "entities", "relations"),
    [
        # unbalanced: missing closing / opening parenthesis
        ("( man , on , table", ["man", "table"], [("man", "on", "table")]),
        ("man , on , table ) , ( table , is , red )", ["man", "table"], [("man", "on", "table")]),
        ("( man , on , table ( table , is , red )", ["man", "table"], [("man", "on", "table")]),
        # a missing comma: the element count is wrong, the named entity is kept
        ("( man on table )", ["man on table"], []),
        ("( man , on table )", ["man"], []),
        # too many elements: the rest is noise
        ("( man , on , table , red )", ["man", "table"], [("man", "on", "table")]),
        # a relation naming entities never introduced creates them
        ("( dog , chase , cat ) , ( cat , is , black )", ["dog", "cat"], [("dog", "chase", "cat")]),
        # an empty element drops its relation
        ("( , on , table ) , ( man , , )", ["table", "man"], []),
        # no brackets at all: one tuple
        ("man , on , table", ["man", "table"], [("man", "on", "table")]),
        ("man on table", ["man on table"], []),
        # stray text and brackets around tuples
        ("scene graph: [ ( man , ride , horse ) ] .", ["man", "horse"], [("man", "ride", "horse")]),
    ],
)
def test_malformed_output_is_read_leniently(text, entities, relations):
    graph = from_factual(text, "a man on a table")
    assert [e.text for e in graph.entities] == entities
    names = [e.text for e in graph.entities]
    assert [(names[r.subject], r.predicate, names[r.object]) for r in graph.relations] == relations
    SceneGraph.model_validate(graph.model_dump())


def test_numbers_become_counts_once():
    graph = from_factual("( dogs , is , two ) , ( dogs , is , 3 ) , ( dogs , is , brown )")
    (dogs,) = graph.entities
    assert dogs.count == 2
    assert dogs.attributes == ["3", "brown"]  # a conflicting second number stays visible


def test_split_tuples_cleans_whitespace():
    assert split_tuples("(  man ,\tsit  on , bench )") == [["man", "sit on", "bench"]]


def test_caption_spans():
    caption = "Two zebras follow a zebra near the water"
    assert caption_spans(["zebra", "zebra", "water", "hydrant"], caption) == [
        (4, 10),
        (20, 25),
        (35, 40),
        None,
    ]
    assert caption_spans(["zebra", "zebra", "zebra"], caption)[2] is None
    assert caption_spans(["bus"], "a minibus") == [None]  # word boundaries


@pytest.mark.parametrize(
    ("entity", "name"),
    [
        (Entity(text="red apple", head="apple", attributes=["red"]), "apple"),
        (Entity(text="two tennis players", head="tennis player", count=2), "tennis players"),
        (Entity(text="black and white cat", head="cat", attributes=["black", "white"]), "cat"),
        (  # commas glued to the colours of a list
            Entity(
                text="shaggy black, brown and white goat",
                head="goat",
                attributes=["shaggy", "black", "brown", "white"],
            ),
            "goat",
        ),
        (
            Entity(
                text="yellow , red and blue logo", head="logo", attributes=["yellow", "red", "blue"]
            ),
            "logo",
        ),
        (Entity(text="woman in red", head="woman", attributes=["in red"]), "woman"),
        (Entity(text="the men", head="man"), "men"),  # as written (``plurals``)
        (Entity(text="glass door", head="door", attributes=["glass"]), "door"),
    ],
)
def test_entity_name(entity, name):
    assert entity_name(entity) == name
