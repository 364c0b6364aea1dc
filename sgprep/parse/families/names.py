"""Rule families: what an entity is and is named: its span, its attributes, counts, colours,
parts, negation and the pronouns that stand for it.

Each family is declared in :data:`FAMILIES` (what it does, and where it hooks in: see
:mod:`sgprep.parse.families.base`), the code it adds above it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sgprep.lexicon import words
from sgprep.parse import rules_lexicon as lex
from sgprep.parse.families.base import Family, Repair
from sgprep.parse.rules_draft import EntityDraft
from sgprep.parse.rules_lexicon import CLOTHING, ING_NOUNS, NOUNS, PERSON_NOUNS, SCENERY
from sgprep.parse.rules_long import (
    colour_result,
    is_shade_of_next,
    part_adjective,
    redundant_possession,
    shade_of,
)
from sgprep.parse.rules_repair import ANIMALS, BODY_PARTS, OWNED_PARTS, LazyHeads, _set_tree
from sgprep.parse.rules_view import DocView, acl_participles, needs

if TYPE_CHECKING:
    from spacy.tokens import Token
if TYPE_CHECKING:
    from spacy.tokens import Doc


VERBS_POS = frozenset({"VERB"})
#: Adverbs of degree: they grade a participle ("partly eaten"), they do not say how it was
#: done, so they are no part of its attribute (family ``manner``).
DEGREE_ADVERBS = words("degree_adverbs")
#: Words that deny what a verb or a determiner says (family ``negation``).
NEGATIONS = frozenset({"no", "not", "n't", "never"})


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


def drop_denied(builder) -> None:
    """ "a tree with no leaves", "has no visible label": a noun whose determiner is "no",
    with only adjectives between, names nothing in the scene; nor do its relations. A
    noun modifier between keeps it ("a no parking sign" is a sign). So is the object of a
    denied verb ("a man not wearing a shirt")."""
    view = builder.view
    for i in [i for i in builder.entities if i not in builder.quoted]:
        if view.dep[i] == "dobj" and builder._negated(builder.tokens[view.head[i]]):
            del builder.entities[i]
            continue
        for det in builder.kids[i]:
            if (
                det.i < i
                and view.dep[det.i] == "det"
                and view.lower[det.i] == "no"
                and all(view.pos[k] == "ADJ" for k in range(det.i + 1, i))
            ):
                del builder.entities[i]
                break


def manner_of(builder, word: Token) -> Token | None:
    """ "oddly" in "an oddly shaped doughnut", "well" in "a well dressed woman": an adverb
    of manner right before a participle, hung on it. The participle alone says little
    ("shaped", "dressed"); the adverb says how, so the two are one attribute. An adverb
    of degree ("partly eaten", "fully grown") grades it and stays out, as it does for an
    adjective ("very large")."""
    i, view = word.i, builder.view
    if i == 0 or not (
        view.tag[i] == "VBN" or (view.pos[i] == "ADJ" and view.lower[i].endswith("ed"))
    ):
        return None
    adverb = builder.tokens[i - 1]
    if (
        view.head[i - 1] != i
        or view.dep[i - 1] != "advmod"
        or view.pos[i - 1] != "ADV"
        or view.lower[i - 1] in DEGREE_ADVERBS
        or not (view.lower[i - 1].endswith("ly") or view.lower[i - 1] == "well")
    ):
        return None
    return adverb


def part_entities(builder) -> None:
    """ "a red haired girl": the hair is an entity of its own with the colour (the girl has
    it; :meth:`_relation_pass` adds that); family ``parts``."""
    lower = builder.view.lower
    for i in range(len(lower)):
        if lower[i][-2:] != "ed" or builder._follow(builder.view.head[i]) not in builder.entities:
            continue
        tok = builder.tokens[i]
        part = part_adjective(tok)
        if part is None:
            continue
        name, modifiers = part
        draft = EntityDraft(head=tok, start=tok.i, end=tok.i, name=name)
        if tok.i > 0 and builder.doc[tok.i - 1].lower_ == modifiers[0]:
            draft.start = tok.i - 1
        for word in modifiers:
            value = lex.NUMBER_WORDS.get(word) if not word.isdigit() else int(word)
            if value is not None:
                draft.count = value  # "a four legged chair": legs is 4
            else:
                draft.add_attribute(word)
        builder.entities[tok.i] = draft
        owner = builder.entities[builder._follow(tok.head.i)]
        if owner.start <= tok.i < owner.head.i:
            owner.start = tok.i + 1  # "two black haired men": the men's text is "men"
        for word in (tok.lower_, *modifiers):  # they were the owner's attributes
            if word in owner.attributes:
                owner.attributes.remove(word)
        if draft.count is not None and owner.count == draft.count:
            owner.count = None  # "a four legged chair": four is the legs' count


def denies(builder) -> bool:
    """The caption has a word of negation."""
    return not builder.view.words.isdisjoint(NEGATIONS)


def manners(builder) -> bool:
    """The caption has an adverb."""
    return "ADV" in builder.view.poses


def measure(builder, tok, lemma: str) -> str | None:
    """The attribute a partitive or a group noun before "of" gives what it measures: "a
    piece of bread" -> piece, "a group of sheep" -> group of."""
    if lemma in lex.PARTITIVE_ATTRIBUTES:
        return tok.lower_
    if lemma in lex.GROUP_NOUNS:
        return f"{tok.lower_} of"
    return None


