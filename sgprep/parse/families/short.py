"""Rule families: short captions (most of FACTUAL's): fragments the small model reads as verbs,
reciprocal objects, parts named by "-ed" adjectives.
"""

from __future__ import annotations

from sgprep.parse.families.base import Family, Repair
from sgprep.parse.rules_short import (
    repair_fragment_ing_noun,
    repair_have_read_as_auxiliary,
    repair_object_read_as_adverb,
    repair_participle_on_prefix,
)

FAMILIES = (
    Family(
        "fragments",
        about="""Relations lost when the small model mis-reads a fragment caption: an "-ing"
        noun read as a verb even behind the "a photo of" prefix ("drawing on the wall"), a
        noun read as a compound or adjective of a verb root ("dog walking in the snow"), an
        object read as an adverb ("small girl holding large donut"), "has" read as an
        auxiliary ("the bush has leaves"), a lone subject pronoun ("she is wearing gloves" ->
        woman), a position with its "of" left out ("on top the cake").""",
        repairs=(
            Repair(repair_fragment_ing_noun),  # "drawing on the wall": drawing is a noun
            Repair(repair_object_read_as_adverb),
            Repair(repair_have_read_as_auxiliary),
            Repair(repair_participle_on_prefix),
        ),
    ),
    Family(
        "reciprocal",
        about=""""each other" / "one another" after a plural subject is another thing of its
        kind ("two zebras next to each other" -> zebra next to zebra), so is "another one" ("a
        television stacked on top of another one"), and a plural noun "together" with nothing
        else said is one next to another ("two zebras together").""",
    ),
    Family(
        "owned_parts",
        about="""A "<modifier> <part>-ed" adjective is a part the thing has ("a grey haired
        woman" -> woman have hair, hair is grey; "a four legged chair"; "a long sleeve
        shirt"), and "colored" after a colour adds nothing ("white colored sail boat" -> sail
        boat is white).""",
    ),
)
