"""The scene every strategy reads, and what the strategies share.

The stage makes a :class:`Scene` per positive (the caption, or a sub-graph's text): its graph,
its text, the sample's random generator and the tally of refusals, with what is found of them
once per graph (names, span-less copies, the caption's words). Each strategy of
:mod:`sgprep.negatives.strategies` is a :class:`Strategy` that lists its families'
candidates from it. Judgments that depend on the statistics alone are kept across graphs in
:class:`Memos` (one per statistics object, held by the stage).
"""

from __future__ import annotations

import json
import random
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from sgprep.lexicon import keyed, words
from sgprep.negatives import addable, grammar, kinds
from sgprep.negatives.cooc import (
    NEARBY,
    SWAPPABLE,
    Cooc,
    fixed_attributes,
    lemma,
    name,
    object_class,
    predicate_key,
)
from sgprep.negatives.cooc_count import plural_form
from sgprep.negatives.perturbation import Candidate
from sgprep.negatives.validity import is_symmetric
from sgprep.negatives.vocab import Vocabulary, relation_type
from sgprep.negatives.words import attribute_kind
from sgprep.schema import Entity, Relation, SceneGraph

# --- tables more than one strategy reads ----------------------------------------------------
#: Replacements that read as the natural opposite, in order of their senses ("old": "young",
#: "new"): WordNet's direct antonyms among the bundled counts' attributes
#: (``data/antonyms.json``, built by ``tools/build_negative_stats.py``); other words draw from
#: the vocabulary.
ANTONYMS: dict[str, tuple[str, ...]] = {
    w: tuple(ws)
    for w, ws in json.loads(
        (Path(__file__).resolve().parent / "data" / "antonyms.json").read_text(encoding="utf-8")
    )["antonyms"].items()
}
#: Nouns of a person that say how one stands to another, or nothing of who one is.
RELATIVE_PERSONS = words("relative_person_nouns")
#: Object classes of beings: they do things, and things may be put near them.
ANIMATE = frozenset({"person", "animal"})
#: Words that open a noun phrase.
DETERMINERS = words("determiners") | {"another", "one"}
#: Verbs that say where a thing is: their locative phrase may become another ("sitting on a
#: bench" -> "sitting next to a bicycle"); not "attached to", "wrapped in", "surfing in" or
#: "riding on", whose phrase belongs to the verb, nor "hanging on", "leaning against", which
#: need a support ("leaning by a bicycle")
LOCATING_VERBS = words("locating_verbs")
#: Verbs that fix a thing on a wall or a ceiling: it, and what it is fixed to, is put near
#: nothing ("a television mounted on the wall in front of a bicycle": high up, never by a
#: thing on the floor).
FIXING_VERBS = words("fixing_verbs")
#: Spots only a small thing fits: at someone's feet, on a lap, in arms, a hand, a pocket.
SMALL_SPOTS = words("small_spots")
SMALL_SPOT_PREPOSITIONS = words("small_spot_prepositions")
#: Large animals and things: never at one's feet or in a lap.
LARGE = words("large_things")
#: Relations whose object is a part or the contents of their subject.
CONTAINING = words("containing_relations")
#: A word of a lower-cased caption (letters only).
WORD = re.compile(r"[a-z]+")
#: Entries a memo table holds at most (it is emptied when full: bounded memory).
MAX_MEMO = 200_000
#: The families that pair entities (swaps, redraws) pair the first this many of a graph: a
#: graph of 500 entities would list 125,000 pairs (issue 36); no caption names so many.
MAX_PAIRED = 48


#: Acts two beings do to each other at once ("hugging", "kissing"): either is the doer.
MUTUAL_VERBS = words("mutual_verbs")


def is_mutual(predicate: str, subject: str, obj: str) -> bool:
    """The relation reads the same both ways: symmetric as said or as its lemmas are
    ("standing next to"), or, between two beings (``subject`` and ``obj`` are names), what
    one does *with* the other ("a girl playing with a puppy", "holding hands with a friend")
    or an act of :data:`MUTUAL_VERBS` ("a boy hugging his mother": blind review round 17)."""
    if is_symmetric(predicate):
        return True
    key = predicate_key(predicate)
    if is_symmetric(key):
        return True
    if object_class(subject) not in ANIMATE or object_class(obj) not in ANIMATE:
        return False
    verb = key.split()[0] if key else ""
    return verb in MUTUAL_VERBS or (key.endswith(" with") and relation_type(key) == "action")


