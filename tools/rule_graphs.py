"""The rule parser's graphs and its rule layer's own time, to check a speed change.

    python tools/rule_graphs.py dump before.jsonl     # on the old code
    python tools/rule_graphs.py dump after.jsonl      # on the new code; then: cmp them
    python tools/rule_graphs.py time [--long]

``dump`` writes every graph of ``--parser spacy`` on the FACTUAL test, dev and long dev
captions (shared/data, as ``benchmarks/factual_splits.py`` finds it), in both predicate forms,
one JSON line each: a change meant only to be faster must leave the file byte for byte the
same. ``time`` parses the dev (or long dev) captions once, repeated to ``--n``, and times what
runs after spaCy on them (the verb-initial check, the repairs, the builder, the entities and
the pydantic graph) on fresh copies of the docs, CPU seconds, best of ``--repeats``. Run it
on the old and the new code in alternate processes: it prints one absolute figure, which
moves with the machine's load.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout
sys.path.insert(0, str(ROOT / "benchmarks"))
from factual_splits import DATA  # noqa: E402

SETS = ("factual_test.csv", "factual_dev.csv", "factual_long_dev.csv")


def captions(name: str) -> list[str]:
    with open(DATA / name, newline="", encoding="utf-8") as f:
        return [row["caption"] for row in csv.DictReader(f)]


def make(form: str = "lemma"):
    from sgprep.parse.base import ParserSettings, make_parser

    parser = make_parser("spacy", ParserSettings(predicate_form=form))
    parser.setup()
    return parser


def dump(out: Path) -> None:
    with out.open("w", encoding="utf-8") as f:
        for form in ("lemma", "surface"):
            parser = make(form)
            for name in SETS:
                for graph in parser.parse_batch(captions(name)):
                    line = (
                        graph.model_dump_json()
                        if hasattr(graph, "model_dump_json")
                        else repr(graph)
                    )
                    f.write(f"{form}\t{name}\t{line}\n")


def time_rules(name: str, n: int, repeats: int) -> float:
    """Best CPU seconds per caption of the rule layer over ``n`` captions of ``name``."""
    from spacy.tokens import DocBin

    from sgprep.parse import rules

    parser = make()
    texts = captions(name)
    texts = (texts * (n // len(texts) + 1))[:n]
    docs = list(parser.nlp.pipe(texts, batch_size=256))
    fragments = [k for k, doc in enumerate(docs) if rules.verb_initial_fragment(doc)]
    prefix = rules.FRAGMENT_PREFIX
    for k, doc in zip(fragments, parser.nlp.pipe([prefix + texts[k] for k in fragments])):
        docs[k], texts[k] = doc, prefix + texts[k]
    reparsed = set(fragments)
    shifts = [len(prefix) if k in reparsed else 0 for k in range(n)]
    stored = DocBin(docs=docs).to_bytes()
    best = float("inf")
    for _ in range(repeats):
        fresh = list(DocBin().from_bytes(stored).get_docs(parser.nlp.vocab))  # repairs change docs
        start = time.process_time()
        for doc, shift, text in zip(fresh, shifts, texts):
            rules.verb_initial_fragment(doc)
            parser._graph(doc, shift, text)
        best = min(best, time.process_time() - start)
    return best / n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("dump").add_argument("out", type=Path)
    timing = sub.add_parser("time")
    timing.add_argument("--long", action="store_true", help="the long dev captions")
    timing.add_argument("--n", type=int, default=3000)
    timing.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    if args.command == "dump":
        dump(args.out)
        return 0
    name = "factual_long_dev.csv" if args.long else "factual_dev.csv"
    seconds = time_rules(name, args.n, args.repeats)
    print(f"rule layer, {name} x{args.n}: {seconds * 1e3:.3f} ms per caption (CPU, best of "
          f"{args.repeats})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
