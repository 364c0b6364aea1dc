"""Caption by caption, two ``sgprep eval`` reports of the same gold file: which got better, which worse.

    PYTHONPATH=OLD sgprep eval GOLD.csv --parser spacy -o before.json   # on the old checkout
    PYTHONPATH=NEW sgprep eval GOLD.csv --parser spacy -o after.json    # on the new one
    python tools/eval_diff.py before.json after.json [--gold GOLD.csv] [--show worse|better|both]

Prints the counts (better, worse, same) and the mean caption F1 of each report; with
``--show``, each listed caption with its F1 before and after, the gold tuples and both
predicted tuple sets (normalised as ``sgprep eval`` compares them). The reports keep each
caption's misses and extras only, so a predicted set is rebuilt as gold - missed + extra,
with the gold tuples read again from ``--gold`` (default: the report's own ``gold_file``).
Exits 2 when the reports do not cover the same captions in the same order.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout

Fact = tuple[str, ...]


def read_report(path: Path) -> dict:
    report = json.loads(path.read_text(encoding="utf-8"))
    if not report.get("items"):
        raise SystemExit(f"{path}: no per-caption items (write the report with sgprep eval -o)")
    return report


def gold_sets(gold: Path, spacy_model: str) -> list[set[Fact]]:
    from sgprep.eval import Normaliser, graph_tuples, load_gold, raw_tuples

    items = load_gold(gold)
    normaliser = Normaliser(spacy_model)
    normaliser.prepare(
        e for item in items for ts in raw_tuples(item.sg).values() for t in ts for e in t
    )
    return [set().union(*graph_tuples(item.sg, normaliser).values()) for item in items]


def predicted(gold: set[Fact], item: dict) -> set[Fact]:
    return (gold - {tuple(t) for t in item["missed"]}) | {tuple(t) for t in item["extra"]}


def show(fact: Fact) -> str:
    return " | ".join(fact)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--gold", type=Path, help="the gold file (default: the report's own)")
    ap.add_argument("--show", choices=("worse", "better", "both"), help="list these captions")
    args = ap.parse_args(argv)
    before, after = read_report(args.before), read_report(args.after)
    old, new = before["items"], after["items"]
    if [i["caption"] for i in old] != [i["caption"] for i in new]:
        print("the two reports do not score the same captions in the same order", file=sys.stderr)
        return 2
    better = [k for k, (o, n) in enumerate(zip(old, new)) if n["f1"] > o["f1"]]
    worse = [k for k, (o, n) in enumerate(zip(old, new)) if n["f1"] < o["f1"]]
    mean_old = sum(i["f1"] for i in old) / len(old)
    mean_new = sum(i["f1"] for i in new) / len(new)
    print(f"{len(old)} captions: {len(better)} better, {len(worse)} worse, "
          f"{len(old) - len(better) - len(worse)} same; mean caption F1 "
          f"{mean_old:.4f} -> {mean_new:.4f}")  # fmt: skip
    if not args.show:
        return 0
    listed = {"worse": worse, "better": better, "both": sorted(worse + better)}[args.show]
    golds = gold_sets(args.gold or Path(after["gold_file"]), after["spacy_model"])
    for k in listed:
        gold, o, n = golds[k], old[k], new[k]
        print(f"\n[{k}] {o['f1']:.2f} -> {n['f1']:.2f}  {n['caption']!r}")
        print("  gold:   " + "; ".join(show(t) for t in sorted(gold)))
        for label, item in (("before", o), ("after", n)):
            facts = predicted(gold, item)
            marked = [show(t) + ("" if t in gold else " (x)") for t in sorted(facts)]
            print(f"  {label}: " + "; ".join(marked))
    return 0


if __name__ == "__main__":
    sys.exit(main())
