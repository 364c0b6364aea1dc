"""Rule families: lists: nouns and adjectives listed with commas or "and", and colours read as
nouns in them.
"""

from __future__ import annotations

from sgprep.parse.families.base import Family, Repair
from sgprep.parse.rules_long import (
    repair_adjective_list_root,
    repair_colour_noun,
    repair_comma_compound,
    repair_comma_list_after_phrase,
    repair_gerund_modifier,
    repair_worn_conjunct,
)

FAMILIES = (
    Family(
        "lists",
        about="""A noun before a comma is an item of a list, not a modifier of the noun after
        the comma ("sunset, beach, nofilter": three keywords, not one compound).""",
        repairs=(Repair(repair_comma_compound),),
    ),
    Family(
        "adjective_roots",
        about="""Two coordinated adjectives that open the caption, the first read as its root
        ("grey and black sneakers on the feet of a person"), both describe the noun, and the
        root's phrases are the noun's.""",
        repairs=(Repair(repair_adjective_list_root),),
    ),
    Family(
        "worn_lists",
        about="""A worn thing the model makes a person's conjunct right after that person's
        "in <worn thing>" phrase is a second worn thing ("a man in a dark shirt and beige cap
        in the stands" -> man wear cap, man in stands).""",
        repairs=(Repair(repair_worn_conjunct),),
    ),
    Family(
        "shared_lists",
        about="""A bare noun after the comma ending a "with" / "in" phrase, read as a second
        owner, is the next item of the phrase's list ("a center with a television , dvd player
        , and decorations" -> center with player, center with decorations).""",
        repairs=(Repair(repair_comma_list_after_phrase),),
    ),
    Family(
        "colour_nouns",
        about="""A colour the model reads as a noun inside the phrase of a noun after it
        (before a participle, last of a list of colours) is that noun's adjective ("white
        painted wall" -> wall is white, no "white" thing).""",
        repairs=(Repair(repair_colour_noun),),
    ),
    Family(
        "gerund_nouns",
        about="""An "-ing" word and a bare noun after a preposition of place, read by the
        model as a gerund and its object, are a noun and its modifier ("people sitting on
        folding chairs" -> people sit on chairs, chairs is folding; no "people fold chairs").""",
        repairs=(Repair(repair_gerund_modifier),),
    ),
)
