"""Relation rules of :class:`sgprep.parse.rules_extract.GraphBuilder` (a mixin: it uses the
builder's entities, alias map and resolution helpers).

Relations come from prepositions (attached to a noun, a verb, a copula or an adjective, with
multi-word prepositions folded into one predicate), direct objects, possessives, "X of Y",
object-gap relative clauses and reciprocals ("each other"); a participle with no object is a
state attribute ("a man walking").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sgprep.lexicon import words
from sgprep.negatives.grammar import third_person

if TYPE_CHECKING:  # spaCy is imported by rules.load_spacy, the first time it is needed
    from spacy.tokens import Token

from sgprep.parse import rules_lexicon as lex
from sgprep.parse.rules_lexicon import NOUNS, VERBS, is_colour
from sgprep.parse.rules_repair import ANIMALS, BODY_PARTS, LEMMA_FIXES
from sgprep.parse.rules_view import DocView, subtree

#: Parts of a person's or an animal's body that it "has" ("a man with brown hair").
OWN_BODY = BODY_PARTS | words("human_body_parts")


def _es_lemma(word: str, lemma: str) -> str:
    """The lemma of a third-person verb in "-es" whose lemma the rule lemmatizer cut to
    another verb ("shines" -> "shin", "hopes" -> "hop", "stares" -> "star"): the base in
    "e" whose third person it is (:func:`grammar.third_person`: "-es" only after a hiss or
    an "o": "washes", "fixes", "goes" keep theirs)."""
    if word == lemma + "es" and third_person(lemma) != word and third_person(word[:-1]) == word:
        return word[:-1]
    return lemma


class RelationRules:
    doc: object
    tokens: list[Token]
    kids: list[list[Token]]
    view: DocView
    families: frozenset[str]
    lemma: bool
    skip: int
    prefix_object: Token | None
    consumed: set[int]
    quoted: set[int]
    implicit_objects: set[int]
    entities: dict
    relations: list[tuple[int, str, int]]
    denies: bool

    def _is_prt_with_object(self, tok: Token) -> bool:
        """ "driving down street": the model calls "down" a particle but it has an object."""
        return tok.dep_ == "prt" and self._pobj(tok) is not None

    def _negated(self, verb: Token) -> bool:
        """ "do not have leaves", "is not in black and white": what the verb says is denied
        (family ``negation``; ``self.denies`` says the caption has a word of negation). Only
        a verb's "not" denies: "a sticker on the street sign, not the stop sign" contrasts
        two things (the model hangs that "not" on the sticker) and keeps its relation."""
        return (
            self.denies
            and self.view.pos[verb.i] in {"VERB", "AUX"}
            and any(c.dep_ == "neg" for c in self.kids[verb.i])
        )

    def _verb_predicate(self, verb: Token) -> str:
        lemma = LEMMA_FIXES.get(verb.lower_) or _es_lemma(verb.lower_, verb.lemma_.lower())
        words = [verb.lower_ if lemma == verb.lower_ or not self.lemma else lemma]
        words += [
            c.lower_
            for c in self.kids[verb.i]
            if c.dep_ == "prt" and not self._is_prt_with_object(c)
        ]
        return " ".join(words)

    def _object_gap(self, verb: Token) -> None:
        """A relative clause with no relative pronoun is about its noun as an object: "the
        shirt the man is wearing" (man wear shirt), "the lawn the bears are on" (bears on lawn)."""
        view = self.view
        if view.pos[verb.i] not in VERBS:
            return
        nsubjs = [c for c in self.kids[verb.i] if view.dep[c.i] == "nsubj"]
        if verb.dep_ == "relcl" and verb.head.pos_ in NOUNS:
            gap = verb.head
        elif len(nsubjs) >= 2:  # the model's reading of "blue shirt the man is wearing"
            gap, nsubjs = nsubjs[0], nsubjs[-1:]
        else:
            return
        if any(
            c.dep_ in {"dobj", "attr"} or c.lower_ in lex.RELATIVE_PRONOUNS
            for c in self.kids[verb.i]
        ):
            return
        subjects = [self._entity(c) for c in nsubjs]
        noun = self._entity(gap)
        stranded = [
            c
            for c in self.kids[verb.i]
            if c.dep_ == "prep"
            and self._pobj(c) is None
            and not any(g.dep_ == "prep" for g in self.kids[c.i])
        ]
        if stranded:
            verb_part = "" if verb.lemma_ == "be" else self._verb_predicate(verb) + " "
            predicate = verb_part + stranded[0].lower_
        elif verb.lemma_ == "be" or any(c.dep_ == "prep" for c in self.kids[verb.i]):
            return
        else:
            predicate = self._verb_predicate(verb)
        for subject in subjects:
            self._add(subject, predicate, noun)

    def _small_clause(self, clause: Token) -> None:
        """A bare infinitive or a participle with its own subject, hung on a verb with no
        object, is what the verb perceives or causes, and its subject is the verb's object:
        "a crowd watches the bikers come down the road" -> crowd watch bikers (the bikers
        come down the road too), "watches the rain falling on the street" -> watch rain.
        A finite clause ("thinks the rings are squid"), one with "that" / "to" / an
        auxiliary, or a verb that has an object keeps only its own relations."""
        view = self.view
        verb = clause.head
        if view.tag[clause.i] not in {"VB", "VBG"} or view.pos[verb.i] not in VERBS:
            return
        kids = self.kids[clause.i]
        if any(view.dep[c.i] in {"mark", "aux", "auxpass"} for c in kids):
            return
        if any(view.dep[c.i] in {"dobj", "obj", "dative", "attr"} for c in self.kids[verb.i]):
            return
        subjects = [c for c in kids if view.dep[c.i] == "nsubj" and view.pos[c.i] in NOUNS]
        if len(subjects) != 1:
            return
        predicate = self._verb_predicate(verb)
        for subject in self._subjects(verb):
            for obj in self._with_conjuncts(subjects[0]):
                self._add(subject, predicate, obj)

    def _state_attribute(self, verb: Token) -> None:
        """ "a man walking", "the floor is tiled": a participle with no object is a state."""
        view, i = self.view, verb.i
        if view.pos[i] != "VERB" or view.tag[i] not in {"VBG", "VBN"} or verb.lemma_ == "be":
            return
        if view.dep[i] not in {"acl", "ROOT", "relcl", "conj"} or self._negated(verb):
            return
        if sum(c.dep_ == "nsubj" for c in self.kids[verb.i]) >= (1 if verb.dep_ == "relcl" else 2):
            return  # "the shirt the man is wearing": an object gap, not a state
        if any(
            c.dep_
            in {"dobj", "prep", "agent", "xcomp", "ccomp", "attr", "dative", "acomp", "advcl"}
            or self._is_prt_with_object(c)
            for c in self.kids[verb.i]
        ):
            return
        if any(t.dep_ in {"prep", "dobj"} for t in subtree(verb) if t.i > verb.i):
            return  # "standing next to a creek": "to" hangs from "next"
        words = [verb.lower_] + [c.lower_ for c in self.kids[verb.i] if c.dep_ == "prt"]
        for subject in self._subjects(verb):
            self.entities[subject].add_attribute(" ".join(words))

    def _reciprocal(self, obj: Token) -> bool:
        """ "each other", "one another" (and "eachother", ``reciprocal``)."""
        if self.hooks.reciprocal_object(self, obj):
            return True
        return obj.lower_ in {"other", "another"} and any(
            c.lower_ in {"each", "one"} for c in self.kids[obj.i]
        )

    def _add_reciprocal(self, subjects: list[int], predicate: str, obj: Token) -> None:
        group = list(subjects)
        if len(group) == 1:
            group += [c for c in self._with_conjuncts(self.tokens[group[0]]) if c not in group]
        if len(group) == 1 and obj.i in self.entities:  # "two zebras next to each other"
            self._add(group[0], predicate, obj.i)  # the other zebra (``reciprocal``)
            return
        for a in group:
            for b in group:
                self._add(a, predicate, b)

    def _add(self, subject: int | None, predicate: str, obj: int | None) -> None:
        if subject is None or obj is None or subject == obj or not predicate.strip():
            return
        self.relations.append((subject, " ".join(predicate.split()), obj))

    def _relations_from(self, tok: Token) -> None:
        view = self.view
        dep, head = view.dep[tok.i], view.head[tok.i]
        if (
            dep in {"prep", "agent", "dative"} or self._is_prt_with_object(tok)
        ) and tok.i not in self.consumed:
            self._preposition(tok)
        elif dep in {"dobj", "obj"} and view.pos[head] in VERBS and head not in self.quoted:
            verb = tok.head
            if self._negated(verb):
                return  # "the branches do not have leaves"
            predicate = self._verb_predicate(verb)
            if self._reciprocal(tok):
                self._add_reciprocal(self._subjects(verb), predicate, tok)
                return
            if verb.lemma_ == "have" and self._locative_pronoun(verb):
                return  # "the rock has moss on it" says where the moss is: moss on rock
            anaphora = view.lower[tok.i] in lex.ANAPHORA
            for subject in self._subjects(verb):
                for obj in self._with_conjuncts(tok):
                    if anaphora:
                        obj = self._entity(tok, exclude=subject)
                    self._add(subject, predicate, obj)
        elif dep == "poss":
            owned = tok.head
            exclude = {self._follow(owned.i)}
            if view.dep[head] == "pobj" and view.pos[view.head[view.head[head]]] in NOUNS:
                # "a ball in its mouth": the noun the phrase describes is not the owner
                exclude.add(self._follow(owned.head.head.i))
            elif self.hooks.put_on_place(self, head):
                # "a surfboard mounted on its roof": what is put is not the place's owner
                verb = view.head[view.head[head]]
                if view.tag[verb] == "VBN" and view.dep[verb] in {"acl", "amod"}:
                    exclude.add(self._follow(view.head[verb]))
            owner = self._entity(tok, exclude=exclude)
            self._add(owner, "have", self._entity(owned))
            self.hooks.listed_parts(self, owner, owned)  # "cow's eyes, nose and mouth"

    def _points_back(self, noun: Token) -> bool:
        """The phrase under ``noun`` ends in a pronoun ("a toy in it", "flowers painted on it")."""
        return any(
            t.lower_ in lex.NEUTER_PRONOUNS | lex.PLURAL_PRONOUNS and t.dep_ == "pobj"
            for t in subtree(noun)
            if t.i > noun.i
        )

    def _locative_pronoun(self, verb: Token) -> bool:
        """The verb or its object has a preposition whose object is a pronoun ("has moss on
        it", "has meat and vegetables on it")."""
        holders = [verb] + [c for c in self.kids[verb.i] if c.dep_ == "dobj"]
        holders += [conj for h in holders[1:] for conj in self._conjuncts(h)]
        return any(
            c.dep_ == "prep" and (p := self._pobj(c)) is not None and p.lower_ in lex.ANAPHORA
            for h in holders
            for c in self.kids[h.i]
        )

    def _prep_phrase(self, prep: Token) -> tuple[list[str], Token] | None:
        """Words of a (multi-word) preposition and its object: "on the left of" + dog."""
        view = self.view
        words = [view.lower[prep.i]]
        pobj = self._pobj(prep)
        if pobj is None:  # "out of": a preposition governing a preposition
            for child in self.kids[prep.i]:
                if child.dep_ == "prep" and self._pobj(child) is not None:
                    self.consumed.add(child.i)
                    words.append(child.lower_)
                    pobj = self._pobj(child)
                    break
        if pobj is None:
            return None
        noun = view.pos[pobj.i] in NOUNS
        if noun and self._is_position(pobj):
            of = next(
                c
                for c in self.kids[pobj.i]
                if c.dep_ == "prep" and c.lower_ in {"of", "to"} and self._pobj(c) is not None
            )
            self.consumed.add(of.i)
            mods = [c for c in self.kids[pobj.i] if c.i < pobj.i and c.dep_ in {"amod", "compound"}]
            keep_article = pobj.lemma_.lower() in lex.ARTICLE_KEEPING or any(
                m.lower_ in lex.ARTICLE_KEEPING for m in mods
            )
            if keep_article and any(c.dep_ == "det" for c in self.kids[pobj.i]):
                words.append("the")
            words += [m.lower_ for m in mods] + [pobj.lower_, of.lower_]
            pobj = self._pobj(of)
        elif noun and (landmark := self._implicit_landmark(pobj)) is not None:
            mods = [c for c in self.kids[pobj.i] if c.i < pobj.i and c.dep_ in {"amod", "compound"}]
            words += [m.lower_ for m in mods] + [pobj.lower_, "of"]
            self.implicit_objects.add(landmark.i)
            pobj = landmark
        return words, pobj

    def _preposition(self, prep: Token) -> None:
        if self._negated(prep.head):
            return  # "a dog that is not in the water"
        phrase = self._prep_phrase(prep)
        if phrase is None:
            return
        words, pobj = phrase
        view = self.view
        pos, dep, lower = view.pos, view.dep, view.lower
        anchor = prep.head
        hopped = False
        if (
            lower[anchor.i] in lex.PREP_HEADS
            and pos[anchor.i] in {"ADV", "ADJ", "ADP", "PART"}
            and dep[anchor.i] != "ROOT"
        ):
            words = [lower[anchor.i]] + words  # "next to", "out of", "close to"
            anchor = anchor.head
            hopped = True
        if anchor.i < self.skip:  # hung from the prefix: it belongs to the caption's first noun
            if self.prefix_object is None or self.prefix_object.i == pobj.i:
                return
            anchor = self.prefix_object
        if (
            pos[anchor.i] in NOUNS
            and dep[anchor.i] == "pobj"
            and anchor.i not in self.entities
            and self._is_position(anchor)
        ):
            # "in front of shelves with boxes": the model hangs "with" on "front"; a position
            # is no thing, the phrase is about the landmark
            landmark = next(
                self._pobj(c)
                for c in self.kids[anchor.i]
                if c.dep_ == "prep" and c.lower_ in {"of", "to"} and self._pobj(c) is not None
            )
            if landmark.i == pobj.i:
                return
            anchor = landmark
        if pos[anchor.i] == "ADP" or anchor.i in self.quoted:
            return  # part of a preposition already handled from its head; words of a title
        anchor = self.hooks.whole_of(self, anchor, prep)  # "a body of water near a beach"
        prep_text = " ".join(words)
        prep_text = lex.PREP_SYNONYMS.get(prep_text, prep_text)
        objects = self._prep_objects(pobj)

        someone = self.hooks.someone(self, anchor)
        if pos[anchor.i] in NOUNS or lower[anchor.i] in lex.ANAPHORA or someone:
            if words == ["of"]:
                self._of_relation(anchor, pobj)
                return
            if words == ["in"] and lower[pobj.i] in lex.CLOTHING and self._can_wear(anchor, pobj):
                prep_text = "wear"
            elif words == ["with"] and self.hooks.worn_with(self, anchor, objects):
                prep_text = "wear"  # "a man with a yellow shirt": he wears it
            elif words == ["with"] and self.hooks.parts_with(self, anchor, objects):
                prep_text = "have"  # "a man with brown hair standing in a shirt": he has it
            if words == ["with"] and self._points_back(pobj):
                return  # "a box with a toy in it": the inner phrase is the relation
            if (
                words == ["with"]
                and self.hooks.after_comma(self, prep)
                and self._absolute_with(prep, objects)
            ):
                return  # "a farmer at a stall, with an awning over the stall": a scene
            subjects = [self._entity(anchor)] + self._shared_by_conjuncts(anchor, prep)
            # a pronoun here points outside the coordination ("meat and vegetables on it")
            outside = set(subjects) | set(self._with_conjuncts(anchor))
            mixed = prep_text == "with" and self.hooks.parts_and_outfit(
                self, anchor, objects
            )  # "man with light hair and a red shirt sitting ...": has the hair, wears the shirt
            parts = [o for o in objects if o.lower_ in OWN_BODY]
            had = "have" if mixed and self._has_parts(anchor, parts) else "with"
            for subject in subjects:
                for obj_tok in objects:
                    if mixed:
                        prep_text = had if obj_tok.lower_ in OWN_BODY else "wear"
                    self._add(subject, prep_text, self._entity(obj_tok, exclude=outside))
            return
        if pos[anchor.i] in VERBS:
            self._verb_preposition(anchor, prep, prep_text, objects)
            return
        if pos[anchor.i] == "ADJ" and not self._in_colour(prep):  # "full of", "close to"
            subjects = (
                self._subjects(anchor.head)
                if anchor.dep_ == "acomp"
                else self._with_conjuncts(anchor.head, False)
            )
            predicate = f"{anchor.lower_} {prep_text}"
            predicate = self.hooks.adjective_predicate(self, predicate)  # "full of": fill with
            if self.hooks.state_in_place(self, anchor):
                predicate = prep_text  # "a book is open on the counter": book on counter
            elif hopped and self.hooks.state_before_position(self, anchor):
                predicate = prep_text  # "a ring that is white next to a ring": ring next to ring
            for subject in subjects:
                for obj_tok in objects:
                    self._add(subject, predicate, self._entity(obj_tok, exclude=subject))

    def _whole_of(self, part: Token, prep: Token) -> Token | None:
        """ "a stand of trees behind the park", "blades of grass in the snow", "a body of water
        near a beach": a place phrase right after "<noun> of <bare noun>" that the model hangs
        on the first noun says where the second is (the first measures or shapes it, as a
        partitive does). A whole with an article or an owner ("the premiere of their film at
        the theater", "the fur of an animal by a person") is a thing of its own whose part or
        event keeps the phrase, and so do containers, framing nouns, people and animals ("a cup
        of tea on a table", "a picture of a dog on the wall", "the mother of a boy in the
        park")."""
        view = self.view
        start = prep.head.i if prep.head.i != part.i else prep.i  # "inside of": from "inside"
        if view.lower[start] not in lex.PLACE_PREPOSITIONS:
            return None  # at, by, next to: measured, not taken (pass 11)
        lemma = part.lemma_.lower()
        names = {part.lower_, lemma}
        if names & (lex.CONTAINER_NOUNS | lex.FLAT_CONTAINERS | lex.FRAMING_NOUNS):
            return None
        if names & (lex.PERSON_NOUNS | ANIMALS):
            return None
        of = next(
            (c for c in self.kids[part.i] if c.dep_ == "prep" and c.lower_ == "of" and c.i < start),
            None,
        )
        whole = self._pobj(of) if of is not None else None
        if whole is None or view.pos[whole.i] not in NOUNS or whole.i in self.implicit_objects:
            return None
        if max(t.i for t in subtree(of)) + 1 != start:
            return None  # only the phrase right after the whole's ("a roof of a house, on a hill")
        if any(c.dep_ in {"det", "poss"} for c in self.kids[whole.i]):
            return None  # "the premiere of their film at the theater": a thing's own part or event
        if part.dep_ == "conj" or any(c.dep_ == "conj" for c in self.kids[part.i]):
            return None  # "an egg, onions and slices of pork on a table": the list's phrase
        pobj = self._pobj(prep)
        if pobj is None or self.view.lower[pobj.i] in lex.ANAPHORA:
            return None  # "a variety of sandwiches on it": the pronoun's own rules say where
        return whole

    def _chained_place(
        self, verb: Token, prep: Token, prep_text: str, objects: list[Token]
    ) -> bool:
        """ "standing behind the cake on the table": a second place phrase of support or
        containment on a verb, right after the first one's object, says where that object
        is (cake on table), not where the subject does the verb. Adds that relation and says
        so."""
        if prep.i == 0 or prep_text not in lex.SUPPORT_PREPOSITIONS or verb.lemma_ == "be":
            return False  # "lying on concrete under a branch": the animal is under it
        before = self.tokens[prep.i - 1]
        if before.dep_ != "pobj" or before.head.head != verb or before.pos_ not in NOUNS:
            return False
        if before.head.lower_ in {"with", "of", "by"} or self._entity(before) is None:
            return False
        if before.lower_ in lex.CLOTHING:
            return False  # "standing in a red shirt to the left of a ladder": he stands there
        if self.hooks.time_noun(self, before):
            return False  # "jumps into a puddle on a rainy day in the park": a time is no place
        thing = self._entity(before)
        for obj_tok in objects:
            self._add(thing, prep_text, self._entity(obj_tok, exclude=thing))
        return True

    def _previous_object(self, verb: Token, prep: Token) -> Token | None:
        """The object of the verb's phrase right before ``prep`` ("talking to the woman | next
        to him"): a phrase ending in a pronoun that is about the verb's own subject places
        that object, not the subject."""
        start = prep.head if prep.head.lower_ in lex.PREP_HEADS and prep.head.i < prep.i else prep
        before = self.tokens[start.i - 1] if start.i > 0 else None
        if before is None or before.dep_ != "pobj" or before.head.head != verb:
            return None
        return before if self._entity(before) is not None else None

    def _absolute_with(self, prep: Token, objects: list[Token]) -> bool:
        """ "with buckets lying around them", "with a sweater draped over his shoulders", "with
        a logo on it": a "with" phrase on a verb whose object has a clause, or a place phrase
        pointing back, of its own is a scene of its own, not what the verb is done with
        ("playing with a puppy on the steps" is done with the puppy)."""
        if prep.lower_ != "with" or not objects:
            return False
        pobj = objects[0]
        # ", with a yellow umbrella over the cart": after a comma, a place phrase of its own
        after_comma = self.hooks.after_comma(self, prep)
        return any(
            c.i > pobj.i and (
                c.dep_ in {"acl", "relcl"}
                or (c.dep_ == "prep" and c.lower_ != "of" and (after_comma or any(
                    t.lower_ in lex.ANAPHORA and t.dep_ == "pobj" for t in subtree(c))))
            )
            for c in self.kids[pobj.i]
        )  # fmt: skip

    def _can_wear(self, anchor: Token, worn: Token) -> bool:
        """ "in" a worn thing is wearing it; for a word that also names a container
        ("glasses"), only where a person or an animal is in it: "wines in the glasses" are
        in them, "a man in glasses" wears them."""
        if not self.hooks.worn_container(self, worn):
            return True
        names = {anchor.lower_, anchor.lemma_.lower()}
        return bool(names & (lex.PERSON_NOUNS | ANIMALS | lex.ANAPHORA)) or anchor.pos_ == "PROPN"

    @staticmethod
    def _worn_by(anchor: Token, objects: list[Token]) -> bool:
        """A person "with" worn things only ("a man with a yellow shirt and a cap"), in a
        caption that says what the person does ("a man with a yellow shirt reaching for a
        pie") or with a list of them (an outfit); a thing "with a cap" (a bottle) has it, and a
        bare noun phrase with one worn thing ("a man with the yellow jacket") is a description
        that keeps its preposition (FACTUAL's gold in the read parts: "wear" in 5 of 5 clauses,
        "have" for the one verbless list, "with" for the one verbless single thing)."""
        person = anchor.lower_ in lex.PERSON_NOUNS or anchor.lemma_.lower() in lex.PERSON_NOUNS
        said = len(objects) > 1 or any(t.pos_ in {"VERB", "AUX"} for t in anchor.sent)
        return person and said and bool(objects) and all(o.lower_ in lex.CLOTHING for o in objects)

    @staticmethod
    def _has_parts(anchor: Token, objects: list[Token]) -> bool:
        """A person or an animal "with" parts of its body only, followed by a clause of its
        own ("a man with brown hair standing to the left of a ladder", "a man with dark hair
        who has ..."): it has them. A bare noun phrase keeps "with" ("man with curly hair",
        "a zebra with two ears"), and so does a person who is the subject of the sentence's
        verb ("animals with horns are in a field"), and a part with a clause of its own ("a
        young man with his hand touching his face"). FACTUAL's gold in the read parts: "have"
        in the 5 such clauses it changes, "with" for the bare phrases."""
        owner = {anchor.lower_, anchor.lemma_.lower()} & (lex.PERSON_NOUNS | ANIMALS)
        said = any(c.dep_ in {"acl", "relcl"} and c.i > anchor.i for c in anchor.children)
        return (
            bool(owner)
            and said
            and bool(objects)
            and all(
                o.lower_ in OWN_BODY and not any(c.dep_ in {"acl", "relcl"} for c in o.children)
                for o in objects
            )
        )

    @staticmethod
    def _parts_and_outfit(anchor: Token, objects: list[Token]) -> bool:
        """A person "with" a list of body parts and worn things: the worn things are worn (an
        outfit, as in :meth:`_worn_by`), the parts had where a clause of the person's own
        follows (:meth:`_has_parts`), else "with" ("a woman with brown hair and a pink
        shirt": FACTUAL's gold writes woman with hair, woman wear shirt)."""
        parts = [o for o in objects if o.lower_ in OWN_BODY]
        worn = [o for o in objects if o.lower_ in lex.CLOTHING and o.lower_ not in OWN_BODY]
        person = anchor.lower_ in lex.PERSON_NOUNS or anchor.lemma_.lower() in lex.PERSON_NOUNS
        return person and bool(parts) and bool(worn) and len(parts) + len(worn) == len(objects)

    def _shared_by_conjuncts(self, noun: Token, prep: Token) -> list[int]:
        """ "pizza and sauce on a plate": a phrase after a coordination describes every
        conjunct before it, unless that conjunct has a phrase of its own ("a man in red and a
        dog on a bed")."""
        shared = []
        for other in self._conjuncts(noun):
            if other.i >= prep.i or other.pos_ not in NOUNS:
                continue
            if any(
                c.dep_ in {"prep", "acl", "relcl"} and c.i < prep.i
                for c in self.kids[other.i]
                if c.i > other.i
            ):
                continue
            entity = self._entity(other)
            if entity is not None:
                shared.append(entity)
        return shared

    def _prep_objects(self, pobj: Token) -> list[Token]:
        if pobj.i in self.implicit_objects:
            return [pobj]  # "on the side" of the bowl: the bowl alone, not its conjuncts
        if is_colour(pobj) and pobj.head.lower_ == "in":
            return []  # attribute, and its conjuncts are other entities, not other objects
        return [pobj] + [c for c in self._conjuncts(pobj) if c.pos_ in NOUNS | {"PRON"}]

    def _verb_preposition(
        self, verb: Token, prep: Token, prep_text: str, objects: list[Token]
    ) -> None:
        subjects = self._subjects(verb)
        view = self.view
        dep, lower = view.dep, view.lower
        passive_agent = dep[prep.i] == "agent" or (
            lower[prep.i] == "by" and view.tag[verb.i] == "VBN"
        )
        if self.hooks.covering_agent(self, verb, prep):
            passive_agent = True  # "a truck covered in graffiti": graffiti cover truck
        if passive_agent and self.lemma:
            # "a car covered by snow" -> snow --cover--> car: the active form, agent first.
            subjects = self.hooks.worn_owners(self, verb, subjects)  # "a scarf ... worn by"
            for subject in subjects:
                for obj_tok in objects:
                    self._add(
                        self._entity(obj_tok, exclude=subject), self._verb_predicate(verb), subject
                    )
            return
        dobj = next((c for c in self.kids[verb.i] if dep[c.i] == "dobj"), None)
        if self.hooks.absolute_with(self, prep, objects):
            return  # "holding an umbrella with a logo on it": the logo's own phrase says it
        if self.hooks.chained_place(self, verb, prep, prep_text, objects):
            return
        if verb.lemma_ == "be":
            predicate = prep_text
        elif (
            prep_text == "with"
            and dobj is None
            and self.hooks.posture_with(self, verb, prep, objects)
        ):
            # "a man standing with black shoes on", "people standing with their arms up":
            # the "with" phrase is the subject's, not a way of standing
            worn = all(lower[o.i] in lex.CLOTHING for o in objects)
            predicate = "wear" if worn and objects else "with"
        elif prep_text == "in" and objects and self.hooks.worn_in(self, objects):
            predicate = "wear"  # "a man standing in a red shirt": he wears it
        elif self.hooks.placement(self, verb):
            predicate = prep_text  # "a door found in a kitchen": door in kitchen
        elif (
            dobj is not None
            and dobj.i < prep.i
            and self.hooks.place_of_doing(self, verb, prep_text)
        ):
            # "a man riding a motorcycle on the street": the man is on the street
            predicate = prep_text
        else:
            predicate = f"{self._verb_predicate(verb)} {prep_text}"
            predicate = self.hooks.plain_predicate(self, predicate, prep_text)  # "jump up in"
        if dobj is not None and dobj.i < prep.i and self.hooks.handled_in(self, verb, prep_text):
            # "holding her shoes in one hand": the shoes are in the hand
            for thing in self._with_conjuncts(dobj):
                for obj_tok in objects:
                    self._add(thing, prep_text, self._entity(obj_tok, exclude=thing))
            return
        for obj_tok in objects:
            if self._reciprocal(obj_tok):  # "cat and dog looking at each other"
                self._add_reciprocal(subjects, predicate, obj_tok)
                continue
            held = dobj
            anaphora = lower[obj_tok.i] in lex.ANAPHORA
            if held is None and anaphora:  # "talking to the woman next to him"
                held = self.hooks.previous_object(self, verb, prep)
            if anaphora and held is not None:
                # "the rock has moss on it": the moss is on the rock.
                thing = self._entity(held)
                self._add(thing, prep_text, self._entity(obj_tok, exclude=thing))
                continue
            for subject in subjects:
                self._add(subject, predicate, self._entity(obj_tok, exclude=subject))

    def _worn_owner(self, subject: int) -> int:
        """ "a red scarf with white dots worn by a woman": what is worn is the worn thing
        the pattern or part is "with", not the dots (woman wear scarf)."""
        tok = self.tokens[subject]
        view = self.view
        if view.dep[tok.i] != "pobj" or view.lower[tok.i] in lex.CLOTHING:
            return subject
        with_ = tok.head
        if view.lower[with_.i] != "with" or view.lower[with_.head.i] not in lex.CLOTHING:
            return subject
        owner = self._entity(with_.head)
        return subject if owner is None else owner

    def _of_relation(self, noun: Token, pobj: Token) -> None:
        """ "a cup of coffee" (contents in container), "legs of a flamingo" (part)."""
        whole = self._entity(pobj)
        part = self._entity(noun)
        lemma = noun.lemma_.lower()
        if lemma in lex.CONTAINER_NOUNS:
            self._add(whole, "in", part)
        elif lemma in lex.FLAT_CONTAINERS:
            self._add(whole, "on", part)
        elif lemma in lex.FRAMING_NOUNS:  # "taking a picture of a sunset": no part of it
            self._add(part, "of", whole)
        else:
            self._add(whole, "have", part)
        for conj in self._conjuncts(pobj):
            self._add(self._entity(conj), "have", part)

    def _clean_relations(self) -> list[tuple[int, str, int]]:
        seen = set()
        out = []
        for rel in self.relations:
            s, p, o = rel
            if s == o or s not in self.entities or o not in self.entities or rel in seen:
                continue
            seen.add(rel)
            out.append(rel)
        return out
