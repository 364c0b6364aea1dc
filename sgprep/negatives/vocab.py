"""The vocabulary that replace and connect draw from: objects, typed attributes, typed relations.

A default vocabulary ships in ``data/default_vocab.json`` (common Visual Genome style words,
uniform counts). :func:`build_vocab` makes one from a parsed corpus with real counts
(``sgprep vocab``): it reads the ``sg`` column of sgprep index parquet files, or the ``sg``
field of JSONL records, so the words a replacement uses are words the corpus uses.

The same pass counts the co-occurrence statistics of :mod:`sgprep.negatives.cooc` (what
attribute goes with what object, who does what to what, what is seen together), saved in the
same JSON under ``"cooc"``; a vocabulary without them uses the bundled ones.

At corpus scale (:func:`count_inputs`): every input file is counted on its own, a parquet a
record batch at a time, in this process or in ``--workers`` processes or Ray tasks, and the
files' counts are merged in the order of the files, so the output is the same bytes whatever
the workers. Every table is bounded (``--max-entries`` keys); while none had to drop keys the
counts are exact and do not depend on how the corpus is split into files, else the output
says how many keys each table dropped (``"pruned"``).

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

import orjson

from sgprep.negatives.cooc_count import (
    BoundedCounter,
    CoocTables,
    PlainGraph,
    plain_from_json,
    plain_graph,
)

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
    #: keys each table dropped to stay within its bound (:meth:`VocabCounts.pruned`): the
    #: counts are approximate where any is; written only then
    pruned: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
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
            **({"pruned": dict(sorted(self.pruned.items()))} if self.pruned else {}),
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
            pruned={k: int(n) for k, n in data.get("pruned", {}).items()},
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


class VocabCounts:
    """What one pass counts: objects (heads), typed attributes, typed relations and the
    co-occurrence tables, every table a :class:`BoundedCounter` of at most ``max_entries``
    keys. The counts of one input file, or of several merged (:meth:`merge`, in the order of
    the files: see :func:`count_inputs`)."""

    def __init__(self, max_entries: int = 1_000_000):
        self.max_entries = max_entries
        self.objects = BoundedCounter(max_entries)
        self.attributes: dict[str, BoundedCounter] = {}  # type -> word -> n
        self.relations: dict[str, BoundedCounter] = {}  # type -> predicate -> n
        self.cooc = CoocTables(max_entries)
        self.graphs = 0

    def _table(self, tables: dict[str, BoundedCounter], type_: str) -> BoundedCounter:
        table = tables.get(type_)
        if table is None:
            table = tables[type_] = BoundedCounter(self.max_entries)
        return table

    def count(self, graph: SceneGraph) -> None:
        self.count_plain(*plain_graph(graph))

    def count_plain(
        self,
        entities: list[tuple[str, str, tuple[str, ...]]],
        relations: list[tuple[int, str, int]],
    ) -> None:
        """Count one graph; a table past its bound is pruned after the graph."""
        self.graphs += 1
        objects = self.objects
        for _, head, attributes in entities:
            h = head.lower()
            objects[h] = objects.get(h, 0) + 1
            for attribute in attributes:
                table = self._table(self.attributes, attribute_type(attribute))
                w = attribute.lower()
                table[w] = table.get(w, 0) + 1
        for _, predicate, _ in relations:
            pred = predicate.lower()
            table = self._table(self.relations, relation_type(pred))
            table[pred] = table.get(pred, 0) + 1
        for table in (objects, *self.attributes.values(), *self.relations.values()):
            if len(table) > table.max_entries:
                table.prune()
        self.cooc.count_plain(entities, relations)

    def merge(self, other: VocabCounts) -> None:
        self.graphs += other.graphs
        self.objects.merge(other.objects)
        for mine, theirs in (
            (self.attributes, other.attributes),
            (self.relations, other.relations),
        ):
            for type_ in sorted(theirs):
                self._table(mine, type_).merge(theirs[type_])
        self.cooc.merge(other.cooc)

    def pruned(self) -> dict[str, int]:
        """Keys each table dropped to stay in its bound (none: the counts are exact)."""
        tables = {
            "objects": self.objects,
            **{f"attributes/{t}": c for t, c in self.attributes.items()},
            **{f"relations/{t}": c for t, c in self.relations.items()},
            **{f"cooc/{t}": c for t, c in self.cooc.tables.items()},
        }
        return {name: c.pruned for name, c in sorted(tables.items()) if c.pruned}


def input_files(paths: Iterable[str | Path]) -> list[Path]:
    """The files of parsed outputs: ``*.parquet`` index files and ``*.jsonl`` records; a
    directory is searched for both (sorted)."""
    files: list[Path] = []
    for path in paths:
        path = Path(path)
        if path.is_dir():
            files += sorted(path.rglob("*.parquet")) + sorted(path.rglob("*.jsonl"))
        else:
            files.append(path)
    return files


#: Rows of an index parquet read at a time (its ``sg`` column only): memory stays bounded
#: however large the file.
BATCH_ROWS = 8192


def _sg_values(file: Path) -> Iterator[str | dict | None]:
    """The ``sg`` values of a file, a record batch or a line at a time."""
    if file.suffix == ".parquet":
        import pyarrow.parquet as pq

        with pq.ParquetFile(file) as parquet:
            for batch in parquet.iter_batches(batch_size=BATCH_ROWS, columns=["sg"]):
                yield from batch.column(0).to_pylist()
    else:
        with file.open(encoding="utf-8") as lines:
            for line in lines:
                if line.strip():
                    yield _loads(line).get("sg")


def _loads(text: str):
    """JSON read with orjson (faster than json), or json where orjson refuses what json
    reads (NaN)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def _plain_graphs(file: Path) -> Iterator[PlainGraph]:
    """The graphs of a file as counted: read with orjson and checked by hand
    (:func:`~sgprep.negatives.cooc_count.plain_from_json`): some 8-12 us a graph where
    ``SceneGraph.model_validate_json`` and reading the model took 11-19 (a shared 2-core
    machine). A graph that check cannot vouch for is validated by the model (which refuses an
    invalid one, as before)."""
    for value in _sg_values(file):
        if not value:
            continue
        try:
            data = orjson.loads(value) if isinstance(value, str) else value
        except orjson.JSONDecodeError:  # the model says what is wrong with it
            data = None
        plain = plain_from_json(data)
        if plain is None:
            graph = (
                SceneGraph.model_validate_json(value)
                if isinstance(value, str)
                else SceneGraph.model_validate(value)
            )
            plain = plain_graph(graph)
        yield plain


