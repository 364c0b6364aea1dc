"""LLM parser throughput and answer validity: captions/s per GPU, valid-answer rates, fallbacks.

Anchor (docs/METHOD.md sec. 1): a published pipeline parsed ~500k COCO captions in 3.5 h with
10 Llama-3-8B instances on V100s, ~4 captions/s per GPU (~40/s in total); at that rate CC12M
(~12M captions) costs ~3.5 GPU-days. Target: beat 4 captions/s per GPU.

On a GPU node (weights in a local directory, engines = GPUs, one vLLM per Ray actor):

    python benchmarks/llm_throughput.py --model /models/Meta-Llama-3-8B-Instruct --limit 2000

Against a running OpenAI-compatible server (count its GPUs with --gpus):

    python benchmarks/llm_throughput.py --engine openai --endpoint http://127.0.0.1:8000/v1 \
        --model meta-llama/Meta-Llama-3-8B-Instruct --gpus 1 --max-concurrency 128

On CPU with the tiny random model of the tests it only shows that the path runs:

    python tests/llm/tiny_llama.py /tmp/tiny-llama
    HF_HUB_OFFLINE=1 VLLM_CPU_KVCACHE_SPACE=1 python benchmarks/llm_throughput.py \
        --model /tmp/tiny-llama --limit 32 --max-model-len 2048

Captions are the FACTUAL test captions (shared/data/factual_test.csv). The engine is started
first (not timed), warmed on one batch (fills the prefix cache), then every caption is parsed in
batches of --batch-size. Validity: `first_try_valid` is the share of captions whose first answer
was a valid graph, `valid_answers` the share of all answers (retries included) that were valid.
"""

from __future__ import annotations

import argparse
import csv
import json
import logging
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # run from a checkout

DEFAULT_CSV = REPO.parent / "shared" / "data" / "factual_test.csv"
ANCHOR_PER_GPU = 4.0


def load_captions(path: Path, limit: int | None) -> list[str]:
    with open(path, newline="", encoding="utf-8") as f:
        captions = [row["caption"] for row in csv.DictReader(f)]
    return captions[:limit] if limit else captions


def count_gpus(engine: str, given: int | None) -> int:
    if given is not None:
        return given
    if engine == "vllm":
        import ray

        return int(ray.cluster_resources().get("GPU", 0)) if ray.is_initialized() else 0
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--csv", type=Path, default=DEFAULT_CSV)
    ap.add_argument("--limit", type=int, default=1000, help="captions to parse (0: all)")
    ap.add_argument(
        "--model", default=None, help="hub id or local dir (default Llama-3-8B-Instruct)"
    )
    ap.add_argument("--engine", choices=["vllm", "openai"], default="vllm")
    ap.add_argument("--endpoint", default=None)
    ap.add_argument("--num-engines", type=int, default=None, help="vLLM actors (default: GPUs)")
    ap.add_argument("--tensor-parallel-size", type=int, default=1)
    ap.add_argument("--batch-size", type=int, default=512)
    ap.add_argument("--max-concurrency", type=int, default=128)
    ap.add_argument("--max-model-len", type=int, default=None, help="vLLM engine option")
    ap.add_argument("--fallback", default="spacy", help="fallback parser, or 'none'")
    ap.add_argument(
        "--gpus", type=int, default=None, help="GPUs behind the engine (default: Ray's count)"
    )
    ap.add_argument("--json", type=Path, default=None, help="also write the result here")
    args = ap.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )

    from sgprep.parse.base import ParserSettings
    from sgprep.parse.llm import LLMParser

    captions = load_captions(args.csv, args.limit or None)
    settings = ParserSettings(
        model=args.model,
        engine=args.engine,
        endpoint=args.endpoint,
        fallback=None if args.fallback == "none" else args.fallback,
        batch_size=args.batch_size,
        tensor_parallel_size=args.tensor_parallel_size,
        num_engines=args.num_engines,
        max_concurrency=args.max_concurrency,
    )
    options = (
        {"max_model_len": args.max_model_len}
        if args.max_model_len and args.engine == "vllm"
        else {}
    )
    parser = LLMParser(settings, engine_options=options)
    start = time.perf_counter()
    parser.setup()
    setup_s = time.perf_counter() - start
    try:
        gpus = count_gpus(args.engine, args.gpus)
        engines = len(getattr(parser.engine, "actors", [])) or 1
        parser.parse_batch(captions[: min(len(captions), args.batch_size)])  # warm-up, not counted
        warm = dict(parser.stats())
        results, start = [], time.perf_counter()
        for i in range(0, len(captions), args.batch_size):
            results.extend(parser.parse_batch(captions[i : i + args.batch_size]))
            logging.info("parsed %d/%d", len(results), len(captions))
        seconds = time.perf_counter() - start
        stats = {k: v - warm.get(k, 0) for k, v in parser.stats().items()}
        reasons = dict(parser.invalid_reasons)  # warm-up included
        engine_stats = parser.engine.stats() if parser.engine else {}
    finally:
        parser.teardown()

    n = len(captions)
    first_try = sum(
        1 for r in results if getattr(r, "fallback_from", "x") is None and r.retries == 0
    )
    answers = stats["llm_ok"] + stats["llm_invalid"]
    rate = n / seconds
    result = {
        "engine": args.engine,
        "model": settings.model or "meta-llama/Meta-Llama-3-8B-Instruct",
        "captions": n,
        "seconds": round(seconds, 2),
        "setup_s": round(setup_s, 1),
        "gpus": gpus,
        "engines": engines,
        "batch_size": args.batch_size,
        "captions_per_s": round(rate, 2),
        "captions_per_s_per_gpu": round(rate / gpus, 2) if gpus else None,
        "captions_per_s_per_engine": round(rate / engines, 2),
        "first_try_valid": round(first_try / n, 4) if n else None,
        "valid_answers": round(stats["llm_ok"] / answers, 4) if answers else None,
        "fallback_rate": round(stats["fallbacks"] / n, 4) if n else None,
        "parse_errors": sum(1 for r in results if not hasattr(r, "entities")),
        "stats": stats,
        "invalid_reasons_incl_warmup": reasons,
        "engine_stats_incl_warmup": engine_stats,
        "anchor_captions_per_s_per_gpu": ANCHOR_PER_GPU,
        "cpus": os.cpu_count(),
    }
    per_gpu = f"{result['captions_per_s_per_gpu']} /s per GPU" if gpus else "no GPU"
    print(
        f"{n} captions in {seconds:.1f} s: {rate:.2f} captions/s ({per_gpu}; anchor "
        f"{ANCHOR_PER_GPU}/s per V100); first-try valid {result['first_try_valid']:.1%}, "
        f"fallbacks {result['fallback_rate']:.1%}"
    )
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
