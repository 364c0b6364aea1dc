"""Co-occurrence statistics of parsed scene graphs: what a plausible negative may say.

Counted per graph (``sgprep vocab`` counts them next to the vocabulary, in one pass):
- ``obj``: object names ("hot dog", "man": a compound noun stays whole, the head singular);
- ``attr``: attribute with object ("white plate");
- ``sp`` / ``po`` / ``spo``: subject with predicate, predicate with object, and the triple
  ("man | ride", "ride | horse", "man | ride | horse"); a predicate is its verb lemma plus its
  prepositions ("sit on"), or a spatial phrase ("on top of");
- ``agent``: subject with the verb of an action predicate ("man | ride");
- ``scene``: two objects named in one graph.

Memory is bounded: each table keeps at most ``max_entries`` keys; when it grows past that, the
rarest keys are dropped and the table's ``floor`` rises (lossy counting: a key kept undercounts
by at most its floor). Two tables (of two shards) merge by adding counts, then pruning.

The judgments (:class:`Cooc`) are deliberately strict: a combination nobody wrote is not
plausible. "A man under a court" is refused when "under | court" was never seen.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from difflib import SequenceMatcher
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from sgprep.negatives import grammar
from sgprep.negatives.words import attribute_type, relation_type
from sgprep.schema import Entity, SceneGraph

DEFAULT_COOC = Path(__file__).resolve().parent / "data" / "default_cooc.json"
DEFAULT_RELATED = Path(__file__).resolve().parent / "data" / "related.json"
TABLES = ("obj", "attr", "sp", "po", "spo", "agent", "scene")
SEP = "|"
#: Words before a head that are not part of its name (numbers, determiners, quantities).
_NOT_NAME = frozenset(
    "a an the this that these those his her their its my our your some each every one two three "
    "four five six seven eight nine ten many several few lots lot of group bunch pair couple "
    "other another".split()
)
#: A scene with more objects than this adds no object pairs (bounded work per graph).
MAX_SCENE_OBJECTS = 12
#: Words before a head that are no noun modifiers ("laced up boots").
_PARTICLES = frozenset("up down off out in on over under with and or to for at by".split())
_COPULA = frozenset({"is", "are", "be", "was", "were", "being", "been"})
#: Nouns that are plural in form and meaning ("scissors", "jeans"): kept as they are.
PLURALIA = frozenset(
    "scissors pants jeans glasses shorts trousers sunglasses goggles clothes "
    "stairs tongs binoculars headphones earphones overalls pajamas tights "
    "leggings skis".split()
)
#: Fixed expressions a parser may split into an attribute and a head ("hot" + "dog"): the
#: attribute is part of the object's name, never changed or moved on its own.
FIXED_EXPRESSIONS = frozenset(
    "hot dog,double decker,living room,old fashioned,high chair,stop sign,teddy bear,"
    "fire hydrant,ice cream,cell phone,traffic light,red light,green light,french fries,"
    "french fry,french toast,hot tub,hot air balloon,first base,second base,third base,"
    "home plate,grand piano,white house,black board,green house,tennis racket,tennis court,"
    "baseball bat,big top,little league,short sleeve,long sleeve,wet suit,dining room,"
    "dining table,coffee table,police officer,stuffed animal,sliced bread,open sign,"
    "high heels,high heel,dress shirt,polo shirt,tank top,flat screen,brown bear,"
    "polar bear,black bear,grizzly bear,sea gull,light pole,light post,street light,"
    # hats of one kind (blind review round 6: "hard hats" -> "hard helmets" is no lie)
    "hard hat,top hat,cowboy hat,sun hat,bowler hat,party hat,chef hat,straw hat".split(",")
)
#: Words a relation may end on that name no object ("on the left"): never connected.
NOT_OBJECTS = frozenset(
    "left right top side front back middle edge part bottom background "
    "distance corner center end view area piece air day foreground drawing picture photo image "
    "reflection shadow word words letter letters number numbers writing text logo design pattern "
    "spot stripe line tennis baseball soccer game sport".split()
)


class BoundedCounter(dict):
    """A counter with at most ``max_entries`` keys (lossy counting: see the module doc)."""

    def __init__(self, max_entries: int = 1_000_000, floor: int = 0):
        super().__init__()
        self.max_entries, self.floor = max_entries, floor

    def add(self, key: str, n: int = 1) -> None:
        self[key] = self.get(key, 0) + n
        if len(self) > self.max_entries:
            self.prune()

    def prune(self) -> None:
        """Drop the rarest keys until at most half the cap is left."""
        while len(self) > self.max_entries // 2:
            self.floor += 1
            for key in [k for k, n in self.items() if n <= self.floor]:
                del self[key]

    def merge(self, other: BoundedCounter) -> None:
        self.floor = max(self.floor, other.floor)
        for key, n in other.items():
            self[key] = self.get(key, 0) + n
        if len(self) > self.max_entries:
            self.prune()


@lru_cache(maxsize=65536)
def singular(noun: str) -> str:
    n = noun.lower()
    if n in grammar._IRREGULAR_SINGULARS:
        return grammar._IRREGULAR_SINGULARS[n]
    if n in grammar.UNCOUNTABLE or n in PLURALIA or n.endswith(("ss", "us", "is")) or len(n) < 4:
        return n
    if n.endswith("ies"):
        return n[:-3] + "y"
    if n.endswith(("ches", "shes", "xes", "sses", "zes")):
        return n[:-2]
    if n.endswith("s"):
        return n[:-1]
    return n


def name_words(e: Entity) -> list[str]:
    """The words of an entity's object name: its head (singular) and the noun modifiers just
    before it in its text that are not attributes ("tennis racket", "hot dog"), at most two."""
    return _name_words(e.text, e.head, e.attributes)


def _name_words(text: str, head: str, attributes: Iterable[str]) -> list[str]:
    head = singular(head)
    words = text.lower().replace(",", " ").split()
    if not words or singular(words[-1]) != head:
        return [head]
    attrs = {w for a in attributes for w in a.lower().split()}
    mods: list[str] = []
    for k in range(len(words) - 2, -1, -1):
        w, nxt = words[k], singular(words[k + 1])
        fixed = f"{w} {nxt}" in FIXED_EXPRESSIONS
        if (
            (w in attrs and not fixed)
            or w in _NOT_NAME
            or not w.isalpha()
            or len(mods) == 2
            or (not fixed and (w in _PARTICLES or w.endswith(("ed", "ing", "ly"))))
        ):
            break
        mods.insert(0, w)
    return [*mods, head]


def fixed_attributes(e: Entity) -> set[str]:
    """Attributes that belong to the object's name ("hot" of "hot dog", "double" of
    "double decker bus")."""
    modifiers = _modifiers(e.text, e.head, tuple(e.attributes))
    return {a for a in e.attributes if a.lower() in modifiers}


def _modifiers(text: str, head: str, attributes: tuple[str, ...]) -> tuple[str, ...]:
    """The words of the object name before its head (:func:`name_words`)."""
    return _name_parts(text, head, attributes)[:-1]


@lru_cache(maxsize=65536)
def _name_parts(text: str, head: str, attributes: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`_name_words`, once per process for an entity's name and its modifiers both."""
    return tuple(_name_words(text, head, attributes))


