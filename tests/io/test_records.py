"""The canonical JSON encoder: orjson where it writes json.dumps's bytes, json elsewhere."""

import json
import math
import random

import pytest

from sgprep.io.records import dumps, dumps_bytes


def reference(obj) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


@pytest.mark.parametrize(
    "obj",
    [
        {
            "b": 1,
            "a": [1.0, 2, None, True, False],
            "é": "naïve ☃ 😀",
            "ctl": 'a\x00\x1f\x7f\u2028"\\/',
        },
        {
            "tiny": 1e-05,
            "tinier": -3.2e-09,
            "zero": 0.0,
            "neg0": -0.0,
            "big": 1e16,
            "huge": 1.5e300,
        },
        {"nan": float("nan"), "inf": float("inf"), "ninf": -float("inf"), "n": None},
        [{"nested": [{"nan": math.nan}]}, None],
        {1: "an int key", 2: "another"},  # orjson refuses non-str keys
        {"big": 2**70, "neg": -(2**64)},  # beyond 64 bits
        {"text": "not a float: 0.00001 in a string"},
        "plain",
        3,
        2.5,
        None,
        [],
    ],
)
def test_same_bytes_as_json_dumps(obj):
    assert dumps(obj) == reference(obj)
    assert dumps_bytes(obj) == reference(obj).encode("utf-8")


def test_same_bytes_for_floats_of_every_magnitude():
    rng = random.Random(0)
    values = [
        rng.uniform(1, 10) * 10.0 ** rng.randint(-30, 30) * rng.choice([1, -1]) for _ in range(5000)
    ]
    assert dumps({"v": values}) == reference({"v": values})
    for value in values[:500]:
        assert dumps(value) == reference(value)


def test_annotations_encoded_as_json_dumps_would():
    from sgprep.io.records import _annotation_json
    from sgprep.schema import Box, Detections, Sample

    box = Box(label="person", cls=0, score=0.00004, xyxy=[1e-7, 3e-05, 10.25, 30.5])
    det = Detections(
        width=40, height=40, detector="d", weights_sha256="0" * 64, backend="onnx", objects=[box]
    )
    sample = Sample(key="k", source="s", det=det)
    expected = reference(sample.det.model_dump(mode="json")).encode("utf-8")
    assert _annotation_json(sample, "det") == expected


def test_lone_surrogate_fails_like_json():
    with pytest.raises(UnicodeEncodeError):
        dumps_bytes({"bad": "\ud800"})


def test_float_free_products():
    """The scene graph's JSON holds no float, so its encoding skips the tiny-float search;
    a model with a float, or with a field that may hold one (Any, a dict), is not float-free."""
    from typing import Any, Literal

    from pydantic import BaseModel

    from sgprep.io.records import FLOAT_FREE, _float_free
    from sgprep.schema import Detections

    class Ints(BaseModel):
        n: int | None = None
        pair: tuple[int, int] = (0, 0)
        names: list[str] = []
        kind: Literal["a", 1, True] = "a"

    class WithFloat(BaseModel):
        inner: list[Ints] = []
        x: tuple[int, float] = (0, 0.5)

    class WithAny(BaseModel):
        meta: dict[str, Any] = {}

    assert "sg" in FLOAT_FREE and "det" not in FLOAT_FREE
    assert _float_free(Ints) and not _float_free(Detections)
    assert not _float_free(WithFloat) and not _float_free(WithAny)
    assert not _float_free(Literal["a", 0.5])


def test_scene_graph_bytes_are_jsons_with_float_like_text():
    """Text that looks like a tiny float in a float-free product is written as json writes it."""
    from sgprep.io.records import tar_members
    from sgprep.schema import Entity, Sample, SceneGraph

    graph = SceneGraph(
        entities=[Entity(text="1e-05 cat 0.00001", head="cat\u2028é", span=(0, 5))],
        parser="spacy",
    )
    sample = Sample(key="k", source="s:1", caption="1e-05 cat 0.00001", sg=graph)
    assert tar_members(sample)["sg.json"] == reference(graph.model_dump(mode="json")).encode()
