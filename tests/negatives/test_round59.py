"""Blind review round 59's failures that say the same (a counter may be a desk, a perch a
stand), each with its caption (graphs as the spaCy rule parser gives them), refused after the
round (the round met every review goal; the rest are left: see the round's README row)."""

from __future__ import annotations

import pytest
from neg_helpers import texts_over_seeds

REFUSED = [
    # a lab's long counter may be a desk, a parrots' perch a stand
    (
        "Students in lab coats look through microscopes on a long counter.",
        [
            ("Students", "student", []),
            ("lab coats", "coat", []),
            ("microscopes", "microscope", []),
            ("long counter", "counter", ["long"]),
        ],
        [(0, "in", 1), (0, "look through", 2), (2, "on", 3)],
        "replace_object",
        ["long desk"],
    ),
    (
        "Two parrots, one green and one red, sit together on a perch.",
        [("Two parrots", "parrot", [], 2), ("perch", "perch", [])],
        [(0, "sit on", 1)],
        "replace_object",
        ["on a stand", "on a rack"],
    ),
]


@pytest.mark.parametrize("caption,entities,relations,kind,never", REFUSED)
def test_round59_failures_are_refused(caption, entities, relations, kind, never):
    texts, _ = texts_over_seeds(caption, entities, relations, kind, 60)
    assert not any(x in t for t in texts for x in never), texts


def test_a_present_in_ed_keeps_its_lemma():
    # "two children in snowsuits sled down a hill": the rule lemmatizer read "sled" as the
    # past of "sle", and replace_relation said "slid" for it (round 59: the same action)
    from sgprep.parse.rules import RuleParser

    parser = RuleParser()
    parser.setup()
    caption = "Two children in snowsuits sled down a gentle hill covered in snow."
    (graph,) = parser.parse_batch([caption])
    assert "sled down" in {r.predicate for r in graph.relations}, graph.relations
    entities = [(e.text, e.head, list(e.attributes)) for e in graph.entities]
    relations = [(r.subject, r.predicate, r.object) for r in graph.relations]
    texts, _ = texts_over_seeds(caption, entities, relations, "replace_relation", 60)
    assert not any(" slid " in t or " sle " in t for t in texts), texts
