"""Hard negatives on hostile scene graphs (issue 36): the CPU seconds of one graph with every
strategy, for a chain of 500 entities, 10,000 relations between two entities, 60 densely
related entities, and the longest list-like caption of a written set. Goal: each under 1 s
(before issue 36: 60 s and more per graph, almost all in shuffle and redraw).

    python benchmarks/hostile_graphs.py

No anchor: the figures are CPU seconds of this process (``time.process_time``), the bound is
absolute. Candidate building is capped per family (``stage.MAX_TRIES``, fewer for big graphs)
and the pairing families pair the first ``scene.MAX_PAIRED`` entities.
"""

from __future__ import annotations

import time

from sgprep.config import RunContext
from sgprep.negatives.stage import NegativesSettings, NegativesStage
from sgprep.schema import Entity, Relation, SceneGraph

STRATEGIES = ["swap", "shuffle", "replace", "connect", "subgraph"]


def chain(n: int) -> SceneGraph:
    ents = [
        Entity(
            text="red box" if i % 2 else "blue cube",
            head="box" if i % 2 else "cube",
            attributes=["red" if i % 2 else "blue"],
        )
        for i in range(n)
    ]
    rels = [
        Relation(subject=i, predicate="next to" if i % 3 else "on", object=i + 1)
        for i in range(n - 1)
    ]
    return SceneGraph(entities=ents, relations=rels, parser="hostile")


def two_ends(k: int) -> SceneGraph:
    ents = [
        Entity(text="man", head="man", attributes=[]),
        Entity(text="brown horse", head="horse", attributes=["brown"]),
    ]
    preds = ["ride", "feed", "behind", "near"]
    rels = [Relation(subject=0, predicate=preds[i % 4], object=1) for i in range(k)]
    return SceneGraph(entities=ents, relations=rels, parser="hostile")


def dense(n: int) -> SceneGraph:
    ents = [
        Entity(text="dog", head="dog", attributes=["black" if i % 2 else "white"]) for i in range(n)
    ]
    rels = [
        Relation(subject=i, predicate="chase", object=j)
        for i in range(n)
        for j in range(n)
        if i != j and (i * 7 + j) % 3 == 0
    ]
    return SceneGraph(entities=ents, relations=rels, parser="hostile")


def long_list() -> tuple[str, SceneGraph]:
    from sgprep.api import parse_captions

    things = (
        "cup plate fork knife spoon bowl glass bottle jar napkin tray kettle pan pot lid".split()
    )
    caption = (
        "a table with " + ", ".join(f"a red {t}" for t in things[:-1]) + f" and a blue {things[-1]}"
    )
    return caption, parse_captions([caption])[0]


def main() -> int:
    cases = [
        ("chain of 500 entities", "", chain(500)),
        ("10,000 relations between two", "", two_ends(10_000)),
        ("60 densely related entities", "", dense(60)),
        ("a list of 15 coloured things", *long_list()),
    ]
    worst = 0.0
    for name, text, graph in cases:
        stage = NegativesStage(
            NegativesSettings(strategies=STRATEGIES, per_sample=8), RunContext(seed=0)
        )
        stage.setup()
        start = time.process_time()
        made = stage.negatives("k", text, graph)
        took = time.process_time() - start
        worst = max(worst, took)
        capped = {k: v for k, v in stage.counts.items() if k.endswith("_capped")}
        print(f"{name:<34} {took:6.2f} CPU-s  {len(made.negatives)} negatives  {capped}")
    print(f"slowest graph: {worst:.2f} CPU-s (goal < 1 s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
