"""Negatives cost bounded per graph (issue 36): the families that pair entities pair the first
MAX_PAIRED of them, and no family builds more than MAX_TRIES candidates (fewer on a big graph),
each counted; an ordinary caption is untouched by either."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

from sgprep.config import RunContext
from sgprep.negatives.scene import MAX_PAIRED, Scene
from sgprep.negatives.stage import MAX_TRIES, NegativesSettings, NegativesStage
from sgprep.negatives.strategies.swap import Swap
from sgprep.negatives.vocab import load_vocab

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from hostile_graphs import chain, two_ends  # noqa: E402


def test_pairing_families_pair_a_bounded_number_of_entities():
    vocab = load_vocab()
    rejected: Counter = Counter()
    scene = Scene(chain(500), vocab, random.Random(0), rejected, vocab.cooc, "")
    swap = Swap(scene)
    pairs = MAX_PAIRED * (MAX_PAIRED - 1) // 2
    assert 0 < len(swap.swap_attribute()) <= pairs and len(swap.swap_object()) <= pairs
    assert rejected["entities_capped"] == 2
    small: Counter = Counter()
    Swap(Scene(chain(10), vocab, random.Random(0), small, vocab.cooc, "")).swap_attribute()
    assert not small["entities_capped"]


def test_no_family_builds_more_than_its_share_of_candidates():
    built: Counter = Counter()
    stage = NegativesStage(
        NegativesSettings(strategies=["shuffle"], per_sample=8, max_subgraphs=0),
        RunContext(seed=0),
    )
    stage.setup()
    from sgprep.negatives.strategies import shuffle

    real = shuffle.Shuffle._exchange

    def counted(self, s, o, kind="shuffle_relation"):
        built[kind] += 1
        return real(self, s, o, kind)

    shuffle.Shuffle._exchange = counted
    try:
        stage.negatives("k", "", two_ends(10_000))
    finally:
        shuffle.Shuffle._exchange = real
    assert 0 < built["shuffle_relation"] <= MAX_TRIES // 8, built  # a big graph: few tries
    assert stage.counts["rejected/tries_capped"] >= 1
