"""The strategies and what they share: one registry finds each strategy's module, each lists
the families the stage's table gives it, and every family's graph drops the positive's spans."""

import random
from collections import Counter

import pytest
from neg_helpers import CUBES, build_all, graph, strategy_class

from sgprep.negatives.scene import Memos, Scene, Strategy
from sgprep.negatives.stage import STRATEGIES as STAGE_STRATEGIES
from sgprep.negatives.strategies import FAMILIES, STRATEGIES, load_strategy
from sgprep.negatives.validity import signature
from sgprep.negatives.vocab import load_vocab
from sgprep.registry import UnknownEntry


def test_each_strategy_lists_the_families_the_table_gives_it():
    scene = Scene(CUBES, load_vocab(), random.Random(0), Counter())
    assert set(FAMILIES.values()) == set(STRATEGIES)
    assert (*STRATEGIES, "subgraph") == STAGE_STRATEGIES
    for name in STRATEGIES:
        cls = load_strategy(name)
        assert issubclass(cls, Strategy) and cls.__module__.endswith(f".strategies.{name}")
        families = {f for f, s in FAMILIES.items() if s == name}
        assert set(cls(scene).listings()) == families, name


def test_an_unknown_strategy_is_refused_with_the_nearest_name():
    with pytest.raises(UnknownEntry, match="did you mean 'shuffle'"):
        load_strategy("shufle")


def test_a_scene_takes_memos_of_its_own_statistics_only():
    vocab = load_vocab()
    memos = Memos(vocab.cooc)
    scene = Scene(CUBES, vocab, random.Random(0), Counter(), vocab.cooc, memos=memos)
    assert scene.memos is memos
    assert Scene(CUBES, vocab, random.Random(0), Counter()).memos.cooc is None
    with pytest.raises(ValueError, match="other statistics"):
        Scene(CUBES, vocab, random.Random(0), Counter(), memos=memos)


def test_perturbed_relations_drop_the_positives_span_and_stale_forms():
    caption = "a cat sitting on a mat"
    g = graph(caption, [("cat", "cat", []), ("mat", "mat", [])], [(0, "sit on", 1)])
    g.relations[0] = g.relations[0].model_copy(
        update={"predicate_lemma": "sit on", "predicate_surface": "sitting on", "span": (2, 22)}
    )
    [p], _ = build_all(g, "replace_relation")
    r = p.graph.relations[0]
    assert (r.predicate, r.predicate_lemma, r.predicate_surface, r.span) == (
        "sit under",
        None,
        None,
        None,
    )
    [p], _ = build_all(g, "shuffle_relation")  # same predicate, other way round: forms hold
    r = p.graph.relations[0]
    assert (r.subject, r.predicate_lemma, r.predicate_surface, r.span) == (
        1,
        "sit on",
        "sitting on",
        None,
    )


def test_replace_and_connect_always_change_the_graph_even_with_a_capitalised_vocabulary():
    """The stage skips the same-graph check for these families (validity.ALWAYS_CHANGED);
    check the claim on every candidate, over seeds, with a vocabulary whose words differ from
    the graph's only in case (they must not come back as "new" words)."""
    from sgprep.negatives.validity import ALWAYS_CHANGED
    from sgprep.negatives.vocab import Vocabulary

    vocab = Vocabulary.from_json(
        {
            "objects": {"Cube": 5, "SPHERE": 5, "cube": 1, "Cat": 1, "mat": 1},
            "attributes": {"colour": {"Red": 5, "BLUE": 5, "green": 1}},
            "relations": {
                "spatial": {"Left  Of": 3, "on": 1},
                "action": {"Chase": 2, "hold": 1, "Chase after": 1},
            },
        }
    )
    assert vocab.objects == {"cube": 6, "sphere": 5, "cat": 1, "mat": 1}
    assert vocab.relations["spatial"] == {"left of": 3, "on": 1}
    assert vocab.verbs(()) == ("chase", "hold") and vocab.verbs(("after",)) == ("chase",)
    graphs = [
        CUBES,
        graph(
            "a red cube left of a red cube",
            [("red cube", "cube", ["red"]), ("red cube", "cube", ["red"])],
            [(0, "left of", 1)],
        ),
        graph(
            "the cat chases the mat", [("cat", "cat", []), ("mat", "mat", [])], [(0, "chase", 1)]
        ),
        graph(
            "two blue cats on a mat",
            [("blue cats", "cat", ["blue"], 2), ("mat", "mat", [])],
            [(0, "on", 1)],
        ),
    ]
    assert set(ALWAYS_CHANGED) <= set(FAMILIES)
    built = 0
    for g in graphs:
        for seed in range(20):
            for family in ALWAYS_CHANGED:
                scene = Scene(g, vocab, random.Random(seed), Counter())
                for candidate in strategy_class(family)(scene).candidates(family):
                    out = candidate()
                    if out is not None:
                        built += 1
                        assert signature(out.graph) != signature(g), (family, out.graph)
    assert built > 100
