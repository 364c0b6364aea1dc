"""Rule families: lists: nouns and adjectives listed with commas or "and", and colours read as
nouns in them.

Each family is declared in :data:`FAMILIES` (what it does, and where it hooks in: see
:mod:`sgprep.parse.families.base`), the code it adds above it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sgprep.lexicon import words
from sgprep.parse.families.base import Family, Repair
from sgprep.parse.rules_lexicon import (
    CLOTHING,
    COLOURS,
    NOUNS,
    PERSON_NOUNS,
    SUPPORT_PREPOSITIONS,
    is_colour,
)
from sgprep.parse.rules_long import _move, _move_phrases
from sgprep.parse.rules_repair import LIST_PREPOSITIONS, _set_tree
from sgprep.parse.rules_view import DocView, needs

if TYPE_CHECKING:
    from spacy.tokens import Doc


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
_GERUND_PLACES = SUPPORT_PREPOSITIONS | words("gerund_place_prepositions")


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


FAMILIES = (
    Family(
        "lists",
        about="""A noun before a comma is an item of a list, not a modifier of the noun after
        the comma ("sunset, beach, nofilter": three keywords, not one compound).""",
        repairs=(Repair(repair_comma_compound),),
    ),
    Family(
        "adjective_roots",
        about="""Two coordinated adjectives that open the caption, the first read as its root
        ("grey and black sneakers on the feet of a person"), both describe the noun, and the
        root's phrases are the noun's.""",
        repairs=(Repair(repair_adjective_list_root),),
    ),
    Family(
        "worn_lists",
        about="""A worn thing the model makes a person's conjunct right after that person's
        "in <worn thing>" phrase is a second worn thing ("a man in a dark shirt and beige cap
        in the stands" -> man wear cap, man in stands).""",
        repairs=(Repair(repair_worn_conjunct),),
    ),
    Family(
        "shared_lists",
        about="""A bare noun after the comma ending a "with" / "in" phrase, read as a second
        owner, is the next item of the phrase's list ("a center with a television , dvd player
        , and decorations" -> center with player, center with decorations).""",
        repairs=(Repair(repair_comma_list_after_phrase),),
    ),
    Family(
        "colour_nouns",
        about="""A colour the model reads as a noun inside the phrase of a noun after it
        (before a participle, last of a list of colours) is that noun's adjective ("white
        painted wall" -> wall is white, no "white" thing).""",
        repairs=(Repair(repair_colour_noun),),
    ),
    Family(
        "gerund_nouns",
        about="""An "-ing" word and a bare noun after a preposition of place, read by the
        model as a gerund and its object, are a noun and its modifier ("people sitting on
        folding chairs" -> people sit on chairs, chairs is folding; no "people fold chairs").""",
        repairs=(Repair(repair_gerund_modifier),),
    ),
)