def name(e: Entity) -> str:
    return _name(e.text, e.head, tuple(e.attributes))


@lru_cache(maxsize=65536)
def _name(text: str, head: str, attributes: tuple[str, ...]) -> str:
    stripped, head_stripped = text.strip(), head.strip()  # as an Entity would have them
    if not stripped or not head_stripped:  # one an Entity refuses: refused as before
        Entity(text=text, head=head, attributes=list(attributes))
    return " ".join(_name_parts(stripped, head_stripped, attributes))


#: Irregular participles to their verbs ("held" -> "hold").
_PARTICIPLE_BASES = {p: base for base, p in grammar._PARTICIPLES.items()}


@lru_cache(maxsize=65536)
def lemma(verb: str) -> str:
    """The lemma of a verb in any form ("riding" -> "ride", "sits" -> "sit", "held" -> "hold"):
    parsers may keep the surface form of a predicate."""
    v = verb.lower()
    if v in _PARTICIPLE_BASES:
        return _PARTICIPLE_BASES[v]
    guesses: list[tuple[str, str]] = []
    if v.endswith("ing") and len(v) > 4:
        stem = v[:-3]
        guesses += [
            (stem, "gerund"),
            (stem + "e", "gerund"),
            (stem[:-1], "gerund"),
            (stem[:-1] + "ie", "gerund"),
        ]
    if v.endswith("ed") and len(v) > 3:
        stem = v[:-2]
        guesses += [
            (stem, "participle"),
            (stem + "e", "participle"),
            (stem[:-1], "participle"),
            (stem[:-1] + "y", "participle"),
        ]
    if v.endswith("s") and len(v) > 2:
        guesses += [(v[:-1], "third"), (v[:-2], "third"), (v[:-3] + "y", "third")]
    fits = [base for base, form in guesses if base and grammar.inflect_verb(base, form) == v]
    known = [base for base in fits if base in known_verbs()]  # "walke", "prepar": no verbs
    return (known or fits or [v])[0]


@lru_cache(maxsize=1)
def known_verbs() -> frozenset[str]:
    """WordNet's verb lemmas (bundled in related.json): which guessed lemma is a verb."""
    return frozenset(_related_file().get("verbs", ()))


@lru_cache(maxsize=65536)
def predicate_key(predicate: str) -> str:
    """A predicate as counted: lower case, no copula, the verb of an action as its lemma."""
    words = [w for w in predicate.lower().split() if w not in _COPULA] or ["be"]
    if relation_type(" ".join(words)) == "action":
        words[0] = lemma(words[0])
    return " ".join(words)


def key(*parts: str) -> str:
    return SEP.join(parts)


