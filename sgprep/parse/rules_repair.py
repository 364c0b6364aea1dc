"""Repairs of known, systematic errors of the small English model before the rules run.

- A noun the model does not know as a noun ("hydrant" in "a fire hydrant on the sidewalk" is
  tagged ADJ/ADV and hung off "fire") is made the head of its noun phrase, with the noun before
  it as a compound. The test for "is a noun" is the lemmatizer's own WordNet-derived word
  index: a word listed as a noun and as neither adjective nor adverb.
- Hyphenated words split by the tokenizer ("multi - color") are merged back into one token, so
  "multi-color" is one attribute, not three.
- A verb read as an adjective inside a noun phrase ("girl swinging tennis racket", "man holding
  bowl") is made the clause it is: noun <-acl- verb -dobj-> noun.
- Lemmas the rule lemmatizer gets wrong for common caption verbs ("riding" -> "rid").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

if TYPE_CHECKING:  # spaCy is imported by rules.load_spacy, the first time it is needed
    from spacy.tokens import Doc

from sgprep.parse.rules_lexicon import (
    ANAPHORA,
    CLOTHING,
    ING_NOUNS,
    PERSON_ACTIONS,
    PERSON_NOUNS,
    is_colour,
)
from sgprep.parse.rules_view import (
    DocView,
    acl_participles,
    needs,
    one_tree_per_sentence,
    subtree,
    tree_roots,
)

#: Verb forms whose rule-based lemma is a different verb.
LEMMA_FIXES = {
    "riding": "ride",
    "rides": "ride",
    "ridden": "ride",
    # the rule lemmatizer strips "-ing" from verbs ending in "e" to another word
    "staring": "stare",
    "bathing": "bathe",
    "dining": "dine",
    "shining": "shine",
    "wading": "wade",
}


def word_index(nlp) -> tuple[frozenset[str], frozenset[str]]:
    """(noun-only words, adjective/adverb words) from the lemmatizer's tables; empty when the
    pipeline has no rule lemmatizer (then no repair is made)."""
    try:
        lookups = nlp.get_pipe("lemmatizer").lookups
        table = lookups.get_table("lemma_index")
    except (KeyError, ValueError, AttributeError):
        return frozenset(), frozenset()

    def words(pos: str) -> set[str]:
        return set(table.get(pos, []))  # a Table hashes string keys itself

    return frozenset(words("noun")), frozenset(words("adj") | words("adv"))


def _trailing_noun(v: DocView, nouns: frozenset[str], modifiers: frozenset[str]) -> bool:
    if v.poses.isdisjoint(("ADJ", "ADV")):
        return False
    pos, lower = v.pos, v.lower
    return any(
        pos[i] in {"ADJ", "ADV"}
        and pos[i - 1] == "NOUN"
        and lower[i] in nouns
        and lower[i] not in modifiers
        for i in range(1, len(pos))
    )


@needs(_trailing_noun)
def repair_trailing_nouns(doc: Doc, nouns: frozenset[str], modifiers: frozenset[str]) -> Doc:
    """Make a mis-tagged noun after a noun the head of the pair ("fire hydrant")."""
    fixes = []
    for tok in doc[1:]:
        if tok.pos_ not in {"ADJ", "ADV"}:
            continue
        prev = doc[tok.i - 1]
        if (
            prev.pos_ == "NOUN"
            and tok.lower_ in nouns
            and tok.lower_ not in modifiers
            and (tok.head == prev or prev.head == tok or tok.head == tok or not list(tok.children))
        ):
            fixes.append((prev.i, tok.i))
    if not fixes:
        return doc
    heads = [t.head.i for t in doc]
    deps = [t.dep_ for t in doc]
    for p, h in fixes:
        under = _child_above(heads, p, h)
        if under is not None and under != p:
            # "fruit cup with strawberry garnish": the root garnish holds the phrase that ends
            # in strawberry; the phrase's top (cup) takes garnish's place, or garnish taking
            # strawberry's would hang it below itself
            heads[under] = under if heads[h] == h else heads[h]
            deps[under] = deps[h]
        if heads[p] != h or heads[h] == h:  # else the pair is where h is ("on fire hydrant")
            heads[h] = h if heads[p] in (p, h) else heads[p]  # take the old head's place
            deps[h] = deps[p]
        for k in range(len(doc)):
            if k != h and heads[k] == p:
                heads[k] = h
        heads[p], deps[p] = h, "compound"
    _set_tree(doc, heads, deps)
    for _, h in fixes:  # after the tree: a refused one leaves the doc as it was
        doc[h].pos_, doc[h].tag_ = "NOUN", "NN"
    return doc


def _child_above(heads: list[int], k: int, top: int) -> int | None:
    """The child of ``top`` that token ``k`` hangs under (``k`` itself if it is one), None
    where ``k`` is not below ``top``. The climb stops after as many steps as the doc has."""
    for _ in range(len(heads)):
        up = heads[k]
        if up == top:
            return k
        if up == k:
            return None
        k = up
    return None


class TreeRefused(ValueError):
    """A repair proposed heads that are no tree spaCy can hold (:func:`_set_tree`); the doc
    keeps the heads it had, and :meth:`sgprep.parse.rules.RuleParser._repaired` counts the
    repair as refused and goes on with the next."""


def _set_tree(doc: Doc, heads: list[int], deps: list[str]) -> None:
    """Give the doc these heads and dependencies. Every repair changes heads here, so here
    they are kept a tree: a cycle would send each walk over the tree (a subtree, a climb to
    the root) round it for ever."""
    from spacy.attrs import DEP, HEAD

    roots = tree_roots(heads)
    if roots is None or not one_tree_per_sentence(roots):
        raise TreeRefused("the repair's heads close a cycle or split a sentence")
    strings = doc.vocab.strings
    rows = [
        [numpy.int64(hd - k).view(numpy.uint64), strings.add(dp)]
        for k, (hd, dp) in enumerate(zip(heads, deps))
    ]
    doc.from_array([HEAD, DEP], numpy.array(rows, dtype="uint64"))


class LazyHeads:
    """Each token's head index, read from the doc at the first use: most docs need no repair,
    and a list of every head made up front costs a token object per word."""

    __slots__ = ("doc", "heads")

    def __init__(self, doc: Doc):
        self.doc = doc
        self.heads: list[int] | None = None

    def _list(self) -> list[int]:
        if self.heads is None:
            self.heads = [t.head.i for t in self.doc]
        return self.heads

    def __getitem__(self, k: int) -> int:
        return self._list()[k]

    def __setitem__(self, k: int, value: int) -> None:
        self._list()[k] = value

    def __iter__(self):
        return iter(self._list())

    def __len__(self) -> int:
        return len(self.doc)


@needs(
    lambda v, *_: (
        "VBG" in v.tags
        and any(
            v.tag[i] == "VBG"
            and v.dep[i] in {"amod", "compound"}
            and v.head[i] > i
            and v.pos[v.head[i]] == "NOUN"
            and v.pos[i - 1] in {"NOUN", "PROPN"}
            for i in range(1, len(v))
        )
    )
)
def repair_verb_inside_noun_phrase(doc: Doc, objects: bool = False) -> Doc:
    """ "girl swinging tennis racket" read as one noun phrase (girl/compound swinging/amod
    racket): make it the clause it is, girl <-acl- swinging -dobj-> racket.

    With ``objects`` (family ``ing_objects``) also where the model hangs the noun on the
    "-ing" word as its compound ("dog herding sheep": dog/compound herding/compound sheep,
    which named one thing "dog herding sheep" with the attribute "herding"); and a colour
    is no doer ("the silver serving tray": a tray that serves, not "silver serve tray"). An
    "-ing" noun ("parking") is left."""
    fixes = []
    for tok in doc[1:]:
        if tok.tag_ != "VBG":
            continue
        noun, head = doc[tok.i - 1], tok.head
        if objects and is_colour(noun):
            continue
        hangs_off = (noun.head == head and noun.dep_ in {"compound", "nmod"}) or (
            noun.head == tok and noun.dep_ in {"npadvmod", "nsubj"}
        )
        if objects and not hangs_off and tok.lower_ not in ING_NOUNS:
            hangs_off = noun.head == tok and noun.dep_ == "compound"
        if (tok.tag_ == "VBG" and tok.dep_ in {"amod", "compound"} and head.pos_ == "NOUN"
                and head.i > tok.i and noun.pos_ in {"NOUN", "PROPN"} and hangs_off):  # fmt: skip
            fixes.append((noun.i, tok.i, head.i))
    if not fixes:
        return doc
    heads = [t.head.i for t in doc]
    deps = [t.dep_ for t in doc]
    for n, v, h in fixes:
        heads[n] = n if heads[h] == h else heads[h]
        deps[n] = deps[h]
        for k in range(n):  # determiners and adjectives before the first noun are its own
            if heads[k] in (h, v):
                heads[k] = n
        heads[v], deps[v] = n, "acl"
        heads[h], deps[h] = v, "dobj"
        doc[v].pos_ = "VERB"
    _set_tree(doc, heads, deps)
    return doc


@needs(lambda v: "-" in v.words)
def merge_hyphenated(doc: Doc) -> Doc:
    """ "multi-colored", "t-shirt": one token again (the tokenizer splits on infix hyphens)."""
    spans: list[list[int]] = []
    for tok in doc[1:-1]:
        if tok.text != "-":
            continue
        prev = doc[tok.i - 1]
        if (
            not prev.whitespace_
            and not tok.whitespace_
            and prev.is_alpha
            and doc[tok.i + 1].is_alpha
        ):
            if spans and spans[-1][1] == prev.i + 1:
                spans[-1][1] = tok.i + 2  # chain: "state-of-the-art"
            else:
                spans.append([prev.i, tok.i + 2])
    if spans:
        # heads change here without _set_tree: spaCy hangs a merged word where the span's
        # highest word hung, which cannot close a cycle in a tree
        with doc.retokenize() as retokenizer:
            for start, end in spans:
                retokenizer.merge(doc[start:end])
    return doc


#: Verb-like dependents: a word with one of these on its right acts, it does not name a thing.
_VERB_LIKE_RIGHT = {"prep", "advmod", "dobj", "npadvmod", "agent"}


@needs(
    lambda v, *_: (
        "NN" in v.tags
        and "compound" in v.deps
        and any(
            v.tag[i] == "NN"
            and v.lower[i].endswith("ing")
            and v.lower[i] not in ING_NOUNS
            and v.pos[i - 1] == "NOUN"
            and v.dep[i - 1] == "compound"
            and v.head[i - 1] == i
            for i in range(1, len(v))
        )
    )
)
def repair_participle_after_noun(doc: Doc, verb_lemma) -> Doc:
    """ "a woman in an orange spacesuit posing between ...": the model reads "spacesuit
    posing" as one noun (spacesuit/compound posing/NN). Make the noun before it the head
    again and the "-ing" word the participle clause it is; the clause describes the noun the
    "in"/"with" phrase hangs from (the woman poses, not the spacesuit), else the noun itself.

    ``verb_lemma(token)`` gives the token's lemma read as a verb, or None if it is no verb.
    A closed list of "-ing" nouns (``ING_NOUNS``: "brick building") is never touched, and the
    word must have a verb-like dependent on its right ("posing between", "posing next to").
    """
    fixes = []
    for tok in doc[1:]:
        if tok.tag_ != "NN":
            continue
        prev = doc[tok.i - 1]
        if not (
            tok.lower_.endswith("ing")
            and tok.lower_ not in ING_NOUNS
            and prev.pos_ == "NOUN"
            and prev.dep_ == "compound"
            and prev.head == tok
            and any(c.dep_ in _VERB_LIKE_RIGHT for c in tok.rights)
        ):
            continue
        lemma = verb_lemma(tok)
        if lemma and lemma != tok.lower_:
            fixes.append((prev.i, tok.i, lemma))
    if not fixes:
        return doc
    heads = [t.head.i for t in doc]
    deps = [t.dep_ for t in doc]
    for n, v, lemma in fixes:
        heads[n] = n if heads[v] == v else heads[v]
        deps[n] = deps[v]
        for k in range(v):
            if k != n and heads[k] == v:
                heads[k] = n  # "an orange": the noun's own determiner and modifiers
        owner = n
        prep = doc[heads[n]]
        if (
            deps[n] == "pobj"
            and prep.lower_ in {"in", "with"}
            and doc[heads[prep.i]].pos_
            in {
                "NOUN",
                "PROPN",
            }
        ):
            owner = heads[prep.i]
        heads[v], deps[v] = owner, "acl"
        doc[v].pos_, doc[v].tag_, doc[v].lemma_ = "VERB", "VBG", lemma
    _set_tree(doc, heads, deps)
    return doc


@needs(
    lambda v, places=frozenset(): any(
        v.head[i] < i
        and (v.lower[v.head[i]] in CLOTHING or v.lower[v.head[i]] in places)
        and v.dep[v.head[i]] == "pobj"
        and v.lower[v.head[v.head[i]]] == "in"
        for i in acl_participles(v)
    )
)
def repair_participle_on_garment(doc: Doc, places: frozenset[str] = frozenset()) -> Doc:
    """ "a woman in a wedding dress holding flowers": the model hangs "holding" on the dress.
    A garment after "in" does not act; the participle is the wearer's. So for ``places``
    ("a boy in the background wearing shorts")."""
    heads = LazyHeads(doc)
    changed = False
    for tok in doc:
        if tok.tag_ != "VBG" or tok.dep_ != "acl":
            continue
        garment = tok.head
        if (
            garment.i < tok.i
            and (garment.lower_ in CLOTHING or garment.lower_ in places)
            and garment.dep_ == "pobj"
            and garment.head.lower_ == "in"
            and garment.head.head.pos_ in {"NOUN", "PROPN"}
            and garment.head.head.i < garment.i
        ):
            heads[tok.i] = garment.head.head.i
            changed = True
    if changed:
        _set_tree(doc, heads, [t.dep_ for t in doc])
    return doc


#: Parts of a person that a "with" phrase names ("a man with brown hair standing ...").
PERSON_PARTS = frozenset(
    """
    hair beard mustache moustache hand hands arm arms leg legs head face eyes glasses
    sunglasses eyeglasses backpack bag tattoo tattoos
    """.split()
)


@needs(
    lambda v: (
        not v.deps.isdisjoint(("prep", "dobj"))
        and any(
            v.head[i] < i and (v.lower[v.head[i]] in PERSON_PARTS or v.lower[v.head[i]] in CLOTHING)
            for i in acl_participles(v)
        )
    )
)
def repair_participle_on_part(doc: Doc) -> Doc:
    """ "man with brown hair standing in a red shirt", "man wearing eyeglasses standing behind
    the cake": the model hangs the participle on the nearest noun, the hair or the glasses. A
    participle of a person's doing (it has a phrase or an object of its own) on a worn thing or
    a part, itself the object of "with" or of "wear" on a person, is the person's."""
    heads = LazyHeads(doc)
    changed = False
    for tok in doc:
        if tok.tag_ != "VBG" or tok.dep_ != "acl":
            continue
        part = tok.head
        if not part.i < tok.i:
            continue
        if not (part.lower_ in PERSON_PARTS or part.lower_ in CLOTHING):
            continue
        if not any(c.dep_ in {"prep", "dobj"} for c in tok.children):
            continue  # "with hair blowing": the hair does it
        owner = None
        if part.dep_ == "pobj" and part.head.lower_ == "with":
            owner = part.head.head
        elif part.dep_ == "dobj" and part.head.lemma_ == "wear":
            owner = part.head.head if part.head.dep_ == "acl" else None
        if owner is not None and _is_person(owner) and owner.i < part.i:
            heads[tok.i] = owner.i
            changed = True
    if changed:
        _set_tree(doc, heads, [t.dep_ for t in doc])
    return doc


