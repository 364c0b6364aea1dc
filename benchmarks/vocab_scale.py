"""`sgprep vocab` at CC12M scale: wall time and peak memory of one pass over 1,000,000 graphs.

Generates ``--graphs`` synthetic scene graphs as sgprep index parquets (``key``, ``status``,
``sg``; ``--files`` files, written with pyarrow directly) in a scratch folder: 1-5 entities a
graph with 0-2 attributes each, 0-3 relations, every word drawn from the words of
``sgprep/negatives/data/default_vocab.json`` with a Zipf distribution (seeded; a tenth of the
heads plural). Then runs ``sgprep vocab`` on them once for each ``--workers`` count, each in a
fresh process, and reports per run:

- ``wall_s``: the command's wall time (interpreter start and imports included);
- ``peak_rss_mb``: the largest resident set of any one of its processes (``getrusage``'s
  ``RUSAGE_CHILDREN`` maxrss, taken in a wrapper process of its own, so runs do not mix);
- ``tree_rss_mb``: the largest sum of the resident sets of the command and its workers,
  sampled every 50 ms (needs psutil; absent without it);

and whether every run wrote the same bytes (``identical``).

    python benchmarks/vocab_scale.py [--graphs 1000000] [--files 100] [--workers 1,2] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout

#: Runs one command and prints its wall time, its processes' largest maxrss (KiB) and the
#: largest summed RSS of its process tree (bytes, sampled; -1 without psutil), as JSON.
WRAPPER = r"""
import json, resource, subprocess, sys, threading, time
cmd = sys.argv[1:]
peak = [-1]
start = time.perf_counter()
proc = subprocess.Popen(cmd)
def sample():
    try:
        import psutil
    except ImportError:
        return
    peak[0] = 0
    root = psutil.Process(proc.pid)
    while proc.poll() is None:
        try:
            total = sum(p.memory_info().rss for p in [root, *root.children(recursive=True)])
        except psutil.Error:
            total = 0
        peak[0] = max(peak[0], total)
        time.sleep(0.05)
