"""Closed word lists the rule parser needs beyond what the dependency parse says.

Each list names a *class* of words that behaves differently in a scene graph; none of them
is tuned to a benchmark caption. Keep them small, lower-case and commented.
"""

from __future__ import annotations

from sgprep.lexicon import words

NOUNS = frozenset({"NOUN", "PROPN"})
VERBS = frozenset({"VERB", "AUX"})

#: Colour words: after "in" ("a woman in red") they are the entity's attribute, not an object.
COLOURS = frozenset(
    """
    red blue green yellow orange purple pink brown black white gray grey silver gold golden
    beige tan maroon navy teal turquoise violet cream ivory khaki crimson scarlet magenta
    blond blonde bronze copper cyan lavender olive burgundy multicolored multi-colored
    """.split()
)

#: Materials: a noun modifier made of one of these is an attribute ("metal fork" -> fork is
#: metal), not part of the object's name as a compound ("fire hydrant") is.
MATERIALS = frozenset(
    """
    metal wood wooden glass plastic stone brick leather paper steel concrete ceramic cotton
    wool silk iron marble rubber porcelain tile cardboard denim straw wicker bamboo velvet
    aluminum aluminium tin chrome granite clay cement lace fur wire canvas cloth
    """.split()
)

#: Nouns that name a position relative to another object. As the object of a preposition and
#: followed by "of" they form a multi-word preposition ("on top of", "to the left of") and are
#: never entities themselves.
RELATIONAL_NOUNS = frozenset(
    """
    top front left right side middle back bottom center centre edge rear corner end
    inside outside underside surface base tip part half
    """.split()
)

#: Positions that name no thing when said with no landmark ("a man in front", "food on top").
BARE_POSITIONS = frozenset({"top", "front", "bottom", "middle", "center", "centre"})

#: Worn things whose word also names a container ("wines in the glasses"): "in" them is
#: wearing them only for a person or an animal.
WORN_CONTAINERS = frozenset({"glasses"})

#: Relational nouns that keep their article inside the predicate ("to the left of").
ARTICLE_KEEPING = frozenset({"left", "right"})

#: Words (adverbs, adjectives, particles) that head a multi-word preposition with the
#: preposition that follows: "next to", "close to", "out of", "ahead of", "away from".
PREP_HEADS = frozenset(
    """
    next close adjacent near out ahead away apart according up down off inside outside
    """.split()
)

#: "a pair of scissors", "a group of people", "a piece of cake" (quantities and partitives):
#: the entity is the noun after "of".
QUANTITY_NOUNS = frozenset(
    """
    pair pairs group bunch lot lots couple herd flock set number variety kind type sort
    cluster row line pile stack heap collection bundle handful crowd team series swarm
    school pack bouquet assortment array selection dozen few
    dozens hundred hundreds thousand thousands million millions billions plenty loads tons
    multitude myriad abundance alot remains puddle trail gang
    piece slice part portion patch roll chunk bit strip scoop half paragraph
    """.split()
)

#: Partitives and collectives that FACTUAL's gold writes as an attribute of the noun after
#: "of", as written ("a piece of bread" -> bread is piece; "pieces of hay" -> hay is pieces);
#: "group" keeps its "of" there ("a group of sheep" -> sheep is group of). Other quantity nouns
#: ("a pair of", "lots of", "a crowd of") give no attribute, nor does "a bunch of", which is as
#: often a vague "many" ("a bunch of vehicles in a parking lot"; the gold writes it 1 time of 2 in
#: the read parts).
PARTITIVE_ATTRIBUTES = frozenset(
    "piece slice bouquet pile heap chunk strip scoop patch trail gang".split()
)
GROUP_NOUNS = frozenset({"group"})

#: "a ceramic sculpture of a dog", "a model of a space shuttle": one thing, the dog or shuttle
#: as a likeness. The entity is the noun after "of", with the likeness noun (and its
#: modifiers) as attributes (FACTUAL's gold: dog is sculpture, dog is ceramic).
LIKENESS_NOUNS = frozenset("model statue sculpture replica figurine miniature effigy".split())