def _adjective_argument(v: DocView, nouns: frozenset[str], modifiers: frozenset[str]) -> bool:
    if v.poses.isdisjoint(("ADJ", "VERB")):
        return False
    pos, dep, lower, head = v.pos, v.dep, v.lower, v.head
    return any(
        (
            pos[i] == "ADJ"
            and dep[i] in {"dobj", "pobj", "nsubj", "nsubjpass"}
            and lower[i] in nouns
            and lower[i] not in modifiers
        )
        or (
            pos[i] == "VERB"
            and lower[i] in ING_NOUNS
            and dep[i] in {"pobj", "dobj", "pcomp"}
            and pos[head[i]] in {"ADP", "VERB"}
        )
        for i in range(len(pos))
    )


@needs(_adjective_argument)
def repair_adjective_argument(doc: Doc, nouns: frozenset[str], modifiers: frozenset[str]) -> Doc:
    """ "climbs a ladder to rescue a kitten": the model tags "kitten" ADJ, although it is the
    verb's object. A word tagged ADJ in a noun's place (subject, object, object of a
    preposition) with a determiner, that the lemmatizer's tables know only as a noun, is one;
    so is an "-ing" noun (``ING_NOUNS``: "near building", "attached to railing") tagged VERB
    there with nothing a verb would have after it."""
    for tok in doc:
        if (
            tok.pos_ == "ADJ"
            and tok.dep_ in {"dobj", "pobj", "nsubj", "nsubjpass"}
            and tok.lower_ in nouns
            and tok.lower_ not in modifiers
            and any(c.dep_ == "det" for c in tok.children)
        ):
            tok.pos_, tok.tag_ = "NOUN", "NN"
        elif (  # "a lamp near building": building/VERB as the object of "near"
            tok.pos_ == "VERB"
            and tok.lower_ in ING_NOUNS
            and tok.dep_ in {"pobj", "dobj", "pcomp"}
            and tok.head.pos_ in {"ADP", "VERB"}
            and not any(c.dep_ in {"dobj", "prep", "prt"} for c in tok.children)
        ):
            tok.pos_, tok.tag_, tok.lemma_ = "NOUN", "NN", tok.lower_
            if tok.dep_ == "pcomp":
                tok.dep_ = "pobj"
    return doc


