"""Repairs of known, systematic errors of the small English model before the rules run.

- A noun the model does not know as a noun ("hydrant" in "a fire hydrant on the sidewalk" is
  tagged ADJ/ADV and hung off "fire") is made the head of its noun phrase, with the noun before
  it as a compound. The test for "is a noun" is the lemmatizer's own WordNet-derived word
  index: a word listed as a noun and as neither adjective nor adverb.
- Hyphenated words split by the tokenizer ("multi - color") are merged back into one token, so
  "multi-color" is one attribute, not three.
- Lemmas the rule lemmatizer gets wrong for common caption verbs ("riding" -> "rid").

Also what the families' repairs share (:mod:`sgprep.parse.families`, which hold the repairs
of each family): setting a doc's tree (refused where it is none), word lists of parts and
animals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from sgprep.lexicon import words

if TYPE_CHECKING:  # spaCy is imported by rules.load_spacy, the first time it is needed
    from spacy.tokens import Doc

from sgprep.parse.rules_lexicon import ING_NOUNS, PERSON_NOUNS
from sgprep.parse.rules_view import DocView, needs, one_tree_per_sentence, subtree, tree_roots

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
    # and a present in "-ed" to a past ("children sled down a hill" -> "sle": blind review
    # round 59, "slid" for "sled")
    "sled": "sled",
}


def word_index(nlp) -> tuple[frozenset[str], frozenset[str]]:
    """(noun-only words, adjective/adverb words) from the lemmatizer's tables; empty when the
    pipeline has no rule lemmatizer (then no repair is made)."""
    try:
        lookups = nlp.get_pipe("lemmatizer").lookups
        table = lookups.get_table("lemma_index")
    except (KeyError, ValueError, AttributeError):
        return frozenset(), frozenset()

    def of_pos(pos: str) -> set[str]:
        return set(table.get(pos, []))  # a Table hashes string keys itself

    return frozenset(of_pos("noun")), frozenset(of_pos("adj") | of_pos("adv"))


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


#: Parts of a person that a "with" phrase names ("a man with brown hair standing ...").
PERSON_PARTS = words("human_body_parts") | words("person_parts_more")


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


#: Parts that an owner written without its apostrophe has ("elephants tail", "persons head").
OWNED_PARTS = PERSON_PARTS | words("owned_parts")
#: Parts of an animal's body ("a dog nose" is the dog's).
BODY_PARTS = words("body_parts")
#: Owners of parts other than people.
ANIMALS = words("animals")


#: Prepositions whose coordinated objects the model hangs on the phrase's owner.
LIST_PREPOSITIONS = frozenset({"with", "in"})