def iter_graphs(paths: Iterable[str | Path]) -> Iterator[SceneGraph]:
    """Scene graphs (validated) of sgprep outputs (:func:`input_files`)."""
    for file in input_files(paths):
        for value in _sg_values(file):
            if value:
                yield (
                    SceneGraph.model_validate_json(value)
                    if isinstance(value, str)
                    else SceneGraph.model_validate(value)
                )


def count_file(file: str | Path, max_entries: int = 1_000_000) -> VocabCounts:
    """The counts of one input file (a worker's task)."""
    counts = VocabCounts(max_entries)
    for entities, relations in _plain_graphs(Path(file)):
        counts.count_plain(entities, relations)
    return counts


EXECUTORS = ("local", "ray")


def count_inputs(
    paths: Iterable[str | Path],
    max_entries: int = 1_000_000,
    workers: int = 1,
    executor: str = "local",
    ray_address: str | None = None,
) -> VocabCounts:
    """Count every input file on its own (:func:`count_file`: in this process, in ``workers``
    processes, or as Ray tasks) and merge the files' counts in the order of the files. A
    file's counts do not depend on who counted it, and the merge order is fixed, so the result
    is the same bytes whatever ``workers`` and ``executor``. While no table passed its bound
    (:meth:`VocabCounts.pruned` is empty) the counts are exact, so they do not depend on how
    the corpus is split into files either.

    Memory: a worker holds one file's counts; this process the running total and at most
    ``2 x workers`` files' counts that finished before the file it waits for; each of them is
    at most ``max_entries`` keys a table (the total twice that while a file merges in)."""
    if executor not in EXECUTORS:
        raise ValueError(f"unknown executor {executor!r} (one of: {', '.join(EXECUTORS)})")
    files = [str(f) for f in input_files(paths)]
    total = VocabCounts(max_entries)
    if executor == "ray":
        parts = _ray_counts(files, max_entries, workers, ray_address)
    elif workers > 1 and len(files) > 1:
        parts = _pool_counts(files, max_entries, workers)
    else:
        parts = (count_file(f, max_entries) for f in files)
    for part in parts:
        total.merge(part)
    return total