@needs(
    lambda v: (
        "dobj" in v.deps
        and any(v.head[i] < i and v.dep[v.head[i]] == "pobj" for i in acl_participles(v))
    )
)
def repair_participle_on_thing(doc: Doc) -> Doc:
    """ "two men looking toward the camera holding food": the model hangs "holding" on the
    camera. A participle of a person's doing (``PERSON_ACTIONS``) with an object, on a noun
    after a preposition that is no person, is the doing of the person that the phrase
    chain starts from."""
    heads = LazyHeads(doc)
    changed = False
    for tok in doc:
        if tok.tag_ != "VBG" or tok.dep_ != "acl":
            continue
        thing = tok.head
        if not (
            tok.lemma_.lower() in PERSON_ACTIONS
            and any(c.dep_ == "dobj" for c in tok.children)
            and thing.i < tok.i
            and thing.dep_ == "pobj"
            and not _is_person(thing)
        ):
            continue
        for up in list(thing.ancestors)[:4]:
            if up.pos_ in {"NOUN", "PROPN"} and _is_person(up):
                heads[tok.i] = up.i
                changed = True
                break
    if changed:
        _set_tree(doc, heads, [t.dep_ for t in doc])
    return doc


def _noun_root(v: DocView, nouns: frozenset[str], modifiers: frozenset[str]) -> bool:
    first = next((i for i, p in enumerate(v.pos) if p not in {"DET", "PUNCT", "SPACE"}), None)
    return (
        first is not None
        and v.dep[first] == "ROOT"
        and v.pos[first] in {"ADJ", "ADV"}
        and v.lower[first] in nouns
        and v.lower[first] not in modifiers
    )


