"""Rule families: short captions (most of FACTUAL's): fragments the small model reads as verbs,
reciprocal objects, parts named by "-ed" adjectives.

Each family is declared in :data:`FAMILIES` (what it does, and where it hooks in: see
:mod:`sgprep.parse.families.base`), the code it adds above it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sgprep.parse import rules_lexicon as lex
from sgprep.parse.families.base import Family, Repair
from sgprep.parse.rules_draft import EntityDraft
from sgprep.parse.rules_lexicon import NOUNS, is_colour
from sgprep.parse.rules_short import (
    LONE_SUBJECTS,
    RECIPROCAL_WORDS,
    is_another_one,
    is_plural_thing,
    is_reciprocal,
    landmark_without_of,
    owned_part,
    reciprocal_anchor,
    repair_fragment_ing_noun,
    repair_have_read_as_auxiliary,
    repair_object_read_as_adverb,
    repair_participle_on_prefix,
)

if TYPE_CHECKING:
    from spacy.tokens import Token


def reciprocal_twin(builder, tok: Token) -> None:
    """ "two zebras next to each other", "two people talking to each other": the other is
    another of the same kind, a second entity named like the first; both are single
    things (FACTUAL's gold: zebra next to zebra, no count)."""
    anchor = reciprocal_anchor(tok)
    if anchor is None:
        return
    if anchor.pos_ in NOUNS:
        owners = [i for i in (builder._entity(anchor),) if i is not None]
    else:
        owners = builder._subjects(anchor)
    if len(owners) != 1 or owners[0] == tok.i:
        return
    owner = builder.entities[owners[0]]
    if owner.name is not None:
        return
    if is_another_one(tok):  # "a television stacked on top of another one"
        name = owner.head.lower_
    elif is_plural_thing(owner.head, owner.count):
        head = owner.head
        lemma = head.lemma_.lower()
        name = head.lower_[: len(lemma)] if head.lower_.startswith(lemma) else head.lower_
        owner.singular, owner.count = True, None
    else:
        return
    builder.entities[tok.i] = EntityDraft(head=tok, start=tok.i, end=tok.i, name=name, related=True)


def together(builder) -> list[tuple[int, int]]:
    """ "two zebras together": a caption that is a plural noun and "together" and nothing
    else shows each next to another of its kind. (owner, twin) head indices."""
    found = []
    for tok in builder.tokens:
        if tok.lower_ != "together" or tok.dep_ != "advmod":
            continue
        owner = builder.entities.get(tok.head.i)
        if (
            owner is None
            or owner.name is not None
            or not is_plural_thing(owner.head, owner.count)
            or any(c.dep_ in {"prep", "acl", "relcl"} for c in owner.head.children)
        ):
            continue
        head = owner.head
        lemma = head.lemma_.lower()
        name = head.lower_[: len(lemma)] if head.lower_.startswith(lemma) else head.lower_
        owner.singular, owner.count = True, None
        builder.entities[tok.i] = EntityDraft(
            head=tok, start=tok.i, end=tok.i, name=name, related=True
        )
        found.append((head.i, tok.i))
    return found


def owned_parts(builder) -> list[tuple[int, int]]:
    """ "a grey haired woman", "a four legged chair", "a black framed picture": the "-ed"
    adjective names a part the thing has (woman have hair, hair is grey; legs is 4).
    Its word and its modifier are no attributes of the thing; the part is an entity
    named by the adjective's noun. (owner, part) head indices of the new relations."""
    found = []
    for i, draft in list(builder.entities.items()):
        for child in builder.kids[draft.head.i]:
            if child.i > draft.head.i or child.dep_ not in {"amod", "compound", "nmod"}:
                continue
            if (
                child.lower_ in {"colored", "coloured"}
                and child.i > 0
                and is_colour(builder.doc[child.i - 1])
            ):  # "white colored sail boat": sail boat is white
                draft.attributes = [a for a in draft.attributes if a != child.lower_]
                draft.start = max(draft.start, child.i + 1)
                continue
            part = owned_part(child)
            if part is None or child.i in builder.entities:
                continue
            name, modifier = part
            drop = {child.lower_, modifier}
            draft.attributes = [a for a in draft.attributes if a.lower() not in drop]
            # the name goes on after the adjective: "woman", not "grey haired woman"
            draft.start = max(draft.start, child.i + 1)
            piece = EntityDraft(head=child, start=child.i, end=child.i, name=name, related=True)
            value = lex.NUMBER_WORDS.get(modifier)
            if value is None and modifier.isdigit():
                value = int(modifier)
            if value is not None:
                piece.count = value
                if draft.count == value:
                    draft.count = None
            else:
                piece.add_attribute(modifier)
            builder.entities[child.i] = piece
            found.append((i, child.i))
    return found


def lone_subjects(builder) -> None:
    """ "she is wearing white gloves": a lone subject pronoun is a person of its kind (a
    woman); "someone" anywhere is a person."""
    if builder.view.words.isdisjoint(LONE_SUBJECTS):
        return
    for tok in builder.tokens:
        name = LONE_SUBJECTS.get(tok.lower_)
        if (
            name
            and tok.i >= builder.skip
            and tok.i not in builder.entities
            and (
                name == "person"  # "someone in blue jeans lying on bed": anywhere
                or tok.dep_ in {"nsubj", "nsubjpass"}
                and not any(i < tok.i for i in builder.entities)
            )
        ):
            builder.entities[tok.i] = EntityDraft(
                head=tok, start=tok.i, end=tok.i, name=name, related=True
            )


def reciprocal_twins(builder) -> None:
    """Each "each other" / "one another" / "another one" of the caption: a twin of its owner
    (:func:`reciprocal_twin`)."""
    if builder.view.words.isdisjoint(RECIPROCAL_WORDS):
        return
    for tok in builder.tokens:
        if is_reciprocal(tok):
            reciprocal_twin(builder, tok)


def together_pairs(builder) -> list[tuple[int, int]]:
    """:func:`together` where the caption has the word."""
    return together(builder) if "together" in builder.view.words else []


def landmark(builder, tok):
    """ "decorations on top the cake": a position with its "of" left out."""
    return landmark_without_of(tok)


def fragment_subject_deps(builder, deps: set[str]) -> set[str]:
    """ "dog walking in the snow": the subject read as a compound or adjective of the verb."""
    return deps | {"compound", "amod"}


def reciprocal_object(rules, obj) -> bool:
    """ "each other", "one another", "eachother"."""
    return is_reciprocal(obj)


def someone(rules, anchor) -> bool:
    """ "someone in blue jeans": a pronoun that stands for a person, with relations."""
    return rules.view.lower[anchor.i] in {"someone", "somebody"}


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
        builder={
            "someone": someone,
            "landmark_without_of": landmark,
            "fragment_subject_deps": fragment_subject_deps,
            "lone_subjects": lone_subjects,
        },
    ),
    Family(
        "reciprocal",
        about=""""each other" / "one another" after a plural subject is another thing of its
        kind ("two zebras next to each other" -> zebra next to zebra), so is "another one" ("a
        television stacked on top of another one"), and a plural noun "together" with nothing
        else said is one next to another ("two zebras together").""",
        builder={
            "reciprocal_object": reciprocal_object,
            "reciprocal_twins": reciprocal_twins,
            "together": together_pairs,
        },
    ),
    Family(
        "owned_parts",
        about="""A "<modifier> <part>-ed" adjective is a part the thing has ("a grey haired
        woman" -> woman have hair, hair is grey; "a four legged chair"; "a long sleeve
        shirt"), and "colored" after a colour adds nothing ("white colored sail boat" -> sail
        boat is white).""",
        builder={"owned_parts": owned_parts},
    ),
)