class _Forms(NamedTuple):
    """What :meth:`Cooc._is_related` compares of a word."""

    lower: str  # the word in lower case
    last: str  # its last word ("" if blank)
    singular: str
    bare: str  # without final s's
    known: bool  # whether the statistics know it
    length: int
    words: frozenset[str]
    kind: str | None  # its object class


class Cooc:
    """Counted tables and the plausibility judgments drawn from them."""

    #: :meth:`is_related`'s memo starts again past this many pairs, so a long run over a
    #: large vocabulary does not grow it without end (a pair is some 200 bytes).
    RELATED_MEMO = 200_000

    def __init__(self, max_entries: int = 1_000_000):
        self.tables = {t: BoundedCounter(max_entries) for t in TABLES}
        self.related: dict[str, dict[str, frozenset[str]]] = {}
        self._by_context: dict = {}
        self._pools: dict = {}
        self._related_cache: dict = {}
        self._word_forms: dict = {}

    # --- counting ---------------------------------------------------------------------------
    def count(self, graph: SceneGraph) -> None:
        t = self.tables
        names = [name(e) for e in graph.entities]
        for e, n in zip(graph.entities, names):
            t["obj"].add(n)
            for a in e.attributes:
                t["attr"].add(key(a.lower(), n))
        for r in graph.relations:
            if not (0 <= r.subject < len(names) and 0 <= r.object < len(names)):
                continue
            s, o, p = names[r.subject], names[r.object], predicate_key(r.predicate)
            t["sp"].add(key(s, p))
            t["po"].add(key(p, o))
            t["spo"].add(key(s, p, o))
            if relation_type(p) == "action":
                t["agent"].add(key(s, p.split()[0]))
        distinct = sorted(set(names))
        if len(distinct) <= MAX_SCENE_OBJECTS:
            for i, a in enumerate(distinct):
                for b in distinct[i + 1 :]:
                    t["scene"].add(key(a, b))

    def merge(self, other: Cooc) -> None:
        for t in TABLES:
            self.tables[t].merge(other.tables[t])

    def to_json(self, min_count: int = 1) -> dict:
        return {
            "version": 1,
            "floors": {t: c.floor for t, c in self.tables.items()},
            "tables": {
                t: {k: n for k, n in sorted(c.items()) if n >= min_count}
                for t, c in self.tables.items()
            },
        }

    @classmethod
    def from_json(cls, data: dict, related: dict[str, list[str]] | None = None) -> Cooc:
        c = cls()
        for t in TABLES:
            c.tables[t].update(data.get("tables", {}).get(t, {}))
            c.tables[t].floor = data.get("floors", {}).get(t, 0)
        c.related = {
            pos: {w: frozenset(ws) for w, ws in table.items()}
            for pos, table in (related or {}).items()
        }
        for pos, groups in NEAR_SYNONYMS.items():
            table = c.related.setdefault(pos, {})
            for group in groups:
                for w in group:
                    table[w] = table.get(w, frozenset()) | (group - {w})
        return c

    # --- judging ----------------------------------------------------------------------------
    def n(self, table: str, *parts: str) -> int:
        return self.tables[table].get(key(*parts), 0)

    def known(self, obj: str) -> bool:
        return self.n("obj", obj) > 0

    def attribute_ok(self, attribute: str, obj: str) -> bool:
        a = attribute.lower()
        if self.known(obj) or " " not in obj:
            return self.n("attr", a, obj) > 0
        return self.n("attr", a, obj.split()[-1]) > 0

    def attribute_ok_by_class(self, attribute: str, obj: str) -> bool:
        """:meth:`attribute_ok`, backed off for colours of made things (:data:`PAINTED`, or
        things of no class seen in :data:`MANY_COLOURS` colours and not natural, such as
        signs, pillows, walls): a colour seen twice on objects of its class may go on any
        ("a blue truck": trucks are vehicles, vehicles are blue; "a red pillow")."""
        if self.attribute_ok(attribute, obj):
            return True
        if attribute.lower() in GENERIC_SIZES and object_class(obj) in SIZED:
            return True  # "a large dog beside a small cat": any animal, vehicle... comes in sizes
        cls = self._paint_class(obj)
        if cls is None or attribute_type(attribute) != "colour":
            return False
        if "class_attrs" not in self._by_context:
            table: dict[str, int] = {}
            for k, n in self.tables["attr"].items():
                a, o = k.split(SEP)
                c = self._paint_class(o)
                if c is not None:
                    table[key(a, c)] = table.get(key(a, c), 0) + n
            self._by_context["class_attrs"] = table
        return self._by_context["class_attrs"].get(key(attribute.lower(), cls), 0) >= 2

    def _paint_class(self, obj: str) -> str | None:
        """The class whose colours ``obj`` may take: its own if made (:data:`PAINTED`), "made"
        for a thing of no class seen in many colours that is not natural, else None."""
        cls = object_class(obj)
        if cls in PAINTED:
            return cls
        head = obj.split()[-1]
        if cls is not None or head in NATURAL:
            return None
        if "colours_of" not in self._by_context:
            seen: dict[str, set[str]] = {}
            for k in self.tables["attr"]:
                a, o = k.split(SEP)
                if attribute_type(a) == "colour":
                    seen.setdefault(o, set()).add(a)
            self._by_context["colours_of"] = {o: len(c) for o, c in seen.items()}
        colours = self._by_context["colours_of"]
        return "made" if max(colours.get(obj, 0), colours.get(head, 0)) >= MANY_COLOURS else None

    def judge(
        self, s: str, predicate: str, o: str, strict: bool = False, seen: int = 1
    ) -> str | None:
        """None if "s predicate o" is plausible: seen as a triple, or (for the heads when a
        compound is unseen) subject with predicate and predicate with object, and an action's
        verb with that subject. Else the reason: ``implausible_agent`` (the subject never
        does that: "a building pulls a train") or ``implausible_relation``."""
        p = predicate_key(predicate)
        hs, ho = s.split()[-1], o.split()[-1]
        if self.n("spo", s, p, o) >= seen or self.n("spo", hs, p, ho) >= seen:
            return None  # (``seen`` 2: a triple seen once may be a parse's slip)
        if strict:  # a new pairing of two objects the caption has: only what was seen
            return "implausible_relation"
        if relation_type(p) == "action":
            verb = p.split()[0]
            if not (self.n("agent", s, verb) or self.n("agent", hs, verb)):
                return "implausible_agent"
        s_ok = self.n("sp", s, p) or self.n("sp", hs, p)
        o_ok = self.n("po", p, o) or self.n("po", p, ho)
        together = self.n("scene", *sorted((s, o))) or self.n("scene", *sorted((hs, ho)))
        return None if s_ok and o_ok and together else "implausible_relation"

    def judge_by_class(self, s: str, predicate: str, o: str) -> str | None:
        """:meth:`judge` (strict), backed off to object classes: for two objects of one class
        (:data:`OBJECT_CLASSES`) that change places, the classes' triple is the caption's own
        ("person | wear | clothing": "a man with white pants and a brown shirt"), so the new
        triple of a third thing with one of them is plausible though this very one was never
        seen. The relation between the two themselves is :meth:`judge_reversed`'s."""
        if self.judge(s, predicate, o, strict=True, seen=2) is None:
            return None
        if predicate_key(predicate) in SUPPORT:  # "red cars on a train": "a train on red cars"
            return "implausible_relation"
        return None if object_class(s) and object_class(o) else "implausible_relation"

    def judge_reversed(self, s: str, predicate: str, o: str) -> str | None:
        """A relation whose two ends changed places ("the man behind the woman" -> "the
        woman behind the man"): :meth:`judge` (strict), backed off to object classes
        (:data:`OBJECT_CLASSES`) where the class says the new triple is plausible though
        this very one was never seen:
        - a relation of where things stand as seen from the camera (:data:`VIEW_RELATIVE`)
          between two free-standing things (:data:`FREE_STANDING`): "the woman behind the
          man", "a bus in front of a car";
        - a stance verb with such a relation, for a person or an animal ("a dog standing
          behind a man");
        - an action between two animate beings that either can do to the other
          (:data:`RECIPROCAL_VERBS`: "a woman looking at a man", "a cat chasing a dog"); an
          animal may not do what only people do ("a dog talking to a man"), a baby only
          look; other verbs only where the new subject was seen doing them ("sheep herding a
          dog": never).
        Support and containment ("a train on red cars") never back off."""
        if self.judge(s, predicate, o, strict=True, seen=2) is None:
            return None
        p = predicate_key(predicate)
        cs, co = object_class(s), object_class(o)
        if p in SUPPORT or cs not in FREE_STANDING or co not in FREE_STANDING:
            return "implausible_relation"
        if p in VIEW_RELATIVE:
            return None
        verb, _, rest = p.partition(" ")
        if relation_type(p) != "action" or cs not in ANIMATE_CLASSES:
            return "implausible_relation" if relation_type(p) != "action" else "implausible_agent"
        if (rest in VIEW_RELATIVE or rest in NEARBY) and verb in STANCE_VERBS:
            return None
        if co not in ANIMATE_CLASSES or set(rest.split()) & SUPPORT:
            # "a man riding a horse": "a horse riding a car"; "a man laying on a cow": "a
            # cow laying on a man"
            return "implausible_relation"
        head = s.split()[-1]
        if self.n("agent", s, verb) >= 2 or self.n("agent", head, verb) >= 2:
            return None
        if head in YOUNG and verb not in LOOK_VERBS:
            return "implausible_agent"  # "a baby feeding a woman"
        if verb in RECIPROCAL_VERBS and (cs == "person" or verb not in PEOPLE_ONLY_VERBS):
            return None
        return "implausible_agent"

    def triple_ok(self, s: str, predicate: str, o: str) -> bool:
        return self.judge(s, predicate, o) is None

    def is_related(self, a: str, b: str, pos: str = "noun") -> bool:
        key = (a, b, pos)
        memo = self._related_cache
        hit = memo.get(key)
        if hit is None:
            if len(memo) >= self.RELATED_MEMO:
                memo.clear()
            hit = memo[key] = self._is_related(a, b, pos)
        return hit

    def _is_related(self, a: str, b: str, pos: str = "noun") -> bool:
        """Synonyms, hypernyms or hyponyms of each other (WordNet, see related.json, and
        :data:`NEAR_SYNONYMS`), by the whole name or by the head: a replacement by one says
        nothing false ("cup" -> "mug", "man" -> "person"). Each word's forms are found once
        (:meth:`_forms`): a pair not seen before costs a few comparisons."""
        fa, fb = self._forms(a), self._forms(b)
        a, b = fa.lower, fb.lower
        if a == b:
            return True
        if not (fa.last and fb.last):
            raise IndexError(f"a blank word: {a!r}, {b!r}")
        if fa.last == fb.last or fa.singular == fb.singular or fa.bare == fb.bare:
            return True
        if not (fa.known and fb.known) and fa.length >= 4 and fb.length >= 4 and _similar(a, b):
            return True  # a typo of the caption corrected: "rcok" -> "rock" is true
        if pos == "noun" and (
            fa.words <= fb.words
            or fb.words <= fa.words
            or (min(fa.length, fb.length) >= 3 and (a in b or b in a) and not (fa.kind and fb.kind))
        ):
            # "baseball player" in "baseball player figure"; "road", "roadside"; but not
            # two words of the object classes: "man" is in "woman"
            return True
        if pos == "adj":  # materials and colours are nouns in WordNet: "iron" is a "metal"
            return self._related(fa, fb, "adj") or self._related(fa, fb, "noun")
        return self._related(fa, fb, pos)

    def _forms(self, word: str) -> _Forms:
        """What :meth:`_is_related` compares of a word (:class:`_Forms`), found once per
        word (bounded)."""
        hit = self._word_forms.get(word)
        if hit is None:
            if len(self._word_forms) >= self.RELATED_MEMO:
                self._word_forms.clear()
            w = word.lower()
            words = w.split()
            hit = self._word_forms[word] = _Forms(
                w,
                words[-1] if words else "",
                singular(w),
                w.rstrip("s"),
                self.known(w),
                len(w),
                frozenset(words),
                object_class(w) if words else None,
            )
        return hit

    def _related(self, fa: _Forms, fb: _Forms, pos: str) -> bool:
        """Related in the WordNet table of ``pos``, by the whole words or their last words
        (``fa``, ``fb``: :meth:`_forms`)."""
        table = self.related.get(pos, {})
        for x, y in ((fa, fb), (fb, fa)):
            rel = table.get(x.lower) or table.get(x.last) or ()
            if y.lower in rel or y.last in rel:
                return True
        return False

    def neighbours(self, table: str, fixed: int, value: str) -> dict[str, int]:
        """Of the keys of ``table`` whose part ``fixed`` is ``value``: the other parts (joined
        by spaces for triples) with their counts ("attr", 1, "plate": the attributes seen
        with a plate). Indexed on first use, once per process."""
        idx = self._by_context.get((table, fixed))
        if idx is None:
            idx = self._by_context[table, fixed] = {}
            for k, n in self.tables[table].items():
                parts = k.split(SEP)
                rest = SEP.join(parts[:fixed] + parts[fixed + 1 :])
                idx.setdefault(parts[fixed], {})[rest] = n
                if table == "scene":
                    idx.setdefault(parts[1 - fixed], {})[parts[fixed]] = n
        return idx.get(value, {})

    def pool(self, kind: str, *context) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """Words seen in a context, sorted, with cumulative counts (made once per process):
        ("attrs_of", obj, type): attributes of a type seen with obj;
        ("end", other, predicate, as_subject): the objects seen at the other end of
        ``predicate`` from ``other``; ("attr", a): objects seen with attribute a; ("scene",
        o): objects seen in a scene with o; ("connect", subject, placed): "predicate|object"
        that a relation from ``subject`` may add. Words seen more than once are preferred:
        seen once may be a parse's slip."""
        key = (kind, *context)
        if key not in self._pools:
            self._pools[key] = _cumulative(getattr(self, f"_options_{kind}")(*context))
        return self._pools[key]

    def _part_or_worn(self, obj: str) -> bool:
        """Seen as a part of something (had by it, half the time) or worn: "a boy near a
        shirt", "a boat near a wheel" read wrong."""
        return self.n("po", "have", obj) * 2 >= self.n("obj", obj) or self.n("po", "wear", obj) > 0

    def _options_end(self, other: str, predicate: str, as_subject: bool) -> dict[str, int]:
        out: dict[str, int] = {}
        for rest, n in self.neighbours("spo", 2 if as_subject else 0, other).items():
            parts = rest.split(SEP)
            if (parts[1] if as_subject else parts[0]) == predicate:
                w = parts[0] if as_subject else parts[-1]
                out[w] = out.get(w, 0) + n
        return out

    def _options_attrs_of(self, obj: str, kind: str) -> dict[str, int]:
        return {
            w: n for w, n in self.neighbours("attr", 1, obj).items() if attribute_type(w) == kind
        }

    def _options_attr(self, attribute: str) -> dict[str, int]:
        return dict(self.neighbours("attr", 0, attribute))

    def _options_scene(self, obj: str) -> dict[str, int]:
        return {w: n for w, n in self.neighbours("scene", 0, obj).items() if w not in NOT_OBJECTS}

    def _options_connect(self, subject: str, placed: bool) -> dict[str, int]:
        out = {}
        for rest, n in self.neighbours("spo", 0, subject).items():
            pred, obj = rest.split(SEP)
            if (
                pred in CONNECT_SKIP
                or (placed and pred not in PROXIMITY)
                or relation_type(pred) == "action"
                or obj in NOT_OBJECTS
                or self._part_or_worn(obj)
                or obj.split()[-1] in PLURALIA
                or obj in ("people", "crowd")
            ):
                continue
            out[rest] = n
        if self.n("po", "have", subject) * 2 < self.n("obj", subject):
            # and objects seen in its scenes, near it (not for parts, which things have:
            # "a hand near a bus")
            for w, n in self._options_scene(subject).items():
                if (
                    w.split()[-1] not in PLURALIA
                    and w not in ("people", "crowd")
                    and self.n("obj", w) >= 3
                    and not self._part_or_worn(w)
                ):
                    out[f"near{SEP}{w}"] = out.get(f"near{SEP}{w}", 0) + n
        return out


