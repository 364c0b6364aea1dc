"""Which detected box each caption entity names: ``det.json``'s ``entity_boxes``.

An entity can name a box when its head (or its last two words, for "teddy bear") is one of the
box label's words in ``stats/synonyms.json`` ("man", "girl", "player" name a "person"): the
match ``sgprep stats`` uses for coverage. Each box goes to one entity at most, so "a man and a
woman" with two person boxes link to two different boxes; an entity left without a box gets
null.

Among the assignments, the caption's spatial relations choose: "a dog to the left of a cat"
with two dog and two cat boxes takes the dog box and the cat box that stand that way. The
assignment kept is the one that agrees with the most spatial relations (both ends linked,
boxes placed as the predicate says, :func:`direction`); among those, the one whose boxes are
best by score in caption order (with no spatial relation: each entity, in caption order,
takes the best-scoring box it names that no earlier entity took). The search is a depth-first
walk over that order that stops after :data:`SEARCH_NODES` steps, keeping the best so far.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from sgprep.schema import Box, Relation, SceneGraph
from sgprep.stats.properties import label_words, word_forms

SEARCH_NODES = 20_000  # per graph: bounds the walk for a long caption over many boxes

XYXY = tuple[float, float, float, float]
Test = Callable[[XYXY, XYXY], bool]  # (subject box, object box) -> placed as the predicate says


def _cx(b: XYXY) -> float:
    return (b[0] + b[2]) / 2


def _cy(b: XYXY) -> float:
    return (b[1] + b[3]) / 2


#: Predicate patterns (searched in the lower-cased predicate, first match wins) and the test
#: of the subject box against the object box, in image pixels (y grows downwards). Depth has
#: no box of its own: the nearer of two things on one floor stands lower in the picture.
DIRECTIONS: list[tuple[re.Pattern[str], Test]] = [
    (re.compile(r"\bleft\b"), lambda s, o: _cx(s) < _cx(o)),
    (re.compile(r"\bright (side )?of\b|\bto the right\b"), lambda s, o: _cx(s) > _cx(o)),
    (re.compile(r"\bin front\b"), lambda s, o: s[3] > o[3]),
    (re.compile(r"\bbehind\b|\bin back of\b"), lambda s, o: s[3] < o[3]),
    (re.compile(r"\b(under|underneath|beneath|below)\b"), lambda s, o: _cy(s) > _cy(o)),
    (
        re.compile(r"\b(on top of|atop|above|over|on|onto|upon)$"),
        lambda s, o: _cy(s) < _cy(o),
    ),
    (
        re.compile(r"\b(in|inside|inside of|within)$"),
        lambda s, o: o[0] <= _cx(s) <= o[2] and o[1] <= _cy(s) <= o[3],
    ),
]


def direction(predicate: str) -> Test | None:
    """The box test of a spatial predicate ("to the left of", "under", "on top of", "in front
    of", "sitting on"), or None for one that says nothing about where ("holding", "next to")."""
    text = " ".join(predicate.lower().split())
    return next((test for pattern, test in DIRECTIONS if pattern.search(text)), None)


def _can_agree(test: Test, subjects: list[int], objects_: list[int], boxes) -> bool:
    """Some two different boxes of the two entities stand as the predicate says."""
    return any(test(boxes[s].xyxy, boxes[o].xyxy) for s in subjects for o in objects_ if s != o)


def _relation_test(relation: Relation) -> Test | None:
    """The test of the predicate, or of the words as written ("left of" read as "leave of")."""
    test = direction(relation.predicate)
    if test is None and relation.predicate_surface:
        test = direction(relation.predicate_surface)
    return test


@lru_cache(maxsize=4096)
def _label_words(label: str) -> frozenset[str]:
    return frozenset(label_words(label))  # a set copied from a large table: once per label


def _names(text: str, head: str) -> set[str]:
    forms = word_forms(head)
    words = text.lower().split()
    if len(words) >= 2:
        forms |= word_forms(" ".join(words[-2:]))
    return forms


@dataclass
class Links:
    """Per entity, the index of its box in ``objects`` (or None), and how many spatial
    relations had both ends linked (``placed``) and how many of those the boxes agree with."""

    boxes: list[int | None]
    placed: int = 0
    agree: int = 0


def link(graph: SceneGraph, objects: Sequence[Box]) -> Links:
    """The entity-to-box links of ``graph`` over ``objects`` (best score first)."""
    words = [_label_words(box.label) for box in objects]
    names = [_names(e.text, e.head) for e in graph.entities]
    candidates = [[k for k, w in enumerate(words) if n & w] for n in names]
    spatial = [
        (r.subject, r.object, test)
        for r in graph.relations
        if r.subject != r.object
        and r.subject < len(candidates)
        and r.object < len(candidates)
        and candidates[r.subject]
        and candidates[r.object]
        and (test := _relation_test(r)) is not None
    ]
    # a relation that no two boxes can agree with would only make the search walk every
    # assignment: it is counted, not searched for
    searched = [
        (s, o, t) for s, o, t in spatial if _can_agree(t, candidates[s], candidates[o], objects)
    ]
    boxes = _search(candidates, searched, [b.xyxy for b in objects])
    ends = [(boxes[s], boxes[o], test) for s, o, test in spatial]
    placed = [(s, o, t) for s, o, t in ends if s is not None and o is not None]
    agree = sum(test(objects[s].xyxy, objects[o].xyxy) for s, o, test in placed)
    return Links(boxes=boxes, placed=len(placed), agree=agree)


def entity_boxes(graph: SceneGraph, objects: Sequence[Box]) -> list[int | None]:
    """Per entity of ``graph``, the index in ``objects`` (best score first) of its box."""
    return link(graph, objects).boxes


def _search(
    candidates: list[list[int]], spatial: list[tuple[int, int, Test]], xyxy: list[XYXY]
) -> list[int | None]:
    """The assignment that agrees with the most ``spatial`` relations; among those, the first
    in the walk's order (each entity's boxes by score, then no box). A branch is left as soon
    as the relations it could still satisfy cannot beat the best found."""
    n = len(candidates)
    # a relation is judged when the later of its two entities gets its box
    judged_at: list[list[tuple[int, int, Test]]] = [[] for _ in range(n)]
    for s, o, test in spatial:
        judged_at[max(s, o)].append((s, o, test))
    chosen: list[int | None] = [None] * n
    taken: set[int] = set()
    best: tuple[int, list[int | None]] = (-1, [])
    steps = 0

    def agrees(s: int, o: int, test: Test) -> bool:
        a, b = chosen[s], chosen[o]
        return a is not None and b is not None and test(xyxy[a], xyxy[b])

    def still_possible(k: int) -> int:
        """Relations judged after entity ``k`` that some free box could still satisfy."""
        count = 0
        for j in range(k + 1, n):
            for s, o, test in judged_at[j]:
                if s > k and o > k:
                    count += 1
                    continue
                fixed, other = (s, o) if s <= k else (o, s)
                box = chosen[fixed]
                if box is None:
                    continue  # an end with no box agrees with nothing
                free = (c for c in candidates[other] if c not in taken and c != box)
                if fixed == s:
                    count += any(test(xyxy[box], xyxy[c]) for c in free)
                else:
                    count += any(test(xyxy[c], xyxy[box]) for c in free)
        return count

    def walk(k: int, agree: int) -> bool:  # True: stop (no better one exists, or out of steps)
        nonlocal best, steps
        if k == n:
            if agree > best[0]:
                best = (agree, list(chosen))
            return best[0] == len(spatial) or steps >= SEARCH_NODES
        for box in [*(c for c in candidates[k] if c not in taken), None]:
            steps += 1
            chosen[k] = box
            if box is not None:
                taken.add(box)
            gained = agree + sum(agrees(s, o, test) for s, o, test in judged_at[k])
            stop = False
            if gained + still_possible(k) > best[0]:  # this branch can still do better
                stop = walk(k + 1, gained)
            if box is not None:
                taken.discard(box)
            if stop or (steps >= SEARCH_NODES and best[0] >= 0):
                chosen[k] = None
                return True
        chosen[k] = None
        return False

    walk(0, 0)
    return best[1]
