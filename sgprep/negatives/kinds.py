"""What kinds of things take which attributes, known without statistics: a back-off for swaps
of attributes between objects the co-occurrence statistics have not seen, or not with these
words ("a blue boat next to a red kayak" -> "a red boat next to a blue kayak").

Made things (clothing, vehicles, furniture, containers, toys, umbrellas, bags, doors...) come
in any colour; animals, fruit and flowers only in their own (:data:`siblings.COLOURS`). A
material fits only a thing made of such stuff (a wooden chair, a metal table; no wooden dog).
Sizes fit things that come in sizes; ages fit people and animals ("old", "young") or made
things ("old", "new"). Anything else: no knowledge, and the caller refuses as before.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from sgprep.lexicon import rows, words
from sgprep.negatives.cooc import PAINTED, YOUNG, object_class, singular
from sgprep.negatives.siblings import COLOURS as OWN_COLOURS
from sgprep.negatives.vocab import attribute_type
from sgprep.negatives.words import attribute_kind

#: Made things of no class in :data:`cooc.OBJECT_CLASSES` that come in any colour.
#: The binding kinds (a data file: shapes, made things, toys, ages, materials...), read by
#: swap (:func:`sgprep.negatives.strategies.swap.knowledge`) and replace_relation.
BINDING_KINDS = Path(__file__).resolve().parent / "data" / "binding_kinds.json"


@lru_cache(maxsize=1)
def binding_data() -> dict:
    """``data/binding_kinds.json``, read once per process."""
    return json.loads(BINDING_KINDS.read_text(encoding="utf-8"))


MADE = words("made_things")
#: Materials by what is made of them (heads, singular).
MADE_OF: dict[str, frozenset[str]] = {}
for _row in rows("made_of"):
    for _thing in _row["things"]:
        MADE_OF[_thing] = MADE_OF.get(_thing, frozenset()) | frozenset(_row["materials"])

#: Size words and the classes of things they measure.
_SIZES = {
    words("generic_sizes"): frozenset(
        {"person", "animal", "vehicle", "furniture", "small object", "building", "plant", "food"}
    ),
    frozenset({"tall", "short"}): frozenset({"person", "animal", "building", "plant"}),
}
SIZE_FITS = {w: classes for ws, classes in _SIZES.items() for w in ws}
#: Patterns: of textiles and clothes, and of the animals whose own they are ("a striped cat").
PATTERNS = words("pattern_words")
TEXTILES = words("textile_things")
#: Age words: of the living, and of made things.
LIVING_AGES = frozenset({"old", "young", "elderly"})
MADE_AGES = frozenset({"old", "new"})
LIVING = frozenset({"person", "animal"})
#: Young ones by name: never "old" ("an old boy", "an old puppy").
YOUNG_BY_NAME = words("young_nouns")


def _head(obj: str) -> str:
    return singular(obj.split()[-1].lower())


def made(obj: str) -> bool:
    """A made thing that comes in any colour."""
    head = _head(obj)
    return object_class(head) in PAINTED or head in MADE


@lru_cache(maxsize=65536)
def attribute_fits(attribute: str, obj: str) -> bool:
    """Whether ``obj`` may plausibly have ``attribute``, by kind of thing; False where
    nothing is known (the statistics decide those)."""
    a, head = attribute.lower(), _head(obj)
    cls, kind = object_class(head), attribute_type(a)
    if kind == "colour":  # animals, fruit, flowers: only their own colours
        return a in OWN_COLOURS[head] if head in OWN_COLOURS else made(head)
    if a in PATTERNS:
        return (
            a in OWN_COLOURS[head]
            if head in OWN_COLOURS
            else (cls == "clothing" or head in TEXTILES)
        )
    if kind == "material":
        return a in MADE_OF.get(head, ())
    if kind == "size":
        classes = SIZE_FITS.get(a, frozenset())
        if head in YOUNG and a in ("tall", "short"):
            return False  # "a tall baby"
        return cls in classes or ("vehicle" in classes and head in MADE)
    living = cls in LIVING
    if a == "old":
        return (living and head not in YOUNG_BY_NAME) or (not living and made(head))
    if a in LIVING_AGES:
        return living and (a == "young" or head not in YOUNG_BY_NAME)
    if a in MADE_AGES:
        return not living and made(head)
    return False


def known_kind(obj: str) -> bool:
    """Whether the kind of ``obj`` is known here (a class, a made thing, own colours): an
    object the statistics never saw may then be judged by :func:`attribute_fits`."""
    head = _head(obj)
    return object_class(head) is not None or head in MADE or head in OWN_COLOURS


def kind(attribute: str) -> str:
    """An attribute's type for swapping: "pattern", else :func:`words.attribute_kind`'s (a
    colour, a material, a size, a group of states such as "cooking", or other)."""
    a = attribute.lower()
    return "pattern" if a in PATTERNS else attribute_kind(a)
