"""Closed word lists the rule parser needs beyond what the dependency parse says.

Each list names a *class* of words that behaves differently in a scene graph; none of them
is tuned to a benchmark caption. Keep them small, lower-case and commented.
"""

from __future__ import annotations

from sgprep.lexicon import keyed, ordered, words

NOUNS = frozenset({"NOUN", "PROPN"})
VERBS = frozenset({"VERB", "AUX"})

#: Colour words: after "in" ("a woman in red") they are the entity's attribute, not an object.
COLOURS = words("colours")

#: Materials: a noun modifier made of one of these is an attribute ("metal fork" -> fork is
#: metal), not part of the object's name as a compound ("fire hydrant") is.
MATERIALS = words("materials")

#: Nouns that name a position relative to another object. As the object of a preposition and
#: followed by "of" they form a multi-word preposition ("on top of", "to the left of") and are
#: never entities themselves.
RELATIONAL_NOUNS = words("relational_nouns")

#: Positions that name no thing when said with no landmark ("a man in front", "food on top").
BARE_POSITIONS = words("bare_positions")

#: Worn things whose word also names a container ("wines in the glasses"): "in" them is
#: wearing them only for a person or an animal.
WORN_CONTAINERS = frozenset({"glasses"})

#: Relational nouns that keep their article inside the predicate ("to the left of").
ARTICLE_KEEPING = frozenset({"left", "right"})

#: Words (adverbs, adjectives, particles) that head a multi-word preposition with the
#: preposition that follows: "next to", "close to", "out of", "ahead of", "away from".
PREP_HEADS = words("prep_heads")

#: "a pair of scissors", "a group of people", "a piece of cake" (quantities and partitives):
#: the entity is the noun after "of".
QUANTITY_NOUNS = words("quantity_nouns")

#: Partitives and collectives that FACTUAL's gold writes as an attribute of the noun after
#: "of", as written ("a piece of bread" -> bread is piece; "pieces of hay" -> hay is pieces);
#: "group" keeps its "of" there ("a group of sheep" -> sheep is group of). Other quantity nouns
#: ("a pair of", "lots of", "a crowd of") give no attribute, nor does "a bunch of", which is as
#: often a vague "many" ("a bunch of vehicles in a parking lot"; the gold writes it 1 time of 2 in
#: the read parts).
PARTITIVE_ATTRIBUTES = words("partitive_attributes")
GROUP_NOUNS = frozenset({"group"})

#: "a ceramic sculpture of a dog", "a model of a space shuttle": one thing, the dog or shuttle
#: as a likeness. The entity is the noun after "of", with the likeness noun (and its
#: modifiers) as attributes (FACTUAL's gold: dog is sculpture, dog is ceramic).
LIKENESS_NOUNS = words("likeness_nouns")

#: Quantity nouns that give an exact count to the noun after "of" ("a couple of dogs": 2).
#: "a pair of scissors" is one thing, and "dozens of" is not exact, so neither is here.
EXACT_QUANTITIES = {"couple": 2, "dozen": 12}

#: Nouns that frame a caption as a picture *of* something ("a black and white photo of
#: coins", "a close-up of a cat"): as the caption's root noun phrase followed by "of X", the
#: caption is about X; the frame is no entity and its modifiers ("black and white") describe
#: the picture, not X. Without "of" ("a painting on the wall") the noun is an object.
FRAMING_NOUNS = words("framing_nouns")

#: Nouns ending in "-ing" that name things ("a brick building"): never re-read as a verb
#: that the model took for a noun (see rules_repair.repair_participle_after_noun).
ING_NOUNS = words("ing_nouns")

#: "a cup of coffee": two entities, the contents are in (or on) the container.
CONTAINER_NOUNS = words("container_nouns")
#: Flat containers hold their contents *on* them ("a plate of food").
FLAT_CONTAINERS = words("flat_containers")

#: Worn things: "a man in a black shirt" -> man --wear--> shirt (the preposition "in" means
#: wearing, not containment, for these).
CLOTHING = words("clothing")

#: Words that grade a colour ("light blue", "bright yellow"): they modify the colour, not the
#: noun, so they are not an attribute of their own. Any other adjective hung off an attribute
#: ("long white whiskers": long <- white) is the noun's own attribute.
SHADES = words("shades")

