"""swap: two entities exchange attributes of one kind (``swap_attribute``: "a red cube and a
blue sphere" -> "a blue cube and a red sphere") or their names (``swap_object``: -> "a red
sphere and a blue cube"), where the statistics say the new scene is one they saw."""

from __future__ import annotations

from sgprep.negatives import kinds
from sgprep.negatives.cooc import PLURALIA, object_class
from sgprep.negatives.perturbation import Candidate, Perturbation, SetAttribute, SetHead
from sgprep.negatives.scene import (
    Strategy,
    changed_entity,
    plain_attribute,
    same_class,
    with_entities,
)
from sgprep.negatives.validity import is_symmetric


class Swap(Strategy):
    """swap's candidates for one scene."""

    def listings(self) -> dict:
        return {"swap_attribute": self.swap_attribute, "swap_object": self.swap_object}

    def swap_attribute(self) -> list[Candidate]:
        out, ents = [], self.g.entities
        for i in range(len(ents)):
            for j in range(i + 1, len(ents)):
                for a in ents[i].attributes:
                    for b in ents[j].attributes:
                        if (
                            a.lower() == b.lower()
                            or a in ents[j].attributes
                            or b in ents[i].attributes
                        ):
                            self.rejected["identical_attributes"] += 1
                            continue
                        if not (
                            (plain_attribute(a) or a.lower() in kinds.PATTERNS)
                            and (plain_attribute(b) or b.lower() in kinds.PATTERNS)
                        ):
                            self.rejected["participle_attribute"] += 1
                            continue
                        if a in self.scene.fixed(i) or b in self.scene.fixed(j):
                            self.rejected["fixed_expression"] += 1
                            continue
                        if kinds.kind(a) != kinds.kind(b):  # a pattern for a pattern too
                            # "a wooden girl holding a young bench": a text-only model
                            # spots it; swap colour with colour, size with size
                            self.rejected["attribute_types_differ"] += 1
                            continue
                        out.append(lambda i=i, j=j, a=a, b=b: self._swap_attr(i, j, a, b))
        return out

    def _swap_attr(self, i: int, j: int, a: str, b: str) -> Perturbation | None:
        ei, ej = self.g.entities[i], self.g.entities[j]
        if self.cooc is not None:
            if self.cooc.is_related(a, b, "adj"):  # "gray" and "silver": the same thing said
                return self._refuse("related_word")
            why = self.scene.implausible(
                self.scene.names,
                {i, j},
                {
                    i: [b if x == a else x for x in ei.attributes],
                    j: [a if x == b else x for x in ej.attributes],
                },
                # the relations stay as the caption has them, which attests them
                relations=[],
                attr_by_class=True,
            )
            if why:
                return self._refuse(why)
        graph = with_entities(
            self.g,
            self.scene.bare,
            {
                i: changed_entity(ei, [b if x == a else x for x in ei.attributes]),
                j: changed_entity(ej, [a if x == b else x for x in ej.attributes]),
            },
            bare_relations=self.scene.bare_relations,
        )
        return Perturbation(
            "swap_attribute", "swap", graph, (SetAttribute(i, a, b), SetAttribute(j, b, a))
        )

    def swap_object(self) -> list[Candidate]:
        out, ents = [], self.g.entities
        for i in range(len(ents)):
            for j in range(i + 1, len(ents)):
                if ents[i].head.lower() == ents[j].head.lower():
                    self.rejected["identical_objects"] += 1
                    continue
                out.append(lambda i=i, j=j: self._swap_obj(i, j))
        return out

    def _swap_obj(self, i: int, j: int) -> Perturbation | None:
        ei, ej = self.g.entities[i], self.g.entities[j]
        ni, nj = self.scene.names[i], self.scene.names[j]
        if any(
            {r.subject, r.object} == {i, j} and is_symmetric(r.predicate) for r in self.g.relations
        ) and not (
            set(ei.attributes) - self.scene.fixed(i) or set(ej.attributes) - self.scene.fixed(j)
        ):
            # "a toilet next to a sink in a small bathroom" -> "a sink next to a toilet": the
            # same, whatever the rest of the caption is attached to
            return self._refuse("symmetric_relation")
        if self.cooc is not None:
            if self.cooc.is_related(ni, nj):
                return self._refuse("related_word")
            if any(" " in n and not self.cooc.known(n) for n in (ni, nj)):
                # a name with a modifier nobody wrote ("chartreuse shirt"): it moves whole and
                # reads "a red chartreuse shirt, cap"
                return self._refuse("unknown_object")
            if (
                object_class(ni) == object_class(nj) == "clothing"
                and self.scene.plural(i) != self.scene.plural(j)
                and not {ni.split()[-1], nj.split()[-1]} & PLURALIA
            ):
                # "brown sandals and a blue shirt" -> "brown shirts and a blue sandal": one
                # man in shirts
                return self._refuse("number_mismatch")
            names = list(self.scene.names)
            names[i], names[j] = nj, ni
            # two objects of one class change places ("the woman behind the man"); else the
            # new triples must have been seen as they are ("a table on the cup": never)
            by_class = same_class(ni, nj)
            touched = {x for r in self.g.relations for x in (r.subject, r.object)}
            if not by_class and not {i, j} <= touched:
                # an object in no relation ("tree has yellow leaves" parsed without one, "a
                # train travels over" without its verb): nothing says its new place is
                # plausible, unless two objects of one class change places
                return self._refuse("unchecked_swap")
            why = self.scene.implausible(
                names,
                {i, j},
                strict=True,
                by_class=by_class,
                attr_by_class=by_class,
                exchanged=True,
            )
            if why:
                return self._refuse(why)
            if self.scene.parsed_backwards(i, j):  # "a brown carriage pulling horse": the truth
                return self._refuse("parsed_backwards")
        graph = with_entities(
            self.g,
            self.scene.bare,
            {i: changed_entity(ei, head=ej.head), j: changed_entity(ej, head=ei.head)},
            bare_relations=self.scene.bare_relations,
        )
        return Perturbation("swap_object", "swap", graph, (SetHead(i, nj, ni), SetHead(j, ni, nj)))
