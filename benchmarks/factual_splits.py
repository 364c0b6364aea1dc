"""The caption sets the rule parser is measured on, and how the development sets are split.

FACTUAL's development captions (``shared/data/factual_dev.csv``: 3,000 of its train split;
``factual_long_dev.csv``: 471 of 11 words or more) are each cut once, by a seeded shuffle, into
- ``rules``: the part looked at while writing rules (read its errors freely);
- ``held``: the part only measured on, never read while writing rules.
The test split (``factual_test.csv``) is only measured on. ``long`` is the held part of both
development sets restricted to captions of ``LONG_WORDS`` words or more. ``cc12m`` is our own
hand-written set of CC12M-style alt-text captions with gold graphs
(``benchmarks/data/cc12m_style_gold.csv``), read while writing rules; ``cc12m-held``
(``benchmarks/data/cc12m_style_held_gold.csv``, docs/benchmarks.md) is a second hand-written set
in the same style that no rule writer reads: only measured on. ``cc12m-rules``
(``benchmarks/data/cc12m_style_rules_gold.csv``) is its readable twin: 100 more captions written
the same way and to the same conventions, which rule writers may read.

The split depends on nothing but the seed and each file's row order, so it is the same on any
machine: ``python benchmarks/factual_splits.py`` prints the sizes.
"""

from __future__ import annotations

import csv
import os
import random
import sys
from pathlib import Path


def _shared_data() -> Path:
    """``shared/data`` beside the checkout (or beside a folder above it, for a git worktree);
    ``SGPREP_FACTUAL_DATA`` overrides."""
    if os.environ.get("SGPREP_FACTUAL_DATA"):
        return Path(os.environ["SGPREP_FACTUAL_DATA"])
    for parent in Path(__file__).resolve().parents[1:]:
        if (parent / "shared" / "data").is_dir():
            return parent / "shared" / "data"
    return Path(__file__).resolve().parents[2] / "shared" / "data"


DATA = _shared_data()
OURS = Path(__file__).resolve().parent / "data" / "cc12m_style_gold.csv"
#: ours too, written apart from the rules and never read while writing them (docs/benchmarks.md)
OURS_HELD = Path(__file__).resolve().parent / "data" / "cc12m_style_held_gold.csv"
#: ours, written like ``OURS_HELD`` but for rule writers to read (docs/benchmarks.md)
OURS_RULES = Path(__file__).resolve().parent / "data" / "cc12m_style_rules_gold.csv"
#: fixed once, before any rule was written from the ``rules`` parts; never change it
SEED = 23
#: share of each development set that goes to ``rules``
RULES_SHARE = 0.5
#: a "long" caption has this many words or more
LONG_WORDS = 15


def read_rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return [
            {"caption": r["caption"], "scene_graph": r["scene_graph"]} for r in csv.DictReader(f)
        ]


def split(rows: list[dict[str, str]], seed: int = SEED) -> tuple[list[dict], list[dict]]:
    """(rules, held): a seeded shuffle of the row indices, the first ``RULES_SHARE`` to rules;
    each part keeps the file's order."""
    order = list(range(len(rows)))
    random.Random(seed).shuffle(order)
    cut = round(len(rows) * RULES_SHARE)
    rules, held = sorted(order[:cut]), sorted(order[cut:])
    return [rows[i] for i in rules], [rows[i] for i in held]


def is_long(caption: str) -> bool:
    return len(caption.split()) >= LONG_WORDS


def caption_sets(data: Path = DATA) -> dict[str, list[dict[str, str]]]:
    """Every named set: ``test``, ``dev-rules``, ``dev-held``, ``long-rules``, ``long-held``,
    ``long`` (15+ words from both held parts), ``cc12m`` (ours), ``cc12m-held`` (ours, unread), ``cc12m-rules`` (ours, its readable twin)."""
    dev_rules, dev_held = split(read_rows(data / "factual_dev.csv"))
    long_rules, long_held = split(read_rows(data / "factual_long_dev.csv"))
    seen = {r["caption"] for r in long_held}
    long = [r for r in long_held if is_long(r["caption"])]
    long += [r for r in dev_held if is_long(r["caption"]) and r["caption"] not in seen]
    return {
        "test": read_rows(data / "factual_test.csv"),
        "dev-rules": dev_rules,
        "dev-held": dev_held,
        "long-rules": long_rules,
        "long-held": long_held,
        "long": long,
        "cc12m": read_rows(OURS),
        "cc12m-held": read_rows(OURS_HELD),
        "cc12m-rules": read_rows(OURS_RULES),
    }


#: the sets a rule writer may read; everything else is only measured on
READABLE = ("dev-rules", "long-rules", "cc12m", "cc12m-rules")


def main() -> int:
    for name, rows in caption_sets().items():
        words = sum(len(r["caption"].split()) for r in rows) / max(len(rows), 1)
        tag = "read" if name in READABLE else "measure only"
        print(f"{name:10s} {len(rows):5d} captions, {words:4.1f} words on average ({tag})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
