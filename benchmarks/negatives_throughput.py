"""Hard negatives: graphs/s per core for swap, shuffle and replace, realisation shares, and
mined image negatives at two corpus sizes.

Anchor: the spaCy rule parser's captions/s on the same captions in the same run (the stage
that feeds negatives); each strategy's rate is also given as a ratio to it. Goal: at least
5,000 graphs/s per core for swap, shuffle and replace.

    python benchmarks/negatives_throughput.py                 # generated captions
    python benchmarks/negatives_throughput.py --factual       # + FACTUAL's real VG captions

Rates are per CPU second of this process (``time.process_time``): on a shared machine wall
time counts the waits for a core, CPU time does not; the ratio to the parse rate is the figure
to compare across machines. It measures this checkout's sgprep, or ``PYTHONPATH``'s where that
is set: a before/after runs it once per checkout, alternating.

Captions are generated from the default vocabulary with a fixed seed (several sentence
patterns: pairs, copular spatial relations, participles, plural subjects), parsed once by
the `spacy` parser (timed: the anchor), then the negatives stage runs per strategy on the
same graphs, each repeat in a new process (setup not timed; best of `--repeats`). The stage
memoises much of its work by words, so a second pass in one process is some 25 % faster than
the first: graphs/s is the first pass, as a run of ``sgprep negatives`` over these graphs
pays it, and ``warm`` the second, which a long run tends to (before, the repeats shared one
process and the best of them was a warm pass). Reported per strategy:
graphs/s, negatives/s, the share of negatives realised by span edit vs template, and for
swaps the share whose word multiset equals the positive's (swap_attribute and swap_object
separately: a head moved into a plural slot is inflected, which changes a word).
Mined image negatives: synthetic corpora of 10k and 100k samples (2-4 attributed objects
each from the default vocabulary), time of `mine_images` and the 100k/10k time ratio
(10 = linear).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

#: run from a checkout: its sgprep, unless PYTHONPATH names one (``PYTHONPATH=OTHER`` measures
#: another checkout's, for a before/after run by run; the sgprep measured is printed)
if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
#: beside the checkout, or beside the folder of worktrees (as benchmarks/text_only.py looks)
FACTUAL_CSV = next(
    (
        p / "shared" / "data" / "factual_test.csv"
        for p in Path(__file__).resolve().parents[2:4]
        if (p / "shared" / "data" / "factual_test.csv").exists()
    ),
    Path(__file__).resolve().parents[2] / "shared" / "data" / "factual_test.csv",
)


def generate_captions(n: int, seed: int = 0) -> list[str]:
    from sgprep.negatives import grammar
    from sgprep.negatives.vocab import load_vocab

    vocab, rng = load_vocab(), random.Random(seed)
    objects = sorted(o for o, c in vocab.categories.items() if c not in {"scene"})
    scenes = sorted(o for o, c in vocab.categories.items() if c == "scene")
    attrs = sorted(vocab.attributes["colour"]) + sorted(vocab.attributes["size"])
    spatial = ["on", "under", "behind", "in front of", "next to", "to the left of", "above", "near"]
    verbs = ["holding", "riding", "carrying", "watching", "pulling", "eating"]

    def np(obj=None, plural=False):
        obj = obj or rng.choice(objects)
        words = [rng.choice(attrs)] if rng.random() < 0.7 else []
        if plural:
            return " ".join([rng.choice(["two", "three", "several"]), *words, grammar.plural(obj)])
        words.append(obj)
        return " ".join([rng.choice([grammar.indefinite_article(words[0]), "the"]), *words])

    patterns = [
        lambda: f"{np()} and {np()}",
        lambda: f"{np()} is {rng.choice(spatial)} {np()}",
        lambda: f"{np()} {rng.choice(verbs)} {np()}",
        lambda: f"{np(plural=True)} are {rng.choice(spatial)} {np()}",
        lambda: f"{np()} {rng.choice(verbs)} {np()} {rng.choice(spatial)} {np(rng.choice(scenes))}",
        lambda: f"{np()} sitting {rng.choice(spatial)} {np()} with {np()}",
    ]
    out = []
    for _ in range(n):
        text = rng.choice(patterns)()
        out.append(text[0].upper() + text[1:] if rng.random() < 0.5 else text)
    return out


def factual_captions(n: int) -> list[str]:
    with open(FACTUAL_CSV, newline="", encoding="utf-8") as f:
        return [row["caption"] for row in csv.DictReader(f)][:n]


def parse(captions: list[str]):
    from sgprep.parse.rules import RuleParser

    parser = RuleParser()
    parser.setup()
    parser.parse_batch(captions[:64])
    t = time.process_time()
    graphs = parser.parse_batch(captions)
    return graphs, len(captions) / (time.process_time() - t)


def words(text: str) -> Counter:
    from sgprep.negatives.validity import normalise

    return Counter(normalise(text).split())


def words_up_to_agreement(text: str) -> Counter:
    """Words with a/an as one word and a final -s/-es taken off (a crude singular): what a
    swap keeps when agreement repairs change an article or a noun's number."""
    import re

    return Counter(re.sub(r"(es|s)$", "", "a" if w == "an" else w) for w in words(text).elements())


