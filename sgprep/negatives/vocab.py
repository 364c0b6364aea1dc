"""The vocabulary that replace and connect draw from: objects, typed attributes, typed relations.

A default vocabulary ships in ``data/default_vocab.json`` (common Visual Genome style words,
uniform counts). :func:`build_vocab` makes one from a parsed corpus with real counts
(``sgprep vocab``): it reads the ``sg`` column of sgprep index parquet files, or the ``sg``
field of JSONL records, so the words a replacement uses are words the corpus uses.

The same pass counts the co-occurrence statistics of :mod:`sgprep.negatives.cooc` (what
attribute goes with what object, who does what to what, what is seen together), saved in the
same JSON under ``"cooc"``; a vocabulary without them uses the bundled ones.

Attribute types decide what may replace what (colour for colour, material for material, size
for size); relation types separate spatial relations (which have opposites) from actions.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

# the word types live in words.py (cooc.py needs them and vocab.py needs cooc.py); re-exported
from sgprep.negatives.words import (  # noqa: F401
    ATTRIBUTE_TYPES,
    SIZES,
    SPATIAL_WORDS,
    attribute_type,
    relation_type,
)
from sgprep.schema import SceneGraph

DEFAULT_VOCAB = Path(__file__).resolve().parent / "data" / "default_vocab.json"


@dataclass
class Vocabulary:
    objects: dict[str, int] = field(default_factory=dict)
    categories: dict[str, str] = field(default_factory=dict)  # object -> category (optional)
    attributes: dict[str, dict[str, int]] = field(default_factory=dict)  # type -> word -> n
    relations: dict[str, dict[str, int]] = field(default_factory=dict)  # type -> pred -> n
    #: co-occurrence statistics (:class:`sgprep.negatives.cooc.Cooc`); None: the bundled ones
    cooc: object | None = field(default=None, compare=False, repr=False)
    _pools: dict = field(default_factory=dict, compare=False, repr=False)

    def to_json(self) -> dict:
        return {
            "version": 1,
            "objects": {
                o: {
                    "count": n,
                    **({"category": self.categories[o]} if o in self.categories else {}),
                }
                for o, n in sorted(self.objects.items())
            },
            "attributes": {
                t: dict(sorted(ws.items())) for t, ws in sorted(self.attributes.items())
            },
            "relations": {t: dict(sorted(rs.items())) for t, rs in sorted(self.relations.items())},
            **({"cooc": self.cooc.to_json()} if self.cooc is not None else {}),
        }

    @classmethod
    def from_json(cls, data: dict) -> Vocabulary:
        """Words are lower-cased (counts of spellings that differ only in case add up): the
        graphs are compared, and replacements excluded, in lower case."""
        objects: Counter = Counter()
        categories: dict[str, str] = {}
        for o, v in data.get("objects", {}).items():
            objects[o.lower()] += int(v["count"]) if isinstance(v, dict) else int(v)
            if isinstance(v, dict) and "category" in v:
                categories.setdefault(o.lower(), v["category"])
        from sgprep.negatives.cooc import Cooc, load_default, load_related

        cooc = Cooc.from_json(data["cooc"], load_related()) if "cooc" in data else load_default()
        return cls(
            objects=dict(objects),
            categories=categories,
            attributes={t: _lower(ws) for t, ws in data.get("attributes", {}).items()},
            relations={t: _lower(rs) for t, rs in data.get("relations", {}).items()},
            cooc=cooc,
        )

    def save(self, path: str | Path) -> None:
        from sgprep.io.safefs import atomic_write  # never written through a link

        text = json.dumps(self.to_json(), indent=1, sort_keys=True) + "\n"
        atomic_write(Path(path), text.encode("utf-8"))

    def pool(self, kind: str, type_: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """Words of one kind ('attributes', 'relations') and type with their cumulative
        counts, sorted (a fixed order keeps draws deterministic); made once."""
        key = (kind, type_)
        if key not in self._pools:
            table = getattr(self, kind).get(type_, {})
            self._pools[key] = _cumulative(table, sorted(table))
        return self._pools[key]

    def verbs(self, rest: tuple[str, ...]) -> tuple[str, ...]:
        """The verbs of the action predicates that go on with ``rest`` ("hang" for ("on",)),
        sorted; indexed once."""
        if "verbs" not in self._pools:
            self._pools["verbs"] = _verbs_by_rest(self.relations.get("action", {}))
        return self._pools["verbs"].get(rest, ())

    def object_pool(self, category: str | None = None) -> tuple[tuple[str, ...], tuple[int, ...]]:
        key = ("objects", category)
        if key not in self._pools:
            words = sorted(
                o for o in self.objects if category is None or self.categories.get(o) == category
            )
            self._pools[key] = _cumulative(self.objects, words)
        return self._pools[key]


def _verbs_by_rest(relations: dict[str, int]) -> dict[tuple[str, ...], tuple[str, ...]]:
    index: dict[tuple[str, ...], set[str]] = {}
    for predicate in relations:
        verb, *rest = predicate.split()
        index.setdefault(tuple(rest), set()).add(verb)
    return {rest: tuple(sorted(verbs)) for rest, verbs in index.items()}


def _lower(table: dict[str, int]) -> dict[str, int]:
    out: Counter = Counter()
    for word, n in table.items():
        out[" ".join(word.lower().split())] += int(n)
    return dict(out)


def _cumulative(table: dict[str, int], words: list[str]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    total, cum = 0, []
    for w in words:
        total += max(int(table[w]), 0)
        cum.append(total)
    return tuple(words), tuple(cum)


def load_vocab(path: str | Path | None = None) -> Vocabulary:
    return _load(str(path) if path is not None else str(DEFAULT_VOCAB))


@lru_cache(maxsize=8)
def _load(path: str) -> Vocabulary:
    return Vocabulary.from_json(json.loads(Path(path).read_text()))


def count_graph(
    graph: SceneGraph,
    objects: Counter,
    attributes: dict[str, Counter],
    relations: dict[str, Counter],
) -> None:
    for entity in graph.entities:
        objects[entity.head.lower()] += 1
        for attribute in entity.attributes:
            attributes.setdefault(attribute_type(attribute), Counter())[attribute.lower()] += 1
    for relation in graph.relations:
        pred = relation.predicate.lower()
        relations.setdefault(relation_type(pred), Counter())[pred] += 1


def iter_graphs(paths: Iterable[str | Path]) -> Iterator[SceneGraph]:
    """Scene graphs from sgprep outputs: ``*.parquet`` index files (their ``sg`` column) or
    ``*.jsonl`` records (their ``sg`` field); a directory is searched for both."""
    for path in paths:
        path = Path(path)
        files = (
            sorted(path.rglob("*.parquet")) + sorted(path.rglob("*.jsonl"))
            if path.is_dir()
            else [path]
        )
        for file in files:
            for text in _sg_texts(file):
                if text:
                    yield (
                        SceneGraph.model_validate_json(text)
                        if isinstance(text, str)
                        else SceneGraph.model_validate(text)
                    )


def _sg_texts(file: Path) -> Iterator[str | dict | None]:
    if file.suffix == ".parquet":
        import pyarrow.parquet as pq

        table = pq.read_table(file, columns=["sg"])
        yield from table.column("sg").to_pylist()
    else:
        with file.open(encoding="utf-8") as lines:
            for line in lines:
                if line.strip():
                    yield json.loads(line).get("sg")


def build_vocab(
    paths: Iterable[str | Path], min_count: int = 1, max_entries: int = 1_000_000
) -> Vocabulary:
    """Count objects, typed attributes and typed relations over parsed outputs, and their
    co-occurrence statistics (in the same pass, each table bounded by ``max_entries``); words
    seen fewer than ``min_count`` times are left out. Categories come from the default
    vocabulary where it knows the object."""
    from sgprep.negatives.cooc import Cooc, load_related

    objects: Counter = Counter()
    attributes: dict[str, Counter] = {}
    relations: dict[str, Counter] = {}
    cooc = Cooc(max_entries)
    for graph in iter_graphs(paths):
        count_graph(graph, objects, attributes, relations)
        cooc.count(graph)
    cooc = Cooc.from_json(cooc.to_json(min_count), load_related())
    default = load_vocab()
    keep = {o: n for o, n in objects.items() if n >= min_count}
    return Vocabulary(
        objects=keep,
        categories={o: default.categories[o] for o in keep if o in default.categories},
        attributes={
            t: {w: n for w, n in c.items() if n >= min_count} for t, c in attributes.items()
        },
        relations={t: {r: n for r, n in c.items() if n >= min_count} for t, c in relations.items()},
        cooc=cooc,
    )


def write_vocab(
    inputs: Iterable[str | Path],
    output: str | Path,
    min_count: int = 1,
    max_entries: int = 1_000_000,
) -> dict[str, int]:
    """``sgprep vocab``: build a vocabulary from parsed outputs and write it as JSON (for
    ``--vocab``). Returns how many words of each kind it kept."""
    vocab = build_vocab(inputs, min_count=min_count, max_entries=max_entries)
    vocab.save(output)
    return {
        "objects": len(vocab.objects),
        "attributes": sum(len(w) for w in vocab.attributes.values()),
        "relations": sum(len(r) for r in vocab.relations.values()),
        "co-occurrences": sum(len(t) for t in vocab.cooc.tables.values()),
    }
