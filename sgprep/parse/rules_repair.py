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

import numpy
from spacy.attrs import DEP, HEAD
from spacy.tokens import Doc

#: Verb forms whose rule-based lemma is a different verb.
LEMMA_FIXES = {"riding": "ride", "rides": "ride", "ridden": "ride"}


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


def repair_trailing_nouns(doc: Doc, nouns: frozenset[str], modifiers: frozenset[str]) -> Doc:
    """Make a mis-tagged noun after a noun the head of the pair ("fire hydrant")."""
    fixes = []
    for tok in doc[1:]:
        prev = doc[tok.i - 1]
        if (
            tok.pos_ in {"ADJ", "ADV"}
            and prev.pos_ == "NOUN"
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
        heads[h] = h if heads[p] in (p, h) else heads[p]  # take the old head's place
        deps[h] = deps[p]
        for k in range(len(doc)):
            if k != h and heads[k] == p:
                heads[k] = h
        heads[p], deps[p] = h, "compound"
        doc[h].pos_, doc[h].tag_ = "NOUN", "NN"
    _set_tree(doc, heads, deps)
    return doc


def _set_tree(doc: Doc, heads: list[int], deps: list[str]) -> None:
    strings = doc.vocab.strings
    rows = [
        [numpy.int64(hd - k).view(numpy.uint64), strings.add(dp)]
        for k, (hd, dp) in enumerate(zip(heads, deps))
    ]
    doc.from_array([HEAD, DEP], numpy.array(rows, dtype="uint64"))


def repair_verb_inside_noun_phrase(doc: Doc) -> Doc:
    """ "girl swinging tennis racket" read as one noun phrase (girl/compound swinging/amod
    racket): make it the clause it is, girl <-acl- swinging -dobj-> racket."""
    fixes = []
    for tok in doc[1:]:
        noun, head = doc[tok.i - 1], tok.head
        hangs_off = (noun.head == head and noun.dep_ in {"compound", "nmod"}) or (
            noun.head == tok and noun.dep_ in {"npadvmod", "nsubj"}
        )
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


def merge_hyphenated(doc: Doc) -> Doc:
    """ "multi-colored", "t-shirt": one token again (the tokenizer splits on infix hyphens)."""
    spans: list[list[int]] = []
    for tok in doc[1:-1]:
        prev = doc[tok.i - 1]
        if (
            tok.text == "-"
            and not prev.whitespace_
            and not tok.whitespace_
            and prev.is_alpha
            and doc[tok.i + 1].is_alpha
        ):
            if spans and spans[-1][1] == prev.i + 1:
                spans[-1][1] = tok.i + 2  # chain: "state-of-the-art"
            else:
                spans.append([prev.i, tok.i + 2])
    if spans:
        with doc.retokenize() as retokenizer:
            for start, end in spans:
                retokenizer.merge(doc[start:end])
    return doc
