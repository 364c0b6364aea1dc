"""Rule families: words the small model reads as the wrong part of speech: verbs read as nouns
and nouns as verbs, participles read as roots or compounds.

Each family is declared in :data:`FAMILIES` (what it does, and where it hooks in: see
:mod:`sgprep.parse.families.base`), the code it adds above it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sgprep.lexicon import words
from sgprep.parse.families.base import Family, Repair
from sgprep.parse.rules_lexicon import ING_NOUNS, NOUNS, PERSON_NOUNS, QUANTITY_NOUNS, is_colour
from sgprep.parse.rules_repair import _set_tree
from sgprep.parse.rules_view import DocView, needs

if TYPE_CHECKING:
    from spacy.tokens import Doc


#: Determiners that say a noun phrase is singular: one on a plural head is a misread verb's.
SINGULAR_DETERMINERS = words("singular_determiners")


#: Finite verb tags: a caption that has one has its verb already.
FINITE_TAGS = frozenset({"VBZ", "VBD", "VBP", "MD"})


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


#: Verbs whose participle says how a thing is put or kept ("mounted on the wall", "lined up on
#: the sill", "gathered to see"): the small model reads such a participle after a noun phrase
#: as the past tense of a sentence whose subject is the phrase's first noun.
STATE_VERBS = words("state_verbs")


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


#: Base forms of a verb that a singular noun right before them cannot be the subject of.
_BASE_VERB_TAGS = frozenset({"VB", "VBP"})


#: Nouns of writing: the word after one is what is written ("the word stop on a sign").
_MENTION_NOUNS = words("mention_nouns")


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


def put_on_place(rules, head: int) -> bool:
    """ "a surfboard mounted on its roof": a possessive in a place phrase of a put thing."""
    return rules.view.dep[head] == "pobj"


FAMILIES = (
    Family(
        "verbs",
        about="""A sentence's verb the model read as the plural head of its subject's noun
        phrase ("a chef in a white apron slices vegetables": apron/compound slices/NNS) is the
        verb, and a participle read as a sentence's past tense is the participle of the noun
        before it ("a room with a sofa and a TV mounted on the wall" -> TV mount on wall).""",
        repairs=(
            Repair(
                repair_misread_verbs,
                lambda c: (c.verb_lemma, c.verbs, "clause_verbs" in c.families),
            ),
        ),
    ),
    Family(
        "clause_verbs",
        about="""The ``verbs`` repair of a verb in -s read as the plural head of its subject's
        phrase ("a kayaker paddles ...") also where the caption's only finite verbs are in a
        clause hung below that noun ("... while the spray rises").""",
    ),
    Family(
        "clause_subjects",
        about="""A plural noun right after "while" / "as" that the model reads as the clause's
        verb, its verb read as the object, is the clause's subject ("a fisherman pulls a net
        while seagulls circle above" -> seagulls circle, no "fisherman seagull circle").""",
        # "while seagulls circle": seagulls/VBZ
        repairs=(Repair(repair_subject_read_as_verb, lambda c: (c.words[0], c.verbs)),),
    ),
    Family(
        "noun_verbs",
        about="""A base-form verb right after a singular noun read as its subject is the head
        of a name ("a brown teddy bear with a red shirt": teddy bear, no "teddy bear with
        shirt" predicate).""",
        # "a teddy bear with a shirt": bear/VBP is a noun
        repairs=(Repair(repair_noun_read_as_verb, lambda c: c.words),),
    ),
    Family(
        "modifier_subjects",
        about="""A caption's first word that the tables know only as a noun, read as an adverb
        or adjective of the root verb after it, is that verb's subject ("seaweed washed up on
        shore", "skateboarder doing tricks").""",
        repairs=(Repair(repair_subject_read_as_modifier, lambda c: c.words),),
    ),
    Family(
        "participle_roots",
        about="""A participle of how a thing is put, tagged VBN but made the root of a
        sentence with no auxiliary, is the noun's before it ("a vehicle with a surfboard
        mounted on its roof" -> surfboard mount on roof), as ``verbs`` does for a past tense.""",
        repairs=(Repair(repair_participle_root),),
        builder={"put_on_place": put_on_place},
    ),
    Family(
        "ing_objects",
        about="""A participle the model reads as a compound of the noun's phrase is the verb
        of the noun before it ("dog herding sheep" -> dog herd sheep, not one thing "dog
        herding sheep" that is herding), and a colour before an "-ing" word is no doer ("the
        silver serving tray": tray is silver, not "silver serve tray").""",
        repairs=(
            Repair(
                repair_verb_inside_noun_phrase,
                lambda c: ("ing_objects" in c.families,),
                always=True,
            ),
        ),
    ),
)
