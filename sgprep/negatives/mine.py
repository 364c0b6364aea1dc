"""Mined image negatives (``--strategy mine-images``): over a whole parsed corpus, for each
image whose captions hold two attributed objects ``a1 o1 + a2 o2`` (o1 != o2, a1 != a2), the
images whose captions hold the other binding ``a2 o1 + a1 o2`` (Cola-style distractor images).

The unit is the image, not the caption: the samples of an sgprep output that hold the same
image bytes (COCO's five captions, an index ``members`` checksum) or point at it
(``--shared-images``: ``image_key``) are one image, whose bindings are those of all its
captions. Each image is named by the key of its first sample that holds the image member, so
every distractor of a query is a different image, with a key a trainer can read it from.
Samples with no image record (JSONL, hand-made indexes) are each an image of their own.

It scales by joining, never by comparing pairs of images: each image gives its binding-pair
signatures ``(o1, a1, o2, a2)`` with ``o1 < o2``; a hash join of that table with itself on
``(o1, a2, o2, a1)`` finds every match at once (pyarrow's join, linear in the rows plus the
matches). An image that holds both bindings is neither a query nor a distractor for that
pair (an anti-join leaves it out). Each query keeps at most ``max_per_query`` matches,
chosen by a hash of the two keys, so the choice is fixed and not biased to the first keys.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import BinaryIO, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from sgprep.io.safefs import commit, exclusive_temp
from sgprep.negatives.grammar import indefinite_article
from sgprep.schema import Negative, OutputDir

log = logging.getLogger(__name__)
MAX_BINDINGS = 16  # per sample: bounds the pairs one odd graph can add (16 -> 120 pairs)
COLUMNS = ["key", "image_key", "text", "positive", "o1", "a1", "o2", "a2"]


class Sample(NamedTuple):
    """An ok sample as mining reads it: its scene graph (None: no graph), its image's
    identity (None: not recorded) and whether it holds the image member itself."""

    key: str
    graph: dict | None
    image: str | None = None
    holds_image: bool = False


def iter_samples(paths: Iterable[str | Path], graphs: bool = True) -> Iterator[Sample]:
    """Every ok sample of index parquet files or JSONL records; a directory is searched for
    both. ``graphs=False``: the same samples without their graphs (None), which an index
    then does not read."""
    for path in paths:
        path = Path(path)
        files = (
            sorted(path.rglob("*.parquet")) + sorted(path.rglob("*.jsonl"))
            if path.is_dir()
            else [path]
        )
        for file in files:
            if file.suffix == ".parquet":
                yield from _index_samples(file, graphs)
            else:
                with file.open(encoding="utf-8") as lines:
                    for line in lines:
                        if line.strip():
                            rec = json.loads(line)
                            if rec.get("status", "ok") == "ok":
                                graph = rec.get("sg") or None if graphs else None
                                yield Sample(rec["key"], graph)


def _index_samples(file: Path, graphs: bool = True) -> Iterator[Sample]:
    """An index's ok samples, each with its image: the checksum of its image member, or, with
    ``--shared-images``, the image of the sample its ``image_key`` names (written just before
    it, in the same shard)."""
    import pyarrow.parquet as pq

    names = pq.read_schema(file).names
    if "sg" not in names:
        return
    wanted = (
        ("key", "sg", "status", "members", "image_key")
        if graphs
        else ("key", "status", "members", "image_key")
    )
    cols = [c for c in wanted if c in names]
    image_of: dict[str, str] = {}  # this shard's samples that hold their image
    for row in pq.read_table(file, columns=cols).to_pylist():
        if row.get("status", "ok") != "ok":
            continue
        graph = json.loads(row["sg"]) if row.get("sg") else None
        image = _image_member(row.get("members"))
        if image is not None:
            image_of[row["key"]] = image
            yield Sample(row["key"], graph, image, True)
        elif row.get("image_key"):
            yield Sample(row["key"], graph, image_of.get(row["image_key"], row["image_key"]))
        else:
            yield Sample(row["key"], graph)


def _image_member(members: str | None) -> str | None:
    """The identity of the image member in an index's ``members`` checksums, else None."""
    if not members:
        return None
    from sgprep.io.images import IMAGE_EXTENSIONS

    for ext, check in sorted(json.loads(members).items()):
        if ext in IMAGE_EXTENSIONS:
            return json.dumps(check, sort_keys=True)
    return None


