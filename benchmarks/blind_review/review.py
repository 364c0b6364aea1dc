"""The blind review of hard negatives (issue 18): rebuild the pairs a reader saw, and score labels.

    python benchmarks/blind_review/review.py score --round round9       # the per-kind table
    python benchmarks/blind_review/review.py pairs --round round9 > pairs.jsonl  # what readers saw
    python benchmarks/blind_review/review.py captions > fresh.csv       # test rows no round used
    python benchmarks/blind_review/review.py sample --round round10 --output OUT  # from a run
    python benchmarks/blind_review/review.py pack --round round10       # a finished round -> data

A finished round is data in ``rounds/``: ``roundN.jsonl``, one line per pair (``id``; what no
reader saw: ``arm`` ("before": main at b6c3582; "after": the generator under review), ``kind``,
``realisation``, sample ``key``; where the true caption comes from, ``true_from``: a row of
FACTUAL's test split by region id (the caption itself stays in ../shared/data) or a line of the
round's written captions; the ``altered`` text; ``labels``: each reader's answers to READER.md's
four questions as one string of 1/0 in the order fluent, plausible, false, minimal; ``notes``:
a reader's note where there was one), ``roundN.captions.txt`` (the captions written for the
round) and ``roundN.regions.txt`` (the test rows it drew).

A round in progress is a folder ``roundN/``: ``sample`` draws ``sample.jsonl`` (what readers
see) and ``key.jsonl`` (what they do not) from an ``sgprep negatives`` output made from the
folder's ``our_captions.txt`` (or from ``captions`` rows, listed in ``captions_region_ids.txt``);
the readers write ``labels_reader_<name>.jsonl``; ``score`` and ``pairs`` read the folder as they
read a packed round, and ``pack`` turns it into the three files above (then delete the folder).
"""

from __future__ import annotations

import argparse
import collections
import csv
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROUNDS = HERE / "rounds"
FACTUAL = HERE.parents[2] / "shared" / "data" / "factual_test.csv"
QUESTIONS = ("fluent", "plausible", "false", "minimal")


def load(name: str, where: Path = HERE) -> list[dict]:
    return [json.loads(line) for line in (where / name).read_text().splitlines() if line]


def _regions(factual: Path) -> dict[str, str]:
    return {
        r["region_id"]: r["caption"].replace("\n", " ").strip()
        for r in csv.DictReader(factual.open())
    }


def load_round(name: str) -> tuple[list[dict], dict[str, list[dict]]]:
    """A round's pairs (sample and key fields together, in reading order) and each reader's
    labels (``{reader: [{"id", "fluent", "plausible", "false", "minimal", "note"}]}``), from its
    folder while it is in progress, else from ``rounds/NAME.jsonl``."""
    folder = HERE / name
    if (folder / "key.jsonl").exists():
        key = {k["id"]: k for k in load("key.jsonl", folder)}
        items = [{**key[s["id"]], **s} for s in load("sample.jsonl", folder)]
        labels = {
            p.stem.removeprefix("labels_"): load(p.name, folder)
            for p in sorted(folder.glob("labels_reader_*.jsonl"))
        }
        return items, labels
    items, labels = [], collections.defaultdict(list)
    for row in load(f"{name}.jsonl", ROUNDS):
        for reader, answers in row.pop("labels").items():
            label = {"id": row["id"], **{q: a == "1" for q, a in zip(QUESTIONS, answers)}}
            label["note"] = row.get("notes", {}).get(reader, "")
            labels[f"reader_{reader}"].append(label)
        row.pop("notes", None)
        items.append(row)
    return items, dict(sorted(labels.items()))


#: Rounds drawn from issue 32's measurement set, benchmarks/data/fresh_coco_style.txt (4,062
#: COCO-style captions written by helpers who saw nothing of the project), kept there once.
FRESH_ROUNDS = frozenset({"round10", "round11", "round12"})
FRESH = HERE.parent / "data" / "fresh_coco_style.txt"


def _written(name: str) -> list[str]:
    """The captions written for a round (its folder's, its packed file, the measurement set,
    else round 1's)."""
    for path in (
        HERE / name / "our_captions.txt",
        ROUNDS / f"{name}.captions.txt",
        FRESH if name in FRESH_ROUNDS else ROUNDS / "round1.captions.txt",
    ):
        if path.exists():
            return path.read_text().splitlines()
    return []