def _stage_runs(strategy: str, triples) -> tuple[float, float, dict, list]:
    """In a fresh process: CPU seconds of the stage over the graphs twice, the first time as
    a run of ``sgprep negatives`` meets them (its memos keyed by words empty), then again
    with a new stage given the first one's memos (filled, as they are after the first few
    thousand graphs of a large run); the counters and negatives of the first."""
    from sgprep.negatives.stage import NegativesSettings, NegativesStage
    from sgprep.schema import Sample

    times, first, memos = [], None, None
    for _ in range(2):
        stage = NegativesStage(NegativesSettings(strategies=[strategy], per_sample=4))
        stage.setup()
        if memos is not None:  # the stage keeps its memos (sgprep.negatives.scene.Memos)
            stage.memos = memos
        memos = stage.memos
        samples = [Sample(key=k, source="bench", caption=c, sg=g) for k, c, g in triples]
        t = time.process_time()
        stage.run(samples)
        times.append(time.process_time() - t)
        if first is None:
            negs = [
                (n.kind, n.text, n.positive, n.realisation)
                for s in samples
                for n in s.neg.negatives
            ]
            first = (stage.stats(), negs)
    return times[0], times[1], *first


def run_strategy(strategy: str, captions, graphs, repeats: int) -> dict:
    """Each repeat in a new process (spawned, so nothing of an earlier repeat is warm): the
    first pass over the graphs is the rate a run of the CLI pays on this many graphs
    (``graphs_per_s``); the second, memos filled, the rate it tends to on a large input
    (``warm_graphs_per_s``). Best of the repeats for each."""
    import multiprocessing

    triples = [
        (f"k{i:07d}", c, g)
        for i, (c, g) in enumerate(zip(captions, graphs))
        if not isinstance(g, Exception) and hasattr(g, "entities")
    ]
    cold, warm = [], []
    with multiprocessing.get_context("spawn").Pool(1, maxtasksperchild=1) as pool:
        for _ in range(repeats):
            c, w, stats, negs = pool.apply(_stage_runs, (strategy, triples))
            cold.append(c)
            warm.append(w)
    span = sum(how == "span_edit" for _, _, _, how in negs)
    out = {
        "strategy": strategy,
        "graphs": len(triples),
        "graphs_per_s": len(triples) / min(cold),
        "warm_graphs_per_s": len(triples) / min(warm),
        "negatives": len(negs),
        "negatives_per_s": len(negs) / min(cold),
        "span_edit_share": span / max(len(negs), 1),
        "template_share": 1 - span / max(len(negs), 1),
        "kinds": {k[5:]: v for k, v in sorted(stats.items()) if k.startswith("kind/")},
        "rejected": {k[9:]: v for k, v in sorted(stats.items()) if k.startswith("rejected/")},
    }
    for kind in ("swap_attribute", "swap_object"):
        these = [(text, positive) for k, text, positive, _ in negs if k == kind]
        if these:
            out[f"{kind}_same_words_share"] = sum(
                words(text) == words(positive) for text, positive in these
            ) / len(these)
            out[f"{kind}_same_words_up_to_agreement"] = sum(
                words_up_to_agreement(text) == words_up_to_agreement(positive)
                for text, positive in these
            ) / len(these)
    return out


