"""Rule families: sentence and clause structure: relative, participial and subordinate clauses,
their subjects, coordination.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sgprep.parse.families.base import Family, Repair
from sgprep.parse.rules_lexicon import NOUNS
from sgprep.parse.rules_long import _animate, _move
from sgprep.parse.rules_repair import (
    _set_tree,
    repair_coordinated_nouns,
    repair_garment_read_as_subject,
    repair_participle_on_listed_thing,
    repair_participle_on_part,
    repair_participle_on_thing,
)
from sgprep.parse.rules_view import DocView, conjuncts, needs

if TYPE_CHECKING:
    from spacy.tokens import Doc


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


FAMILIES = (
    Family(
        "clauses",
        about="""Sentence and clause structure (relative and participial clauses, coordinated
        clauses, subjects shared across them).""",
        repairs=(Repair(repair_participle_on_part), Repair(repair_participle_on_thing)),
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
    ),
    Family(
        "absolutes",
        about="""A "with" phrase after a comma whose object has a place phrase of its own is a
        scene of its own, not what the verb before it is done with ("a vendor selling fruit
        from a cart, with a yellow umbrella over the cart": no "vendor sell with umbrella").""",
    ),
    Family(
        "frames",
        about="""A framing noun that opens the caption ("close-up of", "aerial view of")
        frames it also where the model made it a later verb's subject ("close-up of a potter
        shaping a vase ... as the light falls": no "close-up shape vase").""",
    ),
)