@needs(_noun_root)
def repair_noun_root(doc: Doc, nouns: frozenset[str], modifiers: frozenset[str]) -> Doc:
    """ "seagull walking on ground", "surfboard on the roof": the model reads a caption's
    first word, a noun it does not know, as an adjective or adverb root. A subjectless
    ADJ/ADV root that the lemmatizer's tables know only as a noun is the noun the caption
    is about; a participle it governs describes it (acl)."""
    root = next((t for t in doc if t.pos_ not in {"DET", "PUNCT", "SPACE"}), None)
    if (
        root is None
        or root.dep_ != "ROOT"
        or root.pos_ not in {"ADJ", "ADV"}
        or root.lower_ not in nouns
        or root.lower_ in modifiers
        or any(c.dep_ in {"nsubj", "nsubjpass", "expl", "csubj"} for c in root.children)
    ):
        return doc
    root.pos_, root.tag_ = "NOUN", "NNS" if root.lower_.endswith("s") else "NN"
    deps = [t.dep_ for t in doc]
    changed = False
    for child in root.children:
        if child.dep_ in {"xcomp", "advcl", "ccomp", "dep"} and child.tag_ in {"VBG", "VBN"}:
            deps[child.i] = "acl"
            changed = True
    if changed:
        _set_tree(doc, [t.head.i for t in doc], deps)
    return doc


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