def synthetic_corpus(path: Path, n: int, seed: int = 0) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from sgprep.negatives.vocab import load_vocab

    vocab, rng = load_vocab(), random.Random(seed)
    objects, colours = sorted(vocab.objects)[:60], sorted(vocab.attributes["colour"])
    rows = []
    for i in range(n):
        ents = [
            {"text": "x", "head": rng.choice(objects), "attributes": [rng.choice(colours)]}
            for _ in range(rng.randint(2, 4))
        ]
        rows.append(
            {
                "key": f"{i:08d}",
                "status": "ok",
                "sg": json.dumps({"entities": ents, "relations": [], "parser": "synthetic"}),
            }
        )
    pq.write_table(pa.Table.from_pylist(rows), path)


def run_mining(sizes: list[int]) -> list[dict]:
    from sgprep.negatives.mine import mine_images

    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            src = Path(tmp) / f"corpus{n}.parquet"
            synthetic_corpus(src, n)
            t = time.perf_counter()
            stats = mine_images([src], Path(tmp) / f"mined{n}.parquet")
            out.append({"samples": n, "seconds": time.perf_counter() - t, **stats})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=3000, help="generated captions")
    ap.add_argument("--factual", action="store_true", help="also FACTUAL's 1,508 VG captions")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--mine-sizes", default="10000,100000")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)

    import sgprep

    print(f"sgprep: {Path(sgprep.__file__).parent}")
    sets = {"generated": generate_captions(args.n)}
    if args.factual and FACTUAL_CSV.exists():
        sets["factual"] = factual_captions(args.n)
    report = {"sets": {}, "mining": []}
    for name, captions in sets.items():
        graphs, parse_rate = parse(captions)
        rows = [
            run_strategy(s, captions, graphs, args.repeats)
            for s in ("swap", "shuffle", "replace", "connect")
        ]
        for r in rows:
            r["ratio_to_parse"] = r["graphs_per_s"] / parse_rate
        report["sets"][name] = {
            "captions": len(captions),
            "parse_captions_per_s": parse_rate,
            "strategies": rows,
        }
        print(
            f"\n[{name}] {len(captions)} captions; anchor: spacy parse {parse_rate:,.0f} captions/s"
        )
        print(
            f"{'strategy':9s} {'graphs/s':>9s} {'warm':>7s} {'x parse':>8s} {'negs/s':>9s} "
            f"{'span':>6s} {'tmpl':>6s}  swap same words (attr / obj), up to agreement"
        )
        for r in rows:
            same = " / ".join(
                f"{r[k]:.1%}"
                for k in ("swap_attribute_same_words_share", "swap_object_same_words_share")
                if k in r
            )
            same += ", " * bool(same) + " / ".join(
                f"{r[k]:.1%}"
                for k in (
                    "swap_attribute_same_words_up_to_agreement",
                    "swap_object_same_words_up_to_agreement",
                )
                if k in r
            )
            print(
                f"{r['strategy']:9s} {r['graphs_per_s']:9,.0f} {r['warm_graphs_per_s']:7,.0f} "
                f"{r['ratio_to_parse']:8.1f} "
                f"{r['negatives_per_s']:9,.0f} {r['span_edit_share']:6.1%} "
                f"{r['template_share']:6.1%}  {same}"
            )
    sizes = [int(x) for x in args.mine_sizes.split(",") if x]
    if sizes:
        report["mining"] = run_mining(sizes)
        print("\nmined image negatives (synthetic corpora)")
        for m in report["mining"]:
            print(
                f"{m['samples']:>8,} samples: {m['seconds']:6.2f} s, {m['signatures']:,} "
                f"signatures, {m['matches']:,} matches, {m['queries']:,} queries"
            )
        if len(report["mining"]) >= 2:
            a, b = report["mining"][0], report["mining"][-1]
            print(
                f"time ratio {b['seconds'] / a['seconds']:.1f} for "
                f"{b['samples'] / a['samples']:.0f}x the samples"
            )
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
