"""Positive sub-graphs: one object (with its attributes) or two objects and the relation
between them. Each is a true, simpler description of the same image and gets its own
negatives. Its text is the stretch of the caption that says it ("span_extract", so it stays
fluent and its negatives can still be edited in place) when that stretch names no other
entity, else a template.
"""

from __future__ import annotations

from dataclasses import dataclass

from sgprep.negatives.realise import LOWERABLE, NoSpanEdit, Realiser, template
from sgprep.negatives.validity import normalise, signature
from sgprep.schema import Entity, Relation, SceneGraph

MAX_EXTRACT_WORDS = 16


@dataclass(frozen=True)
class SubPositive:
    text: str
    graph: SceneGraph  # spans relative to ``text`` when realised by span_extract
    realisation: str  # span_extract | template


def subgraphs(caption: str, graph: SceneGraph) -> list[SubPositive]:
    """Every one- and two-object sub-graph, de-duplicated by meaning and by text, never the
    whole graph again."""
    realiser = Realiser(caption, graph)
    whole = signature(graph)
    seen_sig, seen_text, out = {whole}, {normalise(caption)}, []
    pieces = [([i], []) for i in range(len(graph.entities))]
    pieces += [([r.subject, r.object], [r]) for r in graph.relations]
    for members, relations in pieces:
        sub = _subgraph(graph, members, relations)
        sig = signature(sub)
        if sig in seen_sig:
            continue
        positive = _extract(realiser, caption, graph, sub, members) or SubPositive(
            template(sub), _without_spans(sub), "template"
        )
        key = normalise(positive.text)
        if key in seen_text:
            continue
        seen_sig.add(sig)
        seen_text.add(key)
        out.append(positive)
    return out


def _subgraph(graph: SceneGraph, members: list[int], relations: list[Relation]) -> SceneGraph:
    index = {old: new for new, old in enumerate(members)}
    return graph.model_copy(
        update={
            "entities": [graph.entities[i] for i in members],
            "relations": [
                r.model_copy(update={"subject": index[r.subject], "object": index[r.object]})
                for r in relations
            ],
        }
    )


def _without_spans(sub: SceneGraph) -> SceneGraph:
    return sub.model_copy(
        update={
            "entities": [e.model_copy(update={"span": None}) for e in sub.entities],
            "relations": [r.model_copy(update={"span": None}) for r in sub.relations],
        }
    )


def _extract(
    realiser: Realiser, caption: str, graph: SceneGraph, sub: SceneGraph, members: list[int]
) -> SubPositive | None:
    try:
        spans = [realiser.np_span(i) for i in members]
    except NoSpanEdit:
        return None
    start, end = min(s for s, _ in spans), max(e for _, e in spans)
    others = [e.span for k, e in enumerate(graph.entities) if k not in members and e.span]
    if any(s < end and e > start for s, e in others):
        return None  # the stretch names another entity: it would say more than the sub-graph
    if len(realiser.words_in(start, end)) > MAX_EXTRACT_WORDS:
        return None
    text = caption[start:end]
    first = text.split(" ", 1)[0].lower()
    if first in LOWERABLE:
        text = text[:1].lower() + text[1:]
    entities = [_shift(graph.entities[i], start) for i in members]
    relations = [_shift(r, start) for r in sub.relations]
    return SubPositive(
        text, sub.model_copy(update={"entities": entities, "relations": relations}), "span_extract"
    )


def _shift(e: Entity | Relation, offset: int) -> Entity | Relation:
    if e.span is None:
        return e
    return e.model_copy(update={"span": (e.span[0] - offset, e.span[1] - offset)})