_QUOTE_PAIRS = {"'": {"'", "’"}, '"': {'"'}, "“": {"”"}, "‘": {"’", "'"}, "`": {"'"}}


def quoted_spans(doc: Doc) -> list[tuple[int, int]]:
    """(opening, closing) token indices of quoted strings ("the heading 'Region-based
    segmentation'"): an opening quote after a space and glued to the next word, a matching
    closing quote glued to the word before it."""
    spans = []
    i = 0
    while i < len(doc):
        tok = doc[i]
        opening = (
            tok.text in _QUOTE_PAIRS
            and (i == 0 or doc[i - 1].whitespace_)
            and not tok.whitespace_
            and i + 1 < len(doc)
        )
        if opening:
            for j in range(i + 2, len(doc)):
                if doc[j].text in _QUOTE_PAIRS[tok.text] and not doc[j - 1].whitespace_:
                    spans.append((i, j))
                    i = j
                    break
        i += 1
    return spans


@needs(lambda v: not v.words.isdisjoint(_QUOTE_PAIRS))
def repair_quoted(doc: Doc) -> Doc:
    """A quoted string is a name or a title, never objects or attributes. When the word
    before it names what the string is ("the printed heading 'Region-based segmentation'",
    read by the model as modifiers of "segmentation"), that word becomes the head of the
    phrase and the string its apposition. The quoted tokens are listed in
    ``doc.user_data["quoted"]`` so that no rule makes entities or attributes of them."""
    spans = quoted_spans(doc)
    quoted: set[int] = set()
    if not spans:
        doc.user_data["quoted"] = quoted
        return doc
    heads = [t.head.i for t in doc]
    deps = [t.dep_ for t in doc]
    changed = False
    for q1, q2 in spans:
        inside = set(range(q1 + 1, q2))
        quoted |= inside | {q1, q2}
        roots = [k for k in inside if heads[k] not in inside or heads[k] == k]
        if len(roots) != 1 or q1 == 0:
            continue
        root, word = roots[0], q1 - 1
        if not (
            heads[word] == root
            and deps[word] in {"amod", "compound", "nmod"}
            and doc[word].is_alpha
        ):
            continue  # "the word 'STOP'": the word is already the head
        heads[word] = word if heads[root] == root else heads[root]
        deps[word] = deps[root]
        for k in range(len(doc)):
            if k not in inside and k != word and heads[k] == root:
                heads[k] = word  # its determiner, adjectives, quotes and phrases
        heads[root], deps[root] = word, "appos"
        tok = doc[word]
        if tok.pos_ not in {"NOUN", "PROPN"}:
            tok.lemma_ = tok.lower_
            tok.pos_, tok.tag_ = "NOUN", "NN"
        changed = True
    if changed:
        _set_tree(doc, heads, deps)
    doc.user_data["quoted"] = quoted
    return doc


def _is_person(tok) -> bool:
    return tok.lower_ in PERSON_NOUNS or tok.lemma_.lower() in PERSON_NOUNS