def colour_results(builder) -> None:
    """ "the boat is painted white": the colour after a participle of colouring is its
    subject's attribute."""
    words = builder.view.words
    if "VBN" not in builder.view.tags or words.isdisjoint(lex.COLOURS):
        return
    tag, lower = builder.view.tag, builder.view.lower
    for tok in builder._with_pos(VERBS_POS):
        i = tok.i
        colour = (
            colour_result(tok)
            if tag[i] == "VBN" and i + 1 < len(lower) and lower[i + 1] in lex.COLOURS
            else None
        )
        if colour is not None and colour.i not in builder.entities:
            for subject in builder._subjects(tok):
                if subject in builder.entities:
                    builder._attribute_chain(builder.entities[subject], colour)


#: Informal person nouns and the neutral head FACTUAL's gold writes for them ("a guy sitting in
#: the grass" -> person sit in grass).
HEAD_FORMS = {"guy": "person", "guys": "people", "dude": "person", "dudes": "people"}


def head_form(word: str, lemma: str) -> str:
    """The head FACTUAL's gold writes for an informal person noun ("guy" -> person)."""
    return HEAD_FORMS.get(word, lemma)


def shade_of_next(builder, tok) -> bool:
    """ "lime" in "a lime green coat", "navy" in "navy blue": a shade of the colour after it."""
    return is_shade_of_next(tok)


def shade_of_word(builder, word):
    """The shade word before a colour ("light" of "light blue"), or None."""
    return shade_of(word)


def without_possessions(builder, relations: list) -> list:
    """ "looking at his cell phone": no "man have phone" where the man has another relation
    with the phone and the possessive only says whose it is."""
    joined = {(s, o) for s, p, o in relations if p != "have"}
    return [
        (s, p, o)
        for s, p, o in relations
        if not (
            p == "have"
            and (s, o) in joined
            and redundant_possession(builder.doc[s], builder.doc[o])
        )
    ]


def no_times(builder, candidates: list[int]) -> list[int]:
    """ "the sun reflects off the train at dusk as it leaves the station": a time is when, no
    thing a pronoun stands for (the train leaves)."""
    times = lex.TIME_NOUNS
    return [i for i in candidates if builder.tokens[i].lemma_.lower() not in times]


def inside_compound(builder, word: Token) -> bool:
    """A noun modifier that a noun before it names with ("ice cream" in "ice cream
    cone", "golden" is not a noun): the pair is one name."""
    prev = builder.tokens[word.i - 1] if word.i > 0 else None
    return (
        prev is not None
        and prev.pos_ in NOUNS
        and prev.dep_ == "compound"
        and (prev.head == word or prev.head == word.head)
    )


def scenery(builder) -> set[str]:
    """Positions that name a thing: "in the background" (FACTUAL names it)."""
    return {"foreground", "background"}


def ordinal(builder, i: int) -> bool:
    """An ordinal ("first", "second") is an attribute, not a count."""
    return builder.view.lower[i] in lex.ORDINALS


def no_attribute(builder, word) -> bool:
    """A preposition or an adverb is no attribute ("green shrubbery beside brick building")."""
    return builder.view.pos[word.i] in lex.NON_ATTRIBUTE_POS


