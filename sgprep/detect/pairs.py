"""Relation components: for each pair of kept objects, the smallest box enclosing both.

A pair ``(i, j)`` with ``i < j`` is scored ``p_i * p_j``; the ``top`` best are kept, ordered by
score, ties broken by ``(i, j)`` so the order never depends on anything but the objects.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from sgprep.schema import Box, PairBox


def union_box(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float, float]:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def top_pairs(objects: Sequence[Box], top: int) -> list[PairBox]:
    if top <= 0:
        return []
    scored = sorted(
        (
            (objects[i].score * objects[j].score, i, j)
            for i, j in combinations(range(len(objects)), 2)
        ),
        key=lambda t: (-t[0], t[1], t[2]),
    )
    return [
        PairBox(i=i, j=j, score=score, xyxy=union_box(objects[i].xyxy, objects[j].xyxy))
        for score, i, j in scored[:top]
    ]
