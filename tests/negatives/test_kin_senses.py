"""replace_object's WordNet kin by the sense a caption means (issue 32: words from the data, not
from lists): "table" the furniture, not the table of data; food, which WordNet puts under
matter, by its dishes and fruit; and a noun used as a mass ("a plate of toast") replaced only by
a mass noun. Captions written here."""

from __future__ import annotations

from neg_helpers import texts_over_seeds

from sgprep.negatives import siblings
from sgprep.negatives.grammar import UNCOUNTABLE


def test_kin_are_read_from_the_sense_a_caption_means():
    assert "cabinet" in siblings.kin("table")  # furniture (the first sense: a table of data)
    assert "plank" in siblings.kin("board")  # lumber (the first: a board of directors)
    assert "waffle" in siblings.kin("pancake")  # food: under matter in WordNet, kin now
    assert "pear" in siblings.kin("grape")
    # a word whose first sense is a person or a place has none ("a player", "a park")
    assert siblings.kin("player") == () and siblings.kin("park") == ()
    # a member of a hand-written group keeps its group alone
    assert siblings.kin("cake") == () and "pie" in siblings.siblings("cake")


def test_a_mass_use_takes_only_a_mass_noun():
    for cap, entities, relations, old in (
        (
            "A plate of toast with a poached egg.",
            [("plate", "plate", []), ("toast", "toast", []), ("poached egg", "egg", ["poached"])],
            [(0, "of", 1), (1, "with", 2)],
            "toast",
        ),
        (
            "Two kids eating ice cream on a bench.",
            [("kids", "kid", [], 2), ("ice cream", "ice cream", []), ("bench", "bench", [])],
            [(0, "eat", 1), (0, "on", 2)],
            "ice cream",
        ),
    ):
        texts, rejected = texts_over_seeds(cap, entities, relations, "replace_object", 30)
        assert rejected["article_needed"], rejected  # its kin are count nouns: refused
        for t in texts:
            if old in t:
                continue
            new = t.split(" of " if " of " in cap else "eating ")[1].split()[0].strip(".")
            # "a plate of bun", "eating popsicle": a count noun needs its article
            assert new in UNCOUNTABLE or new in ("bench", "egg"), (new, t)