@needs(
    lambda v: (
        "conj" in v.deps  # both readings move a conjunct
        and (
            ("with" in v.words and "," in v.words)  # a list after a comma
            or ("between" in v.words and "and" in v.words)
        )
        and any(w in {"with", "between"} and d == "prep" for w, d in zip(v.lower, v.dep))
    )
)
def repair_with_list(doc: Doc) -> Doc:
    """ "a cat with green eyes, a pink nose and long white whiskers": the model hangs the
    list after the comma on "cat" as its conjuncts. A comma list right after a "with" phrase
    continues that phrase: its nouns (without phrases of their own, and not people: "a man
    with a hat, a woman and a child" lists three people) become conjuncts of the object of
    "with".

    Likewise "between" needs two things: "posing between a flag on the left and a model"
    with a lone singular object and an "and"-conjunct hung higher up (on the woman) -> that
    conjunct is the second object."""
    heads = LazyHeads(doc)
    changed = False
    for prep in doc:
        if prep.lower_ == "between" and prep.dep_ == "prep":
            pobj = next((c for c in prep.children if c.dep_ == "pobj"), None)
            if pobj is None or pobj.tag_ != "NN" or any(c.dep_ == "conj" for c in pobj.children):
                continue
            ancestors = set(prep.ancestors)
            for tok in doc[pobj.right_edge.i + 1 :]:
                if (
                    tok.dep_ == "conj"
                    and tok.pos_ in {"NOUN", "PROPN"}
                    and tok.head in ancestors
                    and tok not in ancestors
                ):
                    if any(t.lower_ == "and" for t in doc[pobj.i + 1 : tok.i]):
                        heads[tok.i] = pobj.i
                        changed = True
                    break
            continue
        if prep.lower_ != "with" or prep.dep_ != "prep" or prep.head.pos_ not in {"NOUN", "PROPN"}:
            continue
        pobj = next((c for c in prep.children if c.dep_ == "pobj" and c.pos_ == "NOUN"), None)
        if pobj is None:
            continue
        end = next((t.i for t in subtree(pobj) if t.dep_ == "punct" and t.text == ","), None)
        if end is not None and _is_person(prep.head) and not _is_person(pobj):
            for conj in pobj.children:  # the model's own reading of that list, undone
                if conj.dep_ == "conj" and conj.i > end and _is_person(conj):
                    heads[conj.i] = prep.head.i
                    changed = True
        end = pobj.right_edge.i
        if end + 1 >= len(doc) or doc[end + 1].text != ",":
            continue
        for conj in prep.head.children:
            if (
                conj.dep_ == "conj"
                and conj.i > end
                and conj.pos_ in {"NOUN", "PROPN"}
                and not _is_person(conj)
                and not any(c.dep_ in {"prep", "acl", "relcl"} for c in conj.children)
            ):
                heads[conj.i] = pobj.i
                changed = True
    if changed:
        _set_tree(doc, heads, [t.dep_ for t in doc])
    return doc


def _adjective_compound(v: DocView, nouns: frozenset[str], modifiers: frozenset[str]) -> bool:
    if v.deps.isdisjoint(("compound", "nmod")):
        return False
    pos, dep, lower, head = v.pos, v.dep, v.lower, v.head
    return any(
        dep[i] in {"compound", "nmod"}
        and pos[i] in {"NOUN", "PROPN"}
        and i < head[i]
        and pos[head[i]] in {"NOUN", "PROPN"}
        and lower[i] in modifiers
        and lower[i] not in nouns
        for i in range(len(pos))
    )


@needs(_adjective_compound)
def repair_adjective_compound(doc: Doc, nouns: frozenset[str], modifiers: frozenset[str]) -> Doc:
    """ "man sitting in an armless chair", "sky filled with light wispy clouds": the model
    reads an adjective it does not know as a noun compound, which would make it part of the
    name ("armless chair"). A compound modifier of a noun that the lemmatizer's tables know
    only as an adjective or adverb (never as a noun) is the adjective it is."""
    for tok in doc:
        if (
            tok.dep_ in {"compound", "nmod"}
            and tok.pos_ in {"NOUN", "PROPN"}
            and tok.i < tok.head.i
            and tok.head.pos_ in {"NOUN", "PROPN"}
            and tok.lower_ in modifiers
            and tok.lower_ not in nouns
            and not any(c.dep_ in {"compound", "poss", "det"} for c in tok.children)
            and not (tok.text[:1].isupper() and tok.head.text[:1].isupper())  # "New York City"
        ):
            tok.pos_, tok.tag_, tok.dep_ = "ADJ", "JJ", "amod"
    return doc


#: Parts that an owner written without its apostrophe has ("elephants tail", "persons head").
OWNED_PARTS = PERSON_PARTS | frozenset(
    """
    tail mouth nose ear ears eye neck back foot feet paw paws wing wings trunk horn horns
    mane body fur beak coat shirt jacket hat tongue teeth knee knees shoulder shoulders
    """.split()
)
#: Parts of an animal's body ("a dog nose" is the dog's).
BODY_PARTS = frozenset(
    """
    head heads nose mouth ear ears eye eyes tail neck face leg legs paw paws wing wings horn
    horns mane beak fur trunk tusk tusks hoof hooves back body tongue teeth
    """.split()
)
#: Owners of parts other than people.
ANIMALS = frozenset(
    """
    animal elephant giraffe zebra dog cat horse cow sheep bird bear lamb calf goat pig duck
    puppy kitten monkey lion tiger deer camel
    """.split()
)


def _plain_possessive(v: DocView) -> bool:
    if "compound" not in v.deps:
        return False
    pos, dep, lower, head = v.pos, v.dep, v.lower, v.head
    return any(
        dep[i] == "compound"
        and pos[i] == "NOUN"
        and head[i] == i + 1
        and (lower[i + 1] in OWNED_PARTS or lower[i + 1] in BODY_PARTS or lower[i] == "tree")
        for i in range(len(pos) - 1)
    )


