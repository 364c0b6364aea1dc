"""det.json's entity_boxes: each caption entity linked to the detected box it names."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from sgprep.detect.link import direction, entity_boxes, link
from sgprep.schema import Box, Detections, Entity, Relation, SceneGraph
from sgprep.stats.properties import label_words, word_forms


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


def _box(label: str, x: float, y: float, score: float, w: float = 10, h: float = 10) -> Box:
    return Box(xyxy=(x, y, x + w, y + h), score=score, label=label, cls=0)


def _related(texts: list[str], *relations: tuple[int, str, int]) -> SceneGraph:
    graph = _graph(*texts)
    graph.relations = [Relation(subject=s, predicate=p, object=o) for s, p, o in relations]
    return graph


def test_a_dog_to_the_left_of_a_cat_takes_the_boxes_that_stand_so():
    # best scores first: the best dog stands right of both cats, the best cat left of both dogs
    objects = [
        _box("dog", 200, 50, 0.9),
        _box("cat", 0, 50, 0.8),
        _box("dog", 50, 50, 0.7),
        _box("cat", 300, 50, 0.6),
    ]
    assert entity_boxes(_graph("dog", "cat"), objects) == [0, 1]  # labels alone: best by score
    graph = _related(["dog", "cat"], (0, "to the left of", 1))
    links = link(graph, objects)
    assert links.boxes == [0, 3]  # dog 200 < cat 300, keeping the best dog
    assert (links.placed, links.agree) == (1, 1)
    graph = _related(["dog", "cat"], (0, "to the right of", 1))
    assert entity_boxes(graph, objects) == [0, 1]
    graph = _related(["cat", "dog"], (0, "left of", 1))
    assert entity_boxes(graph, objects) == [1, 0]


@pytest.mark.parametrize(
    "predicate, expected",
    [
        ("above", [1, 0]),
        ("on top of", [1, 0]),
        ("sitting on", [1, 0]),
        ("below", [0, 1]),
        ("under", [0, 1]),
        ("beneath", [0, 1]),
        ("in front of", [0, 1]),  # the nearer stands lower in the picture
        ("behind", [1, 0]),
    ],
)
def test_vertical_and_depth_relations(predicate, expected):
    # two cube boxes: the best one low in the picture, the other high
    objects = [_box("cube", 0, 100, 0.9), _box("cube", 0, 0, 0.8)]
    graph = _related(["red cube", "blue cube"], (0, predicate, 1))
    assert entity_boxes(graph, objects) == expected


def test_several_entities_of_one_label_get_distinct_boxes_in_spatial_order():
    objects = [_box("person", x, 0, 0.9 - x / 1000) for x in (200, 0, 100)]
    graph = _related(["man", "woman", "child"], (0, "to the left of", 1), (1, "to the left of", 2))
    links = link(graph, objects)
    assert links.boxes == [1, 2, 0]  # x 0 < 100 < 200
    assert (links.placed, links.agree) == (2, 2)
    assert len(set(links.boxes)) == 3


def test_a_relation_the_boxes_cannot_agree_with_keeps_the_labels_choice():
    objects = [_box("dog", 200, 0, 0.9), _box("cat", 0, 0, 0.8)]
    graph = _related(["dog", "cat"], (0, "left of", 1))
    links = link(graph, objects)
    assert links.boxes == [0, 1]  # both linked still: the caption may be wrong, not the boxes
    assert (links.placed, links.agree) == (1, 0)


def test_predicates_that_say_nothing_about_where_and_the_written_form():
    assert direction("holding") is None
    assert direction("next to") is None
    assert direction("to the left of") is not None
    objects = [_box("cube", 100, 0, 0.9), _box("ring", 50, 0, 0.8), _box("ring", 200, 0, 0.7)]
    graph = _graph("white cube", "gray ring")
    # the predicate a parser lemmatised wrongly: its written form still says where
    graph.relations = [
        Relation(subject=0, predicate="leave of", predicate_surface="left of", object=1)
    ]
    assert entity_boxes(graph, objects) == [0, 2]


def test_the_search_is_bounded_and_keeps_the_best_found():
    objects = [_box("person", x, 0, 0.99 - x / 10_000) for x in range(0, 300, 10)]
    texts = [f"person{k}" for k in range(12)]
    graph = SceneGraph(
        entities=[Entity(text=t, head="person") for t in texts],
        relations=[Relation(subject=k + 1, predicate="left of", object=k) for k in range(11)],
        parser="hand",
    )
    # labels alone put the chain the wrong way round: every relation disagrees
    assert link(graph.model_copy(update={"relations": []}), objects).boxes == list(range(12))
    links = link(graph, objects)  # a chain of 12 over 30 boxes: more than the walk's budget
    assert len({b for b in links.boxes if b is not None}) == 12
    assert links.placed == 11 and 0 < links.agree <= 11


def test_without_spatial_relations_the_links_are_the_labels_greedy_choice():
    """The links of before, byte for byte: each entity, in caption order, takes the
    best-scoring box it names that no earlier entity took."""
    import random

    rng = random.Random(0)
    labels = ["person", "dog", "cat", "teddy bear"]
    heads = ["man", "woman", "dog", "puppy", "cat", "bear", "car"]
    for _ in range(300):
        objects = _boxes(*rng.choices(labels, k=rng.randint(0, 6)))
        graph = _related(
            rng.choices(heads, k=rng.randint(1, 5)),
            *[(0, rng.choice(["holding", "next to", "with"]), 1)] * rng.randint(0, 1),
        )
        if len(graph.entities) < 2:
            graph.relations = []
        taken, greedy = set(), []
        for entity in graph.entities:
            names = word_forms(entity.head)
            match = next(
                (
                    k
                    for k, b in enumerate(objects)
                    if k not in taken and names & label_words(b.label)
                ),
                None,
            )
            taken.add(match)
            greedy.append(match)
        assert entity_boxes(graph, objects) == greedy
