"""FACTUAL's string form of a scene graph, to and from our :class:`SceneGraph`.

The form, as in the FACTUAL benchmark (``shared/data/factual_test.csv``) and as its T5 parsers
print it: tuples joined by ``" , "``, each tuple in parentheses with ``" , "`` between elements::

    ( girl , on , bed ) , ( girl , is , young ) , ( people , is , 2 ) , ( bridge )

- ``( s , p , o )`` a relation, predicate lemmatised ("sit on");
- ``( e , is , a )`` an attribute; a number as attribute (``( people , is , 2 )``) is a count;
- ``( e )`` an object with no other tuple.

Same-named entities: the plain form does not tell them apart, so ``( man , hit , man )`` means
two men; we read its object as a second ``man``. The "-id" FACTUAL checkpoints mark them
(``( monkey , v:sit next to , monkey:1 )``): ``name:N`` is the N-th other instance of ``name``, and
predicate markers ``v:``/``pv:``/``p:`` (verb, passive verb) are dropped. A relation between one
and the same instance (``( man:1 , p , man:1 )``) is a self-loop and is dropped.

Model output can be malformed; :func:`from_factual` never raises on it: unbalanced or missing
parentheses, empty elements, repeated tuples and stray text are tolerated, tuples with the wrong
number of elements keep what can be read, and relations naming unknown entities create them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from sgprep.lexicon import ordered, words
from sgprep.parse.families import families_on, format_hooks
from sgprep.schema import Entity, Relation, SceneGraph

ATTRIBUTE_PREDICATES = {"is", "has_attribute", "has attribute", "have attribute"}
NUMBER_WORDS = {**{w: n for n, w in enumerate(ordered("number_words"))}, "dozen": 12}
DETERMINERS = words("factual_determiners")  # fmt: skip
_PREDICATE_MARKER = re.compile(r"^(?:pv|v|p)\s*:\s*", re.IGNORECASE)
#: "man:1": the name and its instance. The name ends where no blank is before it: tried after
#: each character, a run of blanks (model output may hold any) was read again from each of its
#: blanks (quadratic); the first end that fits is never after a blank, so nothing else changes.
_INSTANCE_SUFFIX = re.compile(r"^(.*?)(?<!\s)\s*:\s*(\d+)$")


def parse_count(word: str) -> int | None:
    """``"2"`` or ``"two"`` -> 2; anything else -> None."""
    word = word.strip().lower()
    if word.isdigit():
        return int(word)
    return NUMBER_WORDS.get(word)


def _format_hooks():
    """The format's hooks (:data:`sgprep.parse.families.FORMAT_POINTS`) with the families
    this process's parser left on."""
    return format_hooks(families_on())


def _clean(text: str) -> str:
    return " ".join(text.split())


def entity_name(entity: Entity) -> str:
    """The object name FACTUAL would use (:func:`_entity_name`), in FACTUAL's spelling of a
    few compounds ("cell phone" -> "cellphone", "hotdog" -> "hot dog": its gold writes them
    so every time in the read part of the development set) and without "other" ("2 other
    people" -> "people"; ``spellings``)."""
    return _format_hooks().respell(_entity_name(entity))


def _entity_name(entity: Entity) -> str:
    """The object name FACTUAL would use: the entity's text without determiners, numbers and
    its attributes ("two tennis players" -> "tennis players", "woman in red" -> "woman"). A head
    written in another form than its lemma is named as written ("the men" with head "man" ->
    "men", "dry leaves" -> "leaves"), as FACTUAL's gold writes it (every time in the read part
    of the development set); the head itself when no word of the text can be it."""
    attribute_words = {w for a in entity.attributes for w in a.lower().split()}
    hooks = _format_hooks()
    tokens = entity.text.split()
    lower = [t.lower().strip(",;") for t in tokens]  # "black, brown and white goat"
    start = 0
    while start < len(tokens) - 1 and (
        lower[start] in DETERMINERS
        or lower[start] in attribute_words
        or lower[start] in {"and", ",", "&", ""}
        or hooks.listed_with_or(lower[start])  # "black or brown"
        or parse_count(lower[start]) is not None
    ):
        start += 1
    tokens, lower = tokens[start:], lower[start:]
    head_last = entity.head.split()[-1].lower()
    for i, word in enumerate(lower):
        if word.startswith(head_last) and not (word != head_last and word.endswith("ed")):
            return " ".join(tokens[: i + 1])  # not "haired" for "hair": the head is named
    written = _written_head(lower, head_last)
    if written is not None and hooks.as_written():
        return " ".join(tokens[: written + 1])  # "men" as written, FACTUAL's gold form
    return entity.head


