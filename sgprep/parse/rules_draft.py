"""An entity draft: what the entity rules know of one entity while a graph is built
(:class:`sgprep.parse.rules_extract.GraphBuilder`, and the rule families that add entities,
:mod:`sgprep.parse.families`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # spaCy is imported by rules.load_spacy, the first time it is needed
    from spacy.tokens import Token


@dataclass
class EntityDraft:
    head: Token
    attributes: list[str] = field(default_factory=list)
    count: int | None = None
    start: int = 0  # first token of the entity text
    end: int = 0  # last token of the entity text (inclusive)
    #: a thing the caption names without a noun of its own ("haired" -> hair, the "other" of
    #: "each other"): its name, for text and head; it has no span in the caption
    name: str | None = None
    singular: bool = False  # "two zebras next to each other": each is a zebra
    related: bool = False  # a named thing whose relation its own rule adds (not "have")

    def add_attribute(self, word: str) -> None:
        word = word.lower().strip()
        if word and word not in self.attributes:
            self.attributes.append(word)