def _pool_counts(files: list[str], max_entries: int, workers: int) -> Iterator[VocabCounts]:
    """The files' counts, in file order, from ``workers`` processes (forked where this
    process runs no other thread, else spawned); at most ``2 x workers`` files in flight."""
    import multiprocessing
    import threading
    from concurrent.futures import ProcessPoolExecutor

    fork = "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1
    context = multiprocessing.get_context("fork" if fork else "spawn")
    with ProcessPoolExecutor(min(workers, len(files)), mp_context=context) as pool:
        for future in _in_order(files, lambda f: pool.submit(count_file, f, max_entries), workers):
            yield future.result()


def _ray_counts(
    files: list[str], max_entries: int, workers: int, address: str | None
) -> Iterator[VocabCounts]:
    """The files' counts, in file order, from Ray tasks (a local Ray instance of ``workers``
    CPUs, or the cluster at ``address``); at most ``2 x workers`` files in flight."""
    import ray

    own = not ray.is_initialized()
    if own:
        ray.init(
            address=address,
            include_dashboard=False,
            log_to_driver=False,
            **({} if address else {"num_cpus": max(1, workers)}),
        )
    try:
        task = ray.remote(num_cpus=1)(count_file)
        for ref in _in_order(files, lambda f: task.remote(f, max_entries), max(1, workers)):
            yield ray.get(ref)
    finally:
        if own:
            ray.shutdown()


def _in_order(files: list[str], submit, workers: int) -> Iterator:
    """Submit the files' tasks with at most ``2 x workers`` in flight; yield their handles
    in the order of the files (each is waited for then)."""
    from collections import deque

    flying: deque = deque()
    pending = iter(files)
    for file in pending:
        flying.append(submit(file))
        if len(flying) >= 2 * workers:
            break
    while flying:
        yield flying.popleft()
        for file in pending:
            flying.append(submit(file))
            break


def build_vocab(
    paths: Iterable[str | Path],
    min_count: int = 1,
    max_entries: int = 1_000_000,
    workers: int = 1,
    executor: str = "local",
    ray_address: str | None = None,
    with_default: bool = False,
) -> Vocabulary:
    """Count objects, typed attributes and typed relations over parsed outputs, and their
    co-occurrence statistics, in one pass (:func:`count_inputs`: each table bounded by
    ``max_entries``; the same bytes whatever the workers); words seen fewer than
    ``min_count`` times are left out. Categories come from the default vocabulary where it
    knows the object. ``with_default``: the bundled co-occurrence counts are added to the
    corpus's (a small corpus keeps the bundled knowledge and adds its own words)."""
    from sgprep.negatives.cooc import Cooc, load_default, load_related

    counts = count_inputs(paths, max_entries, workers, executor, ray_address)
    if with_default:
        counts.cooc.merge(load_default())
    cooc = Cooc.from_json(counts.cooc.to_json(min_count), load_related())
    default = load_vocab()
    keep = {o: n for o, n in counts.objects.items() if n >= min_count}
    return Vocabulary(
        objects=keep,
        categories={o: default.categories[o] for o in keep if o in default.categories},
        attributes={
            t: {w: n for w, n in c.items() if n >= min_count} for t, c in counts.attributes.items()
        },
        relations={
            t: {r: n for r, n in c.items() if n >= min_count} for t, c in counts.relations.items()
        },
        cooc=cooc,
        pruned=counts.pruned(),
    )


def write_vocab(
    inputs: Iterable[str | Path],
    output: str | Path,
    min_count: int = 1,
    max_entries: int = 1_000_000,
    workers: int = 1,
    executor: str = "local",
    ray_address: str | None = None,
    with_default: bool = False,
) -> dict[str, int]:
    """``sgprep vocab``: build a vocabulary from parsed outputs and write it as JSON (for
    ``--vocab``). Returns how many words of each kind it kept (and, where a table passed its
    bound, how many keys were pruned: the counts are then approximate)."""
    vocab = build_vocab(
        inputs,
        min_count=min_count,
        max_entries=max_entries,
        workers=workers,
        executor=executor,
        ray_address=ray_address,
        with_default=with_default,
    )
    vocab.save(output)
    pruned = sum(vocab.pruned.values())
    return {
        "objects": len(vocab.objects),
        "attributes": sum(len(w) for w in vocab.attributes.values()),
        "relations": sum(len(r) for r in vocab.relations.values()),
        "co-occurrences": sum(len(t) for t in vocab.cooc.tables.values()),
        **({"pruned keys": pruned} if pruned else {}),
    }
