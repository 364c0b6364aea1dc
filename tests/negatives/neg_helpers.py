"""Hand-written scene graphs with spans located in their captions."""

from __future__ import annotations

import random
from collections import Counter

from sgprep.negatives.perturb import Perturber
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


def perturber(g: SceneGraph, seed: int = 0) -> tuple[Perturber, Counter]:
    rejected: Counter = Counter()
    return Perturber(g, load_vocab(), random.Random(seed), rejected), rejected


def plausible_perturber(caption: str, entities: list[tuple], relations: list[tuple] = ()):
    """The stage's perturber of a hand-written graph: with the bundled statistics and the
    caption, seed 0."""
    vocab = load_vocab()
    g = graph(caption, entities, relations)
    return Perturber(g, vocab, random.Random(0), Counter(), vocab.cooc, caption)


def build_all(g: SceneGraph, kind: str, seed: int = 0):
    p, rejected = perturber(g, seed)
    return [c() for c in p.candidates(kind)], rejected


def texts_over_seeds(
    caption: str, entities: list[tuple], relations: list[tuple], kind: str, seeds: int
):
    """The caption-level texts a kind makes over several seeds (the stage's perturber: bundled
    statistics and the caption), and its refusals by reason."""
    from sgprep.negatives.realise import Realiser

    vocab = load_vocab()
    g = graph(caption, entities, relations)
    texts, rejected = set(), Counter()
    for seed in range(seeds):
        p = Perturber(g, vocab, random.Random(seed), rejected, vocab.cooc, caption)
        for build in p.candidates(kind):
            made = build()
            if made is not None:
                text, _ = Realiser(caption, g).realise(made, use_template=False)
                if text:
                    texts.add(text)
    return texts, rejected
