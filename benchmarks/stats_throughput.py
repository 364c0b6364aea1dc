"""Throughput of ``sgprep stats``'s property computation over generated index rows.

    python benchmarks/stats_throughput.py [--rows 1000000] [--threads 1]

Writes ``--rows`` index rows (realistic ``sg``/``det`` JSON, 10,000 rows a shard, as
ShardWriter writes them: zstd parquet) to a temp dir, then times, in the same run:
- anchor: pyarrow reading the same parquet files (key, status, sg, det columns), and
- sgprep.stats.properties.compute on ``--threads`` DuckDB threads, and
- the whole ``sgprep stats`` (run_stats: properties, stats.parquet, summary, HTML report),
and reports rows/s and the ratios to the anchor.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

LABELS = [
    "person",
    "dog",
    "cat",
    "car",
    "bicycle",
    "chair",
    "cup",
    "dining table",
    "bench",
    "bird",
    "horse",
    "umbrella",
    "handbag",
    "bottle",
    "pizza",
    "traffic light",
]
HEADS = [
    "man",
    "woman",
    "girl",
    "boy",
    "dog",
    "puppy",
    "cat",
    "car",
    "bike",
    "chair",
    "mug",
    "table",
    "bench",
    "bird",
    "horse",
    "umbrella",
    "bag",
    "bottle",
    "pizza",
    "street",
    "sky",
    "grass",
    "building",
    "tree",
    "shirt",
    "hat",
    "light",
    "people",
    "children",
]
ATTRS = ["red", "small", "old", "wooden", "white", "young", "large", "black", "striped", "two"]
PREDICATES = ["on", "next to", "holding", "in front of", "riding", "under", "with"]


def _sg(rng: random.Random) -> str:
    from sgprep.io.records import dumps

    entities = []
    for _ in range(rng.choice([1, 1, 2, 2, 2, 3, 3, 4, 5])):
        head = rng.choice(HEADS)
        attrs = rng.sample(ATTRS, rng.choice([0, 0, 1, 1, 2, 3]))
        entities.append(
            {
                "attributes": attrs,
                "count": None,
                "head": head,
                "span": [0, 10],
                "text": " ".join([*attrs, head]),
            }
        )
    relations = [
        {"object": i + 1, "predicate": rng.choice(PREDICATES), "subject": i}
        for i in range(len(entities) - 1)
        if rng.random() < 0.6
    ]
    return dumps(
        {
            "entities": entities,
            "fallback_from": None,
            "parser": "spacy",
            "relations": relations,
            "retries": 0,
        }
    )


def _det(rng: random.Random) -> str:
    from sgprep.io.records import dumps

    objects = []
    for _ in range(rng.choice([0, 1, 2, 3, 4, 6, 8, 12])):
        x, y = rng.uniform(0, 500), rng.uniform(0, 300)
        box = [
            round(x, 2),
            round(y, 2),
            round(x + rng.uniform(5, 140), 2),
            round(y + rng.uniform(5, 180), 2),
        ]
        objects.append(
            {"cls": 0, "label": rng.choice(LABELS), "score": round(rng.random(), 4), "xyxy": box}
        )
    pairs = [
        {"i": i, "j": j, "score": 0.5, "xyxy": [0.0, 0.0, 10.0, 10.0]}
        for i in range(min(len(objects), 3))
        for j in range(i + 1, min(len(objects), 3))
    ]
    return dumps(
        {"detector": "yolo11n", "height": 480, "objects": objects, "pairs": pairs, "width": 640}
    )


def generate(root: Path, rows: int, per_shard: int = 10_000, seed: int = 0) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from sgprep.io.records import INDEX_COLUMNS
    from sgprep.io.tables import INDEX_SCHEMA

    rng = random.Random(seed)
    sgs = [_sg(rng) for _ in range(4000)]
    dets = [_det(rng) for _ in range(4000)]
    for shard, start in enumerate(range(0, rows, per_shard)):
        n = min(per_shard, rows - start)
        failed = [rng.random() < 0.03 for _ in range(n)]
        cols = {c: [None] * n for c in INDEX_COLUMNS}
        cols["key"] = [f"{shard:05d}{i:05d}" for i in range(n)]
        cols["caption"] = ["a caption"] * n
        cols["source"] = ["gen"] * n
        cols["status"] = ["failed" if f else "ok" for f in failed]
        cols["stage"] = ["read" if f else None for f in failed]
        cols["reason"] = ["image_corrupt" if f else None for f in failed]
        cols["meta"] = ["{}"] * n
        cols["sg"] = [None if f else rng.choice(sgs) for f in failed]
        cols["det"] = [None if f or rng.random() < 0.05 else rng.choice(dets) for f in failed]
        table = pa.table(cols, schema=INDEX_SCHEMA())
        pq.write_table(table, root / f"{shard:05d}.parquet", compression="zstd")


def main() -> None:
    import pyarrow.parquet as pq

    from sgprep.stats.properties import compute, connect, index_files
    from sgprep.stats.report import run_stats

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        t0 = time.perf_counter()
        generate(root, args.rows)
        print(f"generated {args.rows:,} rows in {time.perf_counter() - t0:.1f}s")
        files = index_files(root)
        t0 = time.perf_counter()
        read = sum(pq.read_table(f, columns=["key", "status", "sg", "det"]).num_rows for f in files)
        anchor = time.perf_counter() - t0
        t0 = time.perf_counter()
        table = compute(root, con=connect(threads=args.threads))
        took = time.perf_counter() - t0
        assert table.num_rows == read == args.rows
        print(
            f"anchor  pyarrow read of the same files: {anchor:6.2f}s  {read / anchor:12,.0f} rows/s"
        )
        print(
            f"sgprep  properties, {args.threads} duckdb thread(s): {took:6.2f}s  "
            f"{args.rows / took:12,.0f} rows/s"
        )
        print(f"ratio   properties / read: {took / anchor:.1f}x the time of reading")
        t0 = time.perf_counter()
        summary = run_stats(root, threads=args.threads)
        whole = time.perf_counter() - t0
        assert summary.samples == args.rows
        print(
            f"sgprep  run_stats (+ stats.parquet, report.html): {whole:6.2f}s  "
            f"{args.rows / whole:12,.0f} rows/s  ({whole / anchor:.1f}x reading)"
        )


if __name__ == "__main__":
    main()
