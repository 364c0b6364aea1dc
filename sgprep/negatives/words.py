"""Word types the negatives decide by: an attribute's type (colour, material, size, other) and
a predicate's (spatial or action)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from sgprep.lexicon import keyed, words

COLOURS = words("colours")
MATERIALS = words("materials")
#: Groups of states a thing shows one of at a time ("snowy"/"grassy", "grilled"/"fried"),
#: with their source: :func:`attribute_group`.
ATTRIBUTE_GROUPS = Path(__file__).resolve().parent / "data" / "attribute_groups.json"
#: Words that make a two-word colour ("navy blue", "light blue", "bright orange"): one colour,
#: whose colour word is never edited alone ("navy blue" -> "navy black").
COLOUR_MODIFIERS = words("colour_modifiers")

ATTRIBUTE_TYPES = ("colour", "material", "size", "other")
SIZES = words("size_words")
#: Prepositions and spatial phrases: a predicate made only of these is spatial (or a bare
#: preposition such as "with", "of"), else an action.
SPATIAL_WORDS = words("spatial_words")
#: Prepositions and particles: one right before an edited preposition doubles it (the
#: realiser); a relation that ends in one says where a thing is ("sleep on | a couch").
PREPOSITIONS = words("prepositions")
#: Verbs where the doer must be able to move the other one ("a tall man helps a small girl
#: climb", "carries three large dogs").
STRENGTH_VERBS = words("strength_verbs")
#: Pronouns and possessives that point back at a being ("his", "their", "its trunk").
REFERENCE_WORDS = words("reference_words")
GROWN_WORDS = words("grown_words")
YOUNG_WORDS = words("young_words")
GROWN_UPS = words("grown_up_nouns")


def grown_up(head: str, attributes: list[str]) -> bool:
    """A grown-up's noun, or a word of age among the attributes."""
    return head.lower() in GROWN_UPS or not GROWN_WORDS.isdisjoint(a.lower() for a in attributes)


@lru_cache(maxsize=65536)
def attribute_type(word: str) -> str:
    """colour (a shade of one too: "bright orange"), material, size or other."""
    w = word.lower()
    if w in COLOURS:
        return "colour"
    first, _, rest = w.partition(" ")
    if first in COLOUR_MODIFIERS and rest in COLOURS:
        return "colour"
    if w in MATERIALS:
        return "material"
    if w in SIZES:
        return "size"
    return "other"


@lru_cache(maxsize=1)
def _groups() -> dict[str, tuple[str, int]]:
    """word -> (its group, which set of the group's words says its state)."""
    data = json.loads(ATTRIBUTE_GROUPS.read_text(encoding="utf-8"))["groups"]
    return {
        w: (group, k)
        for group, states in data.items()
        for k, words in enumerate(states)
        for w in words
    }


@lru_cache(maxsize=65536)
def attribute_group(word: str) -> str | None:
    """The group of states ``word`` is one of (``data/attribute_groups.json``: "ground" for
    "snowy", "cooking" for "grilled"), or None."""
    hit = _groups().get(word.lower())
    return hit[0] if hit else None


def states_of(group: str) -> frozenset[str]:
    """Every word of a group of states ("cooking": "grilled", "fried", ...)."""
    return frozenset(w for w, (g, _) in _groups().items() if g == group)


#: States that say a thing has aged: it is not "new" ("a rusty new bicycle").
WORN_STATES = words("worn_states")
#: Words that say a thing has not aged.
NEW_WORDS = words("unaged_words")
#: A state -> the states it rules out ("steaming": "cold"), read either way round.
CONTRARY_STATES = keyed("contrary_states")


def contradicts(attribute: str, others) -> bool:
    """``attribute`` says the opposite of one of ``others``, a thing's other attributes: "new"
    of a thing rusty, weathered or faded (blind review round 22: "a rusty new bicycle"), or
    one of those of a thing new, or a state another rules out (``contrary_states``)."""
    a, others = attribute.lower(), {x.lower() for x in others}
    if any(a in CONTRARY_STATES.get(x, ()) or x in CONTRARY_STATES.get(a, ()) for x in others):
        return True  # "steaming cold water" (blind review round 42)
    if a in NEW_WORDS:
        return not WORN_STATES.isdisjoint(others)
    # and the other way round: "rusty" moved onto a thing that is new (blind review round 26:
    # "an old shiny tractor and a rusty new pickup truck")
    return a in WORN_STATES and not NEW_WORDS.isdisjoint(others)


#: A state -> the states it says of a thing as well ("dry": "dusty").
IMPLIED_STATES = keyed("implied_states")


def implied(attribute: str, others) -> bool:
    """``attribute`` is said by one of ``others`` already: "dusty" of a thing "dry" (blind
    review round 38: "a dry grassy plain" -> "a dry dusty plain" may be true)."""
    a = attribute.lower()
    return any(a in IMPLIED_STATES.get(x.lower(), ()) for x in others)


def same_state(a: str, b: str) -> bool:
    """Two words of one group that say the same state ("busy", "crowded"): never a change."""
    x, y = _groups().get(a.lower()), _groups().get(b.lower())
    return x is not None and x == y


@lru_cache(maxsize=65536)
def attribute_kind(word: str) -> str:
    """What an attribute may be exchanged or replaced within: its :func:`attribute_type`, or
    for an "other" word its :func:`attribute_group` where it has one."""
    t = attribute_type(word)
    return (attribute_group(word) or t) if t == "other" else t


@lru_cache(maxsize=65536)
def relation_type(predicate: str) -> str:
    return "spatial" if all(w in SPATIAL_WORDS for w in predicate.lower().split()) else "action"


#: Words that may follow a noun phrase that connect joins a second item to ("holding an
#: umbrella | and a cup | in the rain"): a preposition, or a clause that goes on; not "of" or
#: "with", which the second item would take for its own ("a glass and a cup | of water").
LIST_SEAMS = (SPATIAL_WORDS - words("not_list_seams")) | {
    "while",
    "as",
    "during",
}
#: Words that may follow a noun phrase where connect's new phrase can go in between ("a cat
#: | near a suitcase | sits in the window"). Not a preposition, which would take the new
#: object for its own ("shoes | on her feet" -> "shoes near a bed on her feet"), nor "and",
#: which may join it to another noun ("table | and chair").
SEAM_WORDS = words("seam_words")
