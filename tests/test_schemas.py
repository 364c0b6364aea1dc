"""The checked-in JSON Schemas must match the pydantic models they are generated from."""

from pathlib import Path

import pytest
from pydantic import ValidationError

from sgprep.schema import Entity, Relation, SceneGraph, relation_span
from sgprep.schemas_gen import render_schemas

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


def test_checked_in_schemas_match_models():
    expected = render_schemas()
    on_disk = {p.name: p.read_text() for p in SCHEMAS.glob("*.schema.json")}
    assert sorted(on_disk) == sorted(expected), "schema files added or missing"
    drifted = [name for name, text in expected.items() if on_disk[name] != text]
    assert not drifted, f"regenerate with `python -m sgprep.schemas_gen`: {drifted} drifted"


def test_schema_drift_is_detected(tmp_path, monkeypatch):
    """A model change must make the generated text differ from what is checked in."""
    from sgprep import schema

    monkeypatch.setitem(schema.SCHEMA_MODELS, "scene_graph", Entity)
    assert (
        render_schemas()["scene_graph.schema.json"]
        != (SCHEMAS / "scene_graph.schema.json").read_text()
    )


def _graph(**kw):
    ents = [
        Entity(text="red apple", head="apple", attributes=["red"]),
        Entity(text="car", head="car"),
    ]
    return SceneGraph(entities=ents, parser="test", **kw)


def test_graph_rejects_out_of_range_and_self_loops():
    assert _graph(relations=[Relation(subject=0, predicate="left of", object=1)])
    with pytest.raises(ValidationError, match="out of range"):
        _graph(relations=[Relation(subject=0, predicate="on", object=2)])
    with pytest.raises(ValidationError, match="itself"):
        _graph(relations=[Relation(subject=1, predicate="on", object=1)])
    with pytest.raises(ValidationError):
        Relation(subject=0, predicate="   ", object=1)
    with pytest.raises(ValidationError):
        Entity(text="x", head="x", span=(5, 2))


def test_relation_forms_and_span_are_checked():
    rel = Relation(
        subject=0,
        predicate="holding",
        object=1,
        predicate_lemma=" hold ",
        predicate_surface="holding",
        span=(0, 9),
    )
    assert rel.predicate_lemma == "hold"
    assert Relation(subject=0, predicate="on", object=1).span is None  # optional: null
    with pytest.raises(ValidationError):
        Relation(subject=0, predicate="on", object=1, predicate_lemma="  ")
    with pytest.raises(ValidationError):
        Relation(subject=0, predicate="on", object=1, span=(4, 1))


def test_relation_span_covers_both_entities_or_is_unknown():
    ents = [
        Entity(text="car", head="car", span=(12, 15)),
        Entity(text="red apple", head="apple", span=(0, 9)),
        Entity(text="sky", head="sky"),
    ]
    assert relation_span(ents, 0, 1) == (0, 15)
    assert relation_span(ents, 1, 0) == (0, 15)
    assert relation_span(ents, 0, 2) is None
    assert relation_span(ents, 0, 7) is None  # out of range: the graph validator reports it