@lru_cache(maxsize=1024)
def size_misfit(subject: str, predicate: str, obj: str) -> bool:
    """A large animal or a big thing placed at, on or in a spot only a small one fits
    (:data:`SMALL_SPOTS`: "a horse sits at her feet", "a cow in her lap"): blind review
    round 5 (a swap or redraw that moved a dog's place to a horse). Not what it has ("a
    zebra has four feet")."""
    words = predicate_key(predicate).split()
    return (
        bool(words)
        and words[-1] in SMALL_SPOT_PREPOSITIONS
        and words[0] not in CONTAINING
        and obj.split()[-1] in SMALL_SPOTS
        and (subject.split()[-1] in LARGE or addable.is_big(subject))
    )


def with_entities(
    graph: SceneGraph,
    bare: list[Entity],
    changes: dict[int, Entity],
    relations: list[Relation] | None = None,
    extra: list[Entity] | None = None,
    bare_relations: dict[int, Relation] | None = None,
) -> SceneGraph:
    """The perturbed graph: its entities and relations carry no spans (the positive's spans
    mean nothing in the negative's text). ``bare_relations``: the span-less copies of
    ``graph``'s relations by id (:attr:`Scene.bare_relations`), made once per graph."""
    entities = [changes.get(i, e) for i, e in enumerate(bare)] + (extra or [])
    relations = graph.relations if relations is None else relations
    known = bare_relations or {}
    relations = [
        r if r.span is None else known.get(id(r)) or r.model_copy(update={"span": None})
        for r in relations
    ]
    return graph.model_copy(update={"entities": entities, "relations": relations})


def changed_entity(
    e: Entity, attributes: list[str] | None = None, head: str | None = None
) -> Entity:
    """Entity ``e`` with other attributes or another head, and no span."""
    attributes = e.attributes if attributes is None else attributes
    head = e.head if head is None else head
    text = " ".join([*attributes, head])
    return e.model_copy(update={"attributes": attributes, "head": head, "text": text, "span": None})


def same_class(a: str, b: str) -> bool:
    """Both objects in one coarse class (:data:`OBJECT_CLASSES`): they may change places."""
    c = object_class(a)
    return c in SWAPPABLE and c == object_class(b)


def plain_attribute(attribute: str) -> bool:
    """A one-word attribute (or a two-word colour: "bright orange"), not a participle the
    parser kept ("walking down", "standing", "drawn" of "a horse-drawn sleigh": blind review
    round 35, "a drawn sleigh"): those are actions, and changing them reads as nonsense. A
    state of a group is no action ("grilled", "sliced": ``attribute_groups.json``)."""
    a = attribute.lower()
    kind = attribute_kind(a)
    return (" " not in a or kind == "colour") and (
        kind != "other"
        or a in ANTONYMS
        or not (a.endswith(("ing", "ed")) or a in grammar.IRREGULAR_PARTICIPLES)
    )


class Memos:
    """Judgments that depend on the statistics alone, kept across graphs (once per process
    and statistics object): a table per kind of judgment, which its user empties when it
    holds more than :data:`MAX_MEMO` entries (bounded memory). The stage keeps one for its
    statistics; a scene made without one gets its own."""

    def __init__(self, cooc: Cooc | None):
        self.cooc = cooc
        self.tables: dict[str, dict] = {}

    def table(self, kind: str) -> dict:
        """The table of one kind of judgment (empty on first use)."""
        hit = self.tables.get(kind)
        if hit is None:
            hit = self.tables[kind] = {}
        return hit

    def memo(self, key: tuple, compute: Callable):
        """``compute(key)`` once per process and statistics object (``key[1]`` for a key
        tagged "part" or "setting")."""
        table = self.table("memo")
        hit = table.get(key)
        if hit is None and key not in table:
            if len(table) > MAX_MEMO:
                table.clear()
            hit = table[key] = compute(key[1] if key[0] in ("part", "setting") else key)
        return hit