def _written_head(lower: list[str], head: str) -> int | None:
    """Where the name's head is written when it is not its lemma ("men", "leaves", "feet" for
    "man", "leaf", "foot"): the word before any "in" ("men in red") that shares the longest
    start with the lemma (at least its first letter; the later word on a tie: "tree leaves")."""
    best, best_len = None, 0
    for i, word in enumerate(lower):
        if word == "in" and i:
            break
        if word.endswith("ed") and not head.endswith("ed"):
            continue  # "grey haired": the part, not its adjective
        common = 0
        while common < min(len(word), len(head)) and word[common] == head[common]:
            common += 1
        if common and common >= best_len:
            best, best_len = i, common
    return best


def split_tuples(text: str) -> list[list[str]]:
    """The tuples of a FACTUAL string as lists of cleaned elements, tolerating bad brackets.

    A candidate tuple is text with an opening bracket before it or a closing one after it (so a
    missing bracket on one side is forgiven); text between a closing and an opening bracket, or
    around the whole, is a separator or stray words and is skipped. Without any bracket the
    whole text is one candidate. Empty candidates are skipped.
    """
    parts = re.split(r"([()\[\]])", text or "")
    if len(parts) == 1:
        parts = ["", "(", parts[0], ")", ""]
    tuples = []
    for i in range(0, len(parts), 2):
        opened = i > 0 and parts[i - 1] in ("(", "[")
        closed = i + 1 < len(parts) and parts[i + 1] in (")", "]")
        if not (opened or closed):
            continue
        chunk = parts[i].strip()
        if chunk:
            tuples.append([_clean(e) for e in chunk.split(",")])
    return tuples


class _GraphBuilder:
    """Collects entities by (lowercased name, instance) and de-duplicates tuples."""

    def __init__(self, caption: str):
        self.caption = caption
        self.keys: dict[tuple[str, int], int] = {}
        self.names: list[str] = []
        self.attributes: list[list[str]] = []
        self.counts: list[int | None] = []
        self.relations: list[tuple[int, str, int]] = []

    def entity(self, raw: str, default_instance: int = 0) -> int | None:
        name, instance = raw, default_instance
        match = _INSTANCE_SUFFIX.match(raw)
        if match:
            name, instance = match.group(1), int(match.group(2))
        name = _clean(name)
        if not name:
            return None
        key = (name.lower(), instance)
        if key not in self.keys:
            self.keys[key] = len(self.names)
            self.names.append(name)
            self.attributes.append([])
            self.counts.append(None)
        return self.keys[key]

    def add(self, elements: list[str]) -> None:
        if len(elements) == 1 or (len(elements) == 2 and not elements[1]):
            self.entity(elements[0])
            return
        if len(elements) == 2:  # a missing comma: "( man , on table )"; keep the named entity
            self.entity(elements[0])
            return
        subject_raw, predicate, object_raw = elements[:3]  # more than 3: the rest is noise
        predicate = _clean(_PREDICATE_MARKER.sub("", predicate))
        if predicate.lower() in ATTRIBUTE_PREDICATES:
            self._attribute(subject_raw, object_raw)
        else:
            self._relation(subject_raw, predicate, object_raw)

    def _attribute(self, subject_raw: str, value: str) -> None:
        index = self.entity(subject_raw)
        value = _clean(value)
        if index is None or not value:
            return
        count = parse_count(value)
        if count is not None and self.counts[index] in (None, count):
            self.counts[index] = count
        elif value.lower() not in (a.lower() for a in self.attributes[index]):
            self.attributes[index].append(value)

    def _relation(self, subject_raw: str, predicate: str, object_raw: str) -> None:
        subject = self.entity(subject_raw)
        # plain form: "( man , hit , man )" is two men, the object being the second instance
        same_plain = subject_raw.strip().lower() == object_raw.strip().lower() and not (
            _INSTANCE_SUFFIX.match(object_raw)
        )
        obj = self.entity(object_raw, default_instance=1 if same_plain else 0)
        if subject is None or obj is None or not predicate:
            return
        if subject == obj:
            return  # self-loop
        if (subject, predicate.lower(), obj) not in {
            (s, p.lower(), o) for s, p, o in self.relations
        }:
            self.relations.append((subject, predicate, obj))

    def build(self, parser_name: str) -> SceneGraph:
        spans = caption_spans(self.names, self.caption)
        entities = [
            Entity(
                text=name,
                head=name.split()[-1],
                attributes=attributes,
                count=count,
                span=span,
            )
            for name, attributes, count, span in zip(
                self.names, self.attributes, self.counts, spans, strict=True
            )
        ]
        relations = [Relation(subject=s, predicate=p, object=o) for s, p, o in self.relations]
        return SceneGraph(entities=entities, relations=relations, parser=parser_name)


