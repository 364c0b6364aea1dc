"""Co-occurrence counting: how a scene graph's words become the keys of the tables, and the
bounded tables that count them (:class:`CoocTables`; :class:`sgprep.negatives.cooc.Cooc` judges
by them).

Counted per graph (``sgprep vocab`` counts them next to the vocabulary, in one pass):
- ``obj``: object names ("hot dog", "man": a compound noun stays whole, the head singular);
- ``attr``: attribute with object ("white plate");
- ``sp`` / ``po`` / ``spo``: subject with predicate, predicate with object, and the triple
  ("man | ride", "ride | horse", "man | ride | horse"); a predicate is its verb lemma plus its
  prepositions ("sit on"), or a spatial phrase ("on top of");
- ``agent``: subject with the verb of an action predicate ("man | ride");
- ``scene``: two objects named in one graph.

Memory is bounded: each table keeps at most ``max_entries`` keys; when it grows past that, the
rarest keys are dropped until at most half of them are left, and the table's ``floor`` rises
(lossy counting: a key kept undercounts by at most its floor); ``pruned`` counts the keys
dropped (a table is pruned after the graph that took it past its bound, and after a merge
that did). Two tables (of two shards) merge by adding counts, then pruning if past the bound.
While nothing is pruned the counts are exact, so they do not depend on how the input was split
or in what order partial counts merged; once something is, they are approximate (and the
output says so: ``to_json``'s ``"pruned"``).

A graph is counted from its plain parts (:data:`PlainGraph`: the entities' text, head and
attributes, the relations' ends and predicate), which a pydantic :class:`SceneGraph` gives
(:func:`plain_graph`) or the JSON of one, read without pydantic (:func:`plain_from_json`,
cheaper; a graph it cannot vouch for is validated by the model instead).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from sgprep.lexicon import words
from sgprep.negatives import grammar
from sgprep.negatives.words import relation_type
from sgprep.schema import Entity, Relation, SceneGraph

DEFAULT_RELATED = Path(__file__).resolve().parent / "data" / "related.json"
TABLES = ("obj", "attr", "sp", "po", "spo", "agent", "scene")
SEP = "|"
#: Words before a head that are not part of its name (numbers, determiners, quantities).
_NOT_NAME = words("determiners") | {"another", "one"} | words("name_quantity_words")
#: A scene with more objects than this adds no object pairs (bounded work per graph).
MAX_SCENE_OBJECTS = 12
#: Words before a head that are no noun modifiers ("laced up boots").
_PARTICLES = words("head_particles")
_COPULA = words("copula_forms")
#: Nouns that are plural in form and meaning ("scissors", "jeans"): kept as they are.
PLURALIA = words("plural_only_nouns") | words("plural_only_gear") | {"tights", "leggings", "skis"}
#: Fixed expressions a parser may split into an attribute and a head ("hot" + "dog"): the
#: attribute is part of the object's name, never changed or moved on its own.
FIXED_EXPRESSIONS = words("fixed_expressions")
#: Words a relation may end on that name no object ("on the left"): never connected.
NOT_OBJECTS = words("not_object_words")


class BoundedCounter(dict):
    """A counter with at most ``max_entries`` keys (lossy counting: see the module doc)."""

    def __init__(self, max_entries: int = 1_000_000, floor: int = 0):
        super().__init__()
        self.max_entries, self.floor = max_entries, floor
        self.pruned = 0  # keys dropped by prune(), here and in the counters merged in

    def add(self, key: str, n: int = 1) -> None:
        self[key] = self.get(key, 0) + n
        if len(self) > self.max_entries:
            self.prune()

    def prune(self) -> None:
        """Drop the rarest keys until at most half the cap is left: the floor rises by one at
        least, and on to the count that leaves no more than half the cap above it (what
        raising it one at a time until then would reach, in one sort)."""
        keep = self.max_entries // 2
        if len(self) <= keep:
            return
        counts = sorted(self.values(), reverse=True)
        self.floor = max(self.floor + 1, counts[keep])
        drop = [k for k, n in self.items() if n <= self.floor]
        for k in drop:
            del self[k]
        self.pruned += len(drop)

    def merge(self, other: BoundedCounter) -> None:
        self.floor = max(self.floor, other.floor)
        self.pruned += other.pruned
        for key, n in other.items():
            self[key] = self.get(key, 0) + n
        if len(self) > self.max_entries:
            self.prune()


def plural_form(surface: str, head: str) -> bool:
    """``surface`` is a plural of ``head`` (:func:`grammar.is_plural_form`), where the parse
    left a word it did not lemmatise as its head ("Bananas, apples, and oranges fill a
    basket": "Bananas" -> "Peach", blind review round 39) judged by its singular."""
    return grammar.is_plural_form(
        surface, singular(head) if surface.lower() == head.lower() else head
    )


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
#: The irregular third persons ("has" -> "have", "is" -> "be"): no rule guesses them back.
_THIRD_BASES = {third: base for base, third in grammar._THIRD_PERSON.items()}


@lru_cache(maxsize=65536)
def lemma(verb: str) -> str:
    """The lemma of a verb in any form ("riding" -> "ride", "sits" -> "sit", "held" -> "hold"):
    parsers may keep the surface form of a predicate."""
    v = verb.lower()
    if v in _PARTICIPLE_BASES:
        return _PARTICIPLE_BASES[v]
    if v in _THIRD_BASES:
        return _THIRD_BASES[v]
    if v in known_verbs():
        return v  # "feed", "bring": no "fee" + "-d", no "br" + "-ing"
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


#: A graph as counted: entities (text and head stripped, attributes), relations (subject,
#: predicate with its spaces collapsed, object), as a valid :class:`SceneGraph` has them.
PlainGraph = tuple[list[tuple[str, str, tuple[str, ...]]], list[tuple[int, str, int]]]


def plain_graph(graph: SceneGraph) -> PlainGraph:
    return (
        [(e.text, e.head, tuple(e.attributes)) for e in graph.entities],
        [(r.subject, r.predicate, r.object) for r in graph.relations],
    )


_GRAPH_KEYS = frozenset(SceneGraph.model_fields)
_ENTITY_KEYS = frozenset(Entity.model_fields)
_RELATION_KEYS = frozenset(Relation.model_fields)


def plain_from_json(data: object) -> PlainGraph | None:
    """The plain parts of a scene graph's JSON (parsed), read without pydantic, as
    :class:`SceneGraph` would validate them; None where the graph holds anything the model
    might refuse or read otherwise (a missing or unknown field, a wrong type, a blank text, a
    relation out of range): the caller then validates it with the model. The fields counting
    does not read (counts, spans, the parser's name) are not checked."""
    if type(data) is not dict or not data.keys() <= _GRAPH_KEYS or "parser" not in data:
        return None
    raw_entities, raw_relations = data.get("entities", []), data.get("relations", [])
    if type(raw_entities) is not list or type(raw_relations) is not list:
        return None
    entities = []
    for e in raw_entities:
        if type(e) is not dict or not e.keys() <= _ENTITY_KEYS:
            return None
        text, head, attributes = e.get("text"), e.get("head"), e.get("attributes", [])
        if type(text) is not str or type(head) is not str or type(attributes) is not list:
            return None
        text, head = text.strip(), head.strip()
        if not text or not head or not all(type(a) is str for a in attributes):
            return None
        entities.append((text, head, tuple(attributes)))
    relations = []
    n = len(entities)
    for r in raw_relations:
        if type(r) is not dict or not r.keys() <= _RELATION_KEYS:
            return None
        s, p, o = r.get("subject"), r.get("predicate"), r.get("object")
        if type(s) is not int or type(o) is not int or type(p) is not str:
            return None
        p = " ".join(p.split())
        if not (0 <= s < n and 0 <= o < n) or s == o or not p:
            return None
        relations.append((s, p, o))
    return entities, relations


class CoocTables:
    """The counted tables (:data:`TABLES`), each a :class:`BoundedCounter`."""

    def __init__(self, max_entries: int = 1_000_000):
        self.tables = {t: BoundedCounter(max_entries) for t in TABLES}

    def count(self, graph: SceneGraph) -> None:
        self.count_plain(*plain_graph(graph))

    def count_plain(
        self,
        entities: list[tuple[str, str, tuple[str, ...]]],
        relations: list[tuple[int, str, int]],
    ) -> None:
        """Count one graph (:data:`PlainGraph`); a table past its bound is pruned after
        the graph (each add as a plain dict's: the bound is checked once a graph)."""
        t = self.tables
        names = [_name(text, head, attributes) for text, head, attributes in entities]
        obj, attr, sp, po, spo, agent = t["obj"], t["attr"], t["sp"], t["po"], t["spo"], t["agent"]
        for (_, _, attributes), n in zip(entities, names):
            obj[n] = obj.get(n, 0) + 1
            for a in attributes:
                k = f"{a.lower()}{SEP}{n}"
                attr[k] = attr.get(k, 0) + 1
        for subject, predicate, object_ in relations:
            if not (0 <= subject < len(names) and 0 <= object_ < len(names)):
                continue
            s, o, p = names[subject], names[object_], predicate_key(predicate)
            k = f"{s}{SEP}{p}"
            sp[k] = sp.get(k, 0) + 1
            k = f"{p}{SEP}{o}"
            po[k] = po.get(k, 0) + 1
            k = f"{s}{SEP}{p}{SEP}{o}"
            spo[k] = spo.get(k, 0) + 1
            if relation_type(p) == "action":
                k = f"{s}{SEP}{p.split()[0]}"
                agent[k] = agent.get(k, 0) + 1
        distinct = sorted(set(names))
        if len(distinct) <= MAX_SCENE_OBJECTS:
            scene = t["scene"]
            for i, a in enumerate(distinct):
                for b in distinct[i + 1 :]:
                    k = f"{a}{SEP}{b}"
                    scene[k] = scene.get(k, 0) + 1
        for c in t.values():
            if len(c) > c.max_entries:
                c.prune()

    def merge(self, other: CoocTables) -> None:
        for t in TABLES:
            self.tables[t].merge(other.tables[t])

    def to_json(self, min_count: int = 1) -> dict:
        """The tables (keys seen ``min_count`` times or more), their floors, and, where a
        table was pruned, how many keys it dropped (``"pruned"``: the counts are then
        approximate)."""
        pruned = {t: c.pruned for t, c in self.tables.items() if c.pruned}
        return {
            "version": 1,
            "floors": {t: c.floor for t, c in self.tables.items()},
            **({"pruned": pruned} if pruned else {}),
            "tables": {
                t: {k: n for k, n in sorted(c.items()) if n >= min_count}
                for t, c in self.tables.items()
            },
        }
