"""Rules for short captions (under 15 words, most of FACTUAL's): reciprocal objects, fragment
captions the small model reads as verbs, parts named by "-ed" adjectives.

Each rule belongs to a family of :mod:`sgprep.parse.families` (``reciprocal``,
``fragments``, ``owned_parts``) and is measured with it (``docs/rule-parser.md``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sgprep.lexicon import words

if TYPE_CHECKING:  # spaCy is imported by rules.load_spacy, the first time it is needed
    from spacy.tokens import Doc, Token

from sgprep.parse.rules_lexicon import (
    ING_NOUNS,
    PERSON_NOUNS,
    PLACE_PREPOSITIONS,
    PREP_HEADS,
    RELATIONAL_NOUNS,
    TIME_NOUNS,
)
from sgprep.parse.rules_repair import ANIMALS, _set_tree
from sgprep.parse.rules_view import needs

#: Words without which a doc has no reciprocal (a doc view's ``words`` is tested first)
RECIPROCAL_WORDS = frozenset({"other", "another", "eachother", "oneanother"})

#: "each other", "one another" (and the one-word "eachother" of hurried captions)
_RECIPROCAL_PAIRS = {
    ("each", "other"),
    ("one", "another"),
    ("one", "other"),
    ("another", "one"),
}


def is_another_one(tok: Token) -> bool:
    """ "stacked on top of another one": one more thing of the subject's kind."""
    return tok.lower_ == "one" and tok.i > 0 and tok.doc[tok.i - 1].lower_ == "another"


def is_reciprocal(tok: Token) -> bool:
    """The head word of "each other" / "one another" (the model makes either word the head:
    "other" with "each" on it, or "one" with "another" on it), or "eachother"."""
    word = tok.lower_
    if word in {"eachother", "oneanother"}:
        return True
    doc = tok.doc
    if tok.i > 0 and (doc[tok.i - 1].lower_, word) in _RECIPROCAL_PAIRS:
        return doc[tok.i - 1].head == tok
    if tok.i + 1 < len(doc) and (word, doc[tok.i + 1].lower_) in _RECIPROCAL_PAIRS:
        return doc[tok.i + 1].head == tok
    return False


def is_plural_thing(tok: Token, count: int | None) -> bool:
    """A noun naming several things: a plural tag or a count of two or more."""
    return tok.tag_ in {"NNS", "NNPS"} or (count is not None and count >= 2)


def reciprocal_anchor(tok: Token) -> Token | None:
    """The word a reciprocal hangs from, past the words of a preposition ("next to each
    other": the noun or verb "next" hangs from): a noun (its entity) or a verb (its
    subjects)."""
    cur = tok.head
    for _ in range(5):
        if cur.pos_ in {"NOUN", "PROPN"} and cur.lemma_.lower() in RELATIONAL_NOUNS:
            cur = cur.head  # "on top of another one": past the position
            continue
        if cur.pos_ in {"NOUN", "PROPN", "VERB", "AUX"}:
            return cur
        if cur.pos_ not in {"ADP", "ADV", "ADJ", "PART"} or cur.head is cur:
            return None
        cur = cur.head
    return None


#: The words of the prefix a fragment caption is parsed again behind (``rules.FRAGMENT_PREFIX``)
_PREFIX_WORDS = ["a", "photo", "of"]


@needs(
    lambda view: (
        view.lower[:3] == _PREFIX_WORDS
        and "VERB" in view.poses
        and not view.words.isdisjoint(ING_NOUNS)
    )
)
def repair_fragment_ing_noun(doc: Doc) -> Doc:
    """ "drawing on the wall", "railing on a pier", "building with a ladder": a fragment the
    small model reads as a verb is parsed again behind "a photo of " (``rules.FRAGMENT_PREFIX``)
    and the model still reads its first word as a verb, now the object of "of", with the
    caption's phrases on it. An "-ing" noun there (``ING_NOUNS``) is the noun the caption is
    about."""
    skip = len(_PREFIX_WORDS)
    if len(doc) <= skip or [t.lower_ for t in doc[:skip]] != _PREFIX_WORDS:
        return doc
    first = doc[skip]
    if first.pos_ == "DET" and skip + 1 < len(doc):
        first = doc[skip + 1]
    if (
        first.pos_ == "VERB"
        and first.lower_ in ING_NOUNS
        and first.dep_ in {"pcomp", "pobj"}
        and first.head.i == skip - 1  # the prefix's "of"
        and not any(c.dep_ in {"dobj", "prt", "aux", "nsubj"} for c in first.children)
    ):
        first.pos_, first.tag_, first.lemma_, first.dep_ = "NOUN", "NN", first.lower_, "pobj"
    return doc


