"""What a strategy makes: a :class:`Perturbation`, the perturbed graph plus the edits that
say what changed in the caption's terms, which :mod:`sgprep.negatives.realise` writes into
the caption; and a :data:`Candidate`, the closure that builds one (or refuses, ``None``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sgprep.schema import Entity, SceneGraph


@dataclass(frozen=True)
class SetAttribute:
    entity: int
    old: str
    new: str


@dataclass(frozen=True)
class SetHead:
    """Put object name ``new`` where entity ``entity``'s name ``old`` stands: a compound
    ("hot dog", "tennis racket") is replaced whole, never split."""

    entity: int
    new: str
    old: str = ""


@dataclass(frozen=True)
class MoveNPs:
    """Put the noun phrase of entity ``source`` where entity ``slot``'s stood, for each pair."""

    placement: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class SetPredicate:
    relation: int
    old: str  # the part of the predicate that changes (a verb lemma or a spatial phrase)
    new: str
    verb: bool


@dataclass(frozen=True)
class Attach:
    """Insert ``predicate`` + the noun phrase of the new entity after entity ``entity``."""

    entity: int
    predicate: str
    new_entity: int
    #: the entity is the subject of a relation, so the new one only puts it near something:
    #: it may go before the caption's own preposition ("a rug | next to a chair | on the floor")
    near_only: bool = False
    #: written as a bare plural ("near trees"): a short caption's budget
    bare_plural: bool = False
    #: the entity opens the caption and no seam follows it: the new phrase goes at the end,
    #: after a comma, which makes it the first noun phrase's ("fans wearing orange shirts,
    #: beside a truck")
    clause: bool = False
    #: the new entity joins entity ``entity`` in a list, right after it ("holding an
    #: umbrella | and a cup"): it takes the same relation, from the same subject
    join: bool = False
    #: the join is a second subject ("a zebra | and an elephant | standing next to a
    #: giraffe"): a participle or a preposition may follow
    cosubject: bool = False


Edit = SetAttribute | SetHead | MoveNPs | SetPredicate | Attach


@dataclass(frozen=True)
class Perturbation:
    """A perturbed graph and the edits that write it into the caption. The graph may be
    given as the function that makes it (no randomness, no checks): it is made on first use,
    once. The stage reads it only to compare a swap with its caption, to write a template,
    or to keep it (``graphs``), so a replace realised in place skips its pydantic copies."""

    kind: str
    strategy: str
    made: SceneGraph | Callable[[], SceneGraph]
    edits: tuple[Edit, ...]  # empty: no span edit is possible, realise by template
    #: connect: the entity it adds (the last of the graph), for the realiser
    added: Entity | None = None

    @property
    def graph(self) -> SceneGraph:
        made = self.made
        if callable(made):  # a SceneGraph is not callable
            made = made()
            object.__setattr__(self, "made", made)
        return made


Candidate = Callable[[], "Perturbation | None"]
