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
