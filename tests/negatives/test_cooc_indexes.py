"""The statistics' indexes: made at the stage's setup (:meth:`Cooc.prepare`) or on first use,
they are the same, and what reads them answers as the tables do."""

from __future__ import annotations

from sgprep.negatives.cooc import Cooc, load_default
from sgprep.negatives.stage import NegativesSettings, NegativesStage
from sgprep.schema import Entity, Relation, SceneGraph


def _graphs() -> list[SceneGraph]:
    def graph(ents, rels):
        return SceneGraph(
            entities=[Entity(text=t, head=h, attributes=a) for t, h, a in ents],
            relations=[Relation(subject=s, predicate=p, object=o) for s, p, o in rels],
            parser="hand",
        )

    return [
        graph(
            [("man", "man", []), ("brown horse", "horse", ["brown"]), ("field", "field", [])],
            [(0, "ride", 1), (1, "in", 2)],
        ),
        graph(
            [("woman", "woman", []), ("white horse", "horse", ["white"])],
            [(0, "feed", 1)],
        ),
        graph([("dog", "dog", []), ("red frisbee", "frisbee", ["red"])], [(0, "catch", 1)]),
    ]


def _counted() -> Cooc:
    c = Cooc()
    for g in _graphs():
        c.count(g)
    return Cooc.from_json(c.to_json())


def test_prepared_indexes_equal_those_made_on_first_use():
    lazy, ready = _counted(), _counted().prepare()
    assert set(ready._by_context) >= set(Cooc.INDEXES)
    for which in Cooc.INDEXES:
        assert lazy._index(which) == ready._by_context[which], which
    # what reads them answers as the tables do, either way
    for c in (lazy, ready):
        assert c.together("man", "horse") == c.n("scene", "horse", "man") > 0
        assert c.together("horse", "man") == c.together("man", "horse")
        assert c.together("dog", "horse") == 0
        assert c.neighbours("attr", 1, "horse") == {"brown": 1, "white": 1}
        assert c.seen_between("man", "horse", seen=1) == frozenset({"ride"})


def test_the_stage_setup_prepares_the_statistics_in_use():
    stage = NegativesStage(NegativesSettings(strategies=["replace"]))
    stage.setup()
    assert set(Cooc.INDEXES) <= set(stage.vocab.cooc._by_context)
    assert stage.vocab.cooc is load_default()  # the bundled ones, once per process
