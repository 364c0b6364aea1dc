"""The blind review of hard negatives (issue 18): rebuild the pairs a reader saw, and score labels.

    python benchmarks/blind_review/review.py pairs  > pairs.jsonl   # what a reader sees
    python benchmarks/blind_review/review.py score                  # the per-kind table

`sample.jsonl` holds each pair's altered text and where its true caption comes from: a row of
FACTUAL's test split (by region id; the caption itself stays in ../shared/data) or a line of
`our_captions.txt` (written here). `key.jsonl` holds what no reader saw: the arm ("before": main
at b6c3582; "after": this generator), the kind and the sample key. `labels_reader_*.jsonl` are
two independent readers' answers to READER.md's four questions.
"""

from __future__ import annotations

import argparse
import collections
import csv
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FACTUAL = HERE.parents[2] / "shared" / "data" / "factual_test.csv"
QUESTIONS = ("fluent", "plausible", "false", "minimal")


def load(name: str) -> list[dict]:
    return [json.loads(line) for line in (HERE / name).read_text().splitlines() if line]


def pairs(factual: Path) -> list[dict]:
    regions = {
        r["region_id"]: r["caption"].replace("\n", " ").strip()
        for r in csv.DictReader(factual.open())
    }
    ours = (HERE / "our_captions.txt").read_text().splitlines()
    out = []
    for item in load("sample.jsonl"):
        src = item["true_from"]
        true = (
            ours[src["our_captions.txt"] - 1]
            if "our_captions.txt" in src
            else regions[src["factual_test.csv_region_id"]]
        )
        out.append({"id": item["id"], "true": true, "altered": item["altered"]})
    return out


def score() -> dict:
    key = {k["id"]: k for k in load("key.jsonl")}
    tables = {}
    for path in sorted(HERE.glob("labels_reader_*.jsonl")):
        agg: dict = collections.defaultdict(collections.Counter)
        for label in load(path.name):
            k = key[label["id"]]
            for group in (
                (k["arm"], k["kind"]),
                (k["arm"], "ALL"),
                (k["arm"], "ALL but connect") if k["kind"] != "connect" else None,
            ):
                if group is None:
                    continue
                agg[group]["n"] += 1
                agg[group]["all four"] += all(label[q] for q in QUESTIONS)
                for q in QUESTIONS:
                    agg[group][q] += bool(label[q])
        tables[path.stem] = {f"{a}/{k}": dict(c) for (a, k), c in sorted(agg.items())}
    return tables


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["pairs", "score"])
    ap.add_argument("--factual", type=Path, default=FACTUAL)
    args = ap.parse_args()
    if args.what == "pairs":
        for p in pairs(args.factual):
            sys.stdout.write(json.dumps(p) + "\n")
        return
    cols = QUESTIONS + ("all four",)
    for reader, table in score().items():
        print(f"\n{reader}\n{'arm/kind':34} {'n':>4} " + " ".join(f"{c:>9}" for c in cols))
        for group, c in table.items():
            print(
                f"{group:34} {c['n']:4} " + " ".join(f"{100 * c[q] / c['n']:8.0f}%" for q in cols)
            )


if __name__ == "__main__":
    main()
