"""Rule families: where a prepositional phrase attaches, and what it says: places, times,
"with", worn things.

Each family is declared in :data:`FAMILIES` (what it does, and where it hooks in: see
:mod:`sgprep.parse.families.base`), the code it adds above it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sgprep.lexicon import words
from sgprep.parse import rules_lexicon as lex
from sgprep.parse.families.base import Family, Repair
from sgprep.parse.rules_lexicon import (
    ANAPHORA,
    CLOTHING,
    NOUNS,
    POSTURE_VERBS,
    RELATIONAL_NOUNS,
    SUPPORT_PREPOSITIONS,
    TIME_NOUNS,
    TIME_PREPOSITIONS,
    VERBS,
)
from sgprep.parse.rules_long import _animate, _move, _move_phrases
from sgprep.parse.rules_repair import (
    BODY_PARTS,
    OWNED_PARTS,
    LazyHeads,
    _child_above,
    _set_tree,
)
from sgprep.parse.rules_short import (
    _RELATION_ADJECTIVES,
    GAME_VERBS,
    PLACE_OF_DOING,
    state_in_place,
)
from sgprep.parse.rules_view import DocView, needs, subtree

if TYPE_CHECKING:
    from spacy.tokens import Token
if TYPE_CHECKING:
    from spacy.tokens import Doc


#: Places that hold what they are "with": "a kitchen with a cat on the counter" is the cat's
#: counter, so a phrase after their "with" object stays with that object.
SCENES = words("scene_places")


#: Prepositions of a place phrase that can move from a "with" object to its owner: support
#: and containment. A relative position stays the object's ("a page with a heading above a
#: paragraph").
WITH_PLACE_PREPOSITIONS = SUPPORT_PREPOSITIONS


def _place_object(prep):
    """The noun a place phrase ends in: "on top of a rug" -> rug; "in the middle" -> None (a
    position of the nearer noun, not a place)."""
    pobj = next((c for c in prep.children if c.dep_ == "pobj"), None)
    steps = len(prep.doc)  # a walk down the phrases ends within the caption
    while pobj is not None and pobj.lower_ in RELATIONAL_NOUNS and steps:
        steps -= 1
        of = next((c for c in pobj.children if c.dep_ == "prep" and c.lower_ == "of"), None)
        if of is None:
            return None
        pobj = next((c for c in of.children if c.dep_ == "pobj"), None)
    return pobj if pobj is not None and pobj.pos_ in NOUNS else None


def _posture_of_owner(verb, thing) -> bool:
    """ "a dry tree with some yellow leaves standing in grass": a posture participle with a
    place phrase after a "with" object that is no person or animal (leaves do not stand) is
    the owner's, unless the phrase points back ("a boat with a rope lying on it")."""
    return (
        verb.dep_ == "acl"
        and verb.tag_ in {"VBG", "VBN"}
        and verb.lemma_.lower() in POSTURE_VERBS | {"park"}
        and not _animate(thing)
        and thing.lower_ not in OWNED_PARTS | CLOTHING  # a person's: ``clauses`` moves those
        and any(c.dep_ == "prep" for c in verb.children)
        and not any(t.lower_ in ANAPHORA for t in subtree(verb))
    )


def _phrase_on_with_object(v) -> bool:
    """:func:`repair_place_after_with_object`'s first conditions on the view: a phrase or a
    clause hung after the noun object of a "with" that is a noun's."""
    if "with" not in v.words or "pobj" not in v.deps:
        return False
    lower, dep, head, pos = v.lower, v.dep, v.head, v.pos
    for j in range(len(dep)):
        if dep[j] == "prep" or dep[j] == "acl":
            thing = head[j]
            if thing < j and dep[thing] == "pobj" and pos[thing] in NOUNS:
                with_ = head[thing]
                if lower[with_] == "with" and dep[with_] == "prep" and pos[head[with_]] in NOUNS:
                    return True
    return False


