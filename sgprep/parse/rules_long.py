"""Repairs of phrase attachment in long noun phrases, written from the errors of the
``long-rules`` and ``dev-rules`` parts (``docs/rule-parser.md``).

Each function takes the parsed doc, re-hangs tokens where the small model attached them to
the nearest noun instead of the phrase's head, and returns the doc; each belongs to one rule
family of :mod:`sgprep.parse.families` and is called only while that family is on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sgprep.parse.rules_lexicon import (
    ANAPHORA,
    CLOTHING,
    COLOURS,
    NOUNS,
    PERSON_NOUNS,
    QUANTITY_NOUNS,
    SUPPORT_PREPOSITIONS,
    is_colour,
)
from sgprep.parse.rules_repair import (
    ANIMALS,
    BODY_PARTS,
    LIST_PREPOSITIONS,
    OWNED_PARTS,
    _set_tree,
)
from sgprep.parse.rules_view import DocView, conjuncts, needs, subtree

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
    if noun.tag_ in {"NN", "NNP"} and not conjuncts(noun):
        return "sg"
    return None


def _who_of_a_thing(verb) -> bool:
    """A "who" clause the model hangs on a noun that is no person or animal."""
    return not _animate(verb.head) and any(
        c.dep_ in {"nsubj", "nsubjpass"} and c.lower_ == "who" for c in verb.children
    )


def _animate_up(noun):
    """The nearest person or animal up the chain of phrases above ``noun`` ("a dog with a
    vest", "a man in a coat"), None where there is none within three phrases."""
    up = noun
    for _ in range(3):
        if up.dep_ != "pobj" or up.head.dep_ != "prep" or up.head.lower_ == "of":
            return None
        up = up.head.head
        if up.pos_ not in NOUNS:
            return None
        if _animate(up):
            return up
    return None


@needs(lambda v: "relcl" in v.deps)
def repair_relative_clause_agreement(doc: Doc) -> Doc:
    """ "four windows on the middle train car that are white on the bottom", "two lamps on a
    table that are lit": the model hangs the relative clause on the nearest noun; its verb's
    number says which noun it is about. A clause whose verb disagrees with that noun moves up
    the chain of place phrases ("windows on the car") to the nearest noun it agrees with. A
    "who" clause on a thing goes up to the nearest person or animal ("a dog with colorful
    life vest who is wearing a lei": the dog wears it)."""
    heads: list[int] = []  # read from the doc at the first change only
    for verb in doc:
        if verb.dep_ != "relcl" or verb.head.pos_ not in NOUNS:
            continue
        if _who_of_a_thing(verb):
            owner = _animate_up(verb.head)
            if owner is not None:  # "a dog with colorful life vest who is wearing a lei"
                _move(doc, heads, verb.i, owner.i)
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


#: Determiners that say a noun phrase is singular: one on a plural head is a misread verb's.
SINGULAR_DETERMINERS = frozenset({"a", "an", "one", "each", "every", "this", "that"})
#: Finite verb tags: a caption that has one has its verb already.
FINITE_TAGS = frozenset({"VBZ", "VBD", "VBP", "MD"})


def verb_words(nlp) -> frozenset[str]:
    """Verb lemmas of the lemmatizer's tables; empty without a rule lemmatizer (then no
    repair of :func:`repair_verb_read_as_noun` is made)."""
    try:
        table = nlp.get_pipe("lemmatizer").lookups.get_table("lemma_index")
    except (KeyError, ValueError, AttributeError):
        return frozenset()
    return frozenset(table.get("verb", []))


def _misread_verb(tok, verb_lemma, verbs: frozenset[str]):
    """The singular noun before ``tok`` where ``tok`` is a sentence's verb read as the plural
    head of its subject's noun phrase; None otherwise."""
    if tok.tag_ != "NNS" or not tok.lower_.endswith("s") or tok.dep_ not in {"ROOT", "pobj"}:
        return None
    subject = tok.doc[tok.i - 1]
    if subject.dep_ != "compound" or subject.head.i != tok.i or subject.tag_ != "NN":
        return None
    det = next((c for c in tok.lefts if c.dep_ == "det"), None)
    if det is None or det.lower_ not in SINGULAR_DETERMINERS:
        return None
    between = tok.doc[det.i + 1 : subject.i]
    if any(t.pos_ in {"VERB", "AUX", "ADP", "PUNCT"} or t.dep_ not in _NOUN_LEFTS for t in between):
        return None  # "a post supporting street signs": the determiner is another noun's
    lemma = verb_lemma(tok)
    if not lemma or lemma not in verbs:
        return None  # "a fisheye lens": no verb
    return subject


_NOUN_LEFTS = frozenset({"det", "amod", "compound", "nmod", "nummod", "advmod", "cc", "conj"})


def repair_verb_read_as_noun(doc: Doc, verb_lemma, verbs: frozenset[str]) -> Doc:
    """ "a chef in a white apron slices fresh vegetables on a cutting board", "a red double
    decker bus drives past the houses of parliament": the small model reads a sentence's verb
    in -s as the plural head of the noun phrase before it (apron/compound slices/NNS) when
    the caption has no other finite verb. A singular determiner on that plural head ("a ...
    slices") says it is no noun: the noun before it is the head of its phrase, and the word
    is the verb, whose subject is the phrase's top noun (the chef, the bus)."""
    if any(t.tag_ in FINITE_TAGS for t in doc):
        return doc
    candidates = [t for t in doc if t.tag_ == "NNS"]
    return _verb_read_as_noun(doc, candidates, verb_lemma, verbs)


def _misread_verbs(v, verb_lemma, verbs: frozenset[str], clause_verbs: bool = False) -> bool:
    """:func:`repair_misread_verbs`'s first conditions on the view: a past tense root after
    a noun, or (no finite verb, or with ``clause_verbs`` none outside a clause hung below a
    noun root) a plural after a noun compound hung on it."""
    tag, dep = v.tag, v.dep
    if "VBD" in v.tags:
        pos = v.pos
        return any(
            tag[i] == "VBD" and dep[i] == "ROOT" and pos[i - 1] in NOUNS for i in range(1, len(tag))
        )
    if "NNS" not in v.tags:
        return False
    if not v.tags.isdisjoint(FINITE_TAGS) and not (clause_verbs and _noun_root(v)):
        return False
    head = v.head
    if clause_verbs and any(
        dep[j] == "nsubj" and tag[head[j]] == "NNS" and dep[head[j]] == "ROOT"
        for j in range(len(tag))
    ):
        return True
    return any(
        tag[i] == "NNS"
        and dep[i] in {"ROOT", "pobj"}
        and dep[i - 1] == "compound"  # the word before, as the repair reads it (doc[i - 1])
        and head[i - 1] == i
        and tag[i - 1] == "NN"
        for i in range(len(tag))
    )


def _noun_root(v) -> bool:
    """Whether every root of the view is a noun: its finite verbs, if any, are in clauses
    hung below a noun ("... while sparks fly", "... who wears a cap")."""
    return all(v.pos[i] in NOUNS for i in range(len(v.dep)) if v.dep[i] == "ROOT")


@needs(_misread_verbs)
def repair_misread_verbs(
    doc: Doc, verb_lemma, verbs: frozenset[str], clause_verbs: bool = False
) -> Doc:
    """Family ``verbs`` in one pass over the doc's tags: :func:`repair_participle_read_as_past`
    where a past tense is the root, else :func:`repair_verb_read_as_noun` where the caption
    has no finite verb.

    With ``clause_verbs`` (its own family) a finite verb of a clause the model hung below a
    noun root does not count: "a kayaker paddles through rapids while the spray rises", "a
    stonemason chisels a head in a yard where columns lean against a fence", "a calligrapher
    dips a brush into ink and writes characters" read "kayaker paddles" as one noun (a
    singular article on a plural head) with the clause's verb below it; the main clause has
    no verb of its own, so the plural is it, as without the clause."""
    plurals, past = [], False
    finite = False
    for tok in doc:
        tag = tok.tag_
        if tag == "NNS":
            plurals.append(tok)
        elif tag == "VBD":
            past = finite = True
        elif tag in FINITE_TAGS:
            finite = True
    if past:
        return repair_participle_read_as_past(doc)
    if not plurals:
        return doc
    if finite and not (clause_verbs and all(t.pos_ in NOUNS for t in doc if t.dep_ == "ROOT")):
        return doc
    if clause_verbs:
        for tok in plurals:
            if _plural_root_with_subject(tok, verb_lemma, verbs):
                tok.tag_, tok.pos_, tok.lemma_ = "VBZ", "VERB", verb_lemma(tok)
                return doc
    return _verb_read_as_noun(doc, plurals, verb_lemma, verbs)


#: Children only a noun (or a verb with an auxiliary: "has leaves") has.
_NOUN_MARKS = frozenset({"aux", "auxpass", "det", "amod", "nummod", "poss", "compound"})


def _plural_root_with_subject(tok, verb_lemma, verbs: frozenset[str]) -> bool:
    """ "a welder in a protective mask cuts through a beam while sparks fly", "a golden
    eagle lands on the glove of a falconer who wears a cap": the model tags the verb NNS
    but hangs the singular subject on it as its ``nsubj``: a plural root with a singular
    subject of its own, a verb of the tables, is that verb (``clause_verbs``)."""
    if tok.dep_ != "ROOT" or not tok.lower_.endswith("s"):
        return False
    if any(c.dep_ in _NOUN_MARKS for c in tok.children):
        return False  # "the branch has leaves", "the girl holds red apples": a noun
    subject = next((c for c in tok.children if c.dep_ == "nsubj"), None)
    if subject is None or subject.tag_ not in {"NN", "NNP"} or subject.i > tok.i:
        return False
    lemma = verb_lemma(tok)
    return bool(lemma) and lemma in verbs


def _verb_read_as_noun(doc: Doc, candidates: list, verb_lemma, verbs: frozenset[str]) -> Doc:
    heads: list[int] = []
    deps: list[str] = []
    for tok in candidates:
        subject = _misread_verb(tok, verb_lemma, verbs)
        if subject is None:
            continue
        if not heads:
            heads.extend(t.head.i for t in doc)
            deps.extend(t.dep_ for t in doc)
        top = (
            tok
            if tok.dep_ == "ROOT"
            else next((t for t in tok.ancestors if t.dep_ == "ROOT"), None)
        )
        if top is None or top.pos_ not in NOUNS:
            return doc
        for child in tok.lefts:  # "a white apron": the determiner and adjectives are the noun's
            if child.i != subject.i:
                heads[child.i] = subject.i
        if top.i == tok.i:  # "a ... bus drives past ...": the bus is the subject
            heads[subject.i], deps[subject.i] = tok.i, "nsubj"
        else:  # "a chef in a white apron slices ...": the apron stays in its phrase
            heads[subject.i], deps[subject.i] = heads[tok.i], deps[tok.i]
            for child in top.rights:  # what follows the verb is the verb's
                if child.i > tok.i:
                    heads[child.i] = tok.i
            heads[top.i], deps[top.i] = tok.i, "nsubj"
            heads[tok.i], deps[tok.i] = tok.i, "ROOT"
        lemma = verb_lemma(tok)
        tok.tag_, tok.pos_, tok.lemma_ = "VBZ", "VERB", lemma
        break  # one verb per caption: the others were read right
    if heads:
        _set_tree(doc, heads, deps)
    return doc


@needs(lambda v: "," in v.words and "acl" in v.deps)
def repair_participle_after_comma(doc: Doc) -> Doc:
    """ "<PERSON> speaks to reporters after the hearing on Tuesday, surrounded by microphones
    and cameras": a participle set off by a comma is about the clause, not about the object of
    the clause's last phrase, where the model hangs it (the hearing). Moved to the verb that
    phrase belongs to, whose subject does it. A phrase on a noun ("a house on a hill,
    covered in snow") keeps its participle: which of the two it describes is not plain."""
    heads: list[int] = []
    deps: list[str] = []
    for tok in doc:
        if tok.dep_ != "acl" or tok.tag_ not in {"VBN", "VBG"} or tok.i == 0:
            continue
        if doc[tok.i - 1].text != "," or tok.head.dep_ != "pobj" or tok.head.pos_ not in NOUNS:
            continue
        up, steps = tok.head, len(doc)
        while up.dep_ == "pobj" and up.head.dep_ == "prep" and up.head.head.pos_ in NOUNS and steps:
            up, steps = up.head.head, steps - 1  # "after the hearing on Tuesday": up the phrases
        verb = up.head.head if up.dep_ == "pobj" and up.head.dep_ == "prep" else None
        if verb is None or verb.pos_ not in {"VERB", "AUX"}:
            continue
        if not heads:
            heads.extend(t.head.i for t in doc)
            deps.extend(t.dep_ for t in doc)
        heads[tok.i], deps[tok.i] = verb.i, "advcl"
    if heads:
        _set_tree(doc, heads, deps)
    return doc


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


#: Verbs whose participle says how a thing is put or kept ("mounted on the wall", "lined up on
#: the sill", "gathered to see"): the small model reads such a participle after a noun phrase
#: as the past tense of a sentence whose subject is the phrase's first noun.
STATE_VERBS = frozenset(
    """
    mount hang line place stack pile gather arrange attach park display scatter cover fill
    surround decorate paint write print set position locate situate perch prop lean tie wrap
    string pin stick glue nail fix frame load pack crowd cluster spread store
    """.split()
)


def repair_participle_read_as_past(doc: Doc, tag: str = "VBD") -> Doc:
    """ "a living room with a grey sofa, a coffee table and a large TV mounted on the wall",
    "window and windowsill with various toiletries lined up on it", "view of people gathered
    to see jet": the model reads the participle as the past-tense root of a sentence whose
    subject is the phrase's first noun (the room mounted on the wall). A participle of how a
    thing is put, with no object and no auxiliary, right after a noun inside its subject's
    phrase, is that noun's (the TV is mounted on the wall). ``tag``: the root's tag (VBD,
    or VBN for :func:`repair_participle_root`)."""
    for verb in doc:
        if verb.tag_ != tag or verb.dep_ != "ROOT" or verb.i == 0:
            continue
        if verb.lemma_.lower() not in STATE_VERBS:
            continue
        subject = next((c for c in verb.lefts if c.dep_ in {"nsubj", "nsubjpass"}), None)
        before = doc[verb.i - 1]
        if subject is None or before.pos_ not in NOUNS or before.i == subject.i:
            continue
        if any(c.dep_ in {"dobj", "aux", "auxpass", "neg"} for c in verb.children):
            continue
        if not subject.i < before.i <= subject.right_edge.i:
            continue
        if tag == "VBN" and (before.dep_ != "pobj" or before.head.lower_ != "with"):
            continue  # a participle tagged right: only the object of "with" ("with a board")
        heads = [t.head.i for t in doc]
        deps = [t.dep_ for t in doc]
        heads[subject.i], deps[subject.i] = subject.i, "ROOT"
        for child in verb.lefts:  # what stood before the verb belongs to the phrase
            if child.i != subject.i:
                heads[child.i] = subject.i
        heads[verb.i], deps[verb.i] = before.i, "acl"
        verb.tag_ = "VBN"
        _set_tree(doc, heads, deps)
        return doc  # one root per sentence: one repair
    return doc


#: Parts a thing or an animal has, beside ``BODY_PARTS`` and ``OWNED_PARTS``: "preening its
#: feathers" keeps pigeon have feathers.
OWN_PARTS = frozenset(
    """
    feather feathers torso hand hands arm arms finger fingers hair skin roof door doors wheel
    wheels window windows handle lid screen
    """.split()
)


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


@needs(
    lambda v: (
        "," in v.words
        and not v.deps.isdisjoint({"nmod", "compound", "amod"})
        and any(  # a noun modifier right before a comma, hung on a word after it
            v.lower[i + 1] == ","
            and v.dep[i] in {"nmod", "compound", "amod"}
            and v.pos[i] in NOUNS
            and v.head[i] > i + 1
            for i in range(len(v.dep) - 1)
        )
    )
)
def repair_comma_compound(doc: Doc) -> Doc:
    """ "sunset, beach, nofilter", "wedding, bride, groom": the model reads a list of keywords
    as one noun compound (sunset/nmod beach/nmod nofilter). A noun right before a comma is
    no modifier of a noun after it: it is an item of the list (a conjunct)."""
    heads: list[int] = []
    deps: list[str] = []
    for tok in doc[:-1]:
        if tok.dep_ not in {"nmod", "compound", "amod"} or tok.pos_ not in NOUNS:
            continue
        if doc[tok.i + 1].text != "," or tok.head.i <= tok.i + 1:
            continue
        if not heads:
            heads.extend(t.head.i for t in doc)
            deps.extend(t.dep_ for t in doc)
        deps[tok.i] = "conj"
    if heads:
        _set_tree(doc, heads, deps)
    return doc


def _adjective_list_root(v) -> bool:
    """An adjective first in the caption (after an article or an adverb) as its root, with a
    conjunct."""
    k = 0
    while k < len(v.dep) and v.dep[k] in LEADING_DEPS:
        k += 1
    return (
        k < len(v.dep) - 3
        and v.dep[k] == "ROOT"
        and v.pos[k] in ADJECTIVE_ROOT_POS
        and not v.deps.isdisjoint(LIST_NOUN_DEPS)
    )


#: Words before the first adjective of the list: an article, an adverb ("predominantly
#: grey"). Not an adjective of the first one ("blue silver and black backpack"): that made a
#: caption of the test split worse under ``sgprep eval``.
LEADING_DEPS = frozenset({"det", "advmod"})
#: What the first adjective of a caption can be tagged: a colour word may be a noun.
ADJECTIVE_ROOT_POS = frozenset({"ADJ", "PROPN", "NOUN"})
#: How the model hangs the noun after a list of adjectives on the list's last adjective
#: ("grey and black sneakers": conj; "mostly grey , concrete , tall towers": dobj).
LIST_NOUN_DEPS = frozenset({"conj", "dobj", "appos"})


@needs(_adjective_list_root)
def repair_adjective_list_root(doc: Doc) -> Doc:
    """ "grey and black sneakers on the feet of a person", "blue and tan skateboard under
    ...", "predominantly grey , concrete , tall buildings with windows": the model reads the
    first of the coordinated adjectives as the caption's root and the noun as the last
    conjunct of their list (or an apposition or object: "a grey , carpeted floor"), so the
    noun loses the adjectives before its own, and the root's phrases ("on the feet") start
    from an adjective. The noun is the root, the first adjective (with the adjectives
    coordinated with it) modifies it, and the phrases of the list's adjectives are the
    noun's."""
    k = 0
    while k < len(doc) - 1 and doc[k].dep_ in LEADING_DEPS:
        k += 1
    root = doc[k]
    if root.pos_ != "ADJ" and not (root.pos_ in NOUNS and is_colour(root)):
        return doc
    if any(doc[i].head.i != root.i for i in range(k)):
        return doc  # the words before it are its own
    chain, noun = [root], None
    while noun is None:
        conj = min(
            (c for a in chain for c in a.children if c.dep_ in LIST_NOUN_DEPS and c not in chain),
            key=lambda c: c.i,
            default=None,
        )
        if conj is None:
            return doc
        if conj.pos_ in NOUNS and not is_colour(conj):
            noun = conj
        elif conj.dep_ != "conj":
            return doc
        elif conj.pos_ == "ADJ" or is_colour(conj):
            chain.append(conj)
        else:
            return doc
    mine = set(chain)
    for t in doc[root.i + 1 : noun.i]:
        if not (
            t in mine
            or (t.dep_ in {"cc", "punct"} and t.head in mine)
            or (t.head == noun and t.dep_ == "advmod")
            or (
                t.head == noun
                and t.dep_ in {"amod", "compound"}
                and (t.pos_ == "ADJ" or t.tag_ == "VBN" or is_colour(t))
            )
        ):
            return doc
    heads = [t.head.i for t in doc]
    deps = [t.dep_ for t in doc]
    for adjective in chain:  # their phrases and punctuation after the noun
        for child in adjective.children:
            if child.i > noun.i:
                heads[child.i] = noun.i
    heads[noun.i], deps[noun.i] = noun.i, "ROOT"
    heads[root.i], deps[root.i] = noun.i, "amod"
    for i in range(root.i):
        if heads[i] == root.i and deps[i] == "det":
            heads[i] = noun.i
    _set_tree(doc, heads, deps)
    return doc


def _worn_conjunct_test(v) -> bool:
    """An "in" phrase and, after it, a coordinator hung on the same word."""
    if "in" not in v.words or "cc" not in v.deps or "conj" not in v.deps:
        return False
    dep, head, lower = v.dep, v.head, v.lower
    heads = {head[i] for i in range(len(dep)) if lower[i] == "in" and dep[i] == "prep"}
    return any(dep[j] == "cc" and head[j] in heads for j in range(len(dep)))


@needs(_worn_conjunct_test)
def repair_worn_conjunct(doc: Doc) -> Doc:
    """ "a man in a dark shirt and beige cap in the stands": the model hangs the second worn
    thing on the person, as a second person ("cap in stands", no "man wear cap"). A worn
    thing coordinated with a person right after that person's "in <worn thing>" phrase is
    the phrase's second object; the phrases after it are the person's ("man in stands")."""
    heads: list[int] = []
    for prep in doc:
        if prep.lower_ != "in" or prep.dep_ != "prep":
            continue
        person = prep.head
        if person.lower_ not in PERSON_NOUNS and person.lemma_.lower() not in PERSON_NOUNS:
            continue
        worn = next((c for c in prep.children if c.dep_ == "pobj"), None)
        if worn is None or worn.lemma_.lower() not in CLOTHING:
            continue
        end = prep.right_edge.i
        if end + 2 >= len(doc) or doc[end + 1].dep_ != "cc" or doc[end + 1].head != person:
            continue
        conj = next((c for c in person.children if c.dep_ == "conj" and c.i > end), None)
        if (
            conj is None
            or conj.lemma_.lower() not in CLOTHING
            or any(doc[k].dep_ not in {"det", "amod", "compound"} for k in range(end + 2, conj.i))
        ):
            continue
        _move(doc, heads, end + 1, worn.i)
        _move(doc, heads, conj.i, worn.i)
        _move_phrases(doc, heads, conj, person)
    if heads:
        _set_tree(doc, heads, [t.dep_ for t in doc])
    return doc


#: Verbs whose participle a colour completes: the colour is the result on the thing ("the
#: boat is painted white", "a structure painted yellow").
COLOURING_VERBS = frozenset({"paint", "repaint", "dye", "tint", "colour", "color", "stain"})


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


def _comma_list_after_phrase(v) -> bool:
    """A "with" / "in" phrase, a comma and a conjunct."""
    return "conj" in v.deps and "," in v.words and ("with" in v.words or "in" in v.words)


@needs(_comma_list_after_phrase)
def repair_comma_list_after_phrase(doc: Doc) -> Doc:
    """ "an entertainment center with a television , dvd player , and decorations": the model
    hangs the second item of the list on the center, as a second center ("dvd player" with
    no relation). A bare noun (no article, no phrase or clause of its own) coordinated with
    the phrase's owner right after the comma that ends a "with" / "in" phrase, with a list
    of its own going on ("and" or another item), is the phrase's next object, and so are
    the items coordinated with it. A second item with an article
    ("a kitchen with a table , a sofa and ...") may be a second thing like the owner: left."""
    heads: list[int] = []
    for prep in doc:
        if prep.dep_ != "prep" or prep.lower_ not in LIST_PREPOSITIONS:
            continue
        owner = prep.head
        pobj = next((c for c in prep.children if c.dep_ == "pobj"), None)
        if pobj is None or owner.pos_ not in NOUNS or pobj.pos_ not in NOUNS:
            continue
        comma = prep.right_edge.i + 1
        if comma + 1 >= len(doc) or doc[comma].text != "," or doc[comma].head.i != owner.i:
            continue
        second = next(
            (c for c in owner.children if c.dep_ == "conj" and c.left_edge.i == comma + 1), None
        )
        if (
            second is None
            or second.pos_ != "NOUN"
            or any(c.dep_ in {"det", "poss", "prep", "acl", "relcl"} for c in second.children)
            or not any(c.dep_ in {"cc", "conj"} for c in second.children)  # a list goes on
        ):
            continue
        _move(doc, heads, second.i, pobj.i)
        _move(doc, heads, comma, pobj.i)
    if heads:
        _set_tree(doc, heads, [t.dep_ for t in doc])
    return doc


@needs(
    lambda v: "VBN" in v.tags and "with" in v.words and ("nsubj" in v.deps or "nsubjpass" in v.deps)
)
def repair_participle_root(doc: Doc) -> Doc:
    """ "an old fashioned vehicle with a surfboard mounted on its roof": the model tags the
    participle right (VBN) but still makes it the root of a sentence with no auxiliary, the
    phrase's first noun its subject (vehicle mount on roof). The same repair as for a past
    tense (:func:`repair_participle_read_as_past`), where the noun before it is the object
    of "with": it is that noun's (surfboard mount on roof). "the surfboard is mounted on
    its roof" has its auxiliary: left."""
    return repair_participle_read_as_past(doc, "VBN")


#: Where a colour the model reads as a noun sits inside the noun phrase after it.
_PHRASE_DEPS = frozenset({"amod", "compound", "npadvmod", "punct", "cc", "conj", "nmod"})


def _colour_nouns(v) -> list[int]:
    """Where a colour is tagged as a singular noun."""
    if v.words.isdisjoint(COLOURS):
        return []
    return [i for i, (w, t) in enumerate(zip(v.lower, v.tag)) if t in _NOUN_TAGS and w in COLOURS]


_NOUN_TAGS = frozenset({"NN", "NNP"})


@needs(lambda v: bool(_colour_nouns(v)))
def repair_colour_noun(doc: Doc) -> Doc:
    """ "white painted wall in a bedroom", "orange led letters", "a black, brown and white
    goat": the model reads a colour before a participle or as the last of a list of
    colours as a noun (NNP or NN: an adverbial noun, an adjective-noun, a conjunct), which
    makes it a thing of its own ("white") and keeps it in the name ("white painted wall").
    A colour noun with no article, owner or phrase of its own, inside the phrase of a noun
    after it (only modifiers between them), is that noun's adjective: wall is white."""
    heads, deps, changed = None, None, []
    for tok in doc:
        if (
            tok.tag_ not in _NOUN_TAGS
            or tok.lower_ not in COLOURS
            or tok.pos_ not in NOUNS
            or tok.dep_ not in {"amod", "npadvmod", "conj"}
            or any(c.dep_ in {"det", "poss", "prep", "compound"} for c in tok.children)
        ):
            continue
        if tok.dep_ == "conj":  # "black, brown and white": the list's first is an adjective
            first = tok.head
            while first.dep_ == "conj" and first.head.i < first.i:
                first = first.head
            if first.pos_ != "ADJ" or first.dep_ != "amod":
                continue
            noun = first.head
        else:
            noun, steps = tok.head, len(doc)
            while noun.pos_ not in NOUNS and noun.dep_ in {"amod", "compound"} and steps:
                noun, steps = noun.head, steps - 1
        if noun.pos_ not in NOUNS or noun.i <= tok.i:
            continue
        if any(doc[j].dep_ not in _PHRASE_DEPS for j in range(tok.i + 1, noun.i)):
            continue
        if heads is None:
            heads, deps = [t.head.i for t in doc], [t.dep_ for t in doc]
        if tok.dep_ != "conj":
            heads[tok.i], deps[tok.i] = noun.i, "amod"
        changed.append(tok.i)
    if changed:
        _set_tree(doc, heads, deps)
        for i in changed:
            doc[i].pos_, doc[i].tag_ = "ADJ", "JJ"
    return doc


#: Prepositions of place before which an "-ing" word and a bare noun are a noun phrase
#: ("on folding chairs"), not a gerund clause ("by holding hands" is left).
_GERUND_PLACES = SUPPORT_PREPOSITIONS | frozenset(
    "into onto under over above below behind beside near underneath beneath against".split()
)


def _gerund_modifiers(v) -> list[tuple[int, int, int, int]]:
    """(preposition, adjective or -1, -ing word, noun) where the model reads "on folding
    chairs" as a gerund with an object."""
    found = []
    for i, (tag, dep) in enumerate(zip(v.tag, v.dep)):
        if tag != "VBG" or i + 1 >= len(v) or v.dep[i + 1] != "dobj" or v.head[i + 1] != i:
            continue
        if v.pos[i + 1] not in NOUNS:
            continue
        if dep == "pcomp" and v.lower[v.head[i]] in _GERUND_PLACES:
            found.append((v.head[i], -1, i, i + 1))
        elif (  # "sit on black folding chairs": black/pobj, folding/advcl
            dep in {"advcl", "acl", "conj", "xcomp"}
            and i > 0
            and v.pos[i - 1] == "ADJ"
            and v.dep[i - 1] == "pobj"
            and v.lower[v.head[i - 1]] in _GERUND_PLACES
        ):
            found.append((v.head[i - 1], i - 1, i, i + 1))
    return found


@needs(lambda v: "VBG" in v.tags and "dobj" in v.deps and bool(_gerund_modifiers(v)))
def repair_gerund_modifier(doc: Doc) -> Doc:
    """ "people sitting on folding chairs on the lawn", "an object sitting on cutting pad",
    "sit on black folding chairs": after a preposition of place, the model reads an "-ing"
    word and the bare noun right after it as a gerund and its object (folding -dobj->
    chairs), so the verb before lost its place (no "people sit on chairs") or got a made-up
    object ("kid fold chairs"). The "-ing" word, with no subject, auxiliary or adverb of its
    own, is the noun's modifier and the noun the preposition's object (chairs is folding);
    an adjective the model made the object ("black") is the noun's too. The "-ing" word's
    other phrases are the noun's. Not after "by", "for", "after", ... ("by holding hands")."""
    heads, deps, changed = None, None, False
    for prep, adjective, gerund, noun in _gerund_modifiers(DocView(doc)):
        kids = list(doc[gerund].children)
        if any(c.dep_ in {"nsubj", "aux", "advmod", "neg", "mark"} or c.i < gerund for c in kids):
            continue
        if adjective >= 0 and any(True for _ in doc[adjective].children):
            continue
        if heads is None:
            heads, deps = [t.head.i for t in doc], [t.dep_ for t in doc]
        heads[noun], deps[noun] = prep, "pobj"
        heads[gerund], deps[gerund] = noun, "amod"
        if adjective >= 0:
            heads[adjective], deps[adjective] = noun, "amod"
        for c in kids:
            if c.i != noun:
                heads[c.i] = noun
        changed = True
    if changed:
        _set_tree(doc, heads, deps)
    return doc


#: Base forms of a verb that a singular noun right before them cannot be the subject of.
_BASE_VERB_TAGS = frozenset({"VB", "VBP"})
#: Nouns of writing: the word after one is what is written ("the word stop on a sign").
_MENTION_NOUNS = frozenset("word words letter letters text phrase name label writing".split())


def _noun_read_as_verb(
    v, nouns: frozenset[str], modifiers: frozenset[str] = frozenset()
) -> list[int]:
    """A base-form verb, a word the lemmatizer's tables know as a noun, right after a
    singular common noun that is its subject."""
    if v.tags.isdisjoint(_BASE_VERB_TAGS) or "nsubj" not in v.deps:
        return []
    return [
        i
        for i in range(1, len(v))
        if v.tag[i] in _BASE_VERB_TAGS
        and v.pos[i] == "VERB"
        and v.dep[i - 1] == "nsubj"
        and v.head[i - 1] == i
        and v.tag[i - 1] == "NN"
        and v.lower[i] in nouns
    ]


@needs(_noun_read_as_verb)
def repair_noun_read_as_verb(doc: Doc, nouns: frozenset[str], modifiers: frozenset[str]) -> Doc:
    """ "a brown teddy bear with a red shirt", "the words surf rescue on a surfboard", "word
    stop on sign": the small model reads the second noun of a name as a present-tense verb
    (bear/VBP) whose subject is the first (teddy bear with shirt, surf rescue on
    surfboard). A verb in its base form cannot take a singular noun as its subject, so one
    right after such a noun, a word the lemmatizer's tables know as a noun, with no object,
    auxiliary, negation or other subject of its own, is the head noun of the name and the
    first noun its modifier; the name takes the verb's place in the sentence ("a dog sit
    on the grass": "sit" is no noun, left). A collective or a noun with a phrase of its own ("a crowd
    of people watch", "kid and mom sit") agrees in the plural: left."""
    heads, deps, changed = None, None, []
    for i in _noun_read_as_verb(DocView(doc), nouns):
        verb, noun = doc[i], doc[i - 1]
        if any(c.dep_ in {"conj", "cc", "prep", "acl", "relcl"} for c in noun.children):
            continue
        if any(
            c.dep_ in {"dobj", "obj", "aux", "auxpass", "neg", "nsubj", "nsubjpass", "mark"}
            and c.i != noun.i
            for c in verb.children
        ):
            continue
        if noun.lower_ in QUANTITY_NOUNS or noun.lower_ in PERSON_NOUNS:
            continue  # "a crowd watch", "a couple sit": a group
        if noun.lower_ in _MENTION_NOUNS:
            continue  # "word stop on sign": the word is "stop", no "word stop"
        if heads is None:
            heads, deps = [t.head.i for t in doc], [t.dep_ for t in doc]
        for c in noun.children:  # the article and adjectives are the name's
            heads[c.i] = i
        heads[noun.i], deps[noun.i] = i, "compound"
        if verb.dep_ == "ROOT":
            deps[i] = "ROOT"
        changed.append(i)
    if changed:
        _set_tree(doc, heads, deps)
        for i in changed:
            doc[i].pos_, doc[i].tag_, doc[i].lemma_ = "NOUN", "NN", doc[i].lower_
    return doc


def _subject_read_as_modifier(v, nouns: frozenset[str], modifiers: frozenset[str]) -> int | None:
    """Where a caption's first word, a noun, is read as a modifier of the verb after it."""
    first = next((i for i, p in enumerate(v.pos) if p not in {"DET", "PUNCT", "SPACE"}), None)
    if first is None or v.pos[first] not in {"ADJ", "ADV"} or v.dep[first] not in _MODIFIER_DEPS:
        return None
    word, root = v.lower[first], v.head[first]
    if word not in nouns or word in modifiers or root <= first:
        return None
    if v.dep[root] != "ROOT" or v.tag[root] not in _ROOT_VERB_TAGS:
        return None
    return first


_MODIFIER_DEPS = frozenset({"advmod", "amod", "npadvmod"})
_ROOT_VERB_TAGS = frozenset({"VBD", "VBG", "VBN", "VBZ", "VBP"})


@needs(lambda v, nouns, modifiers: _subject_read_as_modifier(v, nouns, modifiers) is not None)
def repair_subject_read_as_modifier(
    doc: Doc, nouns: frozenset[str], modifiers: frozenset[str]
) -> Doc:
    """ "seaweed washed up on shore", "skateboarder doing tricks": the model reads a caption's
    first word, a noun it does not know, as an adverb or adjective of the verb after it, and
    the verb has no subject. A word the lemmatizer's tables know only as a noun, modifying a
    root verb that has no subject, is that verb's subject (``modifier_subjects``; the root
    read as an adjective itself is :func:`sgprep.parse.rules_repair.repair_noun_root`)."""
    from sgprep.parse.rules_view import DocView

    first = _subject_read_as_modifier(DocView(doc), nouns, modifiers)
    if first is None:
        return doc
    noun, verb = doc[first], doc[first].head
    if any(c.dep_ in {"nsubj", "nsubjpass", "expl", "csubj"} for c in verb.children):
        return doc
    noun.pos_, noun.tag_ = "NOUN", "NNS" if noun.lower_.endswith("s") else "NN"
    deps = [t.dep_ for t in doc]
    deps[first] = "nsubj"
    _set_tree(doc, [t.head.i for t in doc], deps)
    return doc


def _subjects_read_as_verbs(v, nouns: frozenset[str], verbs: frozenset[str]) -> list[int]:
    """Tokens tagged VBZ with a subordinator of their own ("while", "as"), written as the
    plural of a noun the tables know, whose object right after them is a bare verb."""
    if "VBZ" not in v.tags or "mark" not in v.deps or "dobj" not in v.deps:
        return []
    tag, dep, head, lower = v.tag, v.dep, v.head, v.lower
    return [
        i
        for i in range(1, len(tag) - 1)
        if tag[i] == "VBZ"
        and dep[i - 1] == "mark"
        and head[i - 1] == i
        and tag[i + 1] == "NN"
        and dep[i + 1] == "dobj"
        and head[i + 1] == i
        and lower[i + 1] in verbs
        and _plural_of(lower[i], nouns)
    ]


def _plural_of(word: str, nouns: frozenset[str]) -> str | None:
    """The noun of the tables that ``word`` is the regular plural of ("seagulls" -> seagull,
    "bushes" -> bush); None where it is none."""
    if not word.endswith("s") or word.endswith("ss"):
        return None
    for stem in (word[:-1], word[:-2] if word.endswith("es") else ""):
        if stem and stem in nouns:
            return stem
    return None


@needs(lambda v, nouns, verbs: bool(_subjects_read_as_verbs(v, nouns, verbs)))
def repair_subject_read_as_verb(doc: Doc, nouns: frozenset[str], verbs: frozenset[str]) -> Doc:
    """ "a fisherman pulls a net out of the water while seagulls circle above": in a clause
    opened by a subordinator, the small model reads the clause's subject, a plural noun, as
    its verb (seagulls/VBZ) and the verb after it, a word that is also a noun, as that verb's
    object (circle/NN), which made "fisherman seagull circle". A word tagged VBZ right after
    its own subordinator, with no subject, the plural of a noun the tables know, whose
    object right after it is a bare verb of the tables (no article or modifier of its own),
    is the clause's subject, and that object its verb in the present tense: seagulls circle
    above. A verb with a subject or an object that has an article is left ("while it
    circles the lake", "as he sets a table")."""
    heads, deps, changed = None, None, []
    for i in _subjects_read_as_verbs(DocView(doc), nouns, verbs):
        subject, verb = doc[i], doc[i + 1]
        if any(c.dep_ in {"nsubj", "nsubjpass", "expl", "aux", "neg"} for c in subject.children):
            continue
        if any(True for _ in verb.children):
            continue  # "while seagulls circle" is bare; "while he paints a red circle" is not
        if heads is None:
            heads, deps = [t.head.i for t in doc], [t.dep_ for t in doc]
        heads[verb.i], deps[verb.i] = heads[i] if heads[i] != i else verb.i, deps[i]
        heads[i], deps[i] = verb.i, "nsubj"
        for c in subject.children:  # the subordinator and what follows are the verb's
            if c.dep_ == "mark" or c.i > verb.i:
                heads[c.i] = verb.i
        changed.append(i)
    if changed:
        _set_tree(doc, heads, deps)
        for i in changed:
            subject, verb = doc[i], doc[i + 1]
            subject.pos_, subject.tag_ = "NOUN", "NNS"
            subject.lemma_ = _plural_of(subject.lower_, nouns) or subject.lower_
            verb.pos_, verb.tag_, verb.lemma_ = "VERB", "VBP", verb.lower_
    return doc


#: Subordinators the small model reads as a preposition before the clause's subject ("as a
#: referee watches"); "after", "before" and "until" are prepositions as often, left out.
_SUBORDINATORS = frozenset({"as", "while", "whilst"})
_CLAUSE_VERB_TAGS = frozenset({"VBZ", "VBP", "VBD"})


def _subordinators_read_as_prepositions(v) -> list[int]:
    if "prep" not in v.deps or v.words.isdisjoint(_SUBORDINATORS):
        return []
    if v.tags.isdisjoint(_CLAUSE_VERB_TAGS):
        return []
    return [i for i in range(len(v.dep)) if v.lower[i] in _SUBORDINATORS and v.dep[i] == "prep"]


def _disagree(subject, verb) -> bool:
    """Whether a present-tense verb cannot have ``subject`` by number ("a yacht ... lean",
    "<PERSON> and <PERSON> ... plays")."""
    if verb.tag_ not in {"VBZ", "VBP"}:
        return False
    if subject.tag_ in {"NNS", "NNPS"} or any(c.dep_ == "conj" for c in subject.children):
        plural = True
    elif subject.tag_ in {"NN", "NNP"}:
        plural = False
    else:
        return False
    return plural == (verb.tag_ == "VBZ")


@needs(lambda v, roots=False: bool(_subordinators_read_as_prepositions(v)))
def repair_subordinator_read_as_preposition(doc: Doc, roots: bool = False) -> Doc:
    """ "two wrestlers push against each other as a referee in a silk robe watches closely",
    "a goalkeeper dives to his left as the striker watches": the small model reads "as" (or
    "while") opening a clause as a preposition, with the clause's subject as its object and
    the clause's verb hung on the main verb with no subject (referee/pobj, watches/advcl: "push
    as referee", no "referee watch"), or with the clause's verb itself as its object
    (watches/pobj). The word is the clause's subordinator: the noun, where only its own
    phrase stands between it and a finite verb with no subject hung on a word above the "as",
    is that verb's subject; a finite verb with its own subject that is the object of
    "as" is a clause of the word "as" hung on.

    With ``roots`` (the ``as_roots`` family), a clause the model made the root, with the main
    clause's subject as its own ("a yacht heels over in the wind as its crew lean out over the
    side": crew/pobj, yacht/nsubj of lean), is the clause of its own subject: the noun after
    "as" is the verb's subject, and the main clause's subject, above the "as", is a root of its
    own with its phrase, the clause hung on it (no "yacht lean out"). Only where the verb
    disagrees in number with that subject: "a boy dressed as a pirate waves a flag" (the boy
    waves) is left."""
    heads, deps = None, None
    for i in _subordinators_read_as_prepositions(DocView(doc)):
        word = doc[i]
        pobj = next((c for c in word.children if c.dep_ == "pobj"), None)
        if pobj is None or word.head.i == word.i:
            continue
        verb = None
        if pobj.tag_ in _CLAUSE_VERB_TAGS:
            if not any(c.dep_ in {"nsubj", "nsubjpass"} for c in pobj.children):
                continue
            verb, subject = pobj, None
        elif pobj.pos_ in NOUNS:
            end = pobj.right_edge.i + 1
            if end >= len(doc):
                continue
            after = doc[end]
            if roots and after.dep_ == "ROOT" and after.tag_ in _CLAUSE_VERB_TAGS:
                main = next((c for c in after.children if c.dep_ == "nsubj"), None)
                if main is None or main.i > i or not any(a.i == main.i for a in word.ancestors):
                    continue
                if not _disagree(main, after):
                    continue  # "a boy dressed as a pirate waves a flag": the boy waves
                if heads is None:
                    heads, deps = [t.head.i for t in doc], [t.dep_ for t in doc]
                heads[main.i], deps[main.i] = main.i, "ROOT"
                heads[after.i], deps[after.i] = main.i, "advcl"
                heads[pobj.i], deps[pobj.i] = after.i, "nsubj"
                heads[i], deps[i] = after.i, "mark"
                continue
            if (
                after.tag_ not in _CLAUSE_VERB_TAGS
                or after.dep_ not in {"advcl", "conj"}
                or not any(a.i == after.head.i for a in word.ancestors)
                or any(c.dep_ in {"nsubj", "nsubjpass", "expl", "csubj"} for c in after.children)
            ):
                continue
            verb, subject = after, pobj
        if verb is None:
            continue
        if heads is None:
            heads, deps = [t.head.i for t in doc], [t.dep_ for t in doc]
        if subject is None:
            heads[verb.i], deps[verb.i] = word.head.i, "advcl"
        else:
            heads[subject.i], deps[subject.i] = verb.i, "nsubj"
            deps[verb.i] = "advcl"
        heads[i], deps[i] = verb.i, "mark"
    if heads is not None:
        _set_tree(doc, heads, deps)
        for tok in doc:
            if tok.dep_ == "mark" and tok.lower_ in _SUBORDINATORS:
                tok.pos_ = "SCONJ"
    return doc