def caption_spans(names: Iterable[str], caption: str) -> list[tuple[int, int] | None]:
    """Character span of each name in the caption, case-insensitive, on word boundaries, a
    plural "s"/"es" allowed; repeated names take successive occurrences; None when absent."""
    spans: list[tuple[int, int] | None] = []
    next_start: dict[str, int] = {}
    for name in names:
        key = name.lower()
        words = r"\s+".join(re.escape(w) for w in name.split())
        pattern = re.compile(rf"(?<!\w){words}(?:e?s)?(?!\w)", re.IGNORECASE)
        match = pattern.search(caption, next_start.get(key, 0))
        if match is None:
            spans.append(None)
            continue
        spans.append((match.start(), match.end()))
        next_start[key] = match.end()
    return spans


def from_factual(text: str, caption: str = "", parser_name: str = "factual") -> SceneGraph:
    """Read a FACTUAL string into a valid SceneGraph; never raises on malformed text."""
    builder = _GraphBuilder(caption)
    for elements in split_tuples(text):
        builder.add(elements)
    return builder.build(parser_name)


def factual_tuples(graph: SceneGraph, ids: bool = False) -> list[tuple[str, ...]]:
    """The graph's tuples in FACTUAL order: relations, attributes (counts as numbers), then
    objects that appear in no other tuple. With ``ids``, later same-named entities get ``:N``."""
    seen: dict[str, int] = {}
    names = []
    for entity in graph.entities:
        name = entity_name(entity)
        instance = seen.get(name.lower(), 0)
        seen[name.lower()] = instance + 1
        names.append(f"{name}:{instance}" if ids and instance else name)
    tuples: list[tuple[str, ...]] = []
    mentioned = set()
    predicate_of = _format_hooks().predicate
    for rel in graph.relations:
        predicate = predicate_of(rel.predicate)
        tuples.append((names[rel.subject], predicate, names[rel.object]))
        mentioned.update((rel.subject, rel.object))
    for i, entity in enumerate(graph.entities):
        if entity.count is not None and entity.count != 1:  # FACTUAL never writes "is 1"
            tuples.append((names[i], "is", str(entity.count)))
            mentioned.add(i)
        for attribute in entity.attributes:
            tuples.append((names[i], "is", attribute))
            mentioned.add(i)
    tuples += [(names[i],) for i in range(len(graph.entities)) if i not in mentioned]
    return tuples


def to_factual(graph: SceneGraph, ids: bool = False) -> str:
    """``( s , p , o ) , ( e , is , a ) , ( e )``; commas and brackets inside elements are
    replaced by spaces, since the form cannot escape them."""

    def element(value: str) -> str:
        return _clean(re.sub(r"[(),\[\]]", " ", value))

    return " , ".join(
        "( " + " , ".join(element(v) for v in t) + " )" for t in factual_tuples(graph, ids=ids)
    )