@needs(_phrase_on_with_object)
def repair_place_after_with_object(doc: Doc) -> Doc:
    """ "trees with green leaves in the background", "a large frying pan with sliced vegetables
    on the stove": the model hangs the place phrase on the "with" object, the nearest noun; it
    says where the thing before "with" is (FACTUAL's gold: trees in background, pan on stove).

    Not moved: a phrase that points back (a pronoun: "a fence with a bird on it", handled by
    ``repair_with_back_reference``), a position of the object ("a cup with a stain on the
    inside", "a logo with a torch in the middle"), a part or worn thing ("goggles on his head",
    "letters on the player's shirt"), and a place that holds its "with" object ("a kitchen
    with a cat on the counter"), and a "with" after a comma, which sets a scene of its own
    ("a glass of wine on a table, with a bottle in the background")."""
    heads: list[int] = []  # read from the doc at the first change only
    for with_ in doc:
        if with_.lower_ != "with" or with_.dep_ != "prep" or with_.head.pos_ not in NOUNS:
            continue
        owner = with_.head
        if owner.lemma_.lower() in SCENES or owner.lower_ in SCENES:
            continue
        if with_.i > 0 and doc[with_.i - 1].is_punct:
            continue  # ", with a bottle in the background": the bottle is there
        thing = next((c for c in with_.children if c.dep_ == "pobj" and c.pos_ in NOUNS), None)
        if thing is None:
            continue
        for prep in thing.rights:
            if _posture_of_owner(prep, thing):
                _move(doc, heads, prep.i, owner.i)  # "a tree with yellow leaves standing in grass"
                continue
            if prep.dep_ != "prep" or prep.lower_ not in WITH_PLACE_PREPOSITIONS:
                continue
            if any(t.lower_ in ANAPHORA for t in subtree(prep)):
                continue
            place = _place_object(prep)
            if place is None or place.lower_ in OWNED_PARTS | BODY_PARTS | CLOTHING:
                continue
            if any(c.dep_ == "poss" for c in place.children):
                continue  # "a man with a hat in his hand", "a dog with a toy in the man's lap"
            _move(doc, heads, prep.i, owner.i)
    if heads:
        _set_tree(doc, heads, [t.dep_ for t in doc])
    return doc


@needs(
    lambda v: (
        "pobj" in v.deps
        and any(
            d == "pobj"
            and v.lower[h] in TIME_PREPOSITIONS
            and v.dep[h] == "prep"
            and (v.lower[i] in TIME_NOUNS or v.doc[i].lemma_.lower() in TIME_NOUNS)
            for i, (d, h) in enumerate(zip(v.dep, v.head))
        )
    )
)
def repair_phrase_after_time(doc: Doc) -> Doc:
    """ "jumps into a muddy puddle on a rainy day in the park", "in the daytime amid a gang
    of sandpipers": the model hangs the next phrase on the time noun, the nearest noun; a time
    is no place, so the phrase is about what the time phrase is about (the boy is in the
    park). "The day of the race" keeps its "of"."""
    heads: list[int] = []  # read from the doc at the first change only
    for time in doc:
        if time.dep_ != "pobj":
            continue
        if (
            (time.lower_ not in TIME_NOUNS and time.lemma_.lower() not in TIME_NOUNS)
            or time.head.lower_ not in TIME_PREPOSITIONS
            or time.head.dep_ != "prep"
        ):
            continue
        _move_phrases(doc, heads, time, time.head.head)
    if heads:
        _set_tree(doc, heads, [t.dep_ for t in doc])
    return doc


#: Prepositions of a way into or through the open air ("into the air behind him").
AIR_PREPOSITIONS = frozenset({"in", "into", "through", "up"})


