"""Which detected box each caption entity names: ``det.json``'s ``entity_boxes``.

The match is the one ``sgprep stats`` uses for coverage: an entity names a detected label when
its head (or its last two words, for "teddy bear") is one of the label's words in
``stats/synonyms.json`` ("man", "girl", "player" name a "person"). Each entity, in caption
order, takes the best-scoring box it names that no earlier entity took, so "a man and a woman"
with two person boxes link to two different boxes; an entity that names no free box gets null.
"""

from __future__ import annotations

from sgprep.schema import Box, SceneGraph
from sgprep.stats.properties import label_words, word_forms


def _names(text: str, head: str) -> set[str]:
    forms = word_forms(head)
    words = text.lower().split()
    if len(words) >= 2:
        forms |= word_forms(" ".join(words[-2:]))
    return forms


def entity_boxes(graph: SceneGraph, objects: list[Box]) -> list[int | None]:
    """Per entity of ``graph``, the index in ``objects`` (best score first) of its box."""
    words = [label_words(box.label) for box in objects]
    taken: set[int] = set()
    out: list[int | None] = []
    for entity in graph.entities:
        names = _names(entity.text, entity.head)
        match = next((k for k, w in enumerate(words) if k not in taken and names & w), None)
        if match is not None:
            taken.add(match)
        out.append(match)
    return out
