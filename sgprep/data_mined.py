"""Cola's mined distractor images in a trainer's sample: ``sd.webdataset(OUT, distractors=K)``
gives each caption up to K images of the corpus that hold the other binding of its image's
attributes (``a red cube and a blue ball`` against images of ``a blue cube and a red ball``),
read from the output's ``_meta/mined_images.parquet`` (a ``mine-images`` step of ``sgprep
run``, or ``sgprep negatives --strategy mine-images --output OUT/_meta/mined_images.parquet``).

The table names query images and distractor images by the key of the first sample that holds
the image (negatives/mine.py); a caption finds its image's key through the same rule over the
index, so the five captions of a COCO image (and, with ``--shared-images``, the captions that
point at one image) share its distractors. Each distractor image is read by random access
(the index's ``shard``, ``offset`` and ``size``), decoded upright and RGB, and passed through
the pipeline's ``transform``; each sample draws its K from its image's rows by a hash of the
seed, the epoch and its key, so another epoch draws others where there are more than K.

Each distractor is ``{"key", "image", "text", "query"}``: ``text`` the binding that is true of
the distractor image, ``query`` the binding that is true of the caption's image and false of
the distractor's (what Cola's loss scores on both images).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from sgprep.schema import OutputDir


class Distractors:
    """The mined rows of an output, by caption key, and where each distractor image lies.
    Built once in the process that builds the pipeline; the loader's workers get a copy."""

    def __init__(self, out: str | Path, per_sample: int, seed: int = 0):
        import pyarrow.parquet as pq

        from sgprep.negatives.mine import Images, iter_samples

        if per_sample < 1:
            raise ValueError(f"distractors={per_sample}: at least 1 (0 leaves them out)")
        self.root, self.per_sample, self.seed = Path(out), per_sample, seed
        table = OutputDir(self.root).mined_file
        if not table.is_file():
            raise FileNotFoundError(
                f"{table} does not exist: mine the output first (a 'mine-images' step in "
                f"`sgprep run`'s stages, or `sgprep negatives --input {self.root} --strategy "
                f"mine-images --output {table}`)"
            )
        self.rows: dict[str, list[tuple[str, str, str]]] = {}  # image key -> (key, text, query)
        columns = ["key", "image_key", "text", "positive"]
        for row in pq.read_table(table, columns=columns).to_pylist():
            self.rows.setdefault(row["key"], []).append(
                (row["image_key"], row["text"], row["positive"])
            )
        files = sorted(self.root.glob("[0-9]*.parquet"))  # the files mine-images reads
        images = Images(iter_samples(files, graphs=False), track=True)
        self.image_of = {
            key: images.keys[k] for key, k in images.image_of.items() if images.keys[k] in self.rows
        }
        wanted = {image for rows in self.rows.values() for image, _, _ in rows}
        self.where: dict[str, tuple[str, int, int]] = {}
        for path in files:
            names = pq.read_schema(path).names
            if not {"shard", "offset", "size"} <= set(names):
                continue
            part = pq.read_table(path, columns=["key", "shard", "offset", "size"]).to_pylist()
            for row in part:
                if row["key"] in wanted and row["offset"] is not None:
                    self.where[row["key"]] = (row["shard"], row["offset"], row["size"])
        self.queries = len(self.rows)

    def draw(self, key: str, epoch: int) -> list[tuple[str, str, str]]:
        """Up to ``per_sample`` of the rows of the caption ``key``'s image: all of them where
        there are no more, else a draw by a hash of the seed, the epoch and the key."""
        image = self.image_of.get(key)
        rows = self.rows.get(image, []) if image is not None else []
        if len(rows) <= self.per_sample:
            return rows

        def rank(row: tuple[str, str, str]) -> bytes:
            text = f"{self.seed}\x00{epoch}\x00{key}\x00{row[0]}\x00{row[1]}"
            return hashlib.blake2b(text.encode(), digest_size=8).digest()

        return sorted(rows, key=rank)[: self.per_sample]

    def image(self, key: str) -> bytes | None:
        """The image bytes of the sample ``key`` (a distractor), by random access."""
        from sgprep.io.tar import image_at

        if key not in self.where:
            return None
        shard, offset, size = self.where[key]
        found = image_at(OutputDir(self.root).tar_file(shard), offset, size)
        return found[1] if found else None


def add_distractors(
    samples: Iterable[dict[str, Any]],
    distractors: Distractors,
    load: Callable[[bytes], Any],
) -> Iterator[dict[str, Any]]:
    """A pipeline stage (after the samples are made and stamped with their epoch): each
    sample's ``distractors``, each image loaded with ``load`` (decode and transform; the bytes
    as they are without decoding). A distractor whose image cannot be read is left out."""
    for sample in samples:
        found = []
        for image_key, text, query in distractors.draw(sample["key"], sample.get("epoch", 0)):
            data = distractors.image(image_key)
            if data is not None:
                found.append({"key": image_key, "image": load(data), "text": text, "query": query})
        yield {**sample, "distractors": found}