def bindings(graph: dict) -> list[tuple[str, str]]:
    out = sorted(
        {
            (e["head"].lower(), a.lower())
            for e in graph.get("entities", [])
            for a in e.get("attributes", [])
        }
    )
    return out[:MAX_BINDINGS]


def _hash64(key: str) -> int:
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big") >> 1


class Images:
    """The corpus's images in the order first seen: each one's key (its first sample that
    holds the image; else its first sample) and the bindings of all its captions. ``track``:
    also keep ``image_of``, each sample key's image (its index in ``keys``), which a trainer
    needs to find a caption's mined distractors (:mod:`sgprep.data_mined`)."""

    def __init__(self, samples: Iterable[Sample], track: bool = False):
        self.keys: list[str] = []
        self.image_of: dict[str, int] = {}
        self.bindings: list[set[tuple[str, str]]] = []
        self.samples = 0  # samples with a scene graph
        index: dict[str, int] = {}
        holds: list[bool] = []
        described: set[int] = set()
        for sample in samples:
            name = sample.image if sample.image is not None else f"key\x1f{sample.key}"
            k = index.get(name)
            if k is None:
                k = index[name] = len(self.keys)
                self.keys.append(sample.key)
                self.bindings.append(set())
                holds.append(sample.holds_image)
            elif sample.holds_image and not holds[k]:
                self.keys[k], holds[k] = sample.key, True
            if track:
                self.image_of[sample.key] = k
            if sample.graph is not None:
                self.samples += 1
                described.add(k)
                self.bindings[k].update(bindings(sample.graph))
        self.described = len(described)  # images with a scene graph


def signature_table(samples: Iterable[Sample]):
    """One row per (image, binding pair): qid, o1, a1, o2, a2 (o1 < o2, a1 != a2); and the
    :class:`Images` (their keys by qid)."""
    import pyarrow as pa

    images = Images(samples)
    cols: dict[str, list] = {c: [] for c in ("qid", "o1", "a1", "o2", "a2")}
    for qid, found in enumerate(images.bindings):
        b = sorted(found)[:MAX_BINDINGS]
        for x in range(len(b)):
            for y in range(x + 1, len(b)):
                (o1, a1), (o2, a2) = b[x], b[y]
                if o1 != o2 and a1 != a2:
                    for c, v in zip(("qid", "o1", "a1", "o2", "a2"), (qid, o1, a1, o2, a2)):
                        cols[c].append(v)
    table = pa.table(
        {
            "qid": pa.array(cols["qid"], pa.int64()),
            **{c: pa.array(cols[c], pa.string()) for c in ("o1", "a1", "o2", "a2")},
        }
    )
    return table, images


def _rank_within(groups, order):
    """Each row's rank (0 = first) within its group, by ``order``."""
    import numpy as np

    rows = np.lexsort((order, groups))
    g = groups[rows]
    starts = np.r_[0, np.flatnonzero(g[1:] != g[:-1]) + 1]
    ranked = np.arange(len(rows)) - np.repeat(starts, np.diff(np.r_[starts, len(rows)]))
    rank = np.empty(len(rows), dtype=np.int64)
    rank[rows] = ranked
    return rank


