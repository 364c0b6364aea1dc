"""Perturbations of a scene graph: swap, shuffle, replace, connect (METHOD.md section 3).

Each family lists its candidates for one graph (cheap tuples behind a closure); the stage
draws among them by family weight. A candidate builds a :class:`Perturbation`: the perturbed
graph plus the edits that say what changed, in the caption's terms, for the realiser.
Candidates refused by a validity rule are counted by reason when they are listed.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from sgprep.negatives.validity import OPPOSITES, is_symmetric, same_entity
from sgprep.negatives.vocab import Vocabulary, attribute_type, relation_type
from sgprep.schema import Entity, Relation, SceneGraph

#: Replacements that read as the natural opposite; other words draw from the vocabulary.
ANTONYMS = dict(
    pair
    for a, b in [("old", "young"), ("big", "small"), ("large", "small"), ("tall", "short"),
                 ("long", "short"), ("wet", "dry"), ("open", "closed"), ("empty", "full"),
                 ("clean", "dirty"), ("wide", "narrow"), ("thick", "thin"), ("black", "white"),
                 ("dark", "light"), ("hot", "cold")]
    for pair in ((a, b), (b, a)))


#: Relations a parser infers from "'s", "of" or "with" rather than a verb in the caption:
#: swapping in an action verb ("a zebra catching a head") says nothing plausible.
IMPLICIT_VERBS = frozenset({"have", "be"})


@dataclass(frozen=True)
class SetAttribute:
    entity: int
    old: str
    new: str


@dataclass(frozen=True)
class SetHead:
    entity: int
    new: str


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


Edit = SetAttribute | SetHead | MoveNPs | SetPredicate | Attach


@dataclass(frozen=True)
class Perturbation:
    kind: str
    strategy: str
    graph: SceneGraph
    edits: tuple[Edit, ...]  # empty: no span edit is possible, realise by template


Candidate = Callable[[], "Perturbation | None"]
#: family (kind) -> strategy it belongs to
FAMILIES = {
    "swap_attribute": "swap", "swap_object": "swap",
    "shuffle_relation": "shuffle", "redraw_relation": "shuffle",
    "replace_attribute": "replace", "replace_object": "replace", "replace_relation": "replace",
    "connect": "connect",
}


def _with_entities(graph: SceneGraph, bare: list[Entity], changes: dict[int, Entity],
                   relations: list[Relation] | None = None,
                   extra: list[Entity] | None = None) -> SceneGraph:
    """The perturbed graph: its entities carry no spans (the positive's spans mean nothing in
    the negative's text)."""
    entities = [changes.get(i, e) for i, e in enumerate(bare)] + (extra or [])
    return graph.model_copy(update={"entities": entities,
                                    "relations": graph.relations if relations is None
                                    else relations})


def _entity(e: Entity, attributes: list[str] | None = None, head: str | None = None) -> Entity:
    attributes = e.attributes if attributes is None else attributes
    head = e.head if head is None else head
    text = " ".join([*attributes, head])
    return e.model_copy(update={"attributes": attributes, "head": head, "text": text,
                                "span": None})


def _plain(attribute: str) -> bool:
    """A one-word attribute, not a participle the parser kept ("walking down", "standing"):
    those are actions, and changing them reads as nonsense."""
    a = attribute.lower()
    return " " not in a and (attribute_type(a) != "other" or a in ANTONYMS
                             or not a.endswith(("ing", "ed")))


class Perturber:
    """Candidates of every family for one graph, drawing words from ``vocab`` with ``rng``."""

    def __init__(self, graph: SceneGraph, vocab: Vocabulary, rng: random.Random,
                 rejected: Counter):
        self.g, self.vocab, self.rng, self.rejected = graph, vocab, rng, rejected
        self._bare: list[Entity] | None = None
        self._heads: set[str] | None = None

    @property
    def bare(self) -> list[Entity]:
        """The graph's entities without spans, made once per graph."""
        if self._bare is None:
            self._bare = [e if e.span is None else e.model_copy(update={"span": None})
                          for e in self.g.entities]
        return self._bare

    @property
    def heads(self) -> set[str]:
        """The graph's head nouns in lower case: words a new object must not be."""
        if self._heads is None:
            self._heads = {e.head.lower() for e in self.g.entities}
        return self._heads

    def candidates(self, kind: str) -> list[Candidate]:
        return getattr(self, kind)()

    # --- swap -----------------------------------------------------------------------------
    def swap_attribute(self) -> list[Candidate]:
        out, ents = [], self.g.entities
        for i in range(len(ents)):
            for j in range(i + 1, len(ents)):
                for a in ents[i].attributes:
                    for b in ents[j].attributes:
                        if a.lower() == b.lower() or a in ents[j].attributes \
                                or b in ents[i].attributes:
                            self.rejected["identical_attributes"] += 1
                            continue
                        if not (_plain(a) and _plain(b)):
                            self.rejected["participle_attribute"] += 1
                            continue
                        if attribute_type(a) != attribute_type(b):
                            # "a wooden girl holding a young bench": a text-only model
                            # spots it; swap colour with colour, size with size
                            self.rejected["attribute_types_differ"] += 1
                            continue
                        out.append(lambda i=i, j=j, a=a, b=b: self._swap_attr(i, j, a, b))
        return out

    def _swap_attr(self, i: int, j: int, a: str, b: str) -> Perturbation:
        ei, ej = self.g.entities[i], self.g.entities[j]
        graph = _with_entities(self.g, self.bare, {
            i: _entity(ei, [b if x == a else x for x in ei.attributes]),
            j: _entity(ej, [a if x == b else x for x in ej.attributes])})
        return Perturbation("swap_attribute", "swap", graph,
                            (SetAttribute(i, a, b), SetAttribute(j, b, a)))

    def swap_object(self) -> list[Candidate]:
        out, ents = [], self.g.entities
        for i in range(len(ents)):
            for j in range(i + 1, len(ents)):
                if ents[i].head.lower() == ents[j].head.lower():
                    self.rejected["identical_objects"] += 1
                    continue
                out.append(lambda i=i, j=j: self._swap_obj(i, j))
        return out

    def _swap_obj(self, i: int, j: int) -> Perturbation:
        ei, ej = self.g.entities[i], self.g.entities[j]
        graph = _with_entities(self.g, self.bare, {i: _entity(ei, head=ej.head),
                                                   j: _entity(ej, head=ei.head)})
        return Perturbation("swap_object", "swap", graph,
                            (SetHead(i, ej.head), SetHead(j, ei.head)))

    # --- shuffle ----------------------------------------------------------------------------
    def shuffle_relation(self) -> list[Candidate]:
        out = []
        for r in self.g.relations:
            if is_symmetric(r.predicate):
                self.rejected["symmetric_relation"] += 1
            elif same_entity(self.g, r.subject, r.object):
                self.rejected["identical_objects"] += 1
            else:
                out.append(lambda s=r.subject, o=r.object: self._exchange(s, o))
        return out

    def _exchange(self, s: int, o: int, kind: str = "shuffle_relation") -> Perturbation:
        swap = {s: o, o: s}
        relations = [r.model_copy(update={"subject": swap.get(r.subject, r.subject),
                                          "object": swap.get(r.object, r.object)})
                     for r in self.g.relations]
        graph = _with_entities(self.g, self.bare, {}, relations)
        return Perturbation(kind, "shuffle", graph, (MoveNPs(((s, o), (o, s))),))

    def redraw_relation(self) -> list[Candidate]:
        """Re-draw relation ends: two entities that are not the two ends of one relation
        exchange places (with their attributes) in every relation, so at least one relation
        gets an end it did not have. In the caption their noun phrases change places."""
        ends = {frozenset((r.subject, r.object)) for r in self.g.relations}
        touched = {i for r in self.g.relations for i in (r.subject, r.object)}
        out = []
        for x in range(len(self.g.entities)):
            for y in range(x + 1, len(self.g.entities)):
                if frozenset((x, y)) in ends or not {x, y} & touched:
                    continue
                if same_entity(self.g, x, y):
                    self.rejected["identical_objects"] += 1
                    continue
                out.append(lambda x=x, y=y: self._redraw(x, y))
        return out

    def _redraw(self, x: int, y: int) -> Perturbation:
        return self._exchange(x, y, "redraw_relation")

    # --- replace ----------------------------------------------------------------------------
    def _draw(self, words: tuple[str, ...], cum: tuple[int, ...], exclude: set[str]) -> str | None:
        """A word drawn by count (``cum``: cumulative counts), not in ``exclude``."""
        if not words or not cum[-1]:
            return None
        for _ in range(8):  # exclusions are few: redraw a few times before filtering
            word = words[bisect_right(cum, self.rng.random() * cum[-1])]
            if word not in exclude:
                return word
        total, kept, kept_cum = 0, [], []
        for w, c, p in zip(words, cum, (0, *cum[:-1])):
            if w not in exclude and c > p:
                total += c - p
                kept.append(w)
                kept_cum.append(total)
        if not kept:
            return None
        return kept[bisect_right(kept_cum, self.rng.random() * total)]

    def replace_attribute(self) -> list[Candidate]:
        out = []
        for i, e in enumerate(self.g.entities):
            for a in e.attributes:
                if not _plain(a):
                    self.rejected["participle_attribute"] += 1
                    continue
                out.append(lambda i=i, a=a: self._replace_attr(i, a))
        return out

    def _replace_attr(self, i: int, a: str) -> Perturbation | None:
        e = self.g.entities[i]
        have = {x.lower() for x in e.attributes}
        new = ANTONYMS.get(a.lower())
        if new is None or new in have:
            new = self._draw(*self.vocab.pool("attributes", attribute_type(a)), have)
        if new is None:
            self.rejected["no_vocabulary"] += 1
            return None
        attributes = [new if x == a else x for x in e.attributes]
        graph = _with_entities(self.g, self.bare, {i: _entity(e, attributes)})
        return Perturbation("replace_attribute", "replace", graph, (SetAttribute(i, a, new),))

    def replace_object(self) -> list[Candidate]:
        return [lambda i=i: self._replace_obj(i) for i in range(len(self.g.entities))]

    def _replace_obj(self, i: int) -> Perturbation | None:
        e = self.g.entities[i]
        pool = self.vocab.object_pool(self.vocab.categories.get(e.head.lower()))
        new = self._draw(*pool, self.heads) or self._draw(*self.vocab.object_pool(), self.heads)
        if new is None:
            self.rejected["no_vocabulary"] += 1
            return None
        graph = _with_entities(self.g, self.bare, {i: _entity(e, head=new)})
        return Perturbation("replace_object", "replace", graph, (SetHead(i, new),))

    def replace_relation(self) -> list[Candidate]:
        return [lambda k=k: self._replace_rel(k) for k in range(len(self.g.relations))]

    def _replace_rel(self, k: int) -> Perturbation | None:
        r = self.g.relations[k]
        words = r.predicate.lower().split()
        for n in range(len(words), 0, -1):  # the longest spatial ending with an opposite
            tail = " ".join(words[-n:])
            if tail in OPPOSITES:
                new_pred = " ".join(words[:-n] + [OPPOSITES[tail]])
                return self._set_pred(k, new_pred, SetPredicate(k, tail, OPPOSITES[tail], False))
        if relation_type(r.predicate) != "action":
            self.rejected["no_opposite"] += 1
            return None
        verb, rest = words[0], words[1:]
        if verb in IMPLICIT_VERBS:
            self.rejected["implicit_relation"] += 1
            return None
        options = [v for v in self.vocab.verbs(tuple(rest)) if v != verb]
        if not options:
            self.rejected["no_vocabulary"] += 1
            return None
        new_verb = self.rng.choice(options)
        return self._set_pred(k, " ".join([new_verb, *rest]),
                              SetPredicate(k, verb, new_verb, True))

    def _set_pred(self, k: int, predicate: str, edit: SetPredicate) -> Perturbation:
        relations = list(self.g.relations)
        relations[k] = relations[k].model_copy(update={"predicate": predicate})
        return Perturbation("replace_relation", "replace",
                            _with_entities(self.g, self.bare, {}, relations), (edit,))

    # --- connect ----------------------------------------------------------------------------
    def connect(self) -> list[Candidate]:
        return [lambda i=i: self._connect(i) for i in range(len(self.g.entities))]

    def _connect(self, i: int) -> Perturbation | None:
        obj = self._draw(*self.vocab.object_pool(), self.heads)
        pred = self._draw(*self.vocab.pool("relations", "spatial"), set())
        if obj is None or pred is None:
            self.rejected["no_vocabulary"] += 1
            return None
        animate = self.vocab.categories.get(obj) in {"person", "animal"}
        types = ("colour", "size") if animate else ("colour", "size", "material")
        attr_type = self.rng.choice(types)
        attr = self._draw(*self.vocab.pool("attributes", attr_type), set())
        attrs = [attr] if attr else []
        new = Entity(text=" ".join([*attrs, obj]), head=obj, attributes=attrs)
        n = len(self.g.entities)
        relations = [*self.g.relations, Relation(subject=i, predicate=pred, object=n)]
        graph = _with_entities(self.g, self.bare, {}, relations, [new])
        return Perturbation("connect", "connect", graph, (Attach(i, pred, n),))
