"""Hand-written scene graphs with spans located in their captions."""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

from sgprep.negatives.scene import Memos, Scene, Strategy
from sgprep.negatives.strategies import FAMILIES, load_strategy
from sgprep.negatives.vocab import load_vocab
from sgprep.schema import Entity, Relation, SceneGraph


def graph(caption: str, entities: list[tuple], relations: list[tuple] = ()) -> SceneGraph:
    """entities: (text as in the caption, head, attributes[, count]); the span is the first
    occurrence of text at or after the previous entity's end."""
    ents, pos = [], 0
    for spec in entities:
        text, head, attrs = spec[:3]
        start = caption.index(text, pos)
        pos = start + len(text)
        ents.append(
            Entity(
                text=text,
                head=head,
                attributes=list(attrs),
                count=spec[3] if len(spec) > 3 else None,
                span=(start, pos),
            )
        )
    rels = [Relation(subject=s, predicate=p, object=o) for s, p, o in relations]
    return SceneGraph(entities=ents, relations=rels, parser="hand")


CUBES = graph(
    "a red cube and a blue sphere",
    [("red cube", "cube", ["red"]), ("blue sphere", "sphere", ["blue"])],
)


def strategy_class(kind: str | type[Strategy]) -> type[Strategy]:
    """The strategy that makes ``kind`` (a family or a strategy's name; a class as it is)."""
    return kind if isinstance(kind, type) else load_strategy(FAMILIES.get(kind, kind))


@lru_cache(maxsize=1)
def bundled_memos() -> Memos:
    """The memos of the bundled statistics, one per test process (the stage keeps one)."""
    return Memos(load_vocab().cooc)


def scene(g: SceneGraph, seed: int = 0) -> tuple[Scene, Counter]:
    """A rules-only scene of ``g`` (no statistics, no caption) and its refusals."""
    rejected: Counter = Counter()
    return Scene(g, load_vocab(), random.Random(seed), rejected), rejected


def plausible(
    kind: str | type[Strategy], caption: str, entities: list[tuple], relations: list[tuple] = ()
):
    """The stage's strategy that makes ``kind`` (a family or a strategy's name, or a strategy
    class) for a hand-written graph: with the bundled statistics and the caption, seed 0."""
    vocab = load_vocab()
    g = graph(caption, entities, relations)
    made = Scene(g, vocab, random.Random(0), Counter(), vocab.cooc, caption, memos=bundled_memos())
    return strategy_class(kind)(made)


def build_all(g: SceneGraph, kind: str, seed: int = 0):
    made, rejected = scene(g, seed)
    return [c() for c in strategy_class(kind)(made).candidates(kind)], rejected


def texts_over_seeds(
    caption: str, entities: list[tuple], relations: list[tuple], kind: str, seeds: int
):
    """The caption-level texts a kind makes over several seeds (as the stage makes them:
    bundled statistics and the caption), and its refusals by reason."""
    from sgprep.negatives.realise import Realiser

    vocab = load_vocab()
    g = graph(caption, entities, relations)
    texts, rejected = set(), Counter()
    for seed in range(seeds):
        at = Scene(
            g, vocab, random.Random(seed), rejected, vocab.cooc, caption, memos=bundled_memos()
        )
        for build in strategy_class(kind)(at).candidates(kind):
            made = build()
            if made is not None:
                text, _ = Realiser(caption, g).realise(made, use_template=False)
                if text:
                    texts.add(text)
    return texts, rejected
