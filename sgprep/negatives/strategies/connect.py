"""connect: a true entity joined to a salient thing the caption would name if the photo
showed it, by a relation that places it ("a woman sitting on a bench" -> "a woman sitting on
a bench next to a bicycle"; "a brown cat is lying on a computer" -> "a brown cat behind a
small lamp is lying on a computer"), added after the entity or at the end (only for a caption
with no negative yet: it is longer). It only adds: the caption's relations and objects all
stay (issue 32). What it adds, and how it places it, come from the statistics in use
(:mod:`sgprep.negatives.addable`)."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from functools import lru_cache
from itertools import accumulate

from sgprep.lexicon import words as lexicon_words
from sgprep.negatives import addable, grammar, scenes
from sgprep.negatives.cooc import (
    NOT_OBJECTS,
    PLURALIA,
    lemma,
    object_class,
    predicate_key,
    singular,
)
from sgprep.negatives.cooc_lexicon import FIXED_EXPRESSIONS
from sgprep.negatives.perturbation import Attach, Candidate, Perturbation
from sgprep.negatives.scene import (
    ANIMATE,
    CONTAINING,
    MAX_MEMO,
    WORD,
    Scene,
    Strategy,
    plain_attribute,
    with_entities,
)
from sgprep.negatives.strategies.connect_words import (
    AFLOAT,
    AIRBORNE,
    BARE_PLURAL_CATEGORIES,
    CONNECT_PREDICATES,
    COPULA_SEAMS,
    DISTANT_KEYS,
    DISTANT_PADDED,
    GROUPS,
    HUGE,
    IN_THE_AIR,
    LANDSCAPES,
    NOT_ANCHOR_CLASSES,
    NOT_ANCHORS,
    OPENING_WORDS,
    PLACES,
    ROOMS,
    STRUCTURES,
    VAST,
)
from sgprep.negatives.strategies.swap import knowledge, thing_kind
from sgprep.negatives.words import SEAM_WORDS, SPATIAL_WORDS, attribute_kind, relation_type
from sgprep.schema import Entity, Relation, SceneGraph
from sgprep.stats.properties import head_label_pairs, synonym_table

#: What separates clauses, for _far_before.
_CLAUSE_BREAK = re.compile(r"[,;]")
#: Letters, and letters or apostrophes: the words of a stretch before a noun phrase.
_SIZE_FITS = {
    "vast": lambda obj: False,
    "huge": addable.fits_huge,
    "big": lambda obj: not addable.is_small(obj),
    "small": addable.fits_small,
    "any": lambda obj: True,
}


#: Determiners of one thing: a second item may join a thing they open in a list.
ONE_DETERMINERS = lexicon_words("determiners") - lexicon_words("plural_determiners") - {"some"}
#: Pronouns of one thing: with a second subject they may name either ("a cat on a windowsill
#: with plants around it").
PRONOUNS_OF_ONE = lexicon_words("pronouns_of_one")
#: Words that say a subject is alone: it takes no second one.
ALONE_WORDS = lexicon_words("alone_words")
#: Finite verbs of one subject: one after a second subject would have to agree ("a dog and a
#: cat | is ...").
FINITE_VERBS = lexicon_words("finite_verbs_of_one")
#: Verbs of a body busy with what it does, hands and all: such a person is given nothing to
#: have with them (the lexicon's ``busy_hands_verbs``).
BUSY_HANDS = lexicon_words("busy_hands_verbs")
#: Verbs of a subject moving fast or in mid-air: nothing is put beside a caption that has one
#: ("a convertible driving along a coastal road, beside a puppy").
SWIFT_VERBS = lexicon_words("swift_verbs")
#: ... and their forms a caption may write ("diving", "dives").
SWIFT_FORMS = frozenset(
    f for v in SWIFT_VERBS for f in (grammar.gerund(v), grammar.third_person(v))
)
#: Words of a photo framed close on its subject: nothing is put beside it.
CLOSE_FRAMES = tuple(f" {w} " for w in sorted(lexicon_words("close_frames")))
#: Words of a game in play (a catcher, a goalie, a boxer): nothing is put beside it.
GAMES_IN_PLAY = lexicon_words("games_in_play")
#: A being seen with a predicate this many times or more, and with the caption's object in
#: as many scenes, may be a second subject where the statistics did not see that triple but
#: judge it plausible (:meth:`Connect._cosubject`).
COSUBJECT_SEEN = 2
#: What connect adds as a second subject, beside a thing of a salient kind (WordNet's:
#: ``addable.lexicon()["kinds"]``): a thing of these coarse classes. Never a person (two
#: people together are often both in the photo, and "his" or "her" may change whom it
#: names), a garment, a part, a building or a place.
COSUBJECT_CLASSES = frozenset(
    {"animal", "vehicle", "furniture", "small object", "food", "plant", "fixture"}
)


def detector_label(obj: str) -> str | None:
    """The detector class (COCO's, through sgprep.stats' synonym table) that names ``obj``."""
    for label, words in synonym_table().items():
        if obj in words:
            return label
    return None


def _fresh_dict(key) -> dict:
    """A new table of a :meth:`Memos.memo` entry (``key`` unused): filled by its caller."""
    return {}


#: The attribute kinds (:func:`sgprep.negatives.words.attribute_kind`) that describe any thing
#: connect adds; a material only a thing that is no being ("a wooden horse" is a toy).
DESCRIBING_KINDS = frozenset({"colour", "size"})
#: Another attribute describes an added thing where the statistics saw it with this many
#: different things or more: a general word ("old", "rusty", "wet"), not the first word of
#: a name ("an arctic fox", "a semi truck", "a basset hound").
GENERAL_ATTRIBUTE = 10
#: connect adds a thing only where this many may be drawn: where a few are possible (a cat
#: or a stool by a plate of food; by an animal in no setting named, only a backpack, a
#: bicycle, a suitcase or an umbrella), the scene says the added word, and a few such
#: settings made it the commonest of all (the fresh set: a stool 6.7 % of the additions with
#: every possible thing drawn alike, 4.0 % with three at least; with 63,150 captions
#: counted, an umbrella 6.8 % with three, 6.6 % with four, and 2.7 % with five, bulldog then
#: the commonest at 4.8 %, on 23.2 % of captions rather than 30.1 %).
MIN_OPTIONS = 5
#: A thing connect adds must have been seen in one scene with one of the caption's things
#: (people and their parts aside), or its WordNet parent this many times or more: "a dog" is
#: seen once by nearly anything, which placed every breed anywhere (blind review round 41: a
#: corgi by dishes in a sink, on an ice rink; on the fresh set, once: connect on 18.3 % of
#: captions, 238 words; twice: 16.5 %, 219; a thing's own scene with every name: 8.0 %).
PARENT_SEEN = 2
#: A word counted as an object more than once in this many of its uses as an attribute is a
#: noun ("a toy car", "a laundry basket"); less often, a slip of the parse ("the wet").
NOUN_SHARE = 10


def describing(cooc, obj: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The attributes connect may give an added ``obj``, each with its cumulative count: those
    the statistics saw with it twice or more that describe it without changing what it is. A
    colour or a size; a material, where ``obj`` is no being; another attribute where it is one
    plain word ("rusty", "fluffy", "parked", "open"), never a noun that makes a compound ("a
    toy car", "a laundry basket", "a prairie dog"), a name's own word (:data:`GENERAL_ATTRIBUTE`)
    nor a participle ("a rocking horse"). A word counted as a noun more than once in
    :data:`NOUN_SHARE` of its uses as an attribute is taken for a noun."""
    being = object_class(obj) in ANIMATE
    options = {}
    for w, n in cooc.neighbours("attr", 1, obj).items():
        kind = attribute_kind(w)
        if n < 2 or not plain_attribute(w):
            continue
        described = cooc.neighbours("attr", 0, w)
        other = (
            kind != "material"
            and w.isalpha()
            and w not in SPATIAL_WORDS
            # hardly ever a noun: a slip of the parse ("the wet" once) leaves "a wet dog"
            and cooc.n("obj", w) * NOUN_SHARE <= sum(described.values())
            and len(described) >= GENERAL_ATTRIBUTE
        )
        if kind in DESCRIBING_KINDS or (kind == "material" and not being) or other:
            options[w] = n
    words = tuple(sorted(options))
    return words, tuple(accumulate(options[w] for w in words))