class Scene:
    """One positive's graph and text as every strategy reads them, drawing words from
    ``vocab`` with ``rng`` and counting refusals in ``rejected``; made once per positive."""

    def __init__(
        self,
        graph: SceneGraph,
        vocab: Vocabulary,
        rng: random.Random,
        rejected: Counter,
        cooc: Cooc | None = None,
        text: str = "",
        max_length_ratio: float = 10.0,
        detected: list[str] | None = None,
        connect_max_length_ratio: float = 10.0,
        memos: Memos | None = None,
    ):
        self.g, self.vocab, self.rng, self.rejected = graph, vocab, rng, rejected
        self.cooc = cooc  # None: no plausibility checks (rules only)
        self.text = text  # the caption: its pronouns must stay true
        #: how many times as long as the caption a negative may be, in words and (connect)
        #: in characters
        self.max_length_ratio = max_length_ratio
        self.connect_max_length_ratio = connect_max_length_ratio
        #: the labels a detector found in the image (None: no detections): connect adds
        #: only a thing of a detector class that it did not find
        self.detected = detected
        if memos is None:
            memos = Memos(cooc)
        elif memos.cooc is not cooc:
            raise ValueError("the memos are of other statistics than the scene's")
        self.memos = memos
        #: whether a candidate may add a thing after an entity (always longer, a length cue):
        #: the stage allows it only while the positive has no negative yet
        self.may_add = True
        self._words: list[str] | None = None
        self._bare: list[Entity] | None = None
        self._bare_relations: dict[int, Relation] | None = None
        self._fixed: dict[int, set[str]] = {}
        self._heads: set[str] | None = None
        self._names: list[str] | None = None

    @property
    def names(self) -> list[str]:
        """Each entity's object name ("hot dog", "tennis racket", "man")."""
        if self._names is None:
            self._names = [name(e) for e in self.g.entities]
        return self._names

    def fixed(self, i: int) -> set[str]:
        """Attributes of entity i that are part of its name ("hot" of "hot dog"), found once
        per graph (read only: callers test membership)."""
        hit = self._fixed.get(i)
        if hit is None:
            hit = self._fixed[i] = fixed_attributes(self.g.entities[i])
        return hit

    @property
    def words(self) -> list[str]:
        """The caption's words in lower case (letters only)."""
        if self._words is None:
            self._words = WORD.findall(self.text.lower())
        return self._words

    @property
    def bare(self) -> list[Entity]:
        """The graph's entities without spans, made once per graph."""
        if self._bare is None:
            self._bare = [
                e if e.span is None else e.model_copy(update={"span": None})
                for e in self.g.entities
            ]
        return self._bare

    @property
    def bare_relations(self) -> dict[int, Relation]:
        """The graph's relations without spans, by the id of the relation with its span (the
        graph keeps those alive), made once per graph."""
        if self._bare_relations is None:
            self._bare_relations = {
                id(r): r.model_copy(update={"span": None})
                for r in self.g.relations
                if r.span is not None
            }
        return self._bare_relations

    @property
    def heads(self) -> set[str]:
        """The graph's head nouns in lower case: words a new object must not be."""
        if self._heads is None:
            self._heads = {e.head.lower() for e in self.g.entities}
        return self._heads

    def implausible(
        self,
        names: list[str],
        changed: set[int],
        attributes: dict[int, list[str]] | None = None,
        relations: list[Relation] | None = None,
        strict: bool = False,
        by_class: bool = False,
        attr_by_class: bool = False,
        check_attributes: bool = True,
        exchanged: bool = False,
        animate_places: bool = False,
    ) -> str | None:
        """Why the graph with these entity names (and attributes, relations) describes a
        scene the statistics never saw, looking only at what touches ``changed``. With
        ``animate_places`` (two animate beings exchanged), where one of them is, is judged
        by :meth:`_animate_place`."""
        c = self.cooc
        if c is None:
            return None
        attributes = attributes or {}
        for i in changed:
            if (
                not c.known(names[i])
                and not c.known(names[i].split()[-1])
                # an attribute swap judges an unknown thing by its kind ("a red kayak")
                and not (attr_by_class and check_attributes and kinds.known_kind(names[i]))
            ):
                return "unknown_object"
            if not check_attributes:  # noun phrases moved whole keep their own attributes
                continue
            for a in attributes.get(i, self.g.entities[i].attributes):
                if a not in self.fixed(i) and not (
                    c.attribute_ok_by_class(a, names[i]) or kinds.attribute_fits(a, names[i])
                    if attr_by_class
                    else c.attribute_ok(a, names[i])
                ):
                    return "implausible_attribute"
        for r in self.g.relations if relations is None else relations:
            if (r.subject in changed or r.object in changed) and size_misfit(
                names[r.subject], r.predicate, names[r.object]
            ):
                return "size_misfit"  # "a horse sits at her feet"
            if exchanged and r.subject in changed and r.object in changed:
                if predicate_key(r.predicate) in NEARBY:
                    continue  # "a white sweater next to an orange dress": either way round
                # the two ends changed places: "the woman behind the man"
                why = c.judge_reversed(names[r.subject], r.predicate, names[r.object])
                if why:
                    return why
            elif r.subject in changed or r.object in changed:
                if animate_places and self._animate_place(names, r, changed):
                    continue
                why = (c.judge_by_class if by_class else c.judge)(
                    names[r.subject],
                    r.predicate,
                    names[r.object],
                    *(() if by_class else (strict, 2 if strict else 1)),
                )
                if why:
                    return why
        return None

    def _animate_place(self, names: list[str], r: Relation, changed: set[int]) -> bool:
        """Relation r puts a being that took another's place (a person or an animal, where
        one was) somewhere, or doing there what the two now do to each other: where a being
        is, or the way it looks, says where the scene is, and the text keeps it ("a cat
        watching a bird through a window" -> "a bird watching a cat through a window", "a
        goose chasing a child across a park" -> "a child chasing a goose ..."). Plausible
        for a being of the class that was there (an animal where an animal was), or as the
        statistics judge a new triple (not only those seen: "a child across a park")."""
        if r.subject not in changed or r.object in changed:
            return False
        k = r.subject
        new, old = object_class(names[k]), object_class(self.names[k])
        if new not in ANIMATE or old not in ANIMATE or object_class(names[r.object]) in ANIMATE:
            return False
        p = predicate_key(r.predicate)
        if not p or (
            relation_type(p) != "spatial" and p.split()[0] not in self.verbs_between(*changed)
        ):
            return False
        return new == old or self.cooc.judge(names[k], r.predicate, names[r.object]) is None

    def verbs_between(self, i: int, j: int) -> frozenset[str]:
        """The first words (verbs, or prepositions) of the predicates relating entities i and
        j, either way round ("staring at" a bird "through" a window: one act, its place)."""
        return frozenset(
            key.split()[0]
            for x in self.g.relations
            if {x.subject, x.object} == {i, j} and (key := predicate_key(x.predicate))
        )

    def clause_verb(self, i: int, j: int) -> bool:
        """Entity i is the subject of an action whose verb the caption says after entity j,
        which i acts on: "a dog watching a man | mow the lawn", "a man helping a boy | climb
        onto a bench" (the parse gives the verb to the first): the verb is j's, and an
        exchange of the two would give it to i ("a man watching a dog mow the lawn": blind
        review rounds 17 and 19)."""
        spans, text = [e.span for e in self.g.entities], (self.text or "").lower()
        if not text or spans[i] is None or spans[j] is None or spans[j][0] < spans[i][1]:
            return False
        acts = self.verbs_between(i, j)
        for r in self.g.relations:
            key = predicate_key(r.predicate)
            o = spans[r.object] if r.subject == i and r.object not in (i, j) else None
            if o is None or not key or o[0] < spans[j][1] or relation_type(key) != "action":
                continue
            verb = key.split()[0]
            if verb not in acts and verb in {
                lemma(w) for w in WORD.findall(text[spans[j][1] : o[0]])
            }:
                return True
        return False

    def plural(self, i: int) -> bool:
        """Entity i is several: a count above one, or a plural noun."""
        e = self.g.entities[i]
        return (e.count or 1) > 1 or plural_form(e.text.split()[-1] if e.text else "", e.head)

    def either_person(self, i: int, j: int) -> bool:
        """Entities i and j are people, one named by how it stands to the other or by nothing
        of who it is (:data:`RELATIVE_PERSONS`: "a friend", "a partner"): it may be the other
        kind of person too, and exchanging the two may say the same ("a man throwing a
        frisbee to a friend" -> "a friend throwing a frisbee to a man": blind review round
        22)."""
        heads = [self.names[k].split()[-1] for k in (i, j)]
        relative = [h in RELATIVE_PERSONS for h in heads]
        return any(relative) and all(
            r or object_class(h) == "person" for r, h in zip(relative, heads)
        )

    def parsed_backwards(self, s: int, o: int) -> bool:
        """A relation between the two that was never seen as it is but was seen the other way
        round ("a brown coat wearing person", parsed "coat | wear | person"): its shuffle
        would say what the caption means."""
        c, names = self.cooc, self.names
        for r in self.g.relations:
            if {r.subject, r.object} == {s, o}:
                a, b, p = names[r.subject], names[r.object], predicate_key(r.predicate)
                if not c.n("spo", a, p, b) and c.n("spo", b, p, a):
                    return True
        return False

    def draw(self, words: tuple[str, ...], cum: tuple[int, ...], exclude: set[str]) -> str | None:
        """A word drawn by count (``cum``: cumulative counts), not in ``exclude``."""
        if not words or not cum[-1]:
            return None
        for _ in range(8):  # exclusions are few: redraw a few times before filtering
            word = words[bisect_right(cum, self.rng.random() * cum[-1])]
            if word not in exclude:
                return word
        total, kept, kept_cum = 0, [], []
        for w, c, p in zip(words, cum, (0, *cum[:-1])):
            if w not in exclude and c > p:
                total += c - p
                kept.append(w)
                kept_cum.append(total)
        if not kept:
            return None
        return kept[bisect_right(kept_cum, self.rng.random() * total)]