def match(table, keys: list[str], max_per_query: int = 5):
    """Rows (qid, iid, o1, a1, o2, a2): image iid holds a2 o1 + a1 o2 and not a1 o1 + a2 o2;
    each (query, image) once.

    Linear in the signatures: each swapped signature keeps at most ``4 * max_per_query``
    candidate images (by key hash) before the join, so a popular pair ("white plate, black
    table") cannot make the join quadratic."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    sig = ["o1", "a1", "o2", "a2"]
    table = table.append_column("sid", pa.array(np.arange(table.num_rows), pa.int64()))
    # an image that holds both bindings is neither a query nor a distractor for that pair
    swapped = table.select(["qid", "o1", "a1", "o2", "a2"]).rename_columns(
        ["qid", "o1", "a2", "o2", "a1"]
    )
    queries = table.join(swapped, keys=["qid", *sig], join_type="left anti", use_threads=False)
    hashes = np.array([_hash64(k) for k in keys], dtype=np.int64)
    other = queries.select(["qid", "o1", "a1", "o2", "a2"]).rename_columns(
        ["iid", "o1", "a2", "o2", "a1"]
    )  # an image, indexed by the binding it would swap
    if other.num_rows:
        group = (
            pc.dictionary_encode(pc.binary_join_element_wise(*[other[c] for c in sig], "\x1f"))
            .combine_chunks()
            .indices.to_numpy()
        )
        rank = _rank_within(group, hashes[other["iid"].to_numpy()])
        other = other.filter(pa.array(rank < max(4 * max_per_query, 16)))
    found = queries.join(other, keys=sig, join_type="inner", use_threads=False)
    found = found.filter(pc.not_equal(found["qid"], found["iid"]))
    if found.num_rows == 0:
        return found.select(["qid", "iid", *sig])
    qid, iid = found["qid"].to_numpy(), found["iid"].to_numpy()
    order = np.bitwise_xor(hashes[qid], hashes[iid])
    rows = np.lexsort((found["sid"].to_numpy(), iid, order, qid))
    qs, is_ = qid[rows], iid[rows]
    first_pair = np.ones(len(rows), dtype=bool)  # one signature per (query, image)
    first_pair[1:] = (qs[1:] != qs[:-1]) | (is_[1:] != is_[:-1])
    rows = rows[first_pair]
    keep = rows[_rank_within(qid[rows], np.arange(len(rows))) < max_per_query]
    return found.take(pa.array(keep)).select(["qid", "iid", *sig])  # by query, then hash


@lru_cache(maxsize=65536)
def _phrase(attribute: str, obj: str) -> str:
    return f"{indefinite_article(attribute)} {attribute} {obj}"


def mine_images(
    inputs: Iterable[str | Path], output: str | Path, max_per_query: int = 5
) -> dict[str, int]:
    """Mine image negatives over parsed outputs and write them to ``output``: a parquet table
    (``COLUMNS``) or, for ``.jsonl``, one line per query key with its ``Negative`` list.
    Returns counters (samples, images, signatures, queries, matches)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    table, images = signature_table(iter_samples(inputs))
    found = match(table, images.keys, max_per_query)
    names = np.array(images.keys, dtype=object)
    o1, a1, o2, a2 = (found[c].to_pylist() for c in ("o1", "a1", "o2", "a2"))
    out = {
        "key": names[found["qid"].to_numpy()].tolist(),
        "image_key": names[found["iid"].to_numpy()].tolist(),
        "text": [f"{_phrase(y, w)} and {_phrase(x, z)}" for w, x, z, y in zip(o1, a1, o2, a2)],
        "positive": [f"{_phrase(x, w)} and {_phrase(y, z)}" for w, x, z, y in zip(o1, a1, o2, a2)],
        "o1": o1,
        "a1": a1,
        "o2": o2,
        "a2": a2,
    }
    output = Path(output)
    tmp, fh = exclusive_temp(output)  # never written through a link
    if output.suffix == ".jsonl":
        _write_jsonl(fh, out)
    else:
        pq.write_table(pa.table({c: pa.array(out[c], pa.string()) for c in COLUMNS}), fh)
    commit(tmp, fh, output)
    stats = {
        "samples": images.samples,
        "images": images.described,
        "signatures": table.num_rows,
        "queries": len(set(out["key"])),
        "matches": found.num_rows,
    }
    log.info("mined image negatives: %s", stats)
    return stats


def to_negative(row: dict) -> Negative:
    return Negative(
        text=row["text"],
        strategy="mine-images",
        kind="mined_image",
        positive=row["positive"],
        level="corpus",
        realisation="template",
        image_key=row["image_key"],
    )


def _write_jsonl(fh: BinaryIO, out: dict[str, list]) -> None:
    by_key: dict[str, list] = {}
    for i in range(len(out["key"])):
        row = {c: out[c][i] for c in COLUMNS}
        by_key.setdefault(row["key"], []).append(to_negative(row).model_dump(mode="json"))
    for key in sorted(by_key):
        line = json.dumps({"key": key, "negatives": by_key[key]}, sort_keys=True) + "\n"
        fh.write(line.encode("utf-8"))


class MineImagesSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    max_per_query: int = Field(default=5, ge=1, description="Distractor images per image.")


class MineImagesStep:
    """``mine-images`` in a pipeline: once every shard is done, mine the output's index
    parquets and write ``OUT/_meta/mined_images.parquet`` (rewritten whole by every run, the
    same bytes for the same shards)."""

    name = "mine-images"
    Settings = MineImagesSettings
    requires = frozenset({"sg"})

    def __init__(self, settings: MineImagesSettings | None = None):
        self.settings = settings or MineImagesSettings()

    def run(self, output: Path) -> dict[str, int]:
        indexes = sorted(Path(output).glob("[0-9]*.parquet"))
        target = OutputDir(Path(output)).mined_file
        return mine_images(indexes, target, max_per_query=self.settings.max_per_query)