@lru_cache(maxsize=4096)
def _with_article(obj: str) -> str:
    """ "a bicycle", "an umbrella": how connect writes a thing it adds."""
    return f"{grammar.indefinite_article(obj)} {obj}"


class Connect(Strategy):
    """connect's candidates for one scene."""

    def __init__(self, scene: Scene):
        super().__init__(scene)
        text = scene.text
        n = len(text.split())
        self.extra_words = int(scene.max_length_ratio * n) - n if text else 99  # what it may add
        #: the characters connect's negative may have at most (its length is a text-only cue)
        self.connect_max_chars = scene.connect_max_length_ratio * len(text) if text else 1e9
        self.detected = scene.detected
        self._connect_queue: list | None = None
        self._spans: list | None = None  # (span, entity) in the caption's order
        self._additions: list | None = None
        self._anchors: dict[int, bool] = {}
        self._fitting: dict[str, list[tuple[str, float]]] = {}
        self._far: dict[int, bool] = {}  # _far_before by end
        self._addable_pool: tuple[list[str], list[float]] | None = None
        self._said_text: str | None = None
        self._unsaid: list[str] | None = None
        self._beside: str | None = None  # _nothing_beside, once per graph

    def listings(self) -> dict:
        return {"connect": self.connect}

    @property
    def _said(self) -> str:
        """The caption in lower case between spaces, to look for a word in (once per graph)."""
        if self._said_text is None:
            self._said_text = f" {self.text.lower()} "
        return self._said_text

    @property
    def _unsaid_predicates(self) -> list[str]:
        """Of :data:`CONNECT_PREDICATES`, those the caption does not say (once per graph;
        read only)."""
        if self._unsaid is None:
            said = self._said
            self._unsaid = [p for p in CONNECT_PREDICATES if f" {p} " not in said]
        return self._unsaid

    def connect(self) -> list[Candidate]:
        if self.cooc is None:
            return [lambda i=i: self._connect(i) for i in range(len(self.g.entities))]
        why = self._whole_view()
        if why:
            return self._refuse(why) or []
        # one option per entity (an addition) or trailing locative phrase (put in its place);
        # whichever candidate is drawn builds the best option not yet tried (_next_connect)
        return [self._next_connect] * (len(self.g.entities) + len(self.g.relations))

    def _whole_view(self) -> str | None:
        """Why nothing may be put near anything of the caption: it describes a whole view
        (its first noun phrase a skyline, a landscape: ``connect_landscape``). Blind review
        round 5: "a city skyline lit up at night across the bay near a suitcase" reads
        wrong."""
        spans = [(e.span[0], k) for k, e in enumerate(self.g.entities) if e.span is not None]
        if spans and self.scene.names[min(spans)[1]].split()[-1] in LANDSCAPES:
            return "connect_landscape"
        return None

    def _connect(self, i: int) -> Perturbation | None:
        obj = self.scene.draw(*self.vocab.object_pool(), self.scene.heads)
        pred = self.scene.draw(*self.vocab.pool("relations", "spatial"), set())
        if obj is None or pred is None:
            self.rejected["no_vocabulary"] += 1
            return None
        animate = self.vocab.categories.get(obj) in {"person", "animal"}
        types = ("colour", "size") if animate else ("colour", "size", "material")
        attr_type = self.rng.choice(types)
        attr = self.scene.draw(*self.vocab.pool("attributes", attr_type), set())
        attrs = [attr] if attr else []
        return self._attach(i, pred, obj, attrs)

    def _next_connect(self) -> Perturbation | None:
        """The next connect option not tried yet: a salient thing the caption would name if
        the photo showed it (:meth:`_addable`) added after an entity (:meth:`_added`), the
        entities in random order. connect only adds: the caption's own relations and objects
        all stay (issue 32: "a man standing in front of a clock" must not become "a man
        standing beside a skateboard")."""
        if not self.scene.may_add:
            self.rejected["connect_addition_not_needed"] += 1
            return None
        if self._additions is None:
            # a thing put near an entity, or (a relation's index + the entities') a second
            # object joined to a relation's in a list (:meth:`_joined`); first, where the
            # caption opens with a subject that does something, a second subject
            # (:meth:`_cosubject`, -1): the phrasing captions use most to name two things
            self._additions = list(range(len(self.g.entities) + len(self.g.relations)))
            self.rng.shuffle(self._additions)
            self._additions.append(-1)
        n = len(self.g.entities)
        while self._additions:
            k = self._additions.pop()
            made = self._cosubject() if k < 0 else self._added(k) if k < n else self._joined(k - n)
            if made is not None and self._within(made[0]):
                return self._attach(*made[1])
        return None

    def _joined(self, r: int) -> tuple[int, tuple] | None:
        """(characters, :meth:`_attach` arguments) of a second object joined in a list to
        relation r's ("a man holding an umbrella" -> "a man holding an umbrella and a cup"):
        where the relation's predicate is one of ``addable.json``'s ``join_predicates``, a
        thing the statistics saw as its object from a subject of the kind (:func:`addable.joinable`), drawn by how often
        (the added word follows the corpus's own for that role, so it is no text-only cue),
        that the caption does not name, of no class it names, no mass noun, and not one
        the statistics see with the caption's objects. The realiser puts it right after the object's noun
        phrase, where a list may go on (:meth:`Realiser._list_seam`)."""
        rel = self.g.relations[r]
        if any(x.subject == rel.object for x in self.g.relations):
            # the object is placed or does something itself: the second item would share
            # it ("holds an umbrella and a goat | over a woman")
            return self._refuse("connect_join_placed")
        if thing_kind(self.scene.names[rel.object]) == "person":
            # a thing joined to a person in a list reads as done to both ("a girl pushing
            # her younger brother and a stroller on a playground swing": blind review round
            # 22; "playing frisbee with his son and a controller")
            return self._refuse("connect_join_person")
        if thing_kind(self.scene.names[rel.subject]) != "person":
            # an animal holds or carries one thing, in its mouth ("a dog carries a stick and
            # an orange pumpkin through shallow water": blind review round 51), and a thing
            # holds what it is made to ("a white plate holds a green salad and a plant":
            # round 55)
            return self._refuse("connect_join_doer")
        head = self.scene.names[rel.object]
        if self._part_of_someone(rel.object) or self.cooc.part_or_worn(head):
            # "a girl holds her nose and a jar" (read in the written corpus's output)
            return self._refuse("connect_join_part")
        if addable.is_bulky(head) or addable.is_bulky(head.split()[-1]):
            # one carries it by itself ("two men carry a heavy couch and a stone statue up a
            # narrow staircase": blind review round 27)
            return self._refuse("connect_join_bulky")
        if not self._one_thing(rel.object):
            # a second item after a mass noun or a bare plural reads wrong ("eating ice cream
            # and a noodle", "throwing snowballs and a dart": read in the fresh set's output)
            return self._refuse("connect_join_mass")
        names = self.scene.names
        words, weights = addable.joinable(
            self.cooc, predicate_key(rel.predicate), names[rel.subject]
        )
        if not words:
            return self._refuse("connect_no_join")
        if self.extra_words < 3:
            return self._refuse("too_long")
        said = set(self.scene.words) | set(names)
        classes = {object_class(x) for x in names} - {None}
        things, here = self._addable_things(), self._possible_here()
        placed = addable.lexicon()["placed_classes"]
        options = [
            (w, n)
            for w, n in zip(words, weights)
            if w not in said
            # a thing connect may add, an animal or a vehicle joins only where it may be
            # added, in a setting the statistics place it ("a soldier hugging his wife at an
            # airport gate" takes no calf, though people hug calves)
            and (w in here or (w not in things and object_class(w) not in placed))
            and singular(w) not in said
            and object_class(w) not in classes
            and thing_kind(w) not in ("person", "animal")  # "carrying a suitcase and a toddler"
            and not addable.is_bulky(w)  # "carries a wooden desk and a red kite"
            and len(w.split()) + 2 <= self.extra_words
            and w not in grammar.UNCOUNTABLE  # "eating an apple and the hay"
            and w not in PLURALIA  # "holds a fishing rod and a binoculars"
            and (self.detected is None or self._absent(w))
            and not any(self._expected_with(w, x) for x in set(names))
        ]
        if not options:
            return self._refuse("connect_nothing_absent")
        # what one holds besides is of a size to hold: never sized ("holds a fishing rod and a
        # giant snowball": blind review round 53)
        obj, attrs, chars = self._draw_joined(options, sizes=False)
        return chars, (rel.object, rel.predicate, obj, attrs, False, False, False, rel.subject)

    def _cosubject(self) -> tuple[int, tuple] | None:
        """(characters, :meth:`_attach` arguments) of a second subject joined to the one the
        caption opens with, doing what it does ("a horse standing in the doorway of a stable"
        -> "a horse and a goat standing ..."; "a cat is sitting on a fence" -> "a cat and an
        owl are sitting on a fence"). The subject's noun phrase opens the caption and is
        followed right away by one of its relations (:meth:`_first_entity`); no finite verb
        comes later (it would have to agree), no "it" (whom would it name?), no "alone", and
        no relation of the subject ends on a body part ("sleeping on a dog's back").

        The new thing is one the statistics saw as the subject of that relation with that
        object (:meth:`Cooc.subjects_of`). For a being doing something (an action), also a
        being seen doing it :data:`COSUBJECT_SEEN` times and seen with its object in as many
        scenes, the triple plausible (:meth:`Cooc.judge`) and the subject's other relations
        seen with it, where nothing the subject does is done to a being or a garment
        (:meth:`_may_back_off`). A being beside a being, never a person, an animal only where
        the caption's setting allows it (:meth:`_possible_here`); a thing beside a thing of
        its kind (:meth:`_kind`: "a bus and a van", never "a sandwich and a flower pot").
        Drawn by how often (flattened as :data:`addable.ROLE_FLATTEN`: the added word follows the
        corpus's own for the role). Never a thing that is no object, a part, a thing worn, a
        mass noun, a thing the caption names or one the statistics see with the caption's
        objects (it may be in the photo)."""
        first = self._first_entity()
        if first is None:
            return self._refuse("connect_no_cosubject")
        i, rel, agrees = first
        names = self.scene.names
        if not PRONOUNS_OF_ONE.isdisjoint(self.scene.words):
            return self._refuse("connect_cosubject_pronoun")
        if any(r.subject == i and self._part_of_someone(r.object) for r in self.g.relations):
            return self._refuse("connect_cosubject_part")  # "a kitten sleeping on a dog's back"
        if not ALONE_WORDS.isdisjoint(self.scene.words):
            return self._refuse("connect_cosubject_alone")  # "a man and a dog walking alone"
        if not GAMES_IN_PLAY.isdisjoint(self.scene.words):
            # nobody joins a game in play: "a baseball catcher and a cat crouching behind
            # home plate" (read after blind review round 58's fixes)
            return self._refuse("connect_game")
        tail = WORD.findall(self.text[self.g.entities[i].span[1] :].lower())[agrees:]
        if not FINITE_VERBS.isdisjoint(tail):
            return self._refuse("connect_cosubject_verb")
        if self.extra_words < 3:
            return self._refuse("too_long")
        p = predicate_key(rel.predicate)
        obj = names[rel.object]
        seen = dict(self.cooc.subjects_of(p, obj))
        if not seen and " " in obj:
            seen = dict(self.cooc.subjects_of(p, obj.split()[-1]))
        animate = self._being(names[i])
        backed: set[str] = set()
        if relation_type(p) == "action" and animate and self._may_back_off(i):
            # a subject of the predicate, seen with its object in a scene twice or more (no
            # dog on a power line), the triple plausible, every other relation of the subject
            # seen with it (strictly)
            c, head = self.cooc, obj.split()[-1]
            for w, n in self._beings_doing(p):
                if (
                    w not in seen
                    and max(c.together(w, o) for o in {obj, head}) >= COSUBJECT_SEEN
                    and c.judge(w, p, obj) is None
                ):
                    seen[w] = n
                    backed.add(w)
        if not seen:
            return self._refuse("connect_cosubject_unseen")
        kind = None if animate else self._kind(names[i])
        if not animate and kind is None:
            return self._refuse("connect_cosubject_unseen")
        # an animal only where the caption's setting allows it (:meth:`_possible_here`; with
        # none named, one met anywhere): no elephant walking down a street, no camel at a ski
        # lift, no penguin on a rock
        things = self._addable_things()
        here = self._possible_here()
        said = set(self.scene.words) | set(names)
        lex = addable.lexicon()
        others = [r for r in self.g.relations if r.subject == i and r is not rel]
        # an animal joins an animal the statistics saw it with ("several sheep and a zebra
        # crossing a country road": blind review round 20)
        subject, animal = singular(names[i]), object_class(names[i]) == "animal"
        options = []
        for w, n in sorted(seen.items()):
            if (
                # a being beside a being ("a woman and a table holding a bowl"), a thing
                # beside a thing of its kind ("a sandwich and a flower pot on a plate")
                (not self._being(w) if animate else self._kind(w) != kind)
                or (animate and w in things and w not in here)
                or (animal and not self.cooc.together(w, subject))
                or w in said
                or singular(w) in said
                or w in NOT_OBJECTS
                or w in lex["never"]
                or w in grammar.UNCOUNTABLE
                # seen once as a thing may be a parse's slip ("a horse and rider gallop and a
                # chases seagull": read in the written corpus's output)
                or self.cooc.n("obj", w) < addable.JOIN_SEEN
                or not (w in lex["kinds"] or object_class(w) in COSUBJECT_CLASSES)
                or singular(w) != w
                or len(w.split()) + 2 > self.extra_words
                or self.cooc.part_or_worn(w)
                or (self.detected is not None and not self._absent(w))
                or any(
                    self.cooc.judge(w, r.predicate, names[r.object], strict=w in backed)
                    for r in others
                )
                or any(self._expected_with(w, x) for x in set(names))
            ):
                continue
            options.append((w, n**addable.ROLE_FLATTEN))
        if not options:
            return self._refuse("connect_nothing_absent")
        new, attrs, chars = self._draw_joined(options)
        return chars, (i, rel.predicate, new, attrs, False, False, False, None, True)

    def _beings_doing(self, p: str) -> tuple[tuple[str, int], ...]:
        """The beings (:meth:`_being`) the statistics saw doing ``p`` :data:`COSUBJECT_SEEN`
        times or more, with their counts, in the statistics' order (once per predicate and
        statistics object)."""
        return self.scene.memos.memo(
            ("beings_doing", p),
            lambda key: tuple(
                (w, n)
                for w, n in self.cooc.subjects(key[1]).items()
                if n >= COSUBJECT_SEEN and self._being(w)  # a being beside a being
            ),
        )

    def _part_of_someone(self, j: int) -> bool:
        """Entity j is a part of a body (by its class, or someone's: "a man's shoulder")."""
        before = self.words_before(j, 2) or []
        owned = any(w.endswith(("'s", "’s")) for w in before)
        return owned or object_class(self.scene.names[j]) == "body part"

    def _may_back_off(self, i: int) -> bool:
        """A second subject of entity i, a being doing something, may be one the statistics saw
        with the predicate only (not with its object): no relation of entity i has a being or
        a garment for its object ("a woman and a camel carrying a child", "a woman and a
        kitten wearing knee pads")."""
        return not any(
            r.subject == i
            and (
                self._being(self.scene.names[r.object])
                or object_class(self.scene.names[r.object]) == "clothing"
            )
            for r in self.g.relations
        )

    @staticmethod
    @lru_cache(maxsize=65_536)  # of the lexicon alone: once per word and process
    def _being(name: str) -> bool:
        """A person or an animal, by the coarse classes or WordNet's kinds, of the name, its
        head, or the word before a head they do not know ("a brown bear cub")."""
        kinds = addable.lexicon()["kinds"]
        words = name.split()
        # the word before the head where the head says nothing ("bear | cub"), never a
        # modifier of a known head ("a hot dog", "a baby shower table")
        if name in kinds or name in FIXED_EXPRESSIONS:  # a teddy bear, a hot dog
            tried: tuple[str, ...] = (name,)
        elif object_class(name) or words[-1] in kinds or len(words) < 2:
            tried = (name, words[-1])
        else:
            tried = (name, words[-1], words[-2])
        return any(object_class(w) in ANIMATE or kinds.get(w, ("",))[0] == "animal" for w in tried)

    @staticmethod
    def _kind(name: str) -> str | None:
        """What a thing is, for a second subject of its kind: its WordNet kind (a vehicle, a
        piece of furniture, a plaything), else its coarse class (food, a small object), of
        the name or its head; None where neither says."""
        kinds = addable.lexicon()["kinds"]
        for w in (name, name.split()[-1]):
            if w in kinds:
                return kinds[w][0]
        return object_class(name)

    def _first_entity(self) -> tuple[int, Relation, int] | None:
        """The entity whose noun phrase opens the caption (:meth:`_opens`; one thing or
        several, not a group: "a group | of cows"), with its relation whose words follow
        that noun phrase right away: a participle or gerund of its verb ("a zebra |
        standing next to"), after "is" or "was" where the entity is one (then 1: the
        realiser makes it agree with two, :data:`grammar.AUX_PLURAL`), or its preposition
        ("a cat | on a windowsill"; not "in" or "with", which may say what it wears or has:
        "a man | in a red shirt")."""
        spans = [(e.span[0], k) for k, e in enumerate(self.g.entities) if e.span is not None]
        if not spans:
            return None
        i = min(spans)[1]
        head = self.scene.names[i].split()[-1]
        if (
            not self._opens(i)
            or head in GROUPS
            or head in NOT_OBJECTS
            or head in NOT_ANCHORS
            or head.endswith("ing")  # "a cyclist riding" parsed as one name
            or object_class(self.scene.names[i]) in ("body part", "clothing")  # "a hand holding"
            or self._size(i) == "vast"  # a room, a city: "a kitchen | and a cupboard"
            or head in PLACES
            or head in LANDSCAPES
        ):
            return None
        after = WORD.findall(self.text[self.g.entities[i].span[1] :].lower())[:2]
        if not after:
            return None
        agrees = 0
        if after[0] in grammar.AUX_PLURAL and len(after) == 2:
            if self.scene.plural(i):
                return None
            agrees, after = 1, after[1:]
        for r in self.g.relations:
            if r.subject != i or r.object == i:
                continue
            p = predicate_key(r.predicate)
            first = p.split()[0]
            if relation_type(p) == "action":
                if grammar.verb_form(after[0], first) in ("gerund", "participle"):
                    return i, r, agrees
            elif first == after[0] and first not in ("in", "with", "of") and not agrees:
                return i, r, agrees
        return None

    def _draw_joined(
        self, options: list[tuple[str, float]], sizes: bool = True
    ) -> tuple[str, list[str], int]:
        """A thing joined in a list (:meth:`_joined`, :meth:`_cosubject`): one of ``options``
        drawn by weight, an attribute where the caption leaves room for one (no size where
        not ``sizes``), and the characters of the negative that says " and a red cup"."""
        obj = self._draw_three(options, 1)[0]
        attrs = self._attribute(obj) if self.extra_words >= 5 else []
        if not sizes:
            attrs = [a for a in attrs if attribute_kind(a) != "size"]
        return obj, attrs, len(self.text) + len(_with_article(" ".join([*attrs, obj]))) + 5

    def _one_thing(self, i: int) -> bool:
        """Entity i is one countable thing in the caption: a determiner of one thing right
        before its words ("an umbrella", "her cat", "the ball"; :data:`ONE_DETERMINERS`), no
        count above one, a head written in the singular (not "their families") and no mass
        noun."""
        e = self.g.entities[i]
        head = self.scene.names[i].split()[-1]
        written = (e.text or head).split()[-1]
        return (
            (e.count or 1) == 1
            and self.article(i) in ONE_DETERMINERS
            and not grammar.is_plural_form(written, singular(head))
            and singular(head) not in grammar.UNCOUNTABLE
        )

    def _expected_with(self, obj: str, other: str) -> bool:
        """:meth:`_expected`, once per process and pair of words."""
        verdicts = self.scene.memos.memo(("expected_with", other), _fresh_dict)
        hit = verdicts.get(obj)
        if hit is None:
            hit = verdicts[obj] = self._expected((obj, other))
        return hit

    def _within(self, chars: int) -> bool:
        """A negative of ``chars`` characters is at most ``connect_max_length_ratio`` times as
        long as the caption, and not shorter by that factor (else refused as
        ``connect_too_long`` / ``connect_too_short``: its length would give it away)."""
        if chars > self.connect_max_chars:
            self.rejected["connect_too_long"] += 1
            return False
        if chars * self.connect_max_chars < len(self.text) ** 2:
            self.rejected["connect_too_short"] += 1
            return False
        return True

    def _huge_before(self, start: int, huge: frozenset[str] = HUGE) -> bool:
        """The caption's first noun phrase, or the one right before character ``start``,
        names a huge thing (:data:`HUGE`): a reader takes a phrase put there as placing it
        ("fans filling the stands | in front of a bicycle", "planes landing over the fence
        | by an umbrella")."""
        spans = self._spans
        if spans is None:
            spans = self._spans = sorted(
                (e.span, k) for k, e in enumerate(self.g.entities) if e.span is not None
            )
        if not spans:
            return False
        before = [k for span, k in spans if span[1] <= start]
        return any(self.scene.names[k].split()[-1] in huge for k in {spans[0][1], *before[-1:]})

    def _draw_three(self, options: list[tuple[str, float]], draws: int = 3) -> list[str]:
        """Three things (or ``draws``) drawn by weight, without repeats, in the order drawn."""
        cum = list(accumulate(n for _, n in options))
        return list(
            dict.fromkeys(
                options[min(bisect_right(cum, self.rng.random() * cum[-1]), len(cum) - 1)][0]
                for _ in range(draws)
            )
        )

    def _added(self, i: int) -> tuple[int, tuple] | None:
        """(characters, :meth:`_attach` arguments) of a salient thing put near entity i
        ("the cat near a suitcase sits in the window"): a thing of :mod:`~sgprep.negatives.addable`
        possible in the settings the caption names and typical of none ("a bus" on a street
        may be there; in a bedroom it is absurd), of no class the caption has already
        (animals come together: "a cat near a dog" may well be true), not one the statistics
        see with the caption's objects, and, where the image has detections, of a detector
        class the detector did not find. Drawn by how often captions name it, so that the
        added words are no text-only cue. Entity i must stand on its own
        (:meth:`_anchor`), and the new phrase must go right after it (:meth:`_seam_after`),
        or at the end after a comma. The predicate is the shortest not said already."""
        why = self._nothing_beside()
        if why:
            return self._refuse(why)
        if self._far_off():
            # "... with mountains visible in the distance, near a dog": what would it place?
            # (the far-off phrase itself may still be replaced: "a dish in front of a cat")
            return self._refuse("connect_background")
        if not self._anchor(i):
            if not (self._opens(i) and self._about_a_being()):
                return self._refuse("connect_no_anchor")
            clause = True  # "elephants tail on his body, near a truck": the elephant's
        else:
            clause = not self._seam_after(i)
        animate = object_class(self.scene.names[i]) in ANIMATE
        if clause and not (self._opens(i) or animate):
            # a person or an animal anywhere ("the cowboy on the bull, next to a bicycle")
            return self._refuse("no_seam")
        if clause and not animate and self._verb_follows(i):
            # never between a thing and its verb ("burger by a cat has cheese"), and at the
            # end it would place the verb's object ("burger has cheese and tomato, near a cat")
            return self._refuse("connect_before_verb")
        words, weights = self._addable()
        # at the end, a reader takes it as placing the scene's place too ("fans filling the
        # stands at a baseball stadium, near a dog")
        size = self._size(i)
        if self._huge_before(len(self.text), VAST) or (clause and self._huge_before(0, ROOMS)):
            # "a traffic jam stretches across a highway, near a backpack"; after a comma a
            # phrase places a room the caption opens with ("a cubicle with a swivel chair, a
            # desk lamp and a small potted plant, beside a gecko": blind review round 38)
            size = "vast"
        elif self._huge_before(len(self.text)):
            # the caption's first noun phrase or its last names a huge thing: the new one is
            # read as near it ("a lighthouse on a rocky point, near a dog")
            size = "huge"
        fits = _SIZE_FITS[size]
        # a short caption takes a bare plural ("wooden fence near trucks"): a thing that
        # comes in numbers, one word
        bare = self.extra_words < 3
        kinds = addable.lexicon()["kinds"]
        options = [
            (w, n)
            for w, n in zip(words, weights)
            if fits(w)
            and (
                kinds[w][0] in BARE_PLURAL_CATEGORIES and " " not in w
                if bare
                else len(w.split()) + 2 <= self.extra_words
            )
        ]
        if len(options) < MIN_OPTIONS and options and self.extra_words >= 2:
            return self._refuse("connect_few_options")
        if not options or self.extra_words < 2:
            if not any(map(fits, words)) and size in ("huge", "vast"):
                return self._refuse("connect_scale")  # "a lighthouse beside a cat"
            return self._refuse("too_long" if any(map(fits, words)) else "connect_nothing_absent")
        # one thing drawn by how often the captions name it (frequency matching: the words
        # connect brings in follow the corpus's, so they are no text-only cue)
        obj = self._draw_three(options, 1)[0]
        attrs = [] if bare else self._attribute(obj)
        phrase = grammar.plural(obj) if bare else _with_article(" ".join([*attrs, obj]))
        said = self._said
        # "with" only right after the person, or after the person the caption opens with: at
        # the end of another's phrase it reads as that one's ("a parrot eating seeds from a
        # person's hand, with a backpack": blind review round 20)
        person = (
            object_class(self.scene.names[i]) == "person"
            and (not clause or self._opens(i))
            and addable.carried(self._addable_things()[obj])
            and not self._hands_busy(i)
        )
        pred = self._predicate(len(self.text) + len(phrase) + 2 + clause, person)
        if len(pred.split()) + len(phrase.split()) > self.extra_words:
            # the words it may add: a one-word predicate, then no colour ("boy standing in a
            # blue shirt, next to a golden retriever" is twice the caption)
            pred, attrs = "near", []
            phrase = grammar.plural(obj) if bare else _with_article(obj)
            if 1 + len(phrase.split()) > self.extra_words:
                return self._refuse("too_long")
        chars = len(self.text) + len(pred) + len(phrase) + 2 + clause
        if (
            (chars > self.connect_max_chars or self._opens(i))
            and not clause
            and " by " not in said
            and not self._verb_follows(i)
        ):
            # a caption that is only its noun phrase takes "by" ("a city bus by a dog");
            # further on "by" may name an agent ("written on the building by a horse"), so
            # only where the drawn phrase would be too long; never before a verb ("the fence
            # by a bicycle is gray" reads clumsy: blind review round 6)
            pred, chars = "by", chars - len(pred) + 2
        # the subject of a relation is somewhere doing something already: it is only put
        # near things (every predicate here places it so)
        placed = any(r.subject == i for r in self.g.relations)
        return chars, (i, pred, obj, attrs, placed, bare, clause)

    def _hands_busy(self, i: int) -> bool:
        """Entity i does what keeps its hands busy (:data:`BUSY_HANDS`: it climbs, swims,
        juggles): it has nothing with it ("a boy climbs a tall tree, with a suitcase": blind
        review round 29)."""
        return any(
            r.subject == i and lemma(r.predicate.lower().split()[0]) in BUSY_HANDS
            for r in self.g.relations
            if r.predicate.split()
        )

    def _predicate(self, rest: int, person: bool) -> str:
        """How the new thing is placed: a predicate of ``addable.json``'s ``predicates`` the
        caption does not say, drawn by how often the captions say it (the phrasing varies as
        the corpus's does); the shortest where the drawn one would make the negative too long
        (``rest``: its characters without the predicate)."""
        preds, weights = addable.predicates(self.cooc, self._said, person)
        if not preds:
            return "near"
        pred = self._draw_three(list(zip(preds, weights)), 1)[0]
        if rest + len(pred) > self.connect_max_chars:
            pred = min(preds, key=len)
        return pred

    def _attribute(self, obj: str) -> list[str]:
        """An attribute for the new thing, as often as the captions give their things one
        (:func:`addable.attribute_share`), drawn from those the statistics saw with it by
        count (:func:`describing`: a colour, a size, a state, a material of a
        thing); none where the caption leaves no room for a word more."""
        if self.extra_words < 4 or self.rng.random() >= addable.attribute_share(self.cooc):
            return []
        words, cum = self.scene.memos.memo(
            ("connect_attributes", obj), lambda key: describing(self.cooc, key[1])
        )
        if not words:
            return []
        return [words[min(bisect_right(cum, self.rng.random() * cum[-1]), len(cum) - 1)]]

    def _nothing_beside(self) -> str:
        """Why nothing may be put beside anything of this caption, "" if it may be (once per
        graph): a thing moves fast or is in mid-air ("a pelican diving into the ocean, beside
        a bicycle": beside what, and when?), the photo is a close-up ("a close up of melted
        cheese on a piece of toast beside a dog": the frame holds the one thing), or it shows
        a game in play (:data:`GAMES_IN_PLAY`: "a baseball catcher crouching behind home
        plate, beside a green tractor": nothing stands on a field of play)."""
        if self._beside is None:
            self._beside = ""
            if self._swift():
                self._beside = "connect_swift"
            elif any(w in self._said for w in CLOSE_FRAMES):
                self._beside = "connect_close_up"
            elif not GAMES_IN_PLAY.isdisjoint(self.scene.words):
                self._beside = "connect_game"
        return self._beside

    def _swift(self) -> bool:
        """A thing of the caption moves fast or is in mid-air (:data:`SWIFT_VERBS`, as a
        relation's verb, or a form of one as a word of the caption: a parse may miss the
        relation)."""
        verbs = {predicate_key(r.predicate).split()[0] for r in self.g.relations}
        return not (SWIFT_VERBS.isdisjoint(verbs) and SWIFT_FORMS.isdisjoint(self.scene.words))

    def _far_off(self) -> bool:
        """The caption's last clause (after its last comma) puts a thing far off
        (:data:`DISTANT_ENDINGS`, anywhere in it: "another surfer rides a wave in the
        distance behind him, near a bench" places nothing)."""
        return self._far_before(len(self.text))

    def _far_before(self, end: int) -> bool:
        """The clause that characters [.., end) of the caption end (after its last comma or
        semicolon) says a thing is far off (:data:`DISTANT_ENDINGS`); once per graph and end."""
        hit = self._far.get(end)
        if hit is None and not any(k in self._said for k in DISTANT_KEYS):
            hit = self._far[end] = False  # nothing far off anywhere in the caption
        if hit is None:
            clause = _CLAUSE_BREAK.split(self.text[:end].lower())[-1]
            clause = " " + " ".join(WORD.findall(clause)) + " "
            hit = self._far[end] = any(x in clause for x in DISTANT_PADDED)
        return hit

    def _about_a_being(self) -> bool:
        """The caption names a person or an animal (as a noun or a modifier: "elephants
        tail", "man 's head")."""
        return any(object_class(singular(w)) in ANIMATE for w in self.scene.words)

    def _opens(self, i: int) -> bool:
        """Entity i's noun phrase opens the caption (after a determiner at most)."""
        span = self.g.entities[i].span
        if span is None:
            return False
        before = self.text[: span[0]].lower().split()
        return len(before) <= 3 and all(w in OPENING_WORDS for w in before)

    def _size(self, i: int) -> str:
        """ "vast" (a city, a stadium: :data:`VAST`, nothing fits), "huge" (a
        building, a ship: :data:`HUGE`), "big" (a house, a vehicle, a
        tree, a structure), "small" (a small thing, food)
        or "any": what may be put near entity i (:data:`_SIZE_FITS`)."""
        obj = self.scene.names[i]
        cls = object_class(obj)
        head = obj.split()[-1]
        if head in VAST or singular(head) in ROOMS:
            return "vast"
        if head in PLACES and self.scene.plural(i):
            # places in the plural are an area: "the streets next to a dachshund are empty"
            # (blind review round 39)
            return "vast"
        if head in HUGE:
            return "huge"
        if cls in ("building", "vehicle", "plant") or head in STRUCTURES or head in PLACES:
            return "big"
        if addable.lexicon()["kinds"].get(obj, (None,))[0] == "vehicle":
            # a vehicle by WordNet the classes miss ("a tram moving down a street lined with
            # tall trees, behind a backpack": blind review round 42)
            return "big"
        return "any" if cls in ("person", "animal", "furniture") or head in GROUPS else "small"

    def _anchor(self, i: int) -> bool:
        """Entity i is a thing something may be put near: not a part, a thing worn or held
        in or by another (the object of "have", "with", "of": "a burger has cheese and
        tomato | near a chair"), nor the sky, light or a thing of no place
        (:data:`NOT_ANCHORS`), nor a small thing or food ("a fork near a horse"). Once per
        entity."""
        if i not in self._anchors:
            self._anchors[i] = self._is_anchor(i)
        return self._anchors[i]

    def _is_anchor(self, i: int) -> bool:
        obj = self.scene.names[i]
        head = obj.split()[-1]
        if any(
            r.object == i and predicate_key(r.predicate).split()[0] in CONTAINING
            for r in self.g.relations
        ):
            return False
        return not (
            object_class(obj) in NOT_ANCHOR_CLASSES
            or obj in NOT_OBJECTS
            or head in NOT_OBJECTS
            or obj in NOT_ANCHORS
            or head in NOT_ANCHORS
            or (head in AIRBORNE and not IN_THE_AIR.isdisjoint(self.scene.words))
            # "several boats | in front of a mastiff | are anchored in a quiet bay" (blind
            # review round 55)
            or (obj in addable.lexicon()["craft"] and not AFLOAT.isdisjoint(self.scene.words))
            or self.scene.memos.memo(("part", obj), self._part)
        )

    def _verb_follows(self, i: int) -> bool:
        """Entity i's noun phrase is followed by a finite verb or a relative word
        (:data:`SEAM_WORDS`: "the cat | sits")."""
        span = self.g.entities[i].span
        m = span and WORD.match(self.text[span[1] :].strip().lower())
        return bool(m) and m.group() in SEAM_WORDS

    def _seam_after(self, i: int) -> bool:
        """The caption ends with entity i's noun phrase, or it is the caption's first and a
        copula follows it ("the fence | is gray"), so that the new phrase is read as placing
        that entity; the realiser puts it there. Never before another verb (blind review
        round 6: "several people by a cat stand under the awning" reads clumsy): such a
        caption takes the new phrase at its end, after a comma."""
        span = self.g.entities[i].span
        if span is None:
            return False
        rest = self.text[span[1] :].strip().rstrip(".!").strip()
        if rest:
            first = min(e.span[0] for e in self.g.entities if e.span is not None)
            m = WORD.match(rest.lower())
            if span[0] != first or m is None or m.group() not in COPULA_SEAMS:
                return False
        before = self.words_before(i, 2) or []
        # "table and | chair": one of a list
        return not (before and (before[-1] in ("and", "or", ",") or before[:1] == ["and"]))

    def _part(self, obj: str) -> bool:
        """Seen as a part of something (had by it, half the time), worn (a quarter of the
        time, twice at least), or never seen at all (once per process: :meth:`Memos.memo`)."""
        c = self.cooc
        n = c.n("obj", obj) or c.n("obj", obj.split()[-1])
        worn = max(c.n("po", "wear", obj), c.n("po", "wear", obj.split()[-1]))
        had = max(c.n("po", "have", obj), c.n("po", "have", obj.split()[-1]))
        return not n or had * 2 >= n or (worn >= 2 and worn * 4 >= n)

    def _addable(self) -> tuple[list[str], list[float]]:
        """What connect may add to this caption (see :meth:`_connect_attested`), with their
        weights (the square root of how often captions name them: common words, but not
        "a table" everywhere), made once per graph."""
        if self._addable_pool is None:
            words, weights, unseen = self._list_addable()
            if unseen:
                # once per graph, outside the memo: the stage's counts do not depend on
                # what one process met before
                self.rejected["connect_unseen_with"] += 1
            self._addable_pool = words, weights
        return self._addable_pool

    def _list_addable(self) -> tuple[list[str], list[float], int]:
        names, words = self.scene.names, self.scene.words
        key = ("addable", tuple(words), tuple(names))
        if self.detected is None:  # the same words and names: the same answer
            table = self.scene.memos.table("memo")
            if key not in table:
                if len(table) > MAX_MEMO:
                    table.clear()
                table[key] = self._filter_addable(scenes.settings_of(words + names))
            return table[key]
        return self._filter_addable(scenes.settings_of(words + names))

    def _filter_addable(self, setting: frozenset[str]) -> tuple[list[str], list[float], int]:
        """The things connect may add to this caption, their weights, and how many
        :meth:`_seen_in` left out."""
        names, words = self.scene.names, self.scene.words
        kinds = addable.lexicon()["kinds"]
        # a plane, a train or a ship does not keep a truck away: of its size, and what is
        # by it (:func:`addable.fits_huge`)
        classes = {
            object_class(n) or kinds.get(n, (None,))[0] for n in names if n.split()[-1] not in HUGE
        } - {None}
        said = set(words) | set(names)
        # a name the parse missed is still a word of the caption ("a golden retriever ...,
        # beside a golden retriever"): nothing of its kind is added either
        classes |= {kinds[w][0] for w in map(singular, words) if w in kinds}
        # and a name the statistics do not count, a being by the binding kinds ("a rhinoceros
        # wallows in a muddy water hole, behind a golden retriever": blind review round 39)
        classes |= {k for k in map(_being_kind, {e.head.lower() for e in self.g.entities}) if k}
        out = []
        addable_here = self.scene.memos.memo(("setting", setting), self._known_addable)
        # of those, the ones expected with any of the caption's names: a set per setting and
        # name, made once per statistics object (not a test per thing and name per caption)
        expected: set[str] = set()
        for n in set(names):
            expected |= self.scene.memos.memo(("expected_in", setting, n), self._expected_in)
        # and the ones the statistics saw with one of the caption's things at least, where it
        # names any but people and their parts ("a figure skater spins on the ice ..., beside a
        # corgi", "dirty dishes next to a corgi", "a steam locomotive ..., beside a backpack":
        # blind review round 41); people are seen with nearly everything, so they place nothing
        grounds = {n for n in names if self._ground(n)}
        seen: set[str] = set()
        for n in grounds:
            seen |= self.scene.memos.memo(("seen_in", setting, n), self._seen_in)
        unseen = 0
        for obj, fit, cls, weight in addable_here:
            if (
                obj in said
                or obj.split()[-1] in said
                or cls in classes
                or (self.detected is not None and not self._absent(obj))
                or obj in expected
            ):
                continue
            if grounds and obj not in seen:
                unseen += 1
                continue
            out.append((obj, fit, weight))
        # every thing possible there, by weight: keeping only those of the most settings
        # made the few seen everywhere ("a dog") most of all additions. Things of one last
        # word share one weight: a duffel bag, a tote bag, a tool bag and a golf bag each
        # drawn alike made "bag" the word the additions said most (6.2 % on the fresh set)
        heads = Counter(o.split()[-1] for o, _, _ in out)
        return (
            [o for o, _, _ in out],
            [w / heads[o.split()[-1]] for o, _, w in out],
            unseen,
        )

    def _possible_here(self) -> frozenset[str]:
        """The addable things possible in the settings the caption names (once per setting)."""
        setting = scenes.settings_of(self.scene.words + self.scene.names)
        return self.scene.memos.memo(
            ("possible_here", setting),
            lambda key: frozenset(
                obj for obj, *_ in self.scene.memos.memo(("setting", key[1]), self._known_addable)
            ),
        )

    def _addable_things(self) -> dict[str, addable.Addable]:
        """The statistics' addable things by word (once per process and statistics)."""
        return self.scene.memos.memo(
            ("addable_things",), lambda _: {a.word: a for a in self._addable_table()}
        )

    def _addable_table(self) -> tuple[addable.Addable, ...]:
        return self.scene.memos.memo(("addable_table",), lambda _: addable.addable_table(self.cooc))

    def _known_addable(self, setting: frozenset[str]) -> list[tuple[str, int, str | None, float]]:
        """:func:`addable.addable_in` of the statistics in use, with kind and weight (how
        often the captions name it: frequency matching)."""
        return [
            (a.word, fit, a.kind, addable.weight(a))
            for a, fit in addable.addable_in(self._addable_table(), setting)
        ]

    def _expected_in(self, key: tuple[str, frozenset[str], str]) -> frozenset[str]:
        """The things addable in a setting that :meth:`_expected` calls expected with a name
        (``key``: "expected_in", the setting, the name)."""
        _, setting, other = key
        # each thing's verdict with this name, once per process and name (for every setting)
        return frozenset(
            obj
            for obj, _, _, _ in self.scene.memos.memo(("setting", setting), self._known_addable)
            if self._expected_with(obj, other)
        )

    def _ground(self, name: str) -> bool:
        """A name that places what connect adds (:meth:`_seen_in`): a thing the statistics
        count, no person and no part of one or garment (seen with whatever its wearer is)."""
        return (
            object_class(name) != "person"
            and self.cooc.n("obj", name) > 0
            and not self.cooc.part_or_worn(name)
        )

    def _seen_in(self, key: tuple[str, frozenset[str], str]) -> frozenset[str]:
        """The things addable in a setting that the statistics saw in one scene with a name
        at least, or a WordNet parent of theirs did, :data:`PARENT_SEEN` times or more (``key``:
        "seen_in", the setting, the name): "a dog" seen by a sink now and then places a
        retriever there; nothing places a corgi on an ice rink (blind review round 41)."""
        _, setting, other = key
        c = self.cooc

        kinds = addable.lexicon()["kinds"]

        near = c.neighbours("scene", 0, other)  # what was seen with it, and how often

        def seen(obj: str) -> bool:
            # a vehicle keeps to its own scenes: cars are seen by mirrors and sidewalks,
            # which placed a sedan in a clothing shop and a gondola on a snowy sidewalk (blind
            # review round 47)
            own = kinds.get(obj, (None,))[0] == "vehicle"
            return any(
                near.get(x, 0) >= (PARENT_SEEN if k else 1)
                for k, x in enumerate(addable.lineage(obj))
                if not (k and own)
            )

        return frozenset(
            obj
            for obj, _, _, _ in self.scene.memos.memo(("setting", setting), self._known_addable)
            if seen(obj)
        )

    def _expected(self, pair: tuple[str, str]) -> bool:
        """With ``other`` in the caption, ``obj`` may well be there: the statistics saw it
        in one scene out of twenty of ``other``'s, or more (twice at least: once may be
        chance; "a cat on a bed": "a dog"; "man", seen with nearly everything, sees few
        things that often), or it is a synonym, hypernym or hyponym of ``other``, or its
        WordNet parent is expected (``object_kinds.json``'s ``parents``)."""
        obj, other = pair
        # a kind of a thing seen there is expected too: where a dog may be in the photo, so
        # may a golden retriever (rare names, seldom counted with anything, were added most
        # of all: "golden retriever" was connect's commonest word). By the counts alone: a
        # truck is a vehicle, as a car is, and may still join a car
        often = self.scene.memos.memo(("seen_often_with", other), self._seen_often_with)
        return not often.isdisjoint(addable.lineage(obj)) or self.cooc.is_related(obj, other)

    def _seen_often_with(self, key: tuple[str, str]) -> frozenset[str]:
        """What the statistics saw in one scene out of twenty of a name's (``key``:
        "seen_often_with", the name), twice at least (:meth:`_expected`), once per process."""
        other = key[1]
        least = max(2, 0.05 * self.cooc.n("obj", other))
        return frozenset(
            x for x, n in self.cooc.neighbours("scene", 0, other).items() if n >= least
        )

    def _absent(self, obj: str) -> bool:
        """The detector has a class for ``obj`` and did not find it in the image."""
        return detector_label(obj) is not None and not head_label_pairs([obj], self.detected)

    def _attach(
        self,
        i: int,
        pred: str,
        obj: str,
        attrs: list[str],
        near_only: bool = False,
        bare_plural: bool = False,
        clause: bool = False,
        subject: int | None = None,
        cosubject: bool = False,
    ) -> Perturbation:
        """Entity i joined to a new entity ``obj`` by ``pred``; or, where ``subject`` is
        given, the new entity joined to entity i in a list, the object of ``subject``'s
        ``pred`` too; or, ``cosubject``, the new entity joined to entity i in a list, the
        subject of each of its relations too."""
        # built unvalidated: the words come from the vocabulary, the indices from the graph
        written = grammar.plural(obj) if bare_plural else obj
        new = Entity.model_construct(
            text=" ".join([*attrs, written]), head=obj, attributes=attrs, count=None, span=None
        )
        n = len(self.g.entities)  # the new entity's index

        def made() -> SceneGraph:
            relations = [*self.g.relations]
            if cosubject:
                relations += [
                    Relation.model_construct(subject=n, predicate=r.predicate, object=r.object)
                    for r in self.g.relations
                    if r.subject == i
                ]
            else:
                relations.append(
                    Relation.model_construct(
                        subject=i if subject is None else subject, predicate=pred, object=n
                    )
                )
            return with_entities(
                self.g, self.scene.bare, {}, relations, [new], self.scene.bare_relations
            )

        edit = Attach(
            i, pred, n, near_only, bare_plural, clause, subject is not None or cosubject, cosubject
        )
        return Perturbation("connect", "connect", made, (edit,), new)


@lru_cache(maxsize=65536)
def _being_kind(word: str) -> str | None:
    """ "animal" or "person" for a caption's word that names a being, by the binding kinds;
    None for anything else."""
    kind = thing_kind(word)
    if kind is None:  # by the word as written: "rhinoceros" is no plural of a "rhinocero"
        k = knowledge()
        kind = "animal" if word in k.animal else "person" if word in k.person else None
    return kind if kind in ("animal", "person") else None