thread = threading.Thread(target=sample, daemon=True)
thread.start()
rc = proc.wait()
wall = time.perf_counter() - start
thread.join()
maxrss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"rc": rc, "wall_s": wall, "maxrss_kib": maxrss, "tree_rss": peak[0]}))
"""


def generate(folder: Path, graphs: int, files: int, seed: int = 0, zipf: float = 1.1) -> None:
    """``graphs`` synthetic scene graphs in ``files`` index parquets under ``folder``."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    vocab = json.loads((ROOT / "sgprep/negatives/data/default_vocab.json").read_text())
    rng = np.random.default_rng(seed)

    def pool(words: list[str]) -> tuple[list[str], np.ndarray]:
        words = [words[i] for i in rng.permutation(len(words))]  # which words are common
        p = 1.0 / np.arange(1, len(words) + 1) ** zipf
        return words, p / p.sum()

    objects, p_obj = pool(sorted(vocab["objects"]))
    attributes, p_attr = pool(sorted({w for ws in vocab["attributes"].values() for w in ws}))
    predicates, p_pred = pool(sorted({r for rs in vocab["relations"].values() for r in rs}))
    folder.mkdir(parents=True, exist_ok=True)
    per_file = -(-graphs // files)
    done = 0
    for f in range(files):
        n = min(per_file, graphs - done)
        if n <= 0:
            break
        n_ent = rng.choice(5, size=n, p=[0.25, 0.3, 0.2, 0.15, 0.1]) + 1
        total = int(n_ent.sum())
        heads = rng.choice(len(objects), size=total, p=p_obj)
        plural = rng.random(total) < 0.1
        n_attr = rng.choice(3, size=total, p=[0.5, 0.35, 0.15])
        attrs = rng.choice(len(attributes), size=int(n_attr.sum()), p=p_attr)
        n_rel = np.minimum(rng.choice(4, size=n, p=[0.3, 0.35, 0.25, 0.1]), n_ent - 1)
        preds = rng.choice(len(predicates), size=int(n_rel.sum()), p=p_pred)
        ends = rng.random((int(n_rel.sum()), 2))
        texts = []
        e = a = r = 0
        for g in range(n):
            entities = []
            for _ in range(n_ent[g]):
                head = objects[heads[e]] + ("s" if plural[e] else "")
                words = [attributes[i] for i in attrs[a : a + n_attr[e]]]
                a += n_attr[e]
                e += 1
                entities.append(
                    {"text": " ".join([*words, head]), "head": head, "attributes": words}
                )
            relations = []
            k = len(entities)
            for _ in range(n_rel[g]):
                s = int(ends[r, 0] * k)
                o = (s + 1 + int(ends[r, 1] * (k - 1))) % k  # another entity
                relations.append({"subject": s, "predicate": predicates[preds[r]], "object": o})
                r += 1
            texts.append(
                json.dumps({"entities": entities, "relations": relations, "parser": "synthetic"})
            )
        table = pa.table(
            {
                "key": [f"{f:05d}{i:06d}" for i in range(n)],
                "status": pa.array(["ok"] * n),
                "sg": texts,
            }
        )
        pq.write_table(table, folder / f"{f:05d}.parquet")
        done += n


def run_vocab(inputs: Path, output: Path, workers: int, extra: list[str]) -> dict:
    sgprep = [sys.executable, "-c", "from sgprep.cli import app; app()"]
    cmd = [*sgprep, "vocab", "-i", str(inputs), "-o", str(output), "--workers", str(workers)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", WRAPPER, *cmd, *extra],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    stats = json.loads(done.stdout.strip().splitlines()[-1])
    if stats["rc"] != 0:
        raise SystemExit(f"sgprep vocab failed ({stats['rc']}): {done.stderr[-2000:]}")
    return {
        "workers": workers,
        "wall_s": round(stats["wall_s"], 2),
        "peak_rss_mb": round(stats["maxrss_kib"] / 1024, 1),
        **({"tree_rss_mb": round(stats["tree_rss"] / 2**20, 1)} if stats["tree_rss"] >= 0 else {}),
        "sha256": hashlib.sha256(output.read_bytes()).hexdigest()[:16],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--graphs", type=int, default=1_000_000)
    ap.add_argument("--files", type=int, default=100, help="index parquets (shards)")
    ap.add_argument("--workers", default="1,2", help="worker counts to run, comma-separated")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--scratch", type=Path, default=None, help="keep the corpus here")
    ap.add_argument("--extra", default="", help="more `sgprep vocab` flags, space-separated")
    ap.add_argument("--json", action="store_true", help="print the results as JSON only")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="vocab_scale_") as tmp:
        scratch = args.scratch or Path(tmp)
        corpus = scratch / "parsed"
        start = time.perf_counter()
        if not corpus.exists():
            generate(corpus, args.graphs, args.files, args.seed)
        generated = time.perf_counter() - start
        size = sum(f.stat().st_size for f in corpus.glob("*.parquet"))
        runs = [
            run_vocab(corpus, scratch / f"vocab_w{w}.json", int(w), args.extra.split())
            for w in args.workers.split(",")
        ]
        vocab_bytes = (scratch / f"vocab_w{runs[0]['workers']}.json").stat().st_size
    result = {
        "graphs": args.graphs,
        "files": args.files,
        "corpus_mb": round(size / 2**20, 1),
        "generate_s": round(generated, 1),
        "vocab_json_mb": round(vocab_bytes / 2**20, 2),
        "runs": runs,
        "identical": len({r["sha256"] for r in runs}) == 1,
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(
        f"{args.graphs:,} graphs in {args.files} parquets ({result['corpus_mb']} MiB, "
        f"generated in {result['generate_s']} s); vocabulary JSON {result['vocab_json_mb']} MiB"
    )
    print(f"{'workers':>7}  {'wall s':>8}  {'peak RSS MiB':>12}  {'tree RSS MiB':>12}  sha256")
    for r in runs:
        tree = r.get("tree_rss_mb", "-")
        print(
            f"{r['workers']:>7}  {r['wall_s']:>8}  {r['peak_rss_mb']:>12}  {tree:>12}  "
            f"{r['sha256']}"
        )
    print(f"identical outputs: {result['identical']}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
