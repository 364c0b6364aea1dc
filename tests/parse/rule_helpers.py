"""What the rule-family tests read off a graph, and a parse with one family switched off."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sgprep.parse.factual_format import to_factual
from sgprep.parse.families import FAMILIES, families_on, switch_off
from sgprep.parse.rules import RuleParser
from sgprep.schema import SceneGraph


def parse(parser: RuleParser, caption: str, off: str = "") -> SceneGraph:
    """The caption's graph with every family on but ``off``."""
    saved = parser.families
    parser.families = FAMILIES - {off}
    try:
        (graph,) = parser.parse_batch([caption])
    finally:
        parser.families = saved
    assert isinstance(graph, SceneGraph), graph
    return graph


@contextmanager
def switched_off(*names: str) -> Iterator[None]:
    """The process's families with ``names`` switched off, as a parser's ``rules_off`` setting
    does (the format helpers of ``factual_format`` read them), then as they were."""
    before = FAMILIES - families_on()
    switch_off(names)
    try:
        yield
    finally:
        switch_off(before)


def replace_core_repairs(monkeypatch, instead: dict) -> None:
    """Run each function of ``instead`` (core repair name -> stand-in) in that repair's place,
    in the parsers made after this."""
    from sgprep.parse import families
    from sgprep.parse.families.base import Repair

    def stand_in(name: str) -> str:
        return instead[name].__name__ if name in instead else name

    core = [Repair(instead[r.run.__name__]) if r.run.__name__ in instead else r
            for r in families.CORE_REPAIRS]  # fmt: skip
    monkeypatch.setattr(families, "CORE_REPAIRS", tuple(core))
    monkeypatch.setattr(families, "REPAIR_ORDER", tuple(map(stand_in, families.REPAIR_ORDER)))


def heads(graph: SceneGraph) -> list[str]:
    return [e.head for e in graph.entities]


def rels(graph: SceneGraph) -> set[tuple[str, str, str]]:
    return {
        (graph.entities[r.subject].head, r.predicate, graph.entities[r.object].head)
        for r in graph.relations
    }


def attributes(graph: SceneGraph, head: str) -> list[str]:
    found = [e for e in graph.entities if e.head == head]
    assert len(found) == 1, f"expected one {head!r} in {heads(graph)}"
    return found[0].attributes


def facts(graph: SceneGraph) -> set[str]:
    """The graph's FACTUAL tuples, each as "( s , p , o )"."""
    return {f"( {t} )" for t in to_factual(graph)[2:-2].split(" ) , ( ")} if graph else set()
