"""The negatives stage's memos and lazily made graphs change nothing it writes."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from sgprep.config import RunContext
from sgprep.negatives.cooc import lemma
from sgprep.negatives.perturbation import Perturbation
from sgprep.negatives.scene import Memos, Scene
from sgprep.negatives.stage import NegativesSettings, NegativesStage
from sgprep.negatives.strategies.replace_relation import ReplaceRelation
from sgprep.negatives.vocab import load_vocab
from sgprep.parse.rules import RuleParser
from sgprep.schema import Entity, Sample, SceneGraph

CAPTIONS = [
    "a man petting a horse",
    "a young girl holding a large white umbrella next to a wooden bench",
    "A man riding a horse in front of a big brown barn",
    "a green bus parked beside a tall building",
    "an orange cat sleeping under a wooden chair",
    "A woman in a black shirt standing near a white car",
    "a small boy with a yellow kite on the beach",
    "two dogs and a man playing frisbee",
]


@pytest.fixture(scope="module")
def graphs():
    return RuleParser().parse_batch(CAPTIONS)


def test_a_perturbation_makes_its_graph_on_first_use_once():
    g = SceneGraph(entities=[Entity(text="a cat", head="cat")], relations=[], parser="spacy")
    calls = []

    def made():
        calls.append(1)
        return g

    p = Perturbation("replace_object", "replace", made, ())
    assert calls == []
    assert p.graph is g and p.graph is g
    assert calls == [1]
    assert Perturbation("k", "s", g, ()).graph is g  # a graph given as it is


def test_plausible_verbs_are_memoised_without_the_captions_own_words(graphs):
    """The memo holds what depends on the statistics and the relation's words; the verbs the
    caption says ("riding") are left out per caption, on a hit too."""
    vocab, g = load_vocab(), graphs[0]
    [r] = g.relations
    verb, rest = lemma(r.predicate.split()[0]), r.predicate.lower().split()[1:]
    options = [v for v in vocab.verbs(tuple(rest)) if v != verb]

    memos = Memos(vocab.cooc)

    def verbs(text):
        scene = Scene(g, vocab, random.Random(0), Counter(), vocab.cooc, text, memos=memos)
        return ReplaceRelation(scene)._attested_verbs(0, verb, rest, options)

    said = verbs("a man petting a horse before riding it")  # fills the memo
    assert "ride" not in said
    plain = verbs(CAPTIONS[0])  # a hit
    assert "ride" in plain
    assert [v for v in plain if v != "ride"] == said
    memos = Memos(vocab.cooc)
    assert verbs(CAPTIONS[0]) == plain  # as computed afresh


def _negatives(graphs, keep: bool, strategies: list[str]):
    stage = NegativesStage(NegativesSettings(strategies=strategies, graphs=keep), RunContext())
    stage.setup()
    batch = [
        Sample(key=f"k{i}", source="t", caption=c, sg=g)
        for i, (c, g) in enumerate(zip(CAPTIONS, graphs))
    ]
    return {s.key: s.neg for s in stage.run(batch)}, stage.stats()


@pytest.mark.parametrize("strategies", [["replace"], ["connect"], ["replace", "connect"]])
def test_graphs_kept_or_not_the_texts_and_counts_are_the_same(graphs, strategies):
    kept, kept_stats = _negatives(graphs, True, strategies)
    bare, bare_stats = _negatives(graphs, False, strategies)
    assert kept_stats == bare_stats
    made = 0
    for key, neg in kept.items():
        other = bare[key]
        assert [(n.text, n.kind) for n in neg.negatives] == [
            (n.text, n.kind) for n in other.negatives
        ]
        assert all(n.graph is None for n in other.negatives)
        caption = graphs[int(key[1:])]
        for n in neg.negatives:
            made += 1
            assert n.graph is not None
            assert all(e.span is None for e in n.graph.entities)
            assert all(r.span is None for r in n.graph.relations)
            if n.kind == "replace_object":
                heads = {e.head for e in n.graph.entities}
                assert heads != {e.head for e in caption.entities}
            if n.kind == "connect":
                added = n.graph.entities[-1]
                assert added.head not in {e.head for e in caption.entities}
                assert any(r.object == len(n.graph.entities) - 1 for r in n.graph.relations)
    assert made
