"""Pair boxes: exact unions of their two objects, exact products of their scores, and an order
that depends only on the scores and the indices."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from sgprep.detect.pairs import top_pairs, union_box
from sgprep.schema import Box, Detections, PairBox


def _box(x1, y1, x2, y2, score):
    return Box(xyxy=(x1, y1, x2, y2), score=score, label="thing", cls=0)


OBJECTS = [
    _box(10.0, 20.0, 50.0, 60.0, 0.9),
    _box(40.0, 5.5, 45.0, 100.25, 0.8),
    _box(0.0, 70.0, 30.0, 80.0, 0.5),
    _box(60.0, 60.0, 61.0, 61.0, 0.5),
]


def test_union_is_the_smallest_enclosing_box():
    # written from the rule: min of the left/top edges, max of the right/bottom edges
    assert union_box((10, 20, 50, 60), (40, 5.5, 45, 100.25)) == (10, 5.5, 50, 100.25)
    assert union_box((0, 70, 30, 80), (60, 60, 61, 61)) == (0, 60, 61, 80)


def test_pairs_are_exact_unions_and_products_best_first():
    pairs = top_pairs(OBJECTS, top=10)
    assert len(pairs) == 6  # all 4 choose 2
    # by hand: 0.9*0.8=0.72, 0.9*0.5 (0,2) and (0,3) tie -> by (i, j), 0.8*0.5 (1,2),(1,3), 0.25
    assert [(p.i, p.j) for p in pairs] == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert pairs[0].xyxy == (10.0, 5.5, 50.0, 100.25)
    assert pairs[5].xyxy == (0.0, 60.0, 61.0, 80.0)
    for p in pairs:
        a, b = OBJECTS[p.i], OBJECTS[p.j]
        assert p.score == a.score * b.score  # exactly, not approximately
        assert p.xyxy == (
            min(a.xyxy[0], b.xyxy[0]),
            min(a.xyxy[1], b.xyxy[1]),
            max(a.xyxy[2], b.xyxy[2]),
            max(a.xyxy[3], b.xyxy[3]),
        )


def test_top_m_keeps_the_best_and_handles_few_objects():
    assert [(p.i, p.j) for p in top_pairs(OBJECTS, top=2)] == [(0, 1), (0, 2)]
    assert top_pairs(OBJECTS, top=0) == []
    assert top_pairs(OBJECTS[:1], top=10) == []
    assert top_pairs([], top=10) == []


def test_detections_refuse_boxes_outside_the_image_and_bad_pairs():
    ok = dict(width=100, height=120, detector="m", weights_sha256="0" * 64, backend="onnx")
    Detections(objects=OBJECTS[:2], pairs=top_pairs(OBJECTS[:2], 1), **ok)
    with pytest.raises(ValidationError, match="outside"):
        Detections(objects=[_box(0, 0, 101, 10, 0.5)], **ok)
    with pytest.raises(ValidationError, match="i < j"):
        Detections(
            objects=OBJECTS[:2], pairs=[PairBox(i=1, j=0, xyxy=(0, 0, 1, 1), score=0.1)], **ok
        )
    with pytest.raises(ValidationError, match="i < j"):
        Detections(
            objects=OBJECTS[:2], pairs=[PairBox(i=0, j=2, xyxy=(0, 0, 1, 1), score=0.1)], **ok
        )
    with pytest.raises(ValidationError, match="x1 <= x2"):
        _box(5, 0, 4, 1, 0.5)
