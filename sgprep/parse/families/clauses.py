"""Rule families: sentence and clause structure: relative, participial and subordinate clauses,
their subjects, coordination.

Each family is declared in :data:`FAMILIES` (what it does, and where it hooks in: see
:mod:`sgprep.parse.families.base`), the code it adds above it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sgprep.lexicon import words
from sgprep.parse.families.base import Family, Repair
from sgprep.parse.rules_lexicon import CLOTHING, NOUNS, PERSON_ACTIONS, VERBS
from sgprep.parse.rules_long import _animate, _move, participle_doers
from sgprep.parse.rules_relations import OWN_BODY
from sgprep.parse.rules_repair import (
    ANIMALS,
    LIST_PREPOSITIONS,
    PERSON_PARTS,
    LazyHeads,
    _is_person,
    _set_tree,
)
from sgprep.parse.rules_view import DocView, acl_participles, conjuncts, needs

if TYPE_CHECKING:
    from spacy.tokens import Token
if TYPE_CHECKING:
    from spacy.tokens import Doc


SMALL_CLAUSE_DEPS = frozenset({"ccomp"})

#: Verbs whose subject a framing noun can be ("the view of the city is stunning").
_COPULAS = words("framing_copulas")


#: Framing nouns that name no object: a "photo" or a "painting" of something can hang on a
#: wall, a close-up or a view cannot.
_VIEW_FRAMES = frozenset({"close-up", "closeup", "view"})


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


def opening_frame(builder, tok: Token) -> bool:
    """ "close-up of a potter shaping a vase ... as the light falls", "aerial view of a
    ship leaving the port as tugboats guide it": a framing noun that opens the caption,
    with only its own article and modifiers before it, frames it even where the model
    made it the subject of a later clause's verb instead of the root (``frames``)."""
    if builder.view.dep[tok.i] not in {"nsubj", "nsubjpass"} or tok.head.lemma_ in _COPULAS:
        return False  # "the view of the city is stunning": the view is
    if builder.view.lower[tok.i] not in _VIEW_FRAMES:
        return False  # "a painting of a horse hangs on the wall": a thing that hangs
    start = next((j for j in range(builder.skip, tok.i) if builder.view.pos[j] != "PUNCT"), tok.i)
    return tok.left_edge.i <= start


def small_clauses(builder) -> None:
    """ "a crowd watches the bikers come down the road": the verb perceives or causes what its
    object does (:meth:`sgprep.parse.rules_relations.RelationRules._small_clause`)."""
    if "ccomp" in builder.view.deps:
        for tok in builder._with_dep(SMALL_CLAUSE_DEPS):
            builder._small_clause(tok)


def purpose_clause(builder, verb) -> bool:
    """ "climbs a ladder to rescue a kitten": who climbs, rescues (not the ladder)."""
    return (
        builder.view.dep[verb.i] in {"acl", "relcl"}
        and verb.head.dep_ == "dobj"
        and verb.head.head.pos_ in VERBS
        and any(c.dep_ == "aux" and c.tag_ == "TO" for c in builder.kids[verb.i])
    )


def doers(builder, verb) -> list:
    """ "a man and a woman sitting on a deck": every conjunct does the participle."""
    return participle_doers(verb)


def listed_parts(rules, owner, owned) -> None:
    """ "cow's eyes, nose and mouth": a plain list of body parts after the first is the
    owner's too (no determiner or owner of its own, no verb or phrase between)."""
    for other in rules._conjuncts(owned):
        between = rules.view.pos[owned.i + 1 : other.i]
        if (
            other.i > owned.i
            and other.lower_ in OWN_BODY
            and not any(c.dep_ in {"det", "poss"} for c in rules.kids[other.i])
            and not {"VERB", "AUX", "ADP"} & set(between)  # a plain list
        ):
            rules._add(owner, "have", rules._entity(other))


def after_comma(rules, prep) -> bool:
    """ ", with a yellow umbrella over the cart": a phrase after a comma sets a scene of its
    own."""
    return prep.i > 0 and rules.view.lower[prep.i - 1] == ","


FAMILIES = (
    Family(
        "clauses",
        about="""Sentence and clause structure (relative and participial clauses, coordinated
        clauses, subjects shared across them).""",
        repairs=(Repair(repair_participle_on_part), Repair(repair_participle_on_thing)),
        builder={"purpose_clause": purpose_clause},
    ),
    Family(
        "subjects",
        about="""Who does a verb in a long caption when the model hangs it on the last worn
        thing of a list ("a man in a black shirt and brown shorts holding a bag") or makes
        that thing a second subject ("a woman wearing jeans and a purple shirt is watching
        ...").""",
        repairs=(
            Repair(repair_participle_on_listed_thing),
            Repair(repair_garment_read_as_subject),
        ),
    ),
    Family(
        "coordination",
        about="""A participle or relative clause after a coordination of nouns is what every
        conjunct does ("a man and a woman sitting on a deck" -> both sit on deck), and two
        noun phrases joined by "and" are two objects ("a woman with a red hat and a blue
        scarf", "a pink dress and white shoes" read as one entity).""",
        repairs=(Repair(repair_coordinated_nouns),),
        builder={"listed_parts": listed_parts, "participle_doers": doers},
    ),
    Family(
        "relatives",
        about="""A relative clause whose verb disagrees in number with the noun the model
        hangs it on is about the noun up the phrase chain that agrees ("two lamps on a table
        that are lit" -> lamps is lit), and a "who" clause on a thing is the nearest person's
        or animal's ("a dog with a vest who is wearing a lei" -> dog wear lei).""",
        repairs=(Repair(repair_relative_clause_agreement),),
    ),
    Family(
        "afterthoughts",
        about="""A participle after a comma that the model hangs on the object of a phrase is
        about the clause's subject ("<PERSON> speaks after the hearing, surrounded by cameras"
        -> cameras surround person).""",
        repairs=(Repair(repair_participle_after_comma),),
    ),
    Family(
        "as_clauses",
        about=""""as" / "while" read as a preposition before a clause's subject is the
        clause's subordinator ("wrestlers push as a referee watches" -> referee watch, no
        "push as referee").""",
        # "as a referee watches": as/prep opens a clause
        repairs=(
            Repair(repair_subordinator_read_as_preposition, lambda c: ("as_roots" in c.families,)),
        ),
    ),
    Family(
        "as_roots",
        about="""With ``as_clauses``, a clause after "as" / "while" that the model made the
        root with the main clause's subject as its own is its own subject's ("a yacht heels
        over as its crew lean out": crew lean out, no "yacht lean out").""",
    ),
    Family(
        "small_clauses",
        about="""A bare infinitive or a participle with its own subject after a verb with no
        object is what the verb perceives or causes, its subject the verb's object ("a crowd
        watches the bikers come down the road" -> crowd watch bikers).""",
        builder={"small_clauses": small_clauses},
    ),
    Family(
        "absolutes",
        about="""A "with" phrase after a comma whose object has a place phrase of its own is a
        scene of its own, not what the verb before it is done with ("a vendor selling fruit
        from a cart, with a yellow umbrella over the cart": no "vendor sell with umbrella").""",
        builder={"after_comma": after_comma},
    ),
    Family(
        "frames",
        about="""A framing noun that opens the caption ("close-up of", "aerial view of")
        frames it also where the model made it a later verb's subject ("close-up of a potter
        shaping a vase ... as the light falls": no "close-up shape vase").""",
        builder={"opening_frame": opening_frame},
    ),
)
