"""How low can a bag-of-words detector go on negatives that only add a phrase?

connect only adds ("a cat on a bed" -> "a cat on a bed near a suitcase"), so each of its
negatives holds its caption's words and a few more. The text-only detector of ``sgprep stats``
(``sgprep/stats/diversity.py``: multinomial naive Bayes over unigrams and bigrams, trained on
a seeded half of the captions' pairs) picks the text whose features lean to "negative"; for an
addition that is the sum of the added features' weights. A feature's weight is at most zero
only where the negatives add it no more often, for its count in the captions, than they add
words overall; a phrase of a relation word, an article and a thing nearly always sums above
zero.

This script measures that on an sgprep output: it keeps every negative as it is, except that
each connect negative's added phrase (found as the tail after the caption) is put in place of
one of these, then reports the detector per variant (mean over ``--seeds``):

- ``as_made``: connect's own phrase;
- ``own_phrase_no_comma``: connect's phrase without its comma;
- ``corpus_noun_phrase``: connect's relation word, then a noun phrase drawn from the trailing
  phrases of a caption corpus ("... near" + "the desk");
- ``corpus_relation``: a relation word drawn from that corpus's trailing phrases, then
  connect's noun phrase ("on" + "a suitcase");
- ``corpus_phrase``: a whole trailing phrase of the corpus ("on the desk", "in the rain"):
  words exactly as the captions use them, true or false.

Anchor: ``as_made`` of the same run, and chance (50 %). SugarCrepe's add_obj negatives
(written by ChatGPT) score 91.5 % under such a detector.

    python benchmarks/addition_bound.py --input OUT [--corpus benchmarks/data/written_captions.txt]
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout
sys.path.insert(0, str(ROOT / "benchmarks"))

#: a caption's trailing phrase: a relation word, a determiner and one or two words
TRAILING = re.compile(
    r"\b(on|in|at|with|near|next to|beside|by|under|behind|along|against|in front of|and) "
    r"((?:a|an|the|some|two) [a-z]+(?: [a-z]+)?)\.?$"
)
#: connect's added tail: an optional comma, its relation word, its noun phrase
ADDED = re.compile(r"(,?) (near|next to|beside|by|behind|in front of|with|and) (an? [a-z ]+?)\.?$")
VARIANTS = (
    "as_made",
    "own_phrase_no_comma",
    "corpus_noun_phrase",
    "corpus_relation",
    "corpus_phrase",
)


def trailing_phrases(corpus: Path) -> list[tuple[str, str]]:
    lines = corpus.read_text(encoding="utf-8").splitlines()
    return [(m.group(1), m.group(2)) for s in lines if (m := TRAILING.search(s.strip().lower()))]


def variant_rows(records, phrases, variant: str, seed: int):
    """(caption id, caption, negative, kind) rows with connect's tails rewritten."""
    rng = random.Random(seed)
    for key, _, neg in records:
        for n in neg["negatives"]:
            text, caption = n["text"], n["positive"]
            if n["kind"] == "connect" and variant != "as_made":
                stem = caption.rstrip().rstrip(".")
                m = ADDED.search(text)
                if m and text.startswith(stem) and m.start() >= len(stem):
                    end = "." if caption.rstrip().endswith(".") else ""
                    relation, noun_phrase = rng.choice(phrases)
                    tail = {
                        "own_phrase_no_comma": f"{m.group(2)} {m.group(3)}",
                        "corpus_noun_phrase": f"{m.group(2)} {noun_phrase}",
                        "corpus_relation": f"{relation} {m.group(3)}",
                        "corpus_phrase": f"{relation} {noun_phrase}",
                    }[variant]
                    text = f"{stem} {tail}{end}"
            yield key, caption, text, n["kind"]


def main(argv: list[str] | None = None) -> int:
    from text_only import read_records

    from sgprep.stats.diversity import diversity

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--input", type=Path, required=True, help="an sgprep negatives output")
    ap.add_argument("--corpus", type=Path, default=ROOT / "benchmarks/data/written_captions.txt")
    ap.add_argument("--seeds", type=int, default=6)
    args = ap.parse_args(argv)
    records = [r for r in read_records(args.input) if r[2] is not None]
    phrases = trailing_phrases(args.corpus)
    print(f"{len(records)} samples; {len(phrases)} trailing phrases of {args.corpus.name}")
    for variant in VARIANTS:
        rates = []
        for seed in range(args.seeds):
            rows = list(variant_rows(records, phrases, variant, seed))
            table = diversity(rows, len(records), seed=seed)
            rates += [k.detector_accuracy for k in table.kinds if k.kind == "connect"]
        print(f"{variant:22s} connect detector {100 * statistics.mean(rates):5.1f} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