@needs(lambda view: view.lower[:3] == _PREFIX_WORDS and "acl" in view.deps)
def repair_participle_on_prefix(doc: Doc) -> Doc:
    """ "bear sleeping on the tree", "train running on the track": parsed again behind "a
    photo of ", the model hangs the participle on "photo" instead of the noun right before it.
    A participle with a phrase of its own, right after the prefix's object, is the object's."""
    skip = len(_PREFIX_WORDS)
    if len(doc) <= skip + 1 or [t.lower_ for t in doc[:skip]] != _PREFIX_WORDS:
        return doc
    for tok in doc[skip + 1 :]:
        before = doc[tok.i - 1]
        if (
            tok.dep_ == "acl"
            and tok.pos_ == "VERB"
            and tok.tag_ in {"VBG", "VBN"}
            and tok.head.i == skip - 2  # "photo"
            and before.dep_ == "pobj"
            and before.head.i == skip - 1  # the prefix's "of"
            and before.pos_ in {"NOUN", "PROPN"}
            and any(c.dep_ in {"prep", "dobj"} for c in tok.children)
        ):
            heads = [t.head.i for t in doc]
            heads[tok.i] = before.i
            _set_tree(doc, heads, [t.dep_ for t in doc])
            break
    return doc


def landmark_without_of(tok: Token) -> Token | None:
    """ "pink decorations on top the cake", "a man in front a ship": a position noun after a
    preposition with its "of" left out, and the model hangs the landmark elsewhere (an
    apposition). The landmark: the noun right after the position (past an article)."""
    if (
        tok.dep_ != "pobj"
        or tok.lemma_.lower() not in _POSITIONS
        or any(c.dep_ == "prep" or c.dep_ == "det" for c in tok.children)
        or tok.i + 1 >= len(tok.doc)
    ):
        return None
    nxt = tok.doc[tok.i + 1]
    if nxt.pos_ == "DET" and tok.i + 2 < len(tok.doc):
        nxt = nxt.head if nxt.head.i > nxt.i else tok.doc[tok.i + 2]
    if nxt.pos_ not in {"NOUN", "PROPN"} or nxt.dep_ not in {"appos", "dep", "npadvmod", "ROOT"}:
        return None
    return nxt


#: Position nouns of multi-word prepositions ("on top of", "in front of")
_POSITIONS = words("short_position_nouns")


#: A subject pronoun with nothing before it to point to is the person it says ("she is
#: wearing white gloves" -> woman wear gloves; "someone is boarding the bus" -> person)
LONE_SUBJECTS = {"he": "man", "she": "woman", "someone": "person", "somebody": "person"}


@needs(lambda view: "npadvmod" in view.deps and "VERB" in view.poses)
def repair_object_read_as_adverb(doc: Doc) -> Doc:
    """ "small girl holding large donut", "people walking down a hallway": the small model
    hangs the verb's object on it as a noun-phrase adverb (npadvmod). A noun after a verb
    that has no object, and no time noun, is the object."""
    for tok in doc:
        if (
            tok.dep_ == "npadvmod"
            and tok.pos_ in {"NOUN", "PROPN"}
            and tok.head.pos_ == "VERB"
            and tok.head.tag_ != "VBN"  # "the photo was taken inside a room": no object
            and tok.head.i < tok.i
            and tok.lower_ not in TIME_NOUNS
            and tok.lemma_.lower() not in TIME_NOUNS
            and not any(c.dep_ in {"dobj", "obj"} for c in tok.head.children)
            and not _reduplicated(tok)
        ):
            tok.dep_ = "dobj"
    return doc