@needs(lambda v: "air" in v.words)
def repair_phrase_after_air(doc: Doc) -> Doc:
    """ "spray flies into the air behind him", "the water is spraying up into the air behind
    the skier": the air is no place, so a place phrase the model hangs on it says where the
    subject is (FACTUAL's gold: spray behind surfer, water behind skier)."""
    heads: list[int] = []
    for air in doc:
        if air.lower_ != "air" or air.dep_ != "pobj" or air.head.lower_ not in AIR_PREPOSITIONS:
            continue
        verb = air.head.head
        if verb.pos_ not in {"VERB", "AUX"}:
            continue
        subject = next((c for c in verb.children if c.dep_ in {"nsubj", "nsubjpass"}), None)
        if subject is None and verb.dep_ in {"acl", "relcl"} and verb.head.pos_ in NOUNS:
            subject = verb.head  # "a dog leaping into the air above the grass"
        if subject is None or subject.pos_ not in NOUNS:
            continue
        _move_phrases(doc, heads, air, subject)
    if heads:
        _set_tree(doc, heads, [t.dep_ for t in doc])
    return doc


#: Prepositions of place before a position with no article ("on back of boat").
_POSITION_PREPOSITIONS = words("position_prepositions")


def _stray_positions(v) -> list[int]:
    """Prepositions of place right before a position noun that is not their object."""
    if v.words.isdisjoint(RELATIONAL_NOUNS) or v.words.isdisjoint(_POSITION_PREPOSITIONS):
        return []
    return [
        i
        for i in range(len(v) - 1)
        if v.lower[i] in _POSITION_PREPOSITIONS
        and v.lower[i + 1] in RELATIONAL_NOUNS
        and v.tag[i] in {"IN", "RP"}
        and not (v.dep[i + 1] == "pobj" and v.head[i + 1] == i and v.dep[i] == "prep")
    ]


@needs(lambda v: bool(_stray_positions(v)))
def repair_stray_position(doc: Doc) -> Doc:
    """ "dog is standing on back of boat", "person on right wearing blue coat", "red stripe
    down side of train": with no article before the position, the model leaves the
    preposition without its object (on/RP, back/advmod of the verb; on, right/advmod of
    "wearing" read as the preposition's clause) or makes the preposition an adverb. A
    position right after a preposition of place, with no article, is the preposition's
    object, and the preposition a preposition; an "-ing" clause the model hung on the
    preposition is the noun's before it ("person ... wearing a coat"). A position that is a
    compound ("on side street") or another word's object is left."""
    heads, deps, changed = None, None, False
    for i in _stray_positions(DocView(doc)):
        prep, pos = doc[i], doc[i + 1]
        if pos.dep_ not in {"advmod", "npadvmod", "pobj", "amod"} or (
            pos.dep_ == "pobj" and pos.head.i != i
        ):
            continue
        if pos.dep_ == "amod" and pos.head.pos_ in NOUNS:
            continue  # "on right side of": the side's
        if any(
            c.dep_ in {"pobj", "pcomp"} and c.i != pos.i for c in prep.children if c.tag_ != "VBG"
        ):
            continue
        if heads is None:
            heads, deps = [t.head.i for t in doc], [t.dep_ for t in doc]
        anchor = prep.head
        under = _child_above(heads, i, pos.i)
        if under is not None:  # "man on inside": on/advmod of inside
            up = heads[pos.i]
            if under != i or up == pos.i or doc[up].pos_ not in NOUNS | VERBS:
                continue  # no thing or verb above for the phrase: hung on its object, a cycle
            heads[i], anchor = up, doc[up]  # the phrase takes the position's place
        clause = next((c for c in prep.children if c.dep_ == "pcomp" and c.tag_ == "VBG"), None)
        heads[pos.i], deps[pos.i] = i, "pobj"
        deps[i] = "prep"
        if clause is not None and anchor.pos_ in NOUNS:
            heads[clause.i], deps[clause.i] = anchor.i, "acl"
        for c in pos.children:  # an "of" phrase stays the position's
            if c.i != i:
                heads[c.i] = pos.i
        changed = True
    if changed:
        _set_tree(doc, heads, deps)
        for tok in doc:
            if deps[tok.i] == "pobj" and tok.lower_ in RELATIONAL_NOUNS and tok.pos_ not in NOUNS:
                tok.pos_, tok.tag_ = "NOUN", "NN"
    return doc


