"""The words replace decides by: what a noun is (plural in form, gendered, generic, a part,
worn and where), which sizes measure a noun, and which words make a colour of two."""

from __future__ import annotations

from functools import lru_cache

from sgprep.negatives.cooc import NON_EXCLUSIVE, PLURALIA, singular
from sgprep.negatives.scene import FIXING_VERBS, LOCATING_VERBS

#: Nouns plural in form: never after "a".
PLURAL_NOUNS = PLURALIA | {"people", "men", "women", "children", "crowd"}
#: What a statistics table may hold for a plural-only noun ("pant", "jean").
PLURAL_STEMS = frozenset(w[:-1] for w in PLURALIA)
#: Words for people of one gender, to keep pronouns true ("a man with his hat").
GENDERED = {
    **dict.fromkeys("man men boy boys guy gentleman father son husband king".split(), "m"),
    **dict.fromkeys("woman women girl girls lady mother daughter wife queen".split(), "f"),
}
PRONOUNS = frozenset("he his him himself she her hers herself".split())
#: Nouns for a person's partner or kin that say the gender of whom they belong to ("a man
#: ... his wife"): with a pronoun, anywhere in the caption, they keep a person's gender.
GENDERED_KIN = frozenset("husband wife boyfriend girlfriend bride groom".split())
#: Plural nouns that are also a verb's third person ("the crowd watches", "a man waves"):
#: after another noun and ending the clause, the parser's noun may be the clause's verb
#: (blind review round 6: "as the crowd watches" -> "as the crowd bracelets").
VERB_LIKE_NOUNS = frozenset(
    "watches rows walks stands waves looks rests runs plays drinks smiles laughs points "
    "races rides jumps dives turns falls leans sits swims climbs flies skates surfs skis "
    "poses works waits feeds kicks throws catches pitches swings hits bats serves spots "
    "shows stares lands lifts pulls pushes helps cooks shops trips marches steps hops "
    "parks stops crosses drives tows tracks brakes".split()
)
#: Words that may follow a clause's verb at its end (no object): "as the crowd watches on".
CLAUSE_ENDS = frozenset("on by nearby closely intently and while as from in at".split())
#: Size words by the dimension they measure: a noun takes those of one dimension only
#: ("tall grass" -> "short grass", never "small grass"; "long hair", never "tall hair").
SIZE_DIMENSIONS = {
    "height": frozenset("tall short high low".split()),
    "length": frozenset("long short".split()),
    "bulk": frozenset("big small large little huge tiny giant massive enormous".split()),
}
#: Nouns measured in height or length where the statistics say too little.
NOUN_DIMENSION = {
    **dict.fromkeys(
        "grass tree trees weed weeds plant plants bush man woman person boy girl building "
        "tower skyscraper giraffe pole lamp fence wall glass grasses".split(),
        "height",
    ),
    **dict.fromkeys("hair road street line hallway beard table train bench".split(), "length"),
}
#: Things a scene has one of ("nine suns"): never in a plural slot.
UNIQUE_PLACES = frozenset("sky sun moon ground horizon ocean sea air".split())
#: Names that say little: a replacement into or out of one may be true ("a clock tower" ->
#: "a building"; "food" -> "a hot dog"; "human" -> "woman").
GENERIC = frozenset(
    "food meal dish thing object item stuff building structure vehicle animal creature "
    "person people human individual figure plant furniture equipment gear device machine "
    "area place spot scene room clothing clothes outfit garment bird fish insect fruit "
    "vegetable drink toy tool container substance material matter stuff".split()
)
#: Who a person is, not what they do: "a skateboarder" may be a woman, "a player" a man.
WHO = frozenset(
    "man men woman women boy boys girl girls lady ladies guy guys gentleman person people "
    "child children kid kids baby adult teenager teen toddler infant male female human".split()
)
#: Parts of things, there whenever their whole is: never a replacement ("a clock on the
#: building" -> "a clock on the wall").
PARTS = frozenset(
    "wall ceiling floor roof window door wheel tire windshield porch balcony leg handle "
    "seat screen lid side top bottom edge corner front back step steps stair stairs chimney "
    "tail wing engine bumper headlight trunk hood frame base branch cab shoulder neck knee "
    "lap chest wrist elbow toe lip tongue beak paw hoof horn leaf leaves".split()
)
#: Clothes worn over one another: "wears a black suit" -> "a black shirt" may be true.
LAYERS = frozenset(
    "suit jacket coat shirt t-shirt sweater vest uniform top blouse hoodie sweatshirt "
    "blazer tie cardigan".split()
)
#: Where on the body a thing is worn: a person wears one thing of each slot at once, so under
#: "wearing", "in" or "with" a replacement from another slot ("wearing a ring" -> "wearing a
#: dress", "a ballcap" -> "a jacket") may be true; only one of the same slot contradicts.
WORN_SLOTS: dict[str, str] = {
    w: slot
    for slot, words in {
        "head": "cap hat helmet beanie ballcap visor headband bandana crown hood bonnet",
        "face": "glasses sunglasses goggles mask",
        "neck": "necklace tie scarf collar bowtie",
        "upper": "shirt t-shirt tshirt sweater blouse top hoodie sweatshirt jersey polo tank",
        "outer": "jacket coat blazer cardigan vest parka raincoat windbreaker",
        "whole": "dress suit uniform wetsuit outfit costume gown overalls robe bikini swimsuit "
        "apron",
        "legs": "jeans shorts pants trousers skirt leggings slacks",
        "feet": "shoe boot sandal sneaker cleat slipper heel",
        "socks": "sock stocking",
        "hands": "glove mitten mitt",
        "wrist": "watch bracelet wristband",
        "finger": "ring",
        "ears": "earring headphone earphone",
        "carried": "bag backpack purse handbag",
    }.items()
    for w in words.split()
}
#: Things worn in pairs or by the several: a plural of them may be one person's.
PAIRED = frozenset(
    w + s
    for w, slot in WORN_SLOTS.items()
    if slot in {"feet", "socks", "hands", "ears", "wrist", "finger"}
    for s in ("", "s")
)
#: Words before a thing that say it is worn.
WORN_WORDS = frozenset("in wearing wears wear wore worn with dressed".split())
#: Predicates that say entity (the object) is worn by the subject.
WORN_PREDICATES = NON_EXCLUSIVE | {"in"}
#: Names of one kind of place or vessel: a replacement within a group may be true of the
#: same thing ("on the ground" -> "on the grass", "a bottle" -> "a jar").
MAY_BE_SAME = tuple(
    frozenset(g.split())
    for g in (
        "ground grass yard field lawn slope hill hillside dirt soil turf pasture meadow",
        "bottle jar jug container flask canister carafe",
    )
)
#: Verbs a thing's caption uses for where or how it is, not for what it does ("a laptop
#: sitting on a desk", "a towel hanging on the door", "a chair made of wood"): any thing may.
THING_STATES = (
    LOCATING_VERBS
    | FIXING_VERBS
    | frozenset(
        "lean stick cover fill make surround line float hold contain show display read say "
        "point face border overlook top support lay lie rest set place put leave tie wrap "
        "stack pile scatter sit stand hang prop store keep use see".split()
    )
)


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
