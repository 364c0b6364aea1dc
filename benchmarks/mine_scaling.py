"""Mined image negatives: is the time linear in the corpus? 10k against 100k samples.

Anchor: the same miner on the small corpus, in the same run; the two sizes take turns
(small, large, small, ...), CPU seconds (``time.process_time``), medians over ``--repeats``.

Two kinds of synthetic corpus (index parquets as sgprep writes them: ``key``, ``status``,
``sg``; 2-4 entities a sample, one colour each):

- ``growing``: every sample draws from the same 60 objects and 14 colours, as
  ``negatives_throughput.py`` does. A larger corpus is denser: more queries find their
  distractors, so the output (matches) grows faster than the samples;
- ``fixed``: the corpus is made of blocks of ``--block`` samples, each drawing from its own 14
  objects, so a sample finds as many matches in a large corpus as in a small one. Here the
  time ratio is the miner's own scaling.

Each size is timed in phases (reading the graphs and building the signatures; the join; the
rest: phrases and the parquet written) and reported with its matches; ``per_item`` divides the
time by samples + matches.

    python benchmarks/mine_scaling.py [--sizes 10000,100000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
from pipeline_core import report  # noqa: E402

COLOURS_PER_SAMPLE = (2, 4)


def corpus(path: Path, n: int, kind: str, block: int, seed: int = 0) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from sgprep.negatives.vocab import load_vocab

    vocab, rng = load_vocab(), random.Random(seed)
    objects, colours = sorted(vocab.objects), sorted(vocab.attributes["colour"])
    keys, graphs = [], []
    for i in range(n):
        if kind == "growing":
            pool = objects[:60]
        else:  # block b of the corpus has objects of its own
            width = 14
            start = (i // block) * width % len(objects)
            pool = (objects * 2)[start : start + width]
        ents = [
            {"text": "x", "head": rng.choice(pool), "attributes": [rng.choice(colours)]}
            for _ in range(rng.randint(*COLOURS_PER_SAMPLE))
        ]
        keys.append(f"{i:08d}")
        graphs.append(json.dumps({"entities": ents, "relations": [], "parser": "synthetic"}))
    table = pa.table({"key": keys, "status": ["ok"] * n, "sg": graphs})
    pq.write_table(table, path)


def mine_timed(src: Path, out: Path) -> dict[str, float]:
    """CPU seconds of ``mine_images`` and of its first two phases, timed apart."""
    from sgprep.negatives.mine import iter_samples, match, mine_images, signature_table

    t = time.process_time()
    table, images = signature_table(iter_samples([src]))
    read = time.process_time() - t
    t = time.process_time()
    found = match(table, images.keys)
    join = time.process_time() - t
    del table, images, found
    t = time.process_time()
    stats = mine_images([src], out)
    total = time.process_time() - t
    return {
        "cpu_s": total,
        "read_signatures_s": read,
        "join_s": join,
        "rest_s": max(total - read - join, 0.0),
        "matches": stats["matches"],
        "samples": stats["samples"],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--block", type=int, default=10_000, help="samples per block (fixed)")
    ap.add_argument("--kinds", default="growing,fixed")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    small, large = sizes[0], sizes[-1]
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for kind in args.kinds.split(","):
            runs: dict[int, list[dict]] = {n: [] for n in sizes}
            for n in sizes:
                corpus(tmp / f"{kind}{n}.parquet", n, kind, args.block)
            for _ in range(args.repeats):
                for n in sizes:
                    src = tmp / f"{kind}{n}.parquet"
                    runs[n].append(mine_timed(src, tmp / f"mined_{kind}{n}.parquet"))
            for n in sizes:
                for field in ("cpu_s", "read_signatures_s", "join_s", "rest_s"):
                    results[f"{kind}_{n}_{field}"] = statistics.median(r[field] for r in runs[n])
                results[f"{kind}_{n}_matches"] = runs[n][0]["matches"]
            pairs = list(zip(runs[large], runs[small]))
            results[f"{kind}_time_ratio_{large // small}x_samples"] = statistics.median(
                b["cpu_s"] / a["cpu_s"] for b, a in pairs
            )
            results[f"{kind}_per_item_ratio"] = statistics.median(  # 1.0 = linear in the work
                (b["cpu_s"] / (b["samples"] + b["matches"]))
                / (a["cpu_s"] / (a["samples"] + a["matches"]))
                for b, a in pairs
            )
    report(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