#: Quantifiers: neither attributes nor counts.
QUANTIFIERS = words("quantifiers")

#: Ordinals: an attribute ("the second man" -> man is second), never a count; spaCy's
#: ``like_num`` is true for them, so they are told apart from numbers by this list.
ORDINALS = words("ordinals")

#: Nouns that name a time, not a thing in the picture: "at sunset", "on a rainy day", "during
#: the war" place the scene in time, so they are no relation's object (FACTUAL's gold has
#: none); with an attribute ("a rainy day") the noun stays as an object.
TIME_NOUNS = words("time_nouns")
#: Prepositions that place something in time before a time noun.
TIME_PREPOSITIONS = words("time_prepositions")

#: Participles that only say where a thing is ("a door found in a kitchen", "a sign located
#: on the wall"): the relation is the preposition alone (door --in--> kitchen).
PLACEMENT_PARTICIPLES = frozenset("located situated found positioned placed".split())

#: Verbs whose direct object is what a following place phrase locates: "holding her shoes in
#: one hand" (shoes in hand), "wearing a shirt under the vest" (shirt under vest).
HANDLING_VERBS = words("handling_verbs")
#: Prepositions of place (a handling verb's object is where they say).
PLACE_PREPOSITIONS = words("place_prepositions")

#: Prepositions of support and containment: a second place phrase with one of these, right
#: after a first one's object, says where that object is ("behind the cake on the table").
SUPPORT_PREPOSITIONS = frozenset({"on", "in", "at", "inside", "atop"})

#: Doings of a person (or an animal): a participle of one of these, hung by the model on a
#: thing after a preposition ("men looking toward the camera holding food"), is the person's.
PERSON_ACTIONS = words("person_actions")
#: Verbs of posture: a "with" phrase on one of these, with no object of its own, is the
#: subject's ("a man standing with black shoes on": he wears them).
POSTURE_VERBS = words("posture_verbs")
#: Particles of direction that FACTUAL's gold leaves out of a verb's predicate before a plain
#: preposition ("jumping up in the air" -> jump in, "spread out on the lawn" -> spread on);
#: before "of" or "to" they stay ("sticking out of", "leading up to").
PARTICLES = frozenset({"up", "down", "out"})
PLAIN_PREPOSITIONS = words("plain_prepositions")
#: Scenery a person is "in" ("a boy in the background wearing shorts"): a participle hung on
#: it is the person's.
SCENERY = frozenset({"background", "foreground", "distance"})

#: Parts of speech that are never an attribute ("green shrubbery beside brick building": the
#: model can hang "beside" on a noun as a modifier).
NON_ATTRIBUTE_POS = frozenset({"ADP", "DET", "PRON", "CCONJ", "SCONJ", "PART", "PUNCT", "AUX"})

NUMBER_WORDS = {
    **{w: n for n, w in enumerate(ordered("number_words"))},
    **{w: 30 + 10 * n for n, w in enumerate(ordered("tens_words"))},
    "dozen": 12,
    "single": 1,
    "couple": 2,
}

#: People (and a few animals addressed as he/she): the preferred antecedents of he/she/his/her.
PERSON_NOUNS = words("antecedent_person_nouns")

#: Pronouns and the kind of antecedent they prefer.
PERSONAL_PRONOUNS = words("gendered_pronouns")
NEUTER_PRONOUNS = frozenset({"it", "its", "itself"})
PLURAL_PRONOUNS = frozenset({"they", "them", "their", "theirs", "themselves"})
RELATIVE_PRONOUNS = frozenset({"that", "which", "who", "whom", "whose"})
ANAPHORA = PERSONAL_PRONOUNS | NEUTER_PRONOUNS | PLURAL_PRONOUNS

#: Verbs of appearance whose adjective complement describes the subject ("the sky looks grey").
LINKING_VERBS = words("linking_verbs")

#: Fixed multi-word prepositions normalised to one spelling.
PREP_SYNONYMS = {
    spelled: normal
    for normal, spellings in keyed("preposition_spellings").items()
    for spelled in spellings
}


def is_colour(token) -> bool:
    return token.lower_ in COLOURS
