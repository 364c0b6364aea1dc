"""The blind review of hard negatives (issue 18): rebuild the pairs a reader saw, and score labels.

    python benchmarks/blind_review/review.py pairs  > pairs.jsonl   # what a reader sees
    python benchmarks/blind_review/review.py score                  # the per-kind table
    python benchmarks/blind_review/review.py captions --round round2 > fresh.csv
    python benchmarks/blind_review/review.py sample --round round2 --output OUT  # from a run

Round 1 lives in this folder; later rounds in a sub-folder each (``--round round2``), with the
same files. ``captions`` writes the test split's rows that no earlier round used (the
captions nobody has read), ``sample`` draws the pairs from an ``sgprep negatives`` output made
from them.

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


def load(name: str, where: Path = HERE) -> list[dict]:
    return [json.loads(line) for line in (where / name).read_text().splitlines() if line]


def _regions(factual: Path) -> dict[str, str]:
    return {
        r["region_id"]: r["caption"].replace("\n", " ").strip()
        for r in csv.DictReader(factual.open())
    }


def pairs(factual: Path, where: Path = HERE) -> list[dict]:
    regions = _regions(factual)
    ours_file = where / "our_captions.txt"  # a round's own written captions, else round 1's
    ours = (ours_file if ours_file.exists() else HERE / "our_captions.txt").read_text()
    ours = ours.splitlines()
    out = []
    for item in load("sample.jsonl", where):
        src = item["true_from"]
        true = (
            ours[src["our_captions.txt"] - 1]
            if "our_captions.txt" in src
            else regions[src["factual_test.csv_region_id"]]
        )
        out.append({"id": item["id"], "true": true, "altered": item["altered"]})
    return out


def used_regions(factual: Path) -> set[str]:
    """Region ids of every test caption an earlier round showed to anyone: round 1 drew its
    600 from the rows listed in its ``captions_region_ids.txt``; later rounds list theirs too."""
    used = set()
    for listed in sorted(HERE.glob("**/captions_region_ids.txt")):
        used.update(line.strip() for line in listed.read_text().splitlines() if line.strip())
    return used


def fresh_captions(factual: Path, out) -> None:
    """The test split's rows no earlier round used, in file order, as the CSV sgprep reads."""
    used = used_regions(factual)
    rows = list(csv.DictReader(factual.open()))
    seen_text = set()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]))
    writer.writeheader()
    for row in rows:
        text = row["caption"].replace("\n", " ").strip().lower()
        if row["region_id"] in used or text in seen_text:
            continue
        seen_text.add(text)
        writer.writerow(row)


#: Negatives per kind drawn for a round (every one where a kind has fewer), one per caption;
#: rounds 2-4 drew 45, round 5 drew 50 (``--quota``).
QUOTA = 45


def caption_negatives(output: Path, ours: dict[str, int]) -> list[dict]:
    """Caption-level negatives of an ``sgprep negatives`` output, with the region id of the
    caption each came from."""
    import tarfile

    rows = []
    for tar in sorted(output.glob("*.tar")):
        members: dict = collections.defaultdict(dict)
        with tarfile.open(tar) as tf:
            for m in tf.getmembers():
                key, _, ext = m.name.partition(".")
                members[key][ext] = tf.extractfile(m).read()
        for key, got in sorted(members.items()):
            if "neg.json" not in got:
                continue
            info = json.loads(got["json"])
            true_from = (
                {"factual_test.csv_region_id": info["meta"]["region_id"]}
                if "region_id" in info["meta"]
                # a line of the round's our_captions.txt: found by its text
                else {"our_captions.txt": ours[got["txt"].decode("utf-8").strip()]}
            )
            for neg in json.loads(got["neg.json"])["negatives"]:
                if neg["level"] == "caption":
                    rows.append(
                        {
                            "key": key,
                            "true_from": true_from,
                            "kind": neg["kind"],
                            "realisation": neg["realisation"],
                            "altered": neg["text"],
                        }
                    )
    return rows


def sample(outputs: list[Path], where: Path, seed: int, quota: int = QUOTA) -> None:
    """Draw up to ``quota`` negatives per kind (one per caption and kind), shuffle them into one
    list, and write ``sample.jsonl`` (what the pairs are made of) and ``key.jsonl`` (what no
    reader sees) into the round's folder."""
    import random

    rng = random.Random(seed)
    written = where / "our_captions.txt"
    lines = written.read_text().splitlines() if written.exists() else []
    ours = {line.strip(): n for n, line in reversed(list(enumerate(lines, 1)))}
    by_kind: dict = collections.defaultdict(list)
    seen_pairs = set()
    for output in outputs:  # e.g. one run of every strategy, one of the rare ones alone
        for row in caption_negatives(output, ours):
            if (row["key"], row["altered"]) not in seen_pairs:
                seen_pairs.add((row["key"], row["altered"]))
                by_kind[row["kind"]].append(row)
    picked = []
    for kind in sorted(by_kind):
        pool, seen = by_kind[kind], set()
        rng.shuffle(pool)
        for row in pool:
            if row["key"] not in seen and len(seen) < quota:
                seen.add(row["key"])
                picked.append(row)
    rng.shuffle(picked)
    with (where / "sample.jsonl").open("w") as s, (where / "key.jsonl").open("w") as k:
        for i, row in enumerate(picked, 1):
            item = {"id": i, "true_from": row["true_from"], "altered": row["altered"]}
            s.write(json.dumps(item) + "\n")
            k.write(
                json.dumps(
                    {
                        "id": i,
                        "arm": "after",
                        "kind": row["kind"],
                        "realisation": row["realisation"],
                        "key": row["key"],
                    }
                )
                + "\n"
            )
    print(collections.Counter(r["kind"] for r in picked), file=sys.stderr)


def score(where: Path = HERE) -> dict:
    key = {k["id"]: k for k in load("key.jsonl", where)}
    tables = {}
    for path in sorted(where.glob("labels_reader_*.jsonl")):
        agg: dict = collections.defaultdict(collections.Counter)
        for label in load(path.name, where):
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
    ap.add_argument("what", choices=["pairs", "score", "captions", "sample"])
    ap.add_argument("--factual", type=Path, default=FACTUAL)
    ap.add_argument("--round", default="", help="a later round's sub-folder, e.g. round2")
    ap.add_argument(
        "--output", type=Path, action="append", help="sample: an sgprep negatives output (repeat)"
    )
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--quota", type=int, default=QUOTA, help="sample: negatives per kind")
    args = ap.parse_args()
    where = HERE / args.round
    if args.what == "pairs":
        for p in pairs(args.factual, where):
            sys.stdout.write(json.dumps(p) + "\n")
        return
    if args.what == "captions":
        fresh_captions(args.factual, sys.stdout)
        return
    if args.what == "sample":
        sample(args.output, where, args.seed, args.quota)
        return
    cols = QUESTIONS + ("all four",)
    for reader, table in score(where).items():
        print(f"\n{reader}\n{'arm/kind':34} {'n':>4} " + " ".join(f"{c:>9}" for c in cols))
        for group, c in table.items():
            print(
                f"{group:34} {c['n']:4} " + " ".join(f"{100 * c[q] / c['n']:8.0f}%" for q in cols)
            )


if __name__ == "__main__":
    main()