#: Collective nouns -> what each gathers, in the singular (the lexicon's
#: ``collective_members``): a thing after "a bunch of" becomes only another the collective
#: gathers ("a bunch of bananas" -> "a bunch of pears": blind review round 25; "a flock of
#: pigeons" never takes children: round 27).
COLLECTIVES = {k: frozenset(v) for k, v in keyed("collective_members").items()}

#: The exponent of :meth:`Strategy.balanced` (1: exact balance; 0: none). Measured on the
#: fresh COCO-style set (benchmarks/text_only.py, six seeds): replace_object's text-only
#: detector 67.4 % without, 61.0 % at 0.5; the commonest word ("man") 10.2 and 11.0 % of
#: them, the captions with one 40 and 35 % (0.8 gave one point less of detector for another
#: point of "man").
BALANCE = 0.5
#: A name counted fewer times than this as a thing is hardly a noun
#: (:meth:`Strategy.noun_as_attribute`).
NOUN_SEEN = 20


class Strategy:
    """One strategy's candidates for one scene: :meth:`listings` names the method that lists
    each of its families' candidates (cheap closures; a refusal found while listing is
    counted then)."""

    def __init__(self, scene: Scene):
        self.scene = scene
        # what every family reads, at hand
        self.g, self.vocab, self.rng = scene.g, scene.vocab, scene.rng
        self.rejected, self.cooc, self.text = scene.rejected, scene.cooc, scene.text

    def listings(self) -> dict[str, Callable[[], list[Candidate]]]:
        """Family -> the method that lists its candidates."""
        raise NotImplementedError

    def candidates(self, family: str) -> list[Candidate]:
        return self.listings()[family]()

    def _refuse(self, reason: str) -> None:
        self.rejected[reason] += 1
        return None

    def balanced(self, old: int, new: int) -> bool:
        """Whether a replacement of a word counted ``old`` times by one counted ``new`` times
        is kept: always towards a commoner word, else with probability (new / old) **
        :data:`BALANCE`. Over a corpus each word then comes into the negatives about as often
        as it leaves them (detailed balance, as in Metropolis sampling), so that no word says
        "negative" to a text-only model: a common word replaced by its rarer siblings
        ("bicycle" -> "scooter") made the rare ones that word (issue 32)."""
        return new >= old or self.rng.random() < (new / old) ** BALANCE

    def named_twice(self, x: int, y: int) -> bool:
        """A third entity has the name of entity x or y: one thing named twice, which an
        exchange of names splits ("a woman feeds a baby ... while the baby grabs at the bowl"
        -> "a baby feeds a baby": blind review rounds 37 and 38)."""
        names = self.scene.names
        return any(names[z] in (names[x], names[y]) for z in range(len(names)) if z not in (x, y))

    def follows(self, a: int, b: int) -> bool:
        """Entity b's noun phrase comes after entity a's in the caption with no other thing
        between ("a small lamp | on a nightstand"); never where the graph does not say where
        either is."""
        ents = self.g.entities
        sa, sb = ents[a].span, ents[b].span
        if sa is None or sb is None or sb[0] < sa[1]:
            return False
        return not any(
            e.span is not None and sa[1] <= e.span[0] < sb[0]
            for z, e in enumerate(ents)
            if z not in (a, b)
        )

    def contents(self, k: int) -> list[int]:
        """The entities entity k holds, as the caption says after "of" ("a cup | of coffee",
        "a bowl | of cereal")."""
        return [
            r.subject
            for r in self.g.relations
            if r.object == k and predicate_key(r.predicate) == "in" and self.after_of(r.subject)
        ]

    def had_states(self, k: int) -> list[str]:
        """The attributes of what entity k has or is with, which say its state too ("an old
        picnic table with | peeling paint": a new table has no peeling paint, blind review
        round 50)."""
        ents = self.g.entities
        return [
            a
            for r in self.g.relations
            if r.subject == k and r.object != k and predicate_key(r.predicate) in ("have", "with")
            for a in ents[r.object].attributes
        ]

    def holders(self, k: int) -> list[int]:
        """The entities that hold entity k, as the caption says it after "of" ("a pot of |
        tea"): :meth:`contents` the other way round."""
        if not self.after_of(k):
            return []
        return [
            r.object
            for r in self.g.relations
            if r.subject == k and predicate_key(r.predicate) == "in"
        ]

    def after_of(self, k: int) -> bool:
        """Entity k's noun phrase follows "of" in the caption ("a bowl of | soup")."""
        return (self.words_before(k, 1) or [None])[-1] == "of"

    def noun_as_attribute(self, i: int) -> bool:
        """Entity i has an attribute that names a being while its own name is a word the
        statistics hardly know as a thing (:data:`NOUN_SEEN`): the parse took the clause's
        verb for the name ("a tiny kitten peers up at a huge sleeping dog": "peers", with
        "tiny" and "kitten"; swapped, "a huge kitten peers up at a tiny sleeping dog": blind
        review round 35)."""
        if self.cooc is None:
            return False
        e = self.g.entities[i]
        # or a word of its text before the name does ("a red fox trots across a snowy field":
        # "trots", with "red"; "an orange fox trots": blind review round 43)
        words = [a.lower() for a in e.attributes] + (e.text or "").lower().split()[:-1]
        kinds_of = addable.lexicon()["kinds"]
        return any(
            object_class(w) in ANIMATE or kinds_of.get(w, (None,))[0] == "animal" for w in words
        ) and (self.cooc.n("obj", self.scene.names[i]) < NOUN_SEEN)

    def garbled(self, i: int) -> bool:
        """Entity i's text runs a clause into its noun phrase: a word in "-ing" before its
        last word, after a word that is neither one of its attributes nor a determiner ("the
        shore chasing seagulls", where the parse took the verb in). Moved whole, it reads
        "the shore chasing seagulls run along the dog" (blind review round 33)."""
        e = self.g.entities[i]
        words = (e.text or "").lower().split()
        own = {w for a in e.attributes for w in a.lower().split()}
        return any(
            words[k].endswith("ing")
            and words[k] not in own
            and words[k - 1] not in own
            and words[k - 1] not in DETERMINERS
            for k in range(1, len(words) - 1)
        )

    def words_before(self, i: int, n: int) -> list[str] | None:
        """The last ``n`` words of the caption before entity i's span, in lower case (fewer
        where the caption has fewer), None where the caption does not say where it is."""
        span = self.g.entities[i].span
        if not self.text or span is None or span[0] > len(self.text):
            return None
        return self.text[: span[0]].lower().split()[-n:]

    def gathered(self, i: int) -> frozenset[str] | None:
        """What the collective noun before entity i gathers ("a bunch of | bananas": bananas,
        grapes, flowers...; :data:`COLLECTIVES`), None where no collective of the lexicon
        comes right before it."""
        before = self.words_before(i, 2)
        if before is None or len(before) < 2 or before[1] != "of":
            return None
        return COLLECTIVES.get(before[0])

    def article(self, i: int) -> str | None:
        """The word before entity i's span in the caption if it is an article or a
        determiner, "" if the entity has none, None where the caption does not say."""
        before = self.words_before(i, 1)
        if before is None:
            return None
        word = before[-1] if before else ""
        return word if word in DETERMINERS else ""

    def paired(self) -> int:
        """How many of the graph's entities a family that pairs them considers (the first
        :data:`MAX_PAIRED`; counted as ``entities_capped`` where that leaves some out)."""
        n = len(self.g.entities)
        if n > MAX_PAIRED:
            self.rejected["entities_capped"] += 1
            return MAX_PAIRED
        return n
