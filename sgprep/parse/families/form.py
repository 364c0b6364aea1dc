"""Rule families: FACTUAL's form of names and predicates, applied when a graph is written in it
(:mod:`sgprep.parse.factual_format`).
"""

from __future__ import annotations

from sgprep.parse.families.base import Family
from sgprep.parse.rules_lexicon import COLOURS, is_colour

PREP = frozenset({"prep"})


def colour_after_in(builder) -> None:
    """ "this picture is in black and white", "the car is in red": a colour after "in" after
    "is" is the subject's."""
    words = builder.view.words
    if "in" not in words or words.isdisjoint(COLOURS):
        return
    for tok in builder._with_dep(PREP):
        pobj = builder._pobj(tok) if tok.lower_ == "in" else None
        if (pobj is not None and is_colour(pobj) and tok.head.lemma_ == "be"
                and not builder._negated(tok.head)):  # fmt: skip
            for subject in builder._subjects(tok.head):
                if subject in builder.entities:
                    builder._attribute_chain(builder.entities[subject], pobj)


FAMILIES = (
    Family(
        "plurals",
        about="""A head whose written form is not its lemma is named as written in FACTUAL's
        form ("the men", "dry leaves"; before: "man", "leaf").""",
    ),
    Family(
        "spellings",
        about="""FACTUAL's spelling of a few compounds in names ("cell phone" -> "cellphone",
        "hotdog" -> "hot dog"), and no "other" in a name ("2 other people" -> people).""",
    ),
    Family(
        "or_lists",
        about="""Attributes listed with "or" are skipped from a name as those listed with
        "and" are ("chairs with silvertone or white legs": legs, not "or white legs").""",
    ),
    Family(
        "conventions",
        about="""FACTUAL's names where its gold is consistent: a lexical adjective + noun pair
        is one name ("hot dog", "polar bear", "high chair"), "left"/"right" of a part or worn
        thing is part of its name ("his left hand"), a toy/baby/adult noun is an attribute
        ("toy carrot" -> carrot is toy; "baby" of an animal only: "a baby girl" is a name), so
        is a size adjective the model reads as a noun ("small hill"), an adverb of a count is
        no part of the name ("only one cloud"), "in <colour>" after "is" is the subject's
        colour ("the car is in red"), "wood" as an attribute is "wooden", "full of" is "fill
        with".""",
        builder={"colour_after_in": colour_after_in},
    ),
)