#: Quantity nouns that give an exact count to the noun after "of" ("a couple of dogs": 2).
#: "a pair of scissors" is one thing, and "dozens of" is not exact, so neither is here.
EXACT_QUANTITIES = {"couple": 2, "dozen": 12}

#: Nouns that frame a caption as a picture *of* something ("a black and white photo of
#: coins", "a close-up of a cat"): as the caption's root noun phrase followed by "of X", the
#: caption is about X; the frame is no entity and its modifiers ("black and white") describe
#: the picture, not X. Without "of" ("a painting on the wall") the noun is an object.
FRAMING_NOUNS = frozenset(
    """
    photo photograph picture pic image close-up closeup view shot snapshot screenshot
    illustration drawing painting sketch scan render rendering portrait depiction micrograph
    photomicrograph x-ray exposure
    """.split()
)

#: Nouns ending in "-ing" that name things ("a brick building"): never re-read as a verb
#: that the model took for a noun (see rules_repair.repair_participle_after_noun).
ING_NOUNS = frozenset(
    """
    building painting ceiling railing clothing awning frosting icing topping bedding siding
    stuffing wedding pudding ring king string wing thing evening morning landing opening
    parking crossing drawing carving wiring plumbing lighting flooring roofing fencing
    seating shelving housing filling dressing covering marking sibling duckling seedling
    sapling dumpling stocking earring spring swing living heading writing lettering
    """.split()
)

#: "a cup of coffee": two entities, the contents are in (or on) the container.
CONTAINER_NOUNS = frozenset(
    """
    cup glass bowl box bottle jar bag basket bucket mug pot can carton pitcher vase crate
    tub jug barrel sack pan container case tin kettle teapot package packet
    """.split()
)
#: Flat containers hold their contents *on* them ("a plate of food").
FLAT_CONTAINERS = frozenset({"plate", "tray", "platter", "dish", "board", "sheet"})

#: Worn things: "a man in a black shirt" -> man --wear--> shirt (the preposition "in" means
#: wearing, not containment, for these).
CLOTHING = frozenset(
    """
    shirt t-shirt tshirt pants trousers jeans shorts jacket coat dress skirt suit uniform
    sweater sweatshirt hoodie vest jersey top blouse hat cap helmet beanie hood scarf tie
    glasses sunglasses goggles gloves glove mittens shoes shoe boots boot sneakers sandals
    socks outfit costume apron robe gown bikini swimsuit wetsuit overalls tank tuxedo
    raincoat parka cardigan visor headband bandana spacesuit jumpsuit tracksuit bottoms
    """.split()
)

#: Words that grade a colour ("light blue", "bright yellow"): they modify the colour, not the
#: noun, so they are not an attribute of their own. Any other adjective hung off an attribute
#: ("long white whiskers": long <- white) is the noun's own attribute.
SHADES = frozenset(
    "light dark pale bright deep pastel dull vivid soft muted neon dusty faded rich".split()
)

#: Quantifiers: neither attributes nor counts.
QUANTIFIERS = frozenset(
    """
    many several some few other another more most various numerous multiple each every all
    both any no lots plenty much enough such same different
    """.split()
)

#: Ordinals: an attribute ("the second man" -> man is second), never a count; spaCy's
#: ``like_num`` is true for them, so they are told apart from numbers by this list.
ORDINALS = frozenset(
    """
    first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth
    1st 2nd 3rd 4th 5th 6th 7th 8th 9th 10th
    """.split()
)

#: Nouns that name a time, not a thing in the picture: "at sunset", "on a rainy day", "during
#: the war" place the scene in time, so they are no relation's object (FACTUAL's gold has
#: none); with an attribute ("a rainy day") the noun stays as an object.
TIME_NOUNS = frozenset(
    """
    day days night nights sunset sunrise dusk dawn morning mornings afternoon evening evenings
    daytime nighttime night-time noon midnight twilight today tonight yesterday weekend
    hour hours minute minutes moment time times season year years week weeks month months
    winter summer autumn monday tuesday wednesday thursday friday saturday sunday
    christmas halloween easter war era century decade
    """.split()
)
#: Prepositions that place something in time before a time noun.
TIME_PREPOSITIONS = frozenset(
    "at on in during after before for through throughout until since by around near".split()
)