@needs(_plain_possessive)
def repair_plain_possessive(doc: Doc) -> Doc:
    """ "elephants tail on his body", "a womans coat": a possessive written without its
    apostrophe is read as a compound ("elephants tail" would be one name). A noun compound
    ending in "s" that is the plural of a person or an animal (``PERSON_NOUNS``,
    ``ANIMALS``: "sports jacket" is a name), on a part or a worn thing (``OWNED_PARTS``), is
    the owner; so is an animal's name on one of its body parts ("dog nose", "tiger head") and
    a tree on its branches ("tree branches": FACTUAL's gold writes tree --have--> branches)."""
    for tok in doc:
        if not (tok.dep_ == "compound" and tok.pos_ == "NOUN" and tok.i + 1 == tok.head.i):
            continue
        word, lemma, part = tok.lower_, tok.lemma_.lower(), tok.head
        plural_owner = (
            word.endswith("s")
            and not word.endswith("ss")
            and (lemma != word or word[:-1] in PERSON_NOUNS)
            and bool({lemma, word[:-1]} & (PERSON_NOUNS | ANIMALS))
            and part.lower_ in OWNED_PARTS
        )
        body_owner = (word in ANIMALS and part.lower_ in BODY_PARTS) or (
            word == "tree" and part.lemma_ == "branch"
        )
        if plural_owner or body_owner:
            tok.dep_ = "poss"
    return doc


def _first_conjunct(tok):
    while tok.dep_ == "conj" and tok.head.i < tok.i:
        tok = tok.head
    return tok


@needs(
    lambda v: any(
        v.head[i] < i
        and v.dep[v.head[i]] == "conj"
        and (v.lower[v.head[i]] in CLOTHING or v.lower[v.head[i]] in PERSON_PARTS)
        for i in acl_participles(v)
    )
)
def repair_participle_on_listed_thing(doc: Doc) -> Doc:
    """ "an older man in a black shirt and brown shorts holding a bag", "a man with a beard
    and sunglasses holding a drink": the model hangs the participle on the last worn thing or
    part of a list. A participle with an object or a phrase of its own, on a worn thing or a
    part that is a later conjunct of the object of "in", "with" or "wearing" on a person, is
    the person's (the first item of the list is handled by the participle repairs above)."""
    heads = LazyHeads(doc)
    changed = False
    for tok in doc:
        if tok.tag_ != "VBG" or tok.dep_ != "acl":
            continue
        thing = tok.head
        if not (
            thing.i < tok.i
            and thing.dep_ == "conj"
            and (thing.lower_ in CLOTHING or thing.lower_ in PERSON_PARTS)
            and any(c.dep_ in {"prep", "dobj"} for c in tok.children)
        ):
            continue
        first = _first_conjunct(thing)
        listed = (first.dep_ == "pobj" and first.head.lower_ in {"in", "with"}) or (
            first.dep_ == "dobj" and first.head.lemma_ == "wear" and first.head.dep_ == "acl"
        )
        owner = first.head.head if listed else None
        if owner is not None and _is_person(owner) and owner.i < first.i:
            heads[tok.i] = owner.i
            changed = True
    if changed:
        _set_tree(doc, heads, [t.dep_ for t in doc])
    return doc


def _two_subjects(v: DocView) -> bool:
    """A verb with two subjects, one of them a worn thing (the repair's own first test)."""
    if "nsubj" not in v.deps or v.words.isdisjoint(CLOTHING):
        return False
    subject_of = [h for h, d in zip(v.head, v.dep) if d == "nsubj"]
    return len(subject_of) != len(set(subject_of))


@needs(_two_subjects)
def repair_garment_read_as_subject(doc: Doc) -> Doc:
    """ "a woman wearing high tops, blue jeans, and a purple shirt is watching the cowboy": the
    model ends the list of worn things early and makes the last one a second subject of the
    verb. A worn thing that is a verb's later subject, after a person subject who is
    "wearing" something, is the last item of that list."""
    subject_of = [t.head.i for t in doc if t.dep_ == "nsubj"]
    if len(subject_of) == len(set(subject_of)):
        return doc  # no verb with two subjects
    heads = [t.head.i for t in doc]
    deps = [t.dep_ for t in doc]
    changed = False
    for verb in doc:
        subjects = [c for c in verb.children if c.dep_ == "nsubj"]
        if len(subjects) < 2:
            continue
        person, garment = subjects[0], subjects[-1]
        wearing = next((c for c in person.children if c.dep_ == "acl" and c.lemma_ == "wear"), None)
        worn = next((c for c in wearing.children if c.dep_ == "dobj"), None) if wearing else None
        if not (_is_person(person) and garment.lower_ in CLOTHING and worn is not None):
            continue
        last, steps = worn, len(doc)  # a walk down the list ends within the caption
        while any(c.dep_ == "conj" and c.i < garment.i for c in last.children) and steps:
            steps -= 1
            last = max((c for c in last.children if c.dep_ == "conj" and c.i < garment.i),
                       key=lambda c: c.i)  # fmt: skip
        heads[garment.i], deps[garment.i] = last.i, "conj"
        changed = True
    if changed:
        _set_tree(doc, heads, deps)
    return doc


def _coordinated_nouns(v: DocView) -> bool:
    """A "cc" in the doc (the repair's own first test)."""
    return "cc" in v.deps


#: Prepositions whose coordinated objects the model hangs on the phrase's owner.
LIST_PREPOSITIONS = frozenset({"with", "in"})


