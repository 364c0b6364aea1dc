"""Word types the negatives decide by: an attribute's type (colour, material, size, other) and
a predicate's (spatial or action)."""

from __future__ import annotations

from functools import lru_cache

from sgprep.parse.rules_lexicon import COLOURS, MATERIALS

ATTRIBUTE_TYPES = ("colour", "material", "size", "other")
SIZES = frozenset(
    "big small large tiny huge little tall short long wide narrow thick thin giant massive "
    "miniature enormous".split()
)
#: Prepositions and spatial phrases: a predicate made only of these is spatial (or a bare
#: preposition such as "with", "of"), else an action.
SPATIAL_WORDS = frozenset(
    "on in at under over above below behind beside near by inside outside into onto against "
    "across from next to front of top left right the between along alongside among around "
    "beneath underneath within through toward towards off out up down with of for from to "
    "without like".split()
)


@lru_cache(maxsize=65536)
def attribute_type(word: str) -> str:
    w = word.lower()
    if w in COLOURS:
        return "colour"
    if w in MATERIALS:
        return "material"
    if w in SIZES:
        return "size"
    return "other"


@lru_cache(maxsize=65536)
def relation_type(predicate: str) -> str:
    return "spatial" if all(w in SPATIAL_WORDS for w in predicate.lower().split()) else "action"


#: Words that may follow a noun phrase that connect joins a second item to ("holding an
#: umbrella | and a cup | in the rain"): a preposition, or a clause that goes on; not "of" or
#: "with", which the second item would take for its own ("a glass and a cup | of water").
LIST_SEAMS = (SPATIAL_WORDS - {"of", "with", "the", "front", "top", "left", "right"}) | {
    "while",
    "as",
    "during",
}
#: Words that may follow a noun phrase where connect's new phrase can go in between ("a cat
#: | near a suitcase | sits in the window"). Not a preposition, which would take the new
#: object for its own ("shoes | on her feet" -> "shoes near a bed on her feet"), nor "and",
#: which may join it to another noun ("table | and chair").
SEAM_WORDS = frozenset(
    "is are was were has have who that which while sits stands lies sit stand".split()
)
