"""The pipeline core: all cores, end-to-end overhead, and memory that does not grow with shards.

Three figures, each a ratio against an anchor measured in the same run on the same data:

1. `sgprep parse --workers 2` vs `--workers 1` on 20,000 captions (goal >= 1.7x on 2 cores),
   in wall time and in CPU seconds (goal <= 1.05x the CPU);
2. `sgprep parse --workers 1` end to end vs the spaCy rule parser alone on the same captions,
   in one process (goal >= 0.85x per core);
3. peak RSS of `sgprep parse --workers 1` over 1,000 images of ~230 KB at --shard-size 200 and
   1,000 (goal: within 1.3x of each other).

    python benchmarks/pipeline_core.py [--captions 20000] [--images 1000]

Runs go through the real CLI in subprocesses (start-up included, as a user sees it); the
parser-alone anchor loads its model before the clock starts. Prints a table and JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

COLOURS = "red blue green white black yellow brown grey orange pink".split()
THINGS = (
    "cat dog man woman car bus table chair cup plate bicycle horse boat kite "
    "umbrella laptop tree bench clock vase"
).split()
RELATIONS = (
    "on",
    "next to",
    "behind",
    "under",
    "holding",
    "near",
    "to the left of",
    "in front of",
    "sitting on",
    "riding",
)


def captions(n: int, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        a, b = rng.sample(THINGS, 2)
        out.append(
            f"a {rng.choice(COLOURS)} {a} {rng.choice(RELATIONS)} a {rng.choice(COLOURS)} {b}"
        )
    return out


class CliRun(NamedTuple):
    wall: float  # seconds
    cpu: float  # user + system seconds of the run and its children (worker processes)
    rss_kib: int  # peak RSS of its largest process


def cli_run(*args: str) -> CliRun:
    """One ``sgprep`` CLI run, measured from a fresh interpreter so the figures are this run's
    own: CPU seconds hold on a busy machine, where wall time counts the waits for a core."""
    code = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, "
        "stderr=subprocess.DEVNULL); "
        "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
        "print(time.perf_counter() - t, u.ru_utime + u.ru_stime, u.ru_maxrss)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, sys.executable, "-m", "sgprep.cli", *args, "--no-progress"],
        check=True,
        capture_output=True,
        text=True,
    )
    seconds, cpu, rss = out.stdout.split()
    return CliRun(float(seconds), float(cpu), int(rss))


def cli(*args: str) -> tuple[float, int]:
    """Wall time of one ``sgprep`` CLI run and the peak RSS (KiB) of its largest process."""
    run = cli_run(*args)
    return run.wall, run.rss_kib


def report(results: dict[str, float]) -> None:
    """A table for people, then one JSON line for tools."""
    width = max(map(len, results))
    for name, value in results.items():
        print(f"{name:<{width}}  {value:,.2f}")
    print(json.dumps({k: round(v, 3) for k, v in results.items()}))


def parser_alone(texts: list[str]) -> float:
    from sgprep.parse.base import ParserSettings, make_parser

    parser = make_parser("spacy", ParserSettings())
    parser.setup()
    parser.parse_batch(texts[:256])  # warm
    start = time.perf_counter()
    for i in range(0, len(texts), 256):
        parser.parse_batch(texts[i : i + 256])
    return time.perf_counter() - start


def image_folder(root: Path, n: int) -> None:
    import numpy as np
    from PIL import Image

    rng = np.random.default_rng(0)
    base = rng.integers(0, 255, (400, 520, 3), dtype=np.uint8)
    root.mkdir(parents=True)
    for i in range(n):
        img = np.roll(base, i * 7, axis=1)  # different bytes, same size (~230 KB as JPEG)
        Image.fromarray(img).save(root / f"img{i:05d}.jpg", quality=85)
        (root / f"img{i:05d}.txt").write_text(captions(1, seed=i)[0])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--captions", type=int, default=20_000)
    ap.add_argument("--images", type=int, default=1_000)
    args = ap.parse_args(argv)
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        texts = captions(args.captions)
        table = tmp / "captions.txt"
        table.write_text("\n".join(texts) + "\n")
        alone = parser_alone(texts)
        w1 = cli_run("parse", "-i", str(table), "-o", str(tmp / "w1"), "--workers", "1")
        w2 = cli_run("parse", "-i", str(table), "-o", str(tmp / "w2"), "--workers", "2")
        one, two = w1.wall, w2.wall
        results.update(
            {
                "parser_alone_captions_per_s": args.captions / alone,
                "workers1_captions_per_s": args.captions / one,
                "workers2_captions_per_s": args.captions / two,
                "workers2_vs_workers1": one / two,
                # CPU seconds per caption, w2 over w1 (goal <= 1.05): holds on a busy machine
                "workers2_vs_workers1_cpu": w2.cpu / w1.cpu,
                "end_to_end_vs_parser_alone_per_core": alone / one,
            }
        )
        images = tmp / "images"
        image_folder(images, args.images)
        size = sum(p.stat().st_size for p in images.glob("*.jpg")) / args.images
        results["image_kb"] = size / 1024
        for shard in (200, 1000):
            results[f"peak_rss_mb_shard_{shard}"] = (
                cli(
                    "parse",
                    "-i",
                    str(images),
                    "-o",
                    str(tmp / f"s{shard}"),
                    "--workers",
                    "1",
                    "--shard-size",
                    str(shard),
                )[1]
                / 1024
            )
        results["rss_1000_vs_200"] = (
            results["peak_rss_mb_shard_1000"] / results["peak_rss_mb_shard_200"]
        )
    report(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
