"""Rule families: what an entity is and is named: its span, its attributes, counts, colours,
parts, negation and the pronouns that stand for it.
"""

from __future__ import annotations

from sgprep.parse.families.base import Family, Repair
from sgprep.parse.rules_lexicon import SCENERY
from sgprep.parse.rules_repair import (
    repair_adjective_argument,
    repair_adjective_compound,
    repair_noun_root,
    repair_participle_on_garment,
    repair_plain_possessive,
)

FAMILIES = (
    Family(
        "spans",
        about="""Entity span and head boundaries (likeness nouns, compounds holding a colour
        word, prepositions and adverbs never attributes).""",
        repairs=(
            Repair(
                repair_participle_on_garment,
                lambda c: (SCENERY if "spans" in c.families else frozenset(),),
                always=True,
            ),
            Repair(repair_adjective_argument, lambda c: c.words),
            Repair(repair_noun_root, lambda c: c.words),
        ),
    ),
    Family(
        "names",
        about="""What an entity's name is made of (an adverb of an attribute is no part of it,
        an adjective the model read as a compound noun is an attribute, a possessive written
        without its apostrophe is an owner: "elephants tail").""",
        repairs=(
            Repair(repair_adjective_compound, lambda c: c.words),
            Repair(repair_plain_possessive),
        ),
    ),
    Family(
        "counts",
        about="""A partitive or a group is an attribute of what it measures ("a piece of
        bread" -> bread is piece, "a group of sheep" -> sheep is group of).""",
    ),
    Family(
        "colours",
        about="""A shade word and the colour after it are one attribute ("a light blue shirt"
        -> shirt is light blue; "lime green", "navy blue").""",
    ),
    Family(
        "parts",
        about="""An adjective made of a part's noun with a modifier is that part ("a red
        haired girl" -> girl have hair, hair is red; "a four legged chair" -> chair have legs,
        legs is 4).""",
    ),
    Family(
        "colour_results",
        about="""A colour right after a participle of colouring is the colour of what was
        coloured ("the boat is painted white" -> boat is white; "a structure painted yellow").""",
    ),
    Family(
        "manner",
        about="""An adverb of manner and the participle it describes are one attribute ("an
        oddly shaped doughnut" -> doughnut is oddly shaped, "a well dressed woman"); an adverb
        of degree stays out ("partly eaten").""",
    ),
    Family(
        "negation",
        about="""What is denied is not in the graph: a relation or a state of a verb with
        "not" ("the branches do not have leaves", "that is not in black and white"), and a
        noun after the determiner "no" ("a tree with no leaves": no leaves, no "tree with
        leaves").""",
    ),
    Family(
        "pronouns",
        about="""An object pronoun points to the agreeing noun above it or to the subject of a
        clause above it before the nearest noun ("the tray on the table has sandwiches on it"
        -> sandwiches on tray).""",
    ),
    Family(
        "antecedents",
        about="""A pronoun never stands for a time noun ("the sun reflects off the train at
        dusk as it leaves the station" -> train leave station, not dusk).""",
    ),
)