def _reduplicated(noun: Token) -> bool:
    """ "walking side by side", "hand in hand", "face to face": a noun, a preposition and the
    same noun again are an adverb of manner, no object."""
    doc, i = noun.doc, noun.i
    return i + 2 < len(doc) and doc[i + 1].pos_ == "ADP" and doc[i + 2].lower_ == noun.lower_


@needs(lambda view: "aux" in view.deps and not view.words.isdisjoint({"has", "have", "had"}))
def repair_have_read_as_auxiliary(doc: Doc) -> Doc:
    """ "the tree has leaves": the small model reads "has" as the auxiliary of a noun root
    ("leaves" as a verb form). A noun root with a subject and a "has"/"have" auxiliary is the
    object of "have"."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.pos_ not in {"NOUN", "PROPN"}:
        return doc
    aux = next((c for c in root.children if c.dep_ == "aux" and c.lemma_ == "have"), None)
    if aux is None or aux.i > root.i:
        return doc
    if not any(c.dep_ == "nsubj" for c in (*root.children, *aux.children)):
        return doc
    heads = [t.head.i for t in doc]
    deps = [t.dep_ for t in doc]
    for child in root.children:
        if child.dep_ in {"nsubj", "punct", "aux"} or child.i < aux.i:
            heads[child.i] = aux.i  # the subject and what came before go to the verb
    heads[aux.i], deps[aux.i] = aux.i, "ROOT"
    heads[root.i], deps[root.i] = aux.i, "dobj"
    aux.pos_, aux.tag_ = "VERB", "VBZ"
    _set_tree(doc, heads, deps)
    return doc


#: Parts of a worn thing that a compound names with their size ("a long sleeve shirt": shirt
#: have sleeve, sleeve is long)
OWNED_PARTS_OF_WORN = frozenset({"sleeve"})
_SIZES = frozenset({"long", "short"})


def owned_part(tok: Token) -> tuple[str, str] | None:
    """ "a long sleeve shirt": (the part's name, its modifier) when ``tok`` is a part noun of
    a worn thing with its size before it; None otherwise. ("-ed" adjectives of parts, "a
    grey haired woman", are the ``parts`` family's: :func:`rules_long.part_adjective`.)"""
    word = tok.lower_
    if word in OWNED_PARTS_OF_WORN and tok.i > 0 and tok.doc[tok.i - 1].lower_ in _SIZES:
        return word, tok.doc[tok.i - 1].lower_
    return None


# ---- conventions: FACTUAL's names where its gold is consistent ------------------------------

#: Adjective + noun pairs that are one name ("a hot dog" is no dog that is hot): the adjective
#: stays in the name instead of becoming an attribute. (adjective, head lemma).
COMPOUND_NAMES = frozenset(
    {
        ("hot", "dog"),
        ("polar", "bear"),
        ("teddy", "bear"),
        ("high", "chair"),
        ("remote", "control"),
        ("living", "room"),
        ("flip", "phone"),
        ("back", "pack"),
        ("light", "pole"),
        ("light", "fixture"),
        ("light", "bulb"),
        ("stop", "light"),
        ("traffic", "light"),
        ("double", "decker"),
        ("hot", "tub"),
        ("hot", "air"),
        ("french", "fries"),
        ("french", "fry"),
        ("ice", "cream"),
        ("cell", "phone"),
        ("fire", "hydrant"),
        ("fire", "truck"),
        ("first", "aid"),
        ("dining", "room"),
        ("dining", "table"),
        ("swimming", "pool"),
        ("parking", "lot"),
        ("parking", "meter"),
        ("wet", "suit"),
        ("tank", "top"),
        ("life", "vest"),
        ("life", "jacket"),
        ("bathing", "suit"),
        ("dress", "shirt"),
        # breeds and species whose adjective is part of the name: a golden retriever is no
        # retriever that is golden (cc12m, read: "a golden retriever lying on a rug")
        ("golden", "retriever"),
        ("german", "shepherd"),
        ("australian", "shepherd"),
        ("great", "dane"),
        ("siberian", "husky"),
        ("french", "bulldog"),
        ("english", "bulldog"),
        ("irish", "setter"),
        ("bald", "eagle"),
    }
)

#: Parts and worn things that come in left and right ones: "his left hand" names the hand
#: ("left hand"), it does not describe it.
SIDED_THINGS = words("sided_things")

#: Predicates of an adjective and its preposition that FACTUAL's gold writes as a verb.
ADJECTIVE_PREDICATES = {"full of": "fill with"}


def kind_word(modifier: Token, head: Token) -> bool:
    """A noun modifier that says what kind of the thing it is, an attribute in FACTUAL's
    gold: "a toy carrot" (carrot is toy), "a baby elephant", "an adult zebra" (of a person or
    an animal only: "a baby stroller" is a name; "baby" of an animal only: "a baby girl" is an
    infant, as "a baby boy", where "adult men" are men)."""
    word = modifier.lower_
    if modifier.is_title and head.is_title:
        return False  # a proper name keeps its words: "New York City"
    if word in _LIKENESS_MODIFIERS or word in PLAIN_ADJECTIVES:
        return True  # "toy carrot"; "small hill" read as a compound
    if word not in _AGE_MODIFIERS:
        return False
    lemma = head.lemma_.lower()
    if word == "baby":  # "a baby girl", "a baby boy": of a person, a name for an infant
        return bool({lemma, head.lower_} & ANIMALS)
    return bool({lemma, head.lower_} & (PERSON_NOUNS | ANIMALS))


_LIKENESS_MODIFIERS = frozenset({"toy"})

#: Common adjectives of size and shape that the small model reads as nouns at the start of a
#: fragment ("small/PROPN hill", "round/NOUN mouse pad"): never part of a name
PLAIN_ADJECTIVES = words("plain_adjectives")
_AGE_MODIFIERS = frozenset({"baby", "adult", "juvenile"})


def name_word(modifier: Token, head: Token) -> bool:
    """A modifier that is part of the thing's name, not an attribute: "hot" in "hot dog",
    "left" in "his left hand"."""
    word, lemma = modifier.lower_, head.lemma_.lower()
    if (word, lemma) in COMPOUND_NAMES:
        return True
    return word in {"left", "right"} and lemma in SIDED_THINGS


def covering_agent(verb: Token, prep: Token) -> bool:
    """ "a truck covered in graffiti", "a hill covered with snow": what the thing is covered in
    is the agent, as after "by" (graffiti cover truck; 4 of 4 in the read parts)."""
    return verb.lower_ == "covered" and verb.tag_ == "VBN" and prep.lower_ in {"in", "with"}


# ---- places: where a transitive verb is done -------------------------------------------------

#: Prepositions of place after a verb's object that say where the subject is ("a man riding a
#: motorcycle on the street" -> man on street; FACTUAL's gold drops the verb)
PLACE_OF_DOING = words("place_of_doing_prepositions")
#: Verbs whose object is a game, no thing with a place: the phrase says where the game is played
#: ("a boy playing soccer on the grass" -> play on grass; FACTUAL's gold, 3 of 4 in the read parts)
GAME_VERBS = frozenset({"play"})


def state_in_place(adjective: Token) -> bool:
    """ "a book is open on the counter": a predicative adjective with a place phrase is a
    state of the subject (book is open) and the phrase its place (book on counter), unless
    the adjective and preposition are one relation ("close to", "full of", "next to")."""
    word = adjective.lower_
    if adjective.dep_ != "acomp" or word in PREP_HEADS or word in _RELATION_ADJECTIVES:
        return False
    preps = [c for c in adjective.children if c.dep_ == "prep"]
    return bool(preps) and all(p.lower_ in PLACE_PREPOSITIONS for p in preps)


#: adjectives that make a relation with their preposition ("similar to", "full of")
_RELATION_ADJECTIVES = words("relation_adjectives")