#: Sides that name a relation with a bare "of" right after a noun: "a cube left of a ring".
_SIDES = frozenset({"left", "right"})


def _sides_of(v) -> list[int]:
    """ "left" or "right" between a noun and "of": "a white cube left of a gray ring"."""
    if v.words.isdisjoint(_SIDES) or "of" not in v.words:
        return []
    return [
        i
        for i in range(1, len(v) - 2)
        if v.lower[i] in _SIDES
        and v.lower[i + 1] == "of"
        and v.pos[i - 1] in {"NOUN", "PROPN"}
        and v.lower[i - 1] not in RELATIONAL_NOUNS  # "to the back left of": one position
        and v.pos[i + 2] != "PUNCT"
    ]


@needs(lambda v: bool(_sides_of(v)))
def repair_side_of(doc: Doc) -> Doc:
    """ "a white cube left of a gray ring", "a white cube right of a gray ring", "a man right
    of a woman": right after a noun, "left of" / "right of" is one preposition of the noun.
    The model reads "left" as the verb "leave" (a clause of the noun: predicate "leave of"),
    or "right" as the noun the phrase is about, with the noun before it its compound ("white
    cube right" has the ring). The noun takes the side's place in the tree and the side and
    its "of" become one word, a preposition of the noun. "to the left of", "the left side of"
    and "what is left of" (no noun right before) are left as they are."""
    heads, deps = [t.head.i for t in doc], [t.dep_ for t in doc]
    spans = []
    for i in _sides_of(DocView(doc)):
        of, noun = doc[i + 1], doc[i - 1]
        if of.head.i != i or not any(c.dep_ == "pobj" for c in of.children):
            continue  # the model hung "of" elsewhere, or it has no object
        if heads[noun.i] == i:  # "white cube right": the noun takes the side's place
            heads[noun.i] = noun.i if heads[i] == i else heads[i]
            deps[noun.i] = deps[i]
            for k, head in enumerate(heads):
                if head == i and k not in {noun.i, of.i}:
                    heads[k] = noun.i
        elif any(heads[k] == i for k in range(len(doc)) if k != of.i):
            continue  # the side has words of its own: not a bare "left of"
        heads[i], deps[i] = noun.i, "prep"
        spans.append(i)
    if not spans:
        return doc
    _set_tree(doc, heads, deps)
    # spaCy hangs a merged word where the span's highest word hung: the side, on the noun
    with doc.retokenize() as retokenizer:
        for i in spans:
            words = f"{doc[i].lower_} of"
            attrs = {"POS": "ADP", "TAG": "IN", "DEP": "prep", "LEMMA": words, "NORM": words}
            retokenizer.merge(doc[i : i + 2], attrs=attrs)
    return doc


def state_before_position(builder, adjective) -> bool:
    """ "a rubber ring that is white next to a blue ring": a predicative adjective before a
    two-word preposition ("next to", "close to") is a state of the subject, no part of the
    predicate (ring is white; ring next to ring)."""
    return (
        adjective.dep_ == "acomp"
        and adjective.lower_ not in lex.PREP_HEADS
        and adjective.lower_ not in _RELATION_ADJECTIVES
    )


