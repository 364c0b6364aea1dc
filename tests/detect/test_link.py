"""det.json's entity_boxes: each caption entity linked to the detected box it names."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from sgprep.detect.link import entity_boxes
from sgprep.schema import Box, Detections, Entity, SceneGraph


def _graph(*texts: str) -> SceneGraph:
    return SceneGraph(entities=[Entity(text=t, head=t.split()[-1]) for t in texts], parser="hand")


def _boxes(*labels: str) -> list[Box]:
    return [
        Box(xyxy=(0, 0, 10, 10), score=0.9 - k / 10, label=label, cls=k)
        for k, label in enumerate(labels)
    ]


def test_each_entity_takes_the_best_free_box_it_names():
    objects = _boxes("person", "dog", "person", "teddy bear")
    graph = _graph("old man", "young woman", "brown puppy", "small teddy bear", "red car", "child")
    # man and woman take the two person boxes in score order; the child finds none left
    assert entity_boxes(graph, objects) == [0, 2, 1, 3, None, None]
    assert entity_boxes(_graph("dogs"), objects) == [1]  # a plural names its label too
    assert entity_boxes(_graph("car"), []) == [None]


def test_a_link_out_of_range_is_refused():
    det = dict(
        width=10,
        height=10,
        detector="hand",
        weights_sha256="0" * 64,
        backend="onnx",
        objects=_boxes("person"),
    )
    assert Detections(**det, entity_boxes=[0, None]).entity_boxes == [0, None]
    with pytest.raises(ValidationError, match="links to box 1"):
        Detections(**det, entity_boxes=[1])
