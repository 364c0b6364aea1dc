"""Pass 11 of the rule parser, relations (``docs/rule-parser-pass11-rel.md``).

Every caption here is written for the test. Each test checks the rule's graph and that the
rule's family switched off gives the old one, so that a test fails if the rule stops doing
anything.
"""

from __future__ import annotations

import pytest

from tests.parse.rule_helpers import parse, rels

# ---- whole_places ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption, whole, part",
    [
        ("a body of water near a rocky beach", ("water", "near", "beach"), "body"),
        ("a stand of trees behind a house", ("tree", "behind", "house"), "stand"),
        ("a sea of umbrellas on the beach", ("umbrella", "on", "beach"), "sea"),
    ],
)
def test_place_phrase_after_part_of_bare_noun_is_the_wholes(parser, caption, whole, part):
    assert whole in rels(parse(parser, caption))
    assert (part, whole[1], whole[2]) not in rels(parse(parser, caption))
    off = rels(parse(parser, caption, off="whole_places"))
    assert (part, whole[1], whole[2]) in off and whole not in off


@pytest.mark.parametrize(
    "caption, kept",
    [
        # a container, a framing noun or a whole with an article keeps the model's reading
        ("a man holds a cup of tea on a table", ("cup", "on", "table")),
        ("a woman looks at a painting of horses on the wall", ("painting", "on", "wall")),
        ("the tail of the plane in the sky", ("tail", "in", "sky")),
        ("the premiere of their film at the theater", ("premiere", "at", "theater")),
    ],
)
def test_place_phrase_stays_on_containers_pictures_and_parts_of_things(parser, caption, kept):
    assert kept in rels(parse(parser, caption))