@needs(lambda v: "with" in v.words and not v.words.isdisjoint(ANAPHORA))
def repair_with_back_reference(doc: Doc) -> Doc:
    """ "a rusty fence with a bird sitting on it", "apples with stickers on them", "a man with
    hands in his pockets": the model hangs the phrase after the "with" object on the noun
    before "with". A phrase that refers back to that noun (a pronoun inside it) cannot be
    about it: it is about the "with" object, and is hung there."""
    heads = LazyHeads(doc)
    changed = False
    for prep in doc:
        if prep.lower_ != "with" or prep.dep_ != "prep" or prep.head.pos_ not in {"NOUN", "PROPN"}:
            continue
        owner = prep.head
        pobj = next((c for c in prep.children if c.dep_ == "pobj" and c.pos_ == "NOUN"), None)
        if pobj is None or pobj.right_edge.i + 1 >= len(doc):
            continue
        after = doc[pobj.right_edge.i + 1]
        owners = {owner.i} | ({owner.head.i} if owner.dep_ == "conj" else set())  # "apples and"
        if after.head.i not in owners or after.dep_ not in {"acl", "prep"} or after.lower_ == "of":
            continue
        if any(t.lower_ in ANAPHORA and t.i > after.i for t in subtree(after)):
            heads[after.i] = pobj.i
            changed = True
    if changed:
        _set_tree(doc, heads, [t.dep_ for t in doc])
    return doc


def bare_position(builder, tok: Token) -> bool:
    """ "a man in front", "food on top", "buttons in the bottom": a position noun after a
    place preposition, with no "of" phrase, no modifier of its own and no landmark the
    phrase implies (:meth:`_implicit_landmark`), names no thing: what it is the top or
    front of is not said. "back" and "rear" are left: "the man in the back" is a place
    in a scene, as "the background" is (FACTUAL names it)."""
    view = builder.view
    if (
        view.dep[tok.i] != "pobj"
        or tok.lemma_.lower() not in lex.BARE_POSITIONS
        or view.lower[view.head[tok.i]] not in {"in", "on", "at"}
    ):
        return False
    return all(c.dep_ == "det" and c.lower_ == "the" for c in builder.kids[tok.i])


def without_time(builder, relations: list[tuple[int, str, int]]) -> list[tuple[int, str, int]]:
    """ "walking on the beach at sunset", "on a rainy day": a time is no place. Relations
    that end in a preposition before a time noun go; a time noun left with no attribute
    and no relation is no object of the scene either."""
    kept = []
    for s, p, o in relations:
        if builder._is_time(o) and p.split()[-1] in lex.TIME_PREPOSITIONS:
            continue
        kept.append((s, p, o))
    linked = {s for s, _, _ in kept} | {o for _, _, o in kept}
    for i in [i for i in builder.entities if builder._is_time(i)]:
        draft = builder.entities[i]
        if i not in linked and not draft.attributes and draft.count is None:
            del builder.entities[i]
    return kept


def without_lone_times(builder, relations: list, others: list) -> list:
    """The relations without those of a time noun alone ("on a rainy day": no relation of
    "day" unless it says where); ``others`` (the relations in other predicate forms) the
    same, in place."""
    entities = dict(builder.entities)  # each form drops its own lone times: from all
    kept, own_entities = without_time(builder, relations), builder.entities
    for k, other in enumerate(others):  # the same relations keep the same
        builder.entities = dict(entities)
        others[k] = list(kept) if other == relations else without_time(builder, other)
    builder.entities = own_entities
    return kept


def state_and_place(builder, tok) -> bool:
    """ "a book is open on the counter": a predicative adjective with a place phrase is a
    state and a place."""
    return state_in_place(tok)


def whole_of(rules, anchor, prep):
    """ "a body of water near a beach": the water is near the beach, not the body."""
    if rules.view.pos[anchor.i] in NOUNS and "of" in rules.view.words:
        return rules._whole_of(anchor, prep) or anchor
    return anchor


def worn_with(rules, anchor, objects) -> bool:
    """ "a man with a yellow shirt": he wears it."""
    return rules._worn_by(anchor, objects)


def parts_with(rules, anchor, objects) -> bool:
    """ "a man with brown hair standing in a shirt": he has it."""
    return rules._has_parts(anchor, objects)


