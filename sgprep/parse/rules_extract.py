"""Dependency rules: one spaCy ``Doc`` -> entity drafts and relations between them.
This module holds the entity, attribute and reference rules; the relation rules are in
:mod:`sgprep.parse.rules_relations`.

The rules read spaCy's dependency parse (English, ClearNLP labels as in ``en_core_web_*``):
- an entity is a noun that is not a compound modifier, not a position in a multi-word
  preposition ("the left" in "on the left of"), not a quantity ("pair" in "a pair of
  scissors": the entity is "scissors") and not a colour after "in" ("a woman in red");
- attributes are its adjective / participle / material / colour modifiers (with their
  conjuncts: "black and white cat"), "in <colour>" and predicative adjectives ("X is red");
  numbers go to ``count``;
- relations come from prepositions (attached to a noun, a verb or a copula), direct objects,
  possessives ("man's hand" -> man have hand) and "X of Y" (part, container, quantity);
- pronouns are resolved to a preceding entity (agreement first, then nearness; never the other
  end of the relation), relative pronouns to the noun their clause modifies.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # spaCy is imported by rules.load_spacy, the first time it is needed
    from spacy.tokens import Doc, Token

from sgprep.parse import rules_lexicon as lex
from sgprep.parse.families import FAMILIES, builder_hooks
from sgprep.parse.rules_draft import EntityDraft
from sgprep.parse.rules_lexicon import NOUNS, VERBS, is_colour
from sgprep.parse.rules_relations import RelationRules
from sgprep.parse.rules_view import DocView

#: Left dependents that belong to an entity's text ("two big red fire hydrants").
TEXT_LEFT_DEPS = {"amod", "compound", "nummod", "nmod", "advmod", "npadvmod", "quantmod"}
ATTRIBUTE_DEPS = {"amod", "compound", "nmod", "npadvmod"}
#: Words that can be the object of a preposition.
POBJ_POS = NOUNS | {"PRON", "NUM", "ADJ"}
QUANTITY_OR_LIKENESS = lex.QUANTITY_NOUNS | lex.LIKENESS_NOUNS
#: Dependencies of the words a relation starts from (:meth:`RelationRules._relations_from`).
RELATION_DEPS = frozenset({"prep", "agent", "dative", "prt", "dobj", "obj", "poss"})
ACOMP, VERB = frozenset({"acomp"}), frozenset({"VERB"})
PREP = frozenset({"prep"})
MODIFIER_OF_MODIFIER = frozenset({"amod", "compound", "nummod"})


@lru_cache(maxsize=1 << 16)
def _has_letter(word: str) -> bool:
    """Whether a word (its lower case) has a letter: a number or a sign is no entity."""
    return any(ch.isalpha() for ch in word)


def number_value(token: Token) -> int | None:
    text = token.lower_.replace(",", "")
    if text.isdigit():
        return int(text)
    tens, _, units = text.partition("-")  # "twenty-four"
    if units and lex.NUMBER_WORDS.get(tens, 0) >= 20 and 0 < lex.NUMBER_WORDS.get(units, 0) < 10:
        return lex.NUMBER_WORDS[tens] + lex.NUMBER_WORDS[units]
    return lex.NUMBER_WORDS.get(text)


class GraphBuilder(RelationRules):
    """Applies the rules to one doc. ``build()`` -> (entity drafts, relations by head index).
    Entities, attributes and reference resolution are here; relations in the base class."""

    def __init__(
        self,
        doc: Doc,
        predicate_form: str = "lemma",
        skip: int = 0,
        families: frozenset[str] = FAMILIES,
        view: DocView | None = None,
    ):
        self.doc = doc
        self.tokens = list(doc)  # one token object each, for all the passes over the doc
        self.view = DocView(doc) if view is None else view  # the doc does not change here
        self._selected: dict[tuple[str, frozenset[str]], list[Token]] = {}  # _with_pos, _with_dep
        #: each token's children (``tok.children``, in order), the token objects made once
        self.kids = [[self.tokens[j] for j in kids] for kids in self.view.children]
        self._conjuncts_of: dict[int, list[Token]] = {}
        self.families = families  # rule families switched on (see sgprep.parse.families)
        self.hooks = builder_hooks(families)  # what the families on do at each hook point
        self.skip = skip  # tokens of a prefix added before parsing: never entities
        self._pobjs: dict[int, Token | None] = {}  # the doc does not change while it builds
        self._times: dict[int, bool] = {}
        # what the caption itself became under the prefix ("a photo of [pillows] on a bed")
        self.prefix_object = self._pobj(doc[skip - 1]) if skip else None
        self._lemma = predicate_form == "lemma"
        self.form_read = False  # a relation rule read the form (see :attr:`lemma`)
        self.alias: dict[int, int] = {}  # quantity or framing noun -> the noun after "of"
        self.frames: set[int] = set()  # framing nouns ("a photo of"): no entity, no attributes
        self.quoted: set[int] = set(doc.user_data.get("quoted", ()))  # quoted strings: names
        self.consumed: set[int] = set()  # prepositions folded into a longer predicate
        self.implicit_objects: set[int] = set()  # landmarks of "on the side" (no "of")
        self.entities: dict[int, EntityDraft] = {}
        self.relations: list[tuple[int, str, int]] = []
        #: the caption has a word of negation and ``negation`` is on (see :meth:`_negated`)
        self.denies = self.hooks.denies(self)
        #: ``manner`` is on and the caption has an adverb (the hook ``manner_of``)
        self.manners = self.hooks.manners(self)

    @property
    def lemma(self) -> bool:
        """Predicates as lemmas (else as written). Rules read it only where the forms differ:
        a relation pass that never read it gives the same relations in either form."""
        self.form_read = True
        return self._lemma

    # ---- entities -------------------------------------------------------------------------

    def build(self) -> tuple[list[EntityDraft], list[tuple[int, str, int]]]:
        drafts, relations, _ = self.build_forms()
        return drafts, relations

    def build_forms(
        self, *other_forms: str
    ) -> tuple[list[EntityDraft], list[tuple[int, str, int]], list[list[tuple[int, str, int]]]]:
        """(entity drafts, relations, the relations in each of ``other_forms``): the
        relations again with predicates in another form ("surface" beside "lemma"). Only the
        relation rules read the form, so the entity rules run once; the relation rules run
        once per form, each from the state the entity rules left (the prepositions they fold
        in, the landmarks they imply), and for each form as :meth:`build` would give them."""
        for tok in self._with_pos(NOUNS):  # frames and quantities are nouns
            target = self._frame_target(tok)
            if target is not None:
                self.frames.add(tok.i)
            else:
                target = self._quantity_target(tok)
            if target is not None:
                self.alias[tok.i] = target.i
        for tok in self._with_pos(NOUNS):
            if self._is_entity_head(tok):
                self.entities[tok.i] = self._draft(tok)
        if self.denies:
            self.hooks.drop_denied(self)  # "a tree with no leaves": no leaves in the scene
        self.hooks.part_entities(self)  # "a red haired girl": hair
        for i, j in self.alias.items():  # "two large pairs of scissors": scissors, 2, large
            target = self.entities.get(self._follow(j))
            if target is not None and i not in self.frames:  # a photo's attributes are its own
                source = self._draft(self.tokens[i])
                lemma = self.tokens[i].lemma_.lower()
                if lemma in lex.LIKENESS_NOUNS:
                    target.add_attribute(self.tokens[i].lemma_)  # "a model of a shuttle"
                elif (
                    measure := self.hooks.alias_attribute(self, self.tokens[i], lemma)
                ) is not None:
                    target.add_attribute(measure)  # "a piece of bread": piece
                for attr in source.attributes:
                    target.add_attribute(attr)
                count = source.count
                if count is None:  # "a couple of dogs": 2
                    count = lex.EXACT_QUANTITIES.get(self.tokens[i].lower_)
                target.count = target.count if target.count is not None else count
        self.hooks.lone_subjects(self)  # "she is wearing white gloves": a woman
        self.hooks.reciprocal_twins(self)  # "two zebras next to each other"
        owned = self.hooks.owned_parts(self)  # "a grey haired woman": woman have hair
        owned += self.hooks.together(self)  # "two zebras together": zebra next to zebra
        for tok in self._with_dep(ACOMP):
            self._predicative_attributes(tok)
        self.hooks.colour_results(self)  # "the boat is painted white": boat is white
        self.hooks.colour_after_in(self)  # "this picture is in black and white"
        start = set(self.consumed), set(self.implicit_objects)
        self.form_read = False
        relations = self._relation_pass()
        own, lemma = (self.consumed, self.implicit_objects, self.relations), self._lemma
        others = []
        for form in other_forms:
            if not self.form_read:  # no rule read the form: the same relations in any form
                others.append(list(relations))
                continue
            self._lemma, self.relations = form == "lemma", []
            self.consumed, self.implicit_objects = set(start[0]), set(start[1])
            others.append(self._relation_pass())
        self.consumed, self.implicit_objects, self.relations = own
        self._lemma = lemma
        for tok in self._with_pos(VERB):  # no relation rule reads attributes: once for all
            self._state_attribute(tok)
        relations = self.hooks.without_lone_times(self, relations, others)
        for owner, part in owned:  # "a grey haired woman": woman have hair
            predicate = "next to" if self.tokens[part].lower_ == "together" else "have"
            for found in (relations, *others):
                found.append((owner, predicate, part))
        drafts = [self.entities[i] for i in sorted(self.entities) if i >= self.skip]
        return drafts, relations, others

    def _with_pos(self, pos: frozenset[str]) -> list[Token]:
        """The tokens whose part of speech is one of ``pos``, in order: a rule that only
        applies to some words loops over these (see ``docs/rule-parser.md``, "Speed")."""
        found = self._selected.get(("pos", pos))
        if found is None:
            tokens, view = self.tokens, self.view
            found = [tokens[i] for i, p in enumerate(view.pos) if p in pos]
            self._selected["pos", pos] = found
        return found

    def _with_dep(self, deps: frozenset[str]) -> list[Token]:
        """The tokens whose dependency is one of ``deps``, in order."""
        found = self._selected.get(("dep", deps))
        if found is None:
            tokens, view = self.tokens, self.view
            found = [] if view.deps.isdisjoint(deps) else [
                tokens[i] for i, d in enumerate(view.dep) if d in deps]  # fmt: skip
            self._selected["dep", deps] = found
        return found

    def _conjuncts(self, tok: Token) -> list[Token]:
        """``tok.conjuncts`` (the words coordinated with it, in spaCy's order), read from
        the view once per word."""
        found = self._conjuncts_of.get(tok.i)
        if found is None:
            head, dep, children = self.view.head, self.view.dep, self.view.children
            start, steps = tok.i, len(head)  # every walk here ends within the caption
            while start != head[start] and dep[start] == "conj" and steps:
                start, steps = head[start], steps - 1
            chain = [start]
            for word in chain:  # grows while it is read: conjuncts of conjuncts
                if len(chain) > len(head):
                    break
                chain += [c for c in children[word] if c > word and dep[c] == "conj"]
            found = self._conjuncts_of[tok.i] = [self.tokens[k] for k in chain if k != tok.i]
        return found

    def _relation_pass(self) -> list[tuple[int, str, int]]:
        """The relation rules over the doc in the builder's predicate form."""
        for tok in self._with_dep(RELATION_DEPS):
            self._relations_from(tok)
        for tok in self._with_pos(VERBS):
            self._object_gap(tok)
        self.hooks.small_clauses(self)  # "a crowd watches the bikers come down the road"
        for i, draft in self.entities.items():
            if (
                draft.name is not None and not draft.related
            ):  # "a red haired girl": the girl has the hair
                self._add(self._follow(draft.head.head.i), "have", i)
        relations = self._clean_relations()
        # "looking at his cell phone": no "man have phone"
        return self.hooks.without_possessions(self, relations)

    def _is_time(self, i: int) -> bool:
        if i not in self._times:
            self._times[i] = (
                self.view.lower[i] in lex.TIME_NOUNS
                or self.tokens[i].lemma_.lower() in lex.TIME_NOUNS
            )
        return self._times[i]

    def _follow(self, i: int) -> int:
        seen = set()
        while i in self.alias and i not in seen:
            seen.add(i)
            i = self.alias[i]
        return i

    def _frame_target(self, tok: Token) -> Token | None:
        """ "a black and white photo of coins": the caption is about the coins. Only the
        caption's root noun phrase (or "this is a photo of ...") frames it."""
        if tok.i < self.skip or self.view.pos[tok.i] != "NOUN":
            return None
        lower = self.view.lower[tok.i]
        if lower not in lex.FRAMING_NOUNS and tok.lemma_.lower() not in lex.FRAMING_NOUNS:
            return None
        root = tok.dep_ == "ROOT" or (self.prefix_object is not None and tok == self.prefix_object)
        if tok.dep_ == "attr" and tok.head.lemma_ == "be":  # "this is a photo of the beach"
            root = any(
                c.dep_ == "nsubj" and c.lower_ in {"this", "that", "it"}
                for c in self.kids[tok.head.i]
            )
        if not root:
            root = self.hooks.opening_frame(self, tok)  # "close-up of a potter shaping ..."
        if not root:
            return None
        for child in self.kids[tok.i]:
            if child.dep_ == "prep" and child.lower_ == "of":
                pobj = self._pobj(child)
                if pobj is not None and pobj.pos_ in NOUNS and pobj.i not in self.quoted:
                    self.consumed.add(child.i)
                    return pobj
        return None

    def _quantity_target(self, tok: Token) -> Token | None:
        if self.view.pos[tok.i] not in NOUNS or tok.lemma_.lower() not in QUANTITY_OR_LIKENESS:
            return None
        for child in self.kids[tok.i]:
            if child.dep_ == "prep" and child.lower_ == "of":
                pobj = self._pobj(child)
                if pobj is not None and pobj.pos_ in NOUNS:
                    self.consumed.add(child.i)
                    return pobj
        return None

    def _is_entity_head(self, tok: Token) -> bool:
        i, view = tok.i, self.view
        if i < self.skip or view.pos[i] not in NOUNS or not _has_letter(view.lower[i]):
            return False
        if i in self.alias or i in self.quoted:
            return False
        dep, head = view.dep[i], view.head[i]
        if dep in {"compound", "amod", "nmod"} and view.pos[head] in NOUNS and head > i:
            return False  # part of the next noun's name, or its attribute ("metal fork")
        if dep == "pobj" and self._is_position(tok) and head not in self.consumed:
            return False  # "on top of"; but "a photo of the surface of the moon" is a thing
        if self._implicit_landmark(tok) is not None:
            return False  # "a bowl with markings on the side": the bowl's side
        scenery = self.hooks.scenery(self)  # "in the background": a thing
        if (
            view.lower[i] in {"left", "right", "foreground", "background", "distance"} - scenery
            and dep == "pobj"
        ):
            return False  # "on the left" with no landmark: a position, not a thing
            # ("in the background" is a thing in FACTUAL's gold: trees --in--> background)
        if dep == "pobj" and is_colour(tok) and view.lower[head] == "in":
            return False  # "a woman in red": red is her attribute
        if self.hooks.bare_position(self, tok):
            return False  # "a man in front", "mountains in the middle": no landmark said
        if self.hooks.shade_of_next(self, tok):
            return False  # "lime" in "a lime green coat", "navy" in "navy blue"
        if dep == "pobj" and self._in_colour(tok.head):
            return False  # "green in color"
        if dep == "conj" and is_colour(tok) and self._colour_chain_root(tok) is not None:
            return False
        return True

    def _in_colour(self, prep: Token) -> bool:
        """ "in color" after an adjective ("the roof is green in color") adds nothing."""
        pobj = self._pobj(prep)
        return (prep.lower_ == "in" and pobj is not None and prep.head.pos_ == "ADJ"
                and pobj.lemma_.lower() in {"color", "colour", "shade", "tone"})  # fmt: skip

    def _colour_chain_root(self, tok: Token) -> Token | None:
        """For "in red and white", the "in" that "white" hangs from through conjunctions."""
        cur, steps = tok, len(self.tokens)
        while cur.dep_ == "conj" and is_colour(cur.head) and steps:
            cur, steps = cur.head, steps - 1
        if cur.dep_ == "pobj" and cur.head.lower_ == "in" and is_colour(cur):
            return cur.head
        return None

    def _implicit_landmark(self, tok: Token) -> Token | None:
        """ "a bowl with markings on the side", "craters and a dark patch near the bottom":
        a relational noun with "the" and no "of" is a position on the thing the phrase's
        noun belongs to (markings on side of bowl). That thing: the nearest noun above the
        phrase's noun, past its coordination."""
        if (written := self.hooks.landmark_without_of(self, tok)) is not None:
            return written  # "decorations on top the cake": the "of" left out
        if (
            self.view.dep[tok.i] != "pobj"
            or tok.lemma_.lower() not in lex.RELATIONAL_NOUNS - lex.ARTICLE_KEEPING
            or tok.pos_ not in NOUNS
            or not any(c.dep_ == "det" and c.lower_ == "the" for c in self.kids[tok.i])
            or any(c.dep_ == "prep" for c in self.kids[tok.i])
        ):
            return None
        owner = tok.head.head
        if tok.head.pos_ != "ADP" or owner.pos_ not in NOUNS or owner.i < self.skip:
            return None
        cur, steps = owner, len(self.tokens)
        while cur.dep_ in {"conj", "appos"} and cur.head is not cur and steps:
            cur, steps = cur.head, steps - 1
        for _ in range(6):
            if cur.head is cur:
                return None
            cur = cur.head
            if cur.pos_ in NOUNS:
                return cur if cur.i != owner.i else None
        return None

    def _is_position(self, tok: Token) -> bool:
        """ "top" in "on top of X": a relational noun followed by "of"/"to" + object."""
        if tok.lemma_.lower() not in lex.RELATIONAL_NOUNS:
            return False
        return any(
            c.dep_ == "prep" and c.lower_ in {"of", "to"} and self._pobj(c) is not None
            for c in self.kids[tok.i]
        )

    def _draft(self, head: Token) -> EntityDraft:
        draft = EntityDraft(head=head, start=head.i, end=head.i)
        view = self.view
        dep, lower = view.dep, view.lower
        for child in self.kids[head.i]:
            c = child.i
            if c < head.i and dep[c] in TEXT_LEFT_DEPS:
                if lower[c] in lex.QUANTIFIERS and dep[c] != "compound":
                    continue
                draft.start = min(draft.start, child.left_edge.i)
            self._modifier(draft, child)
        draft.start = max(draft.start, self.skip)
        self.hooks.after_owner(self, draft)  # "green tree branches" owned by the tree
        hooks = self.hooks
        while (
            draft.start < head.i
            and view.dep[draft.start] in {"det", "punct", "cc", "case", "poss", "predet"}
            or hooks.grading_adverb(self, draft)  # "very large bear": the bear is large
            or hooks.count_adverb(self, draft)  # "only one cloud", "about five boats"
        ):
            draft.start += 1
        return draft

    def _modifier(self, draft: EntityDraft, child: Token) -> None:
        view, i = self.view, child.i
        dep = view.dep[i]
        if i in self.quoted:
            return  # a quoted title is a name, not attributes
        if dep == "nummod" or (dep in {"compound", "quantmod"} and child.like_num):
            value = number_value(child)
            if value is not None:
                draft.count = value
            return
        if dep == "det" and view.lower[i] in lex.NUMBER_WORDS and view.lower[i] != "couple":
            draft.count = lex.NUMBER_WORDS[view.lower[i]]
            return
        if dep in ATTRIBUTE_DEPS and i < draft.head.i:
            if self.hooks.name_word(self, child, draft.head):
                # "a hot dog", "his left hand": part of the name; what the model hangs on
                # that word describes the thing ("a black tank top": the top is black)
                for grandchild in self.kids[i]:
                    if grandchild.i < i and view.dep[grandchild.i] in MODIFIER_OF_MODIFIER:
                        self._modifier(draft, grandchild)
                return
            ordinal = self.hooks.ordinal(self, i)
            if view.lower[i] in lex.QUANTIFIERS or (child.like_num and not ordinal):
                return
            if dep in {"compound", "nmod", "npadvmod"} and view.pos[i] in NOUNS:
                # the modifiers of a noun modifier are the head's ("red tennis bag": the bag
                # is red; "white plastic fork": the fork is white)
                for grandchild in self.kids[i]:
                    if grandchild.i < i and view.dep[grandchild.i] in MODIFIER_OF_MODIFIER:
                        self._modifier(draft, grandchild)
                kind = self.hooks.kind_word(self, child, draft.head)
                if not (view.lower[i] in lex.MATERIALS or is_colour(child) or kind):
                    return  # part of the name: "fire hydrant"
                if self.hooks.inside_compound(self, child) and not kind:
                    return  # "ice cream cone": "cream" is part of the name, not a colour
            self._attribute_chain(draft, child)
            return
        if dep == "prep" and view.lower[i] == "in":
            pobj = self._pobj(child)
            if pobj is not None and is_colour(pobj):  # "a woman in red"
                self._attribute_chain(draft, pobj)
                draft.end = max(draft.end, child.right_edge.i)

    def _attribute_chain(self, draft: EntityDraft, word: Token) -> None:
        """``word`` and the adjectives/colours coordinated with it ("black and white")."""
        view = self.view
        pos, dep, lower = view.pos, view.dep, view.lower
        if self.hooks.no_attribute(self, word):
            return  # "green shrubbery beside brick building": a preposition is no attribute
        shade = self.hooks.shade_of(self, word)
        if shade is None and self.hooks.shade_of_next(self, word):
            return  # "light" of "light blue": the colour carries it
        manner = self.hooks.manner_of(self, word) if self.manners else None
        if manner is not None:  # "an oddly shaped doughnut": doughnut is oddly shaped
            draft.add_attribute(f"{manner.lower_} {word.text}")
        else:
            draft.add_attribute(f"{shade.lower_} {word.text}" if shade is not None else word.text)
        for mod in self.kids[word.i]:  # "long white whiskers" read as long <- white: long too
            m = mod.i
            if (
                m < word.i
                and dep[m] in {"amod", "advmod"}
                and pos[m] == "ADJ"
                and lower[m] not in lex.SHADES
                and lower[m] not in lex.QUANTIFIERS
                and m not in self.quoted
            ):
                self._attribute_chain(draft, mod)
        for conj in self.kids[word.i]:
            c = conj.i
            if dep[c] == "conj" and (
                pos[c] in {"ADJ", "VERB"} or is_colour(conj) or lower[c] in lex.MATERIALS
            ):
                self._attribute_chain(draft, conj)

    def _predicative_attributes(self, tok: Token) -> None:
        """ "the dress is red" / "the sky looks grey and cloudy"."""
        if tok.dep_ != "acomp" or tok.head.lemma_ not in lex.LINKING_VERBS:
            return
        if self._negated(tok.head):
            return  # "the dress is not red"
        if any(c.dep_ == "prep" and not self._in_colour(c) for c in self.kids[tok.i]) and not (
            self.hooks.state_in_place(self, tok)
        ):
            return  # "adjacent to", "full of": a relation, handled with prepositions
        for subject in self._subjects(tok.head):
            draft = self.entities.get(subject)
            if draft is not None:
                self._attribute_chain(draft, tok)

    # ---- resolution -----------------------------------------------------------------------

    def _entity(self, tok: Token | None, exclude: int | set[int] | None = None) -> int | None:
        """The entity (head index) a token stands for, following quantities and pronouns."""
        if tok is None:
            return None
        word = self.view.lower[tok.i]
        if word in lex.RELATIVE_PRONOUNS and self.view.pos[tok.i] in {"PRON", "DET", "SCONJ"}:
            verb = tok.head  # "the fence that runs ...", "the man who is trying to catch ..."
            steps = len(self.tokens)
            while verb.dep_ in {"xcomp", "conj"} and verb.head is not verb and steps:
                verb, steps = verb.head, steps - 1
            return self._entity(verb.head) if verb.dep_ in {"relcl", "acl"} else None
        if word in lex.ANAPHORA:
            if tok.i in self.entities:  # "he has a beard": no antecedent, the pronoun's own
                return tok.i
            return self._antecedent(tok, exclude)
        i = self._follow(tok.i)
        return i if i in self.entities else None

    def _antecedent(self, pronoun: Token, exclude: int | set[int] | None) -> int | None:
        excluded = exclude if isinstance(exclude, set) else {exclude}
        candidates = [
            i
            for i, d in self.entities.items()
            if i < pronoun.i and i not in excluded and not d.start <= pronoun.i <= d.end
        ]
        candidates = self.hooks.antecedents(self, candidates)  # no time: "at dusk as it ..."
        if not candidates:
            return None
        word = pronoun.lower_
        if word in lex.PERSONAL_PRONOUNS:
            preferred = [i for i in candidates if self._is_person(i)]
        elif word in lex.NEUTER_PRONOUNS:
            preferred = [
                i for i in candidates if not self._is_person(i) and self.tokens[i].tag_ != "NNS"
            ]
        else:
            preferred = [
                i
                for i in candidates
                if self.tokens[i].tag_ in {"NNS", "NNPS"} or self._is_person(i)
            ]
        if preferred and (pronoun.dep_ == "poss" or self.hooks.object_pronoun(self, pronoun)):
            # "a rocket standing on a pad at dusk, with lights at its base": the owner is the
            # nearest agreeing noun above the pronoun, or the subject of the verb above it,
            # before the nearest noun in the text. So is what an object pronoun points to
            # (family ``pronouns``): "the tray on the table has sandwiches on it" (the tray),
            # "the lighthouse on the cliff stands ..., and waves crash onto the rocks below it"
            for up in pronoun.ancestors:
                if self._follow(up.i) in preferred:
                    return self._follow(up.i)
                if up.pos_ in VERBS:
                    agreeing = [i for i in self._subjects(up) if i in preferred]
                    if agreeing:
                        return agreeing[0]
        return max(preferred or candidates)

    def _is_person(self, i: int) -> bool:
        tok = self.tokens[i]
        return tok.lower_ in lex.PERSON_NOUNS or tok.lemma_.lower() in lex.PERSON_NOUNS

    def _subjects(self, verb: Token, depth: int = 0) -> list[int]:
        """Entities doing what ``verb`` says (with their conjuncts)."""
        found: list[int] = []
        dep = self.view.dep
        subjects = [c for c in self.kids[verb.i] if dep[c.i] in {"nsubj", "nsubjpass", "csubj"}]
        for child in subjects[-1:]:  # two subjects: an object-gap clause, the last one acts
            found.extend(self._with_conjuncts(child))
        expl = any(dep[c.i] == "expl" for c in self.kids[verb.i])
        if not found and expl:  # "there is a car on the track"
            for child in self.kids[verb.i]:
                if dep[child.i] in {"attr", "nsubj", "dobj"}:
                    found.extend(self._with_conjuncts(child))
        if found:
            return found
        verb_dep = dep[verb.i]
        if depth < 4 and self.hooks.purpose_clause(self, verb):
            # "climbs a ladder to rescue a kitten": who climbs, rescues (not the ladder)
            return self._subjects(verb.head.head, depth + 1)
        if verb_dep in {"acl", "relcl"} or (verb_dep == "amod" and verb.head.pos_ in NOUNS):
            doers = self.hooks.participle_doers(self, verb)
            if doers:  # "a man and a woman sitting on a deck": both sit
                return [e for e in map(self._entity, doers) if e is not None]
            return self._with_conjuncts(verb.head, conjuncts=False)
        if (
            verb_dep in {"xcomp", "advcl", "conj", "ccomp", "pcomp"}
            and depth < 4
            and verb.head is not verb
        ):
            head = verb.head
            if head.pos_ in NOUNS:  # a clause hanging from a noun: the noun does it
                return self._with_conjuncts(head, conjuncts=False)
            return self._subjects(head, depth + 1)
        if verb_dep == "ROOT":  # "woman walking dog" mis-parsed as a verb-rooted fragment
            deps = {"npadvmod", "dep", "nmod"}
            deps = self.hooks.fragment_subject_deps(self, deps)  # "dog walking in the snow"
            lefts = [c for c in verb.lefts if c.dep_ in deps]
            for child in lefts:
                found.extend(self._with_conjuncts(child))
        return found

    def _with_conjuncts(self, tok: Token, conjuncts: bool = True) -> list[int]:
        out = []
        ent = self._entity(tok)
        if ent is not None:
            out.append(ent)
        if conjuncts:
            for conj in self._conjuncts(tok):
                ent = self._entity(conj)
                if ent is not None and ent not in out:
                    out.append(ent)
        return out

    def _pobj(self, prep: Token) -> Token | None:
        if prep.i not in self._pobjs:
            self._pobjs[prep.i] = next(
                (
                    c
                    for c in self.kids[prep.i]
                    if self.view.dep[c.i] in {"pobj", "pcomp"} and self.view.pos[c.i] in POBJ_POS
                ),
                None,
            )
        return self._pobjs[prep.i]
