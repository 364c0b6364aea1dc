"""Annotations are encoded from their models' fields as they lie (orjson's ``default``), with
the very bytes their JSON mode gives (``model_dump(mode="json")``, then sorted keys)."""

from __future__ import annotations

import math

import orjson
from pydantic import BaseModel, ConfigDict, Field, computed_field

from sgprep.io import records
from sgprep.io.records import _json_dumps, _native, _tiny_float, tar_members
from sgprep.schema import Detections, Negative, Negatives, Positive, Sample, SceneGraph


def _by_json_mode(value, float_free: bool) -> bytes | type:
    """The encoding as it was (or the error it raised)."""
    data = value.model_dump(mode="json")
    try:
        out = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return TypeError
    return _json_dumps(data) if not float_free and _tiny_float(out) else out


def _encoded(sample, field) -> bytes | type:
    try:
        return records._annotation_json(sample, field)
    except TypeError:
        return TypeError


GRAPH = SceneGraph(
    parser="spacy",
    entities=[
        {"text": "red car", "head": "car", "attributes": ["red"], "span": (2, 9), "count": 2},
        {"text": "road", "head": "road", "span": [13, 17]},
        {"text": "é ☃", "head": "x", "count": 2**70},  # beyond 64 bits: orjson refuses it
    ],
    relations=[{"subject": 0, "predicate": "on", "object": 1, "span": (2, 17)}],
)


def _negatives(graph):
    return Negatives(
        positives=[Positive(text="a red car on a road", kind="caption", graph=graph)],
        negatives=[
            Negative(
                text="a blue car on a road",
                strategy="replace",
                kind="replace_attribute",
                positive="a red car on a road",
                positive_index=0,
                realisation="span_edit",
                graph=graph,
            ),
            Negative(
                text="a road on a red car",
                strategy="swap",
                kind="swap_object",
                positive="a red car on a road",
                realisation="template",
            ),
        ],
    )


def test_the_bytes_of_the_json_mode():
    small = GRAPH.model_copy(update={"entities": GRAPH.entities[:2]})
    detections = Detections(
        width=640,
        height=480,
        detector="yolo",
        weights_sha256="0" * 64,
        backend="torch",
        objects=[
            {"xyxy": (1e-7, 0.5, 3.25, 100.0), "score": 0.00001, "label": "car", "cls": 2},
            {"xyxy": (1, 2, 3, 4), "score": 1, "label": "road", "cls": 5},
        ],
        pairs=[{"xyxy": (0.0, 0.0, 3.0, 4.0), "score": 1e-5, "i": 0, "j": 1}],
        entity_boxes=[0, None],
    )
    cases = [
        ("sg", small),
        ("sg", GRAPH),  # orjson refuses it, as it did
        ("neg", _negatives(None)),
        ("neg", _negatives(small)),
        ("neg", _negatives(GRAPH)),
        ("det", detections),
        ("det", detections.model_copy(update={"pairs": [], "entity_boxes": None})),
    ]
    for field, value in cases:
        sample = Sample(key="k", source="s", **{field: value})
        expected = _by_json_mode(value, field in records.FLOAT_FREE)
        assert _encoded(sample, field) == expected
    assert _encoded(Sample(key="k", source="s", sg=GRAPH), "sg") is TypeError
    sample = Sample(key="k", source="s", neg=_negatives(None))
    assert tar_members(sample)["neg.json"] == _by_json_mode(sample.neg, True)


def test_nan_is_null_as_in_the_json_mode():
    class Scored(BaseModel):
        model_config = ConfigDict(extra="forbid")
        score: float

    value = Scored(score=math.nan)
    assert _native(Scored)
    fast = orjson.dumps(value, default=lambda o: o.__dict__, option=orjson.OPT_SORT_KEYS)
    assert fast == _by_json_mode(value, False) == b'{"score":null}'


def test_models_the_json_mode_changes_are_not_written_from_their_fields():
    class Extra(BaseModel):
        model_config = ConfigDict(extra="allow")
        a: int = 1

    class Aliased(BaseModel):
        model_config = ConfigDict(extra="forbid")
        a: int = Field(default=1, serialization_alias="b")

    class Computed(BaseModel):
        model_config = ConfigDict(extra="forbid")
        a: int = 1

        @computed_field
        @property
        def b(self) -> int:
            return 2

    class Free(BaseModel):
        model_config = ConfigDict(extra="forbid")
        meta: dict = {}

    for model in (Extra, Aliased, Computed, Free):
        assert not _native(model)
    assert {SceneGraph, Negatives, Negative, Detections} <= records._NATIVE_MODELS