def parts_and_outfit(rules, anchor, objects) -> bool:
    """ "man with light hair and a red shirt sitting ...": has the hair, wears the shirt."""
    return rules._parts_and_outfit(anchor, objects)


def posture_with(rules, verb, prep, objects) -> bool:
    """ "a man standing with black shoes on", "people standing with their arms up": the
    "with" phrase of a posture verb is the subject's, not a way of standing; but "a boy
    posing with birds" (right after the verb, no worn thing) is a way of posing."""
    lower = rules.view.lower
    return verb.lemma_.lower() in lex.POSTURE_VERBS and not (
        prep.i == verb.i + 1 and not all(lower[o.i] in lex.CLOTHING for o in objects)
    )


def time_noun(rules, before) -> bool:
    """ "jumps into a puddle on a rainy day in the park": a time is no place."""
    return before.lemma_.lower() in lex.TIME_NOUNS


def worn_container(rules, worn) -> bool:
    """A worn thing whose word also names a container ("glasses")."""
    return worn.lower_ in lex.WORN_CONTAINERS


def worn_owners(rules, verb, subjects: list[int]) -> list[int]:
    """ "a red scarf with white dots worn by a woman": worn by is said of the scarf."""
    if verb.lemma_.lower() == "wear":
        return [rules._worn_owner(s) for s in subjects]
    return subjects


def absolute_with(rules, prep, objects) -> bool:
    """ "holding an umbrella with a logo on it": the logo's own phrase says it."""
    return rules._absolute_with(prep, objects)


def chained_place(rules, verb, prep, prep_text: str, objects) -> bool:
    """A place phrase that says where the thing of the phrase before it is."""
    return rules._chained_place(verb, prep, prep_text, objects)


def worn_in(rules, objects) -> bool:
    """ "a man standing in a red shirt": he wears it."""
    return all(rules.view.lower[o.i] in lex.CLOTHING for o in objects)


def placement(rules, verb) -> bool:
    """ "a door found in a kitchen": door in kitchen."""
    return rules.view.lower[verb.i] in lex.PLACEMENT_PARTICIPLES


def handled_in(rules, verb, prep_text: str) -> bool:
    """ "holding her shoes in one hand": the shoes are in the hand."""
    return verb.lemma_.lower() in lex.HANDLING_VERBS and prep_text in lex.PLACE_PREPOSITIONS


def previous_object(rules, verb, prep):
    """ "talking to the woman next to him": the pronoun's thing, the verb's object before."""
    return rules._previous_object(verb, prep)


def place_of_doing(rules, verb, prep_text: str) -> bool:
    """ "a man riding a motorcycle on the street": the man is on the street (not after
    "play", whose object is a game)."""
    lemma = verb.lemma_.lower()
    return (
        prep_text in PLACE_OF_DOING and lemma not in lex.HANDLING_VERBS and lemma not in GAME_VERBS
    )


def plain_predicate(rules, predicate: str, prep_text: str) -> str:
    """ "jumping up in the air", "looking up at a woman": jump in, look at."""
    if prep_text not in lex.PLAIN_PREPOSITIONS:
        return predicate
    verb_words = predicate.split()[:-1]
    kept = [verb_words[0]] + [w for w in verb_words[1:] if w not in lex.PARTICLES]
    return " ".join(kept + [prep_text])