def after_owner(builder, draft) -> None:
    """ "green tree branches" with the tree as owner: the name starts after the owner
    (branches)."""
    dep, head = builder.view.dep, draft.head
    for child in builder.kids[head.i]:
        if dep[child.i] == "poss" and draft.start <= child.i < head.i:
            draft.start = child.right_edge.i + 1


def grading_adverb(builder, draft) -> bool:
    """ "very large bear", "largely dry grass": the name's first word is an adverb grading an
    attribute, no part of the name (the bear is large)."""
    view, k = builder.view, draft.start
    return (
        view.pos[k] == "ADV"
        and view.dep[k] == "advmod"
        and view.dep[view.head[k]] == "amod"
        and view.head[k] < draft.head.i
    )


def object_pronoun(builder, pronoun) -> bool:
    """An object pronoun points to the agreeing noun above it ("has sandwiches on it")."""
    return pronoun.dep_ in {"pobj", "dobj"}


FAMILIES = (
    Family(
        "spans",
        about="""Entity span and head boundaries (likeness nouns, compounds holding a colour
        word, prepositions and adverbs never attributes).""",
        repairs=(
            Repair(
                repair_participle_on_garment,
                lambda c: (SCENERY if "spans" in c.families else frozenset(),),
                always=True,
            ),
            Repair(repair_adjective_argument, lambda c: c.words),
            Repair(repair_noun_root, lambda c: c.words),
        ),
        builder={
            "scenery": scenery,
            "ordinal": ordinal,
            "inside_compound": inside_compound,
            "no_attribute": no_attribute,
        },
    ),
    Family(
        "names",
        about="""What an entity's name is made of (an adverb of an attribute is no part of it,
        an adjective the model read as a compound noun is an attribute, a possessive written
        without its apostrophe is an owner: "elephants tail").""",
        repairs=(
            Repair(repair_adjective_compound, lambda c: c.words),
            Repair(repair_plain_possessive),
        ),
        builder={
            "after_owner": after_owner,
            "grading_adverb": grading_adverb,
            "head_form": head_form,
        },
    ),
    Family(
        "counts",
        about="""A partitive or a group is an attribute of what it measures ("a piece of
        bread" -> bread is piece, "a group of sheep" -> sheep is group of).""",
        builder={"alias_attribute": measure},
    ),
    Family(
        "colours",
        about="""A shade word and the colour after it are one attribute ("a light blue shirt"
        -> shirt is light blue; "lime green", "navy blue").""",
        builder={"shade_of_next": shade_of_next, "shade_of": shade_of_word},
    ),
    Family(
        "parts",
        about="""An adjective made of a part's noun with a modifier is that part ("a red
        haired girl" -> girl have hair, hair is red; "a four legged chair" -> chair have legs,
        legs is 4).""",
        builder={"part_entities": part_entities},
    ),
    Family(
        "colour_results",
        about="""A colour right after a participle of colouring is the colour of what was
        coloured ("the boat is painted white" -> boat is white; "a structure painted yellow").""",
        builder={"colour_results": colour_results},
    ),
    Family(
        "manner",
        about="""An adverb of manner and the participle it describes are one attribute ("an
        oddly shaped doughnut" -> doughnut is oddly shaped, "a well dressed woman"); an adverb
        of degree stays out ("partly eaten").""",
        builder={"manners": manners, "manner_of": manner_of},
    ),
    Family(
        "negation",
        about="""What is denied is not in the graph: a relation or a state of a verb with
        "not" ("the branches do not have leaves", "that is not in black and white"), and a
        noun after the determiner "no" ("a tree with no leaves": no leaves, no "tree with
        leaves").""",
        builder={"denies": denies, "drop_denied": drop_denied},
    ),
    Family(
        "pronouns",
        about="""An object pronoun points to the agreeing noun above it or to the subject of a
        clause above it before the nearest noun ("the tray on the table has sandwiches on it"
        -> sandwiches on tray).""",
        builder={"object_pronoun": object_pronoun, "without_possessions": without_possessions},
    ),
    Family(
        "antecedents",
        about="""A pronoun never stands for a time noun ("the sun reflects off the train at
        dusk as it leaves the station" -> train leave station, not dusk).""",
        builder={"antecedents": no_times},
    ),
)
