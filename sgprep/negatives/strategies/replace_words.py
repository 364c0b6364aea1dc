"""The words replace decides by: what a noun is (plural in form, gendered, generic, a part,
worn and where), which sizes measure a noun, and which words make a colour of two."""

from __future__ import annotations

from functools import lru_cache

from sgprep.lexicon import groups, keyed, ordered, words
from sgprep.negatives.cooc import NON_EXCLUSIVE, PLURALIA, singular
from sgprep.negatives.scene import FIXING_VERBS, LOCATING_VERBS

#: Nouns plural in form: never after "a".
PLURAL_NOUNS = PLURALIA | {"people", "men", "women", "children", "crowd"}
#: What a statistics table may hold for a plural-only noun ("pant", "jean").
PLURAL_STEMS = frozenset(w[:-1] for w in PLURALIA)
#: Words for people of one gender, to keep pronouns true ("a man with his hat").
GENDERED = {
    **dict.fromkeys(ordered("male_nouns"), "m"),
    **dict.fromkeys(ordered("female_nouns"), "f"),
}
PRONOUNS = words("gendered_pronouns")
#: Nouns for a person's partner or kin that say the gender of whom they belong to ("a man
#: ... his wife"): with a pronoun, anywhere in the caption, they keep a person's gender.
GENDERED_KIN = words("gendered_kin")
#: A caption that names a grandchild names an old person; one that names a grandparent, no
#: old one; one that names a coworker or a grandchild, a grown-up (lexicon ``people.json``).
GRANDCHILD_WORDS = words("grandchild_words")
GRANDPARENT_WORDS = words("grandparent_words")
GROWN_KIN = words("grown_up_kin") | GRANDCHILD_WORDS
#: Plural nouns that are also a verb's third person ("the crowd watches", "a man waves"):
#: after another noun and ending the clause, the parser's noun may be the clause's verb
#: (blind review round 6: "as the crowd watches" -> "as the crowd bracelets").
VERB_LIKE_NOUNS = words("verb_like_plural_nouns")
#: Words that may follow a clause's verb at its end (no object): "as the crowd watches on".
CLAUSE_ENDS = words("clause_end_words")
#: Size words by the dimension they measure: a noun takes those of one dimension only
#: ("tall grass" -> "short grass", never "small grass"; "long hair", never "tall hair").
SIZE_DIMENSIONS = {d: frozenset(ws) for d, ws in keyed("size_dimensions").items()}
#: Nouns measured in height or length where the statistics say too little.
NOUN_DIMENSION = {
    **dict.fromkeys(ordered("height_nouns"), "height"),
    **dict.fromkeys(ordered("length_nouns"), "length"),
}
#: Things a scene has one of ("nine suns"): never in a plural slot.
UNIQUE_PLACES = words("one_per_scene")
#: Names that say little: a replacement into or out of one may be true ("a clock tower" ->
#: "a building"; "food" -> "a hot dog"; "human" -> "woman").
GENERIC = words("generic_nouns")
#: Who a person is, not what they do: "a skateboarder" may be a woman, "a player" a man.
WHO = words("person_nouns")
#: Parts of things, there whenever their whole is: never a replacement ("a clock on the
#: building" -> "a clock on the wall").
PARTS = words("part_nouns")
#: Clothes worn over one another: "wears a black suit" -> "a black shirt" may be true.
LAYERS = words("layered_clothes")
#: Where on the body a thing is worn: a person wears one thing of each slot at once, so under
#: "wearing", "in" or "with" a replacement from another slot ("wearing a ring" -> "wearing a
#: dress", "a ballcap" -> "a jacket") may be true; only one of the same slot contradicts.
WORN_SLOTS: dict[str, str] = {w: slot for slot, worn in keyed("worn_slots").items() for w in worn}
#: Things worn in pairs or by the several: a plural of them may be one person's.
PAIRED = frozenset(
    w + s
    for w, slot in WORN_SLOTS.items()
    if slot in {"feet", "socks", "hands", "ears", "wrist", "finger"}
    for s in ("", "s")
)
#: Words before a thing that say it is worn.
WORN_WORDS = words("worn_words")
#: Predicates that say entity (the object) is worn by the subject.
WORN_PREDICATES = NON_EXCLUSIVE | {"in"}
#: Names of one kind of place or vessel: a replacement within a group may be true of the
#: same thing ("on the ground" -> "on the grass", "a bottle" -> "a jar").
MAY_BE_SAME = tuple(frozenset(g) for g in groups("may_be_same"))
#: Verbs a thing's caption uses for where or how it is, not for what it does ("a laptop
#: sitting on a desk", "a towel hanging on the door", "a chair made of wood"): any thing may.
THING_STATES = LOCATING_VERBS | FIXING_VERBS | words("thing_state_verbs")


def worn_slot(obj: str) -> str | None:
    """The :data:`WORN_SLOTS` slot of a name, by the whole name or its head, singular or
    plural ("wet suit", "socks")."""
    last = obj.split()[-1]
    return WORN_SLOTS.get(obj) or WORN_SLOTS.get(last) or WORN_SLOTS.get(singular(last))


@lru_cache(maxsize=65536)
def size_fits(obj: str, a: str) -> frozenset[str]:
    """The size words that measure what ``a`` measures of ``obj``: the dimensions that hold
    ``a`` ("tall": height; "large": bulk), narrowed to the noun's own where it is one of
    them (:data:`NOUN_DIMENSION`: "short grass" is height, "short hair" length). Once per
    process for a name and a word."""
    dims = [d for d, ws in SIZE_DIMENSIONS.items() if a in ws]
    noun = obj.split()[-1]
    own = NOUN_DIMENSION.get(noun) or NOUN_DIMENSION.get(singular(noun))
    if own in dims:
        dims = [own]
    return frozenset().union(*(SIZE_DIMENSIONS[d] for d in dims))