@needs(_coordinated_nouns)
def repair_coordinated_nouns(doc: Doc) -> Doc:
    """Two noun phrases joined by "and" that the model does not read as two objects.

    - "a girl with a pink dress and white shoes": the first noun is a modifier (``nmod``) of
      the second and the adjective after "and" its conjunct, so one entity "dress and white
      shoes". A noun modifier with its own "and" and an adjective conjunct right before the
      noun is the first item of a list: it takes the noun's place, the noun becomes its
      conjunct, the adjective the noun's, and the words before the first noun its own.
    - "a woman with a red hat and a blue scarf", "a man in a black shirt and blue jeans": the
      model hangs "and" on the object of "with" / "in" but the next noun on the woman, as a
      second woman. A noun phrase right after that "and", hung on the phrase's owner, that
      is no person or animal and has no phrase or clause of its own, is a second object of
      the preposition ("a man with a hat and a woman" lists people).
    - "man wearing brown sandals and a blue shirt": the last worn thing read as the root with
      the person as its subject is the next object of "wearing"; "in dark top and white
      bottoms": a worn thing read as an adjective of the next one is the first item."""
    heads = [t.head.i for t in doc]
    deps = [t.dep_ for t in doc]
    changed = False
    for tok in doc:
        cc = next((c for c in tok.children if c.dep_ == "cc" and c.i == tok.i + 1), None)
        if cc is None:
            continue
        head = tok.head
        worn = tok.lower_ in CLOTHING and head.lower_ in CLOTHING and tok.dep_ == "amod"
        if tok.pos_ != "NOUN" and not worn:  # "in dark top and white bottoms": top is no adjective
            continue
        conj = next((c for c in tok.children if c.dep_ == "conj"), None)
        if (
            tok.dep_ == "appos"
            and conj is not None
            and doc[tok.left_edge.i - 1].text == ","
            and head.dep_ == "pobj"
            and head.head.lower_ in LIST_PREPOSITIONS
        ):  # "with a television, a dvd player and decorations": a list, no apposition
            deps[tok.i] = "conj"
            changed = True
            continue
        if (
            (tok.dep_ in {"nmod", "compound"} or worn)
            and head.pos_ == "NOUN"
            and conj is not None
            and (
                conj.pos_ == "ADJ"
                or (conj.pos_ == "NOUN" and any(c.dep_ in {"compound", "nmod"} for c in tok.lefts))
            )
            and conj.i == cc.i + 1
            and head.i == conj.i + 1
        ):
            heads[tok.i], deps[tok.i] = heads[head.i], deps[head.i]
            heads[head.i], deps[head.i] = tok.i, "conj"
            heads[conj.i], deps[conj.i] = head.i, "amod" if conj.pos_ == "ADJ" else "compound"
            for c in head.children:
                if c.i < tok.i:
                    heads[c.i] = tok.i
            if worn:
                tok.pos_, tok.tag_ = "NOUN", "NN"
            changed = True
            continue
        if (
            tok.dep_ == "dobj"
            and head.lemma_ == "wear"
            and head.dep_ == "acl"
            and head.head.dep_ == "nsubj"
            and _is_person(head.head)
        ):  # "man wearing brown sandals and a blue shirt": the shirt read as the root
            second = head.head.head
            if (
                second.dep_ == "ROOT"
                and second.i > cc.i
                and all(heads[k] == second.i for k in range(cc.i + 1, second.i))
                and second.lower_ in CLOTHING
                and not any(c.dep_ in {"prep", "acl", "relcl"} for c in second.children)
            ):
                person = head.head
                heads[person.i], deps[person.i] = person.i, "ROOT"
                heads[second.i], deps[second.i] = tok.i, "conj"
                changed = True
            continue
        prep = head
        if (
            tok.dep_ != "pobj"
            or prep.lower_ not in LIST_PREPOSITIONS
            or any(c.i > tok.i and c.i != cc.i for c in tok.children)
        ):
            continue
        owner = prep.head
        for second in owner.children:
            if (
                second.dep_ == "conj"
                and second.left_edge.i == cc.i + 1
                and second.pos_ == "NOUN"
                and not _is_person(second)
                and second.lemma_.lower() not in ANIMALS
                and not any(c.dep_ in {"prep", "acl", "relcl"} for c in second.children)
            ):
                heads[second.i] = tok.i
                changed = True
    for prep in doc:  # "a man with brown hair and a red shirt": "and" hung on the man too
        pobj = next((c for c in prep.children if c.dep_ == "pobj"), None)
        owner = prep.head
        if prep.lower_ not in LIST_PREPOSITIONS or pobj is None or not _is_person(owner):
            continue
        cc = pobj.right_edge.i + 1
        if cc >= len(doc) or doc[cc].dep_ != "cc" or heads[cc] != owner.i:
            continue
        for second in owner.children:
            if (
                second.dep_ == "conj"
                and second.left_edge.i == cc + 1
                and second.lower_ in CLOTHING
                and not any(c.dep_ in {"prep", "acl", "relcl"} for c in second.children)
            ):
                heads[second.i] = heads[cc] = pobj.i
                changed = True
    if changed:
        _set_tree(doc, heads, deps)
    return doc
