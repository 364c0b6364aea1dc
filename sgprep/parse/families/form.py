"""Rule families: FACTUAL's form of names and predicates, applied when a graph is written in it
(:mod:`sgprep.parse.factual_format`).

Each family is declared in :data:`FAMILIES` (what it does, and where it hooks in: see
:mod:`sgprep.parse.families.base`), the code it adds above it.
"""

from __future__ import annotations

import re

from sgprep.parse.families.base import Family
from sgprep.parse.rules_lexicon import COLOURS, is_colour
from sgprep.parse.rules_short import ADJECTIVE_PREDICATES, covering_agent, kind_word, name_word

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


#: Compounds FACTUAL's gold spells otherwise than captions often do (the plural follows)
FACTUAL_SPELLINGS = [
    (re.compile(r"\bcell phone(s?)\b", re.IGNORECASE), r"cellphone\1"),
    (re.compile(r"\bhotdog(s?)\b", re.IGNORECASE), r"hot dog\1"),
]


def factual_spelling(name: str) -> str:
    """A name in FACTUAL's spelling of a few compounds ("cell phone" -> "cellphone", "hotdog"
    -> "hot dog") and without "other" ("2 other people" -> "people")."""
    for written, spelled in FACTUAL_SPELLINGS:
        name = written.sub(spelled, name)
    if name.lower().startswith("other ") and name[6:].strip():
        name = name[6:].strip()  # "2 other people": people
    return name


def listed_with_or(word: str) -> bool:
    """ "or" / "nor" between listed attributes is no part of a name, as "and" is not."""
    return word in {"or", "nor"}


def as_written() -> bool:
    """A head written in another form than its lemma is named as written ("men")."""
    return True


#: Predicates FACTUAL's gold writes in one form whatever the caption says (the read parts of the
#: development sets never write the caption's form; ``conventions``): "lying on" is "lay on" (as "laying
#: on" is), "in the middle of" is "on middle of", "to the left of" is "at the left of", "to the
#: right of" is "on the right side of", "atop" and "at the top of" are "on top of", "toward" is
#: "towards" and "before" (a place) "in front of". The graph keeps the English form (METHOD's
#: "to the left of", the negatives' swap of left and right); only FACTUAL's string writes these.
FACTUAL_PREDICATES = [
    (re.compile(r"^lie\b"), "lay"),
    (re.compile(r"\bin middle of$"), "on middle of"),
    (re.compile(r"\bto the left of$"), "at the left of"),
    (re.compile(r"\b(?:to|at) the right(?: side)? of$"), "on the right side of"),
    (re.compile(r"\b(?:atop|at top of)$"), "on top of"),
    (re.compile(r"\btoward$"), "towards"),
    (re.compile(r"\bbefore$"), "in front of"),
]


def factual_predicate(predicate: str) -> str:
    """A lemmatised predicate in FACTUAL's form (:data:`FACTUAL_PREDICATES`): "lie on" ->
    "lay on", "stand to the left of" -> "stand at the left of"."""
    for pattern, form in FACTUAL_PREDICATES:
        predicate = pattern.sub(form, predicate)
    return predicate


def wooden(doc, draft, start: int) -> int:
    """ "a wood bench": the attribute is "wooden", and the name starts after "wood" (bench);
    the name's first character."""
    if "wood" in draft.attributes:
        draft.attributes[draft.attributes.index("wood")] = "wooden"
        for k in range(draft.start, draft.head.i):
            if doc[k].lower_ == "wood":  # the name goes on after it: "bench"
                start = doc[k + 1].idx
    return start


def count_adverb(builder, draft) -> bool:
    """ "only one cloud", "about five boats": the name's first word is an adverb of the
    count, no part of the name."""
    view, k = builder.view, draft.start
    return (
        view.dep[k] in {"advmod", "quantmod"}
        and view.dep[view.head[k]] == "nummod"
        and view.head[view.head[k]] == draft.head.i
    )


def lexical_name(builder, child, head) -> bool:
    """ "a hot dog", "his left hand": the adjective is part of the name."""
    return name_word(child, head)


def kind_of(builder, child, head) -> bool:
    """ "toy carrot": a toy, baby or adult noun is an attribute."""
    return bool(kind_word(child, head))


def adjective_predicate(rules, predicate: str) -> str:
    """ "a vase full of flowers": vase fill with."""
    return ADJECTIVE_PREDICATES.get(predicate, predicate)


def covering(rules, verb, prep) -> bool:
    """ "a truck covered in graffiti": graffiti cover truck."""
    return covering_agent(verb, prep)


FAMILIES = (
    Family(
        "plurals",
        about="""A head whose written form is not its lemma is named as written in FACTUAL's
        form ("the men", "dry leaves"; before: "man", "leaf").""",
        format={"as_written": as_written},
    ),
    Family(
        "spellings",
        about="""FACTUAL's spelling of a few compounds in names ("cell phone" -> "cellphone",
        "hotdog" -> "hot dog"), and no "other" in a name ("2 other people" -> people).""",
        format={"respell": factual_spelling},
    ),
    Family(
        "or_lists",
        about="""Attributes listed with "or" are skipped from a name as those listed with
        "and" are ("chairs with silvertone or white legs": legs, not "or white legs").""",
        format={"listed_with_or": listed_with_or},
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
        builder={
            "adjective_predicate": adjective_predicate,
            "covering_agent": covering,
            "count_adverb": count_adverb,
            "name_word": lexical_name,
            "kind_word": kind_of,
            "colour_after_in": colour_after_in,
            "wooden": wooden,
        },
        format={"predicate": factual_predicate},
    ),
)