def _cumulative(options: dict[str, int]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    if any(n > 1 for n in options.values()):
        options = {w: n for w, n in options.items() if n > 1}
    words = tuple(sorted(options))
    total, cum = 0, []
    for w in words:
        total += options[w]
        cum.append(total)
    return words, tuple(cum)


#: Relations connect does not add: they read as parts ("of") or say nothing ("have").
CONNECT_SKIP = frozenset({"of", "have", "be", "with", "for", "to", "from"})
#: Relations that place a thing by another without contradicting where it is.
PROXIMITY = frozenset({"near", "next to", "beside", "behind", "in front of", "by"})


#: Near-synonyms WordNet does not link, by part of speech: one may be true whenever the
#: other is ("a cup" of coffee is often a mug; who holds a thing also has it).
NEAR_SYNONYMS: dict[str, list[frozenset[str]]] = {
    "noun": [
        frozenset(g.split(","))
        for g in (
            "cup,mug,glass",
            "couch,sofa",
            "rock,stone",
            "pants,trousers,jeans",
            "photo,picture,photograph",
            "street,road",
            "hill,mountain",
            "shore,beach",
            "tv,television,screen,monitor",
            "cellphone,phone,cell phone",
            "bike,bicycle",
            "plane,airplane,jet",
            "car,vehicle,automobile",
            "sign,signboard",
            "pathway,path,walkway,sidewalk",
            "boy,kid,child",
            "girl,kid,child",
            "lady,woman",
            "guy,man",
            "person,human,individual",
            "sky,air",
            "picture,image,painting",
            "pillow,cushion",
            "cap,hat",
            "stick,branch",
            "lamp,light",
            "grass,lawn,field",
            "uniform,shirt,jersey,outfit,clothes,clothing",
            "ocean,sea,water",
            "purse,bag,handbag",
            "rug,carpet,mat",
            # a young animal is one of its kind: "feeds a sheep" is true of a lamb, and "a lamb
            # ... other sheep" exchanged says nothing false (blind review round 9)
            "lamb,sheep",
            "calf,cow,cattle",
            "kitten,cat",
            "foal,horse",
            "foal,pony",
            "cub,bear",
            "cub,lion",
            "cub,tiger",
            "piglet,pig",
            "duckling,duck",
            "gosling,goose",
            "fawn,deer",
            "chick,chicken,hen",
        )
    ],
    "verb": [
        frozenset(g.split(","))
        for g in (
            "include,hold,have,contain,carry,feature,show,support",
            "look,watch,see,face,view,stare,observe",
            "sit,rest,perch",
            "lay,lie,rest",
            "stand,wait",
            "walk,go,move,stroll,run",
            "hang,dangle",
            "brush,wash,clean,scrub",
            "guard,protect,defend,watch,patrol",
            "drive,come,go,travel,head,move,pass",
            "cover,coat",
            "grab,hold,take",
            "use,hold",
            "wear,have,carry",
            "park,stop",
            "practice,play",
            "ride,drive",
            "serve,hit",
            "stand,lean",
            # places a thing may be in at once: "along the side" is "on the side", "by" it
            "along,on,by,beside,next,near,alongside",
        )
    ],
    "adj": [
        frozenset(g.split(","))
        for g in (
            "big,large,huge,giant,tall",
            "small,little,tiny,short",
            "gray,grey,silver",
            "light,white,pale",
            "dark,black",
            "tan,beige,brown",
            "wooden,wood",
            "metal,metallic,steel",
        )
    ],
}
#: Verbs that mean nearly the same with one object (and not with others): who rides a wave
#: catches it ("rides a horse" -> "catches a horse" stays false). Object head -> groups.
NEAR_SYNONYMS_WITH: dict[str, list[frozenset[str]]] = {
    obj: [frozenset(g.split(",")) for g in groups.split()]
    for objs, groups in (
        ("wave waves surf", "ride,catch,surf,take,hit"),
        ("frisbee ball", "catch,grab,get"),
        ("kite kites", "fly,hold,control"),
        ("slope slopes hill mountain", "ski,go,come,head,descend"),
        ("bus train subway", "board,enter,take,catch,ride"),
        ("picture photo photograph selfie", "take,snap,shoot"),
        ("meal food lunch dinner breakfast", "eat,have,enjoy"),
    )
    for obj in objs.split()
}


def _similar(a: str, b: str) -> bool:
    """``SequenceMatcher``'s ratio of the two is 0.75 or more. Two upper bounds of it first,
    as its ``real_quick_ratio`` and ``quick_ratio`` compute them (twice the matches over the
    summed lengths, with at least as many matches: the shorter length, then the letters in
    common), without making a matcher: most pairs never pay for one."""
    length = len(a) + len(b)
    if 2.0 * min(len(a), len(b)) / length < 0.75:
        return False
    left = Counter(b)
    common = 0
    for x in a:
        if left[x] > 0:
            left[x] -= 1
            common += 1
    if 2.0 * common / length < 0.75:
        return False
    return SequenceMatcher(None, a, b).ratio() >= 0.75


def related_with(a: str, b: str, obj: str) -> bool:
    """Verbs ``a`` and ``b`` say the same of ``obj`` (:data:`NEAR_SYNONYMS_WITH`)."""
    groups = NEAR_SYNONYMS_WITH.get(obj.split()[-1] if obj else "", ())
    return any(a in g and b in g for g in groups)


#: Verbs that are true of nearly any scene that has the other verb's parts (who feeds a
#: giraffe looks at it): never a replacement.
WEAK_VERBS = frozenset(
    "look watch see face have be include contain show feature use wear near "
    "stand sit hold touch play".split()
)
#: Relations a thing can have to many objects at once: replacing the object may leave a true
#: sentence when the two are often seen together ("wearing a jacket" -> "wearing a shirt").
NON_EXCLUSIVE = frozenset({"wear", "have", "with", "carry", "hold", "include", "contain"})


def build_cooc(graphs: Iterable[SceneGraph], max_entries: int = 1_000_000) -> Cooc:
    c = Cooc(max_entries)
    for g in graphs:
        c.count(g)
    return c


def load_default() -> Cooc:
    return load_cooc(str(DEFAULT_COOC))


@lru_cache(maxsize=8)
def load_cooc(path: str) -> Cooc:
    """Statistics from a JSON file (once per process), with the bundled WordNet relations."""
    return Cooc.from_json(json.loads(Path(path).read_text()), load_related())


@lru_cache(maxsize=1)
def load_related() -> dict[str, list[str]]:
    data = _related_file()
    return data["related"] if data else {}


@lru_cache(maxsize=1)
def _related_file() -> dict:
    """related.json, read and parsed once per process for its relations and its verbs both
    (each read it whole before: some 5 ms a process); {} where it is missing."""
    if not DEFAULT_RELATED.exists():
        return {}
    return json.loads(DEFAULT_RELATED.read_text())


#: Coarse classes of objects (singular heads), a back-off for swaps and shuffles: "the woman
#: behind the man" is plausible because "person | behind | person" was seen, though this
#: very triple was not. Objects of no class (and parts, places) get no back-off.
OBJECT_CLASSES: dict[str, frozenset[str]] = {
    c: frozenset(ws.split())
    for c, ws in {
        "person": "man woman boy girl person child kid lady guy player skier surfer skateboarder "
        "snowboarder baby adult worker officer rider biker cyclist chef cook waiter "
        "student teenager batter catcher pitcher umpire tourist passenger driver "
        "mother father son daughter friend couple soldier policeman",
        "animal": "dog cat horse cow sheep elephant giraffe zebra bird bear duck goose puppy "
        "kitten pony calf lamb goat pig chicken deer monkey lion tiger seagull pigeon "
        "animal bull ox",
        "vehicle": "car truck bus train motorcycle bike bicycle van boat ship airplane plane jet "
        "taxi cab scooter tractor trailer suv jeep vehicle motorbike",
        "food": "pizza sandwich cake donut doughnut banana apple orange broccoli carrot burger "
        "hamburger bread salad sausage egg meat cheese fruit vegetable cookie pie "
        "hot_dog tomato potato",
        "furniture": "table chair bench couch sofa bed desk shelf cabinet stool dresser",
        "clothing": "shirt jacket hat cap coat dress pants jeans shorts skirt sweater hoodie vest "
        "helmet shoe boot sock glove scarf tie uniform suit sandal sneaker jersey t-shirt "
        "sweatshirt beanie bandana apron hood robe wetsuit bikini",
        "small object": "cup mug glass bottle plate bowl phone remote book knife fork spoon "
        "umbrella bag backpack purse frisbee ball kite racket bat laptop keyboard "
        "clock vase box toy pillow blanket basket towel curtain calculator pot can tray "
        "lamp napkin cushion candle suitcase",
        "fixture": "sign pole tent flag banner fence gate awning",
        "plant": "tree bush plant flower",
        "body part": "hand arm leg head face eye ear nose mouth hair foot finger",
        "building": "building house church tower barn shop store",
    }.items()
}
#: Size words that fit anything of a class in :data:`SIZED` ("a small truck", "a large
#: goat"); "tall", "short" and "long" fit by shape only ("a tall pizza"), so the statistics
#: decide those.
GENERIC_SIZES = frozenset({"small", "large", "big", "little", "huge", "tiny"})
SIZED = frozenset({"animal", "vehicle", "furniture", "small object", "building", "plant"})
#: Relations of support and containment: the class says nothing of which holds which.
SUPPORT = frozenset(
    {
        "on",
        "in",
        "inside",
        "on top of",
        "under",
        "into",
        "onto",
        "be on",
        "be in",
        "sit on",
        "sit in",
        "park on",
        "ride on",
        "carry",
        "hold",
        "contain",
        "have",
    }
)
#: Relations that say where a thing stands from the camera's point of view: true of either
#: order of two free-standing things ("the bus in front of the car", "the car in front of
#: the bus").
VIEW_RELATIVE = frozenset(
    {
        "behind",
        "in front of",
        "left of",
        "right of",
        "to left of",
        "to right of",
        "to the left of",
        "to the right of",
        "on left of",
        "on right of",
        "on the left of",
        "on the right of",
        "in back of",
    }
)
#: Relations of two things near each other, true either way round; not "with" (a zebra with
#: two ears), "among" or "between" (two trees among some giraffes).
NEARBY = frozenset(
    "next to,near,beside,by,close to,near to,adjacent to,alongside,across from,opposite".split(",")
)
#: Classes of things that stand on their own: either may stand behind the other. Not parts,
#: worn things, food or small things, which are held, worn or carried.
FREE_STANDING = frozenset({"person", "animal", "vehicle", "furniture", "building", "plant"})
ANIMATE_CLASSES = frozenset({"person", "animal"})
#: Verbs of position that keep a relation of where a thing stands ("standing behind").
STANCE_VERBS = frozenset({"stand", "sit", "walk", "wait", "park", "lie", "lay", "run", "stop"})
#: Actions either of two animate beings can do to the other ("a woman looking at a man", "a
#: man looking at a woman").
RECIPROCAL_VERBS = frozenset(
    "look watch stare face chase follow hug kiss touch talk greet fight push pull kick hit "
    "bite sniff lick approach play walk run help pass tackle guard block wave smile point "
    "lean listen shake".split()
)
#: ... of which an animal does not do these ("a dog talking to a man").
PEOPLE_ONLY_VERBS = frozenset(
    "talk greet help pass tackle guard block wave smile point listen shake hug kiss".split()
)
#: Young ones who only look at others ("a baby feeding a mother": never).
YOUNG = frozenset("baby infant toddler newborn".split())
LOOK_VERBS = frozenset("look watch stare face smile touch".split())
#: Things seen only far behind everything else: nothing stands behind them.
FAR_AWAY = frozenset(
    "sky sun moon cloud clouds horizon mountain mountains hill hills sea ocean".split()
)
#: Things of no class seen in this many colours come in any colour (signs, walls, doors).
MANY_COLOURS = 4
#: ... unless natural: their colours are few and fixed ("a blue leaf", "pink grass").
NATURAL = frozenset(
    "leaf grass tree sky water cloud hair fur mane skin snow sand dirt rock stone mountain "
    "hill field flower plant bush wave ocean sea river lake sun moon fruit vegetable".split()
)
#: Classes of made things, which come in any colour.
PAINTED = frozenset({"vehicle", "clothing", "furniture", "small object", "building", "fixture"})
#: Classes whose members may change places on the class's evidence. Not body parts (parts of
#: one whole: "his face on his hair"), nor small things, food and furniture, which hold,
#: carry and contain one another ("the plate is on the fork", "a table on the chair").
SWAPPABLE = frozenset({"person", "animal", "vehicle", "clothing", "plant", "building"})
_CLASS_OF = {w.replace("_", " "): c for c, ws in OBJECT_CLASSES.items() for w in ws}


def object_class(obj: str) -> str | None:
    """The coarse class of an object name, by the whole name or its head; None: no class."""
    if obj in _CLASS_OF or obj in FIXED_EXPRESSIONS:  # "hot dog" is no dog
        return _CLASS_OF.get(obj)
    return _CLASS_OF.get(obj.split()[-1])