FAMILIES = (
    Family(
        "attach",
        about="""Where a prepositional phrase in a long noun phrase attaches.""",
        repairs=(Repair(repair_with_back_reference),),
        builder={
            "absolute_with": absolute_with,
            "chained_place": chained_place,
            "worn_in": worn_in,
            "placement": placement,
            "handled_in": handled_in,
            "previous_object": previous_object,
            "without_lone_times": without_lone_times,
        },
    ),
    Family(
        "after_with",
        about="""A place phrase the model hangs on a "with" object says where the thing before
        "with" is ("trees with green leaves in the background" -> trees in background).""",
        repairs=(Repair(repair_place_after_with_object),),
    ),
    Family(
        "times",
        about="""A phrase the model hangs on a time noun is about what the time phrase is
        about ("jumps into a puddle on a rainy day in the park" -> boy in park).""",
        repairs=(Repair(repair_phrase_after_time),),
        builder={"time_noun": time_noun},
    ),
    Family(
        "air",
        about=""""the air" is no place: a phrase the model hangs on it is about the thing in
        the air ("spray flies into the air behind him" -> spray behind surfer).""",
        repairs=(Repair(repair_phrase_after_air),),
    ),
    Family(
        "places",
        about="""A place phrase after a verb's object is where the subject is ("a man riding a
        motorcycle on the street" -> man on street; not after "play", whose object is a game),
        and a predicative adjective with a place phrase is a state and a place ("a book is
        open on the counter" -> book is open, book on counter).""",
        builder={"place_of_doing": place_of_doing, "state_in_place": state_and_place},
    ),
    Family(
        "whole_places",
        about="""A place phrase right after "<part> of <whole>" that the model hangs on the
        part says where the whole is ("a body of water near a beach" -> water near beach; not
        for containers, framing nouns, people or animals).""",
        builder={"whole_of": whole_of},
    ),
    Family(
        "stray_positions",
        about="""A position right after a preposition of place with no article is the
        preposition's object ("dog is standing on back of boat" -> dog stand on back of boat;
        "person on right wearing a coat" -> person wear coat).""",
        repairs=(Repair(repair_stray_position),),
    ),
    Family(
        "sides_of",
        about=""""left of" / "right of" right after a noun is a preposition of the noun ("a
        white cube left of a gray ring" -> cube left of ring, not "leave of"; "a white cube
        right of a gray ring" -> cube right of ring, not "white cube right" had by the ring).
        "to the left of", "the left side of" are left as they are.""",
        repairs=(Repair(repair_side_of),),
    ),
    Family(
        "states_before_positions",
        about="""A predicative adjective right before a two-word preposition is the
        subject's state, no part of the predicate ("a rubber ring that is white next to a
        blue ring" -> ring is white, ring next to ring; not "white next to").""",
        builder={"state_before_position": state_before_position},
    ),
    Family(
        "bare_positions",
        about="""A position noun after a place preposition with no landmark, said or implied,
        names no thing ("a man in front", "food on top": no "front" or "top" entity).""",
        builder={"bare_position": bare_position},
    ),
    Family(
        "predicates",
        about="""A particle of direction before a plain preposition is no part of the
        predicate ("jumping up in the air" -> jump in; "sticking out of" stays).""",
        builder={"plain_predicate": plain_predicate},
    ),
    Family(
        "with",
        about=""""with" and a worn thing is wearing it ("a man with a yellow shirt"), and a
        "with" phrase on a posture verb is the subject's ("a man standing with black shoes
        on"), and body parts "with" a person or animal followed by its own clause are had ("a
        man with brown hair standing ..." -> man have hair).""",
        builder={
            "worn_with": worn_with,
            "parts_with": parts_with,
            "parts_and_outfit": parts_and_outfit,
            "posture_with": posture_with,
        },
    ),
    Family(
        "worn_containers",
        about=""""in" a worn thing whose word also names a container is wearing it only for a
        person or an animal ("wines in the glasses" -> wines in glasses; "a man in glasses" ->
        man wear glasses).""",
        builder={"worn_container": worn_container},
    ),
    Family(
        "worn_owners",
        about=""""worn by" hung on the pattern or part a worn thing is "with" is said of the
        worn thing ("a red scarf with white dots worn by a woman" -> woman wear scarf, not
        dots).""",
        builder={"worn_owners": worn_owners},
    ),
)