#: Participles that only say where a thing is ("a door found in a kitchen", "a sign located
#: on the wall"): the relation is the preposition alone (door --in--> kitchen).
PLACEMENT_PARTICIPLES = frozenset("located situated found positioned placed".split())

#: Verbs whose direct object is what a following place phrase locates: "holding her shoes in
#: one hand" (shoes in hand), "wearing a shirt under the vest" (shirt under vest).
HANDLING_VERBS = frozenset("hold wear carry have keep grip clutch".split())
#: Prepositions of place (a handling verb's object is where they say).
PLACE_PREPOSITIONS = frozenset(
    """
    in on under over above below behind beside inside near atop underneath beneath between
    around against across along
    """.split()
)

#: Prepositions of support and containment: a second place phrase with one of these, right
#: after a first one's object, says where that object is ("behind the cake on the table").
SUPPORT_PREPOSITIONS = frozenset({"on", "in", "at", "inside", "atop"})

#: Doings of a person (or an animal): a participle of one of these, hung by the model on a
#: thing after a preposition ("men looking toward the camera holding food"), is the person's.
PERSON_ACTIONS = frozenset(
    """
    hold wear carry eat drink talk play ride throw catch use read smile wave hit swing kick
    watch look stand sit walk run pose lean hug feed push pull chat speak laugh point
    """.split()
)
#: Verbs of posture: a "with" phrase on one of these, with no object of its own, is the
#: subject's ("a man standing with black shoes on": he wears them).
POSTURE_VERBS = frozenset("stand sit lie lay pose kneel lean crouch squat wait rest".split())
#: Particles of direction that FACTUAL's gold leaves out of a verb's predicate before a plain
#: preposition ("jumping up in the air" -> jump in, "spread out on the lawn" -> spread on);
#: before "of" or "to" they stay ("sticking out of", "leading up to").
PARTICLES = frozenset({"up", "down", "out"})
PLAIN_PREPOSITIONS = frozenset({"in", "into", "at", "on", "onto", "along", "across", "through"})
#: Scenery a person is "in" ("a boy in the background wearing shorts"): a participle hung on
#: it is the person's.
SCENERY = frozenset({"background", "foreground", "distance"})

#: Parts of speech that are never an attribute ("green shrubbery beside brick building": the
#: model can hang "beside" on a noun as a modifier).
NON_ATTRIBUTE_POS = frozenset({"ADP", "DET", "PRON", "CCONJ", "SCONJ", "PART", "PUNCT", "AUX"})

NUMBER_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "dozen": 12,
    "single": 1,
    "couple": 2,
}

#: People (and a few animals addressed as he/she): the preferred antecedents of he/she/his/her.
PERSON_NOUNS = frozenset(
    """
    man men woman women person people boy boys girl girls child children kid kids baby lady
    ladies guy guys player players surfer skier skateboarder snowboarder rider biker cyclist
    batter catcher pitcher umpire chef cook worker officer policeman father mother son
    daughter husband wife gentleman adult adults teen teenager student teacher crowd family
    couple tourist spectator fan fans someone somebody friend friends customer driver pilot
    soldier skater
    """.split()
)

#: Pronouns and the kind of antecedent they prefer.
PERSONAL_PRONOUNS = words("gendered_pronouns")
NEUTER_PRONOUNS = frozenset({"it", "its", "itself"})
PLURAL_PRONOUNS = frozenset({"they", "them", "their", "theirs", "themselves"})
RELATIVE_PRONOUNS = frozenset({"that", "which", "who", "whom", "whose"})
ANAPHORA = PERSONAL_PRONOUNS | NEUTER_PRONOUNS | PLURAL_PRONOUNS

#: Verbs of appearance whose adjective complement describes the subject ("the sky looks grey").
LINKING_VERBS = frozenset(
    {"be", "look", "appear", "seem", "become", "remain", "stay", "turn", "get"}
)

#: Fixed multi-word prepositions normalised to one spelling.
PREP_SYNONYMS = {
    "adjacent to": "next to",
    "underneath": "under",
    "beneath": "under",
    "inside of": "inside",
    "outside of": "outside",
    "on to": "onto",
    "in to": "into",
    "alongside of": "alongside",
}


def is_colour(token) -> bool:
    return token.lower_ in COLOURS