def pairs(factual: Path, name: str) -> list[dict]:
    regions = _regions(factual)
    ours = _written(name)
    out = []
    for item in load_round(name)[0]:
        src = item["true_from"]
        true = (
            ours[src["our_captions.txt"] - 1]
            if "our_captions.txt" in src
            else regions[src["factual_test.csv_region_id"]]
        )
        out.append({"id": item["id"], "true": true, "altered": item["altered"]})
    return out


def used_regions(factual: Path) -> set[str]:
    """Region ids of every test caption an earlier round showed to anyone: rounds 1 and 2 drew
    theirs from the rows listed in ``rounds/roundN.regions.txt``; a round in progress lists its
    own in its folder's ``captions_region_ids.txt``."""
    used = set()
    listed_files = [*ROUNDS.glob("*.regions.txt"), *HERE.glob("*/captions_region_ids.txt")]
    for listed in sorted(listed_files):
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


def score(name: str) -> dict:
    items, labels = load_round(name)
    key = {k["id"]: k for k in items}
    tables = {}
    for reader, answers in labels.items():
        agg: dict = collections.defaultdict(collections.Counter)
        for label in answers:
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
        tables[f"labels_{reader}"] = {f"{a}/{k}": dict(c) for (a, k), c in sorted(agg.items())}
    return tables


def pack(name: str) -> None:
    """Write a finished round's folder as ``rounds/NAME.jsonl`` (and its captions and regions)."""
    folder, out = HERE / name, ROUNDS / f"{name}.jsonl"
    if out.exists():
        sys.exit(f"{out} exists: a packed round is not packed again")
    items, labels = load_round(name)
    by_id = {r: {lab["id"]: lab for lab in answers} for r, answers in labels.items()}
    ROUNDS.mkdir(exist_ok=True)
    with out.open("w") as f:
        for item in items:
            row = {k: item[k] for k in ("id", "arm", "kind", "realisation", "key", "true_from")}
            row["altered"] = item["altered"]
            answers = {r.removeprefix("reader_"): by_id[r][item["id"]] for r in by_id}
            row["labels"] = {
                r: "".join("1" if a[q] else "0" for q in QUESTIONS) for r, a in answers.items()
            }
            notes = {r: a["note"] for r, a in answers.items() if a.get("note")}
            if notes:
                row["notes"] = notes
            f.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")
    for src, dst in (
        ("our_captions.txt", "captions.txt"),
        ("captions_region_ids.txt", "regions.txt"),
    ):
        if (folder / src).exists():
            (ROUNDS / f"{name}.{dst}").write_bytes((folder / src).read_bytes())
    print(f"wrote {out}; the folder {folder} can go", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["pairs", "score", "captions", "sample", "pack"])
    ap.add_argument("--factual", type=Path, default=FACTUAL)
    ap.add_argument("--round", default="round1", help="round1 ... round9, or a round's folder")
    ap.add_argument(
        "--output", type=Path, action="append", help="sample: an sgprep negatives output (repeat)"
    )
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--quota", type=int, default=QUOTA, help="sample: negatives per kind")
    args = ap.parse_args()
    where = HERE / args.round
    if args.what == "pairs":
        for p in pairs(args.factual, args.round):
            sys.stdout.write(json.dumps(p) + "\n")
        return
    if args.what == "captions":
        fresh_captions(args.factual, sys.stdout)
        return
    if args.what == "sample":
        where.mkdir(exist_ok=True)
        sample(args.output, where, args.seed, args.quota)
        return
    if args.what == "pack":
        pack(args.round)
        return
    cols = QUESTIONS + ("all four",)
    for reader, table in score(args.round).items():
        print(f"\n{reader}\n{'arm/kind':34} {'n':>4} " + " ".join(f"{c:>9}" for c in cols))
        for group, c in table.items():
            print(
                f"{group:34} {c['n']:4} " + " ".join(f"{100 * c[q] / c['n']:8.0f}%" for q in cols)
            )


if __name__ == "__main__":
    main()
