"""The rule parser on hand-written noisy alt text: how many graphs name noise as a thing.

    python tools/noise_audit.py                 # counts per category, then the WRONG graphs
    python tools/noise_audit.py --all           # every caption's FACTUAL tuples
    python tools/noise_audit.py --rules-off noise   # the same with a family off

Reads ``tests/data/noise_audit.jsonl`` (captions written for the audit of
``docs/rule-parser.md``, one JSON object a line: ``category``, ``caption``,
``forbid``, ``expect``, and ``round``: 2 for the captions written after the first fixes, to
measure them on text they were not written from). A graph is counted WRONG when a word of ``forbid`` (noise: "iso",
"jpg", "stock", a handle, a price) is an entity's head or a word of its text, an attribute,
its count or a word of a predicate. ``expect`` lists heads a sensible graph has; a graph that lacks some is
counted as missing them (not WRONG: an empty graph is allowed). Exits 1 when any is WRONG, so
that it can be rerun as a check.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout
CAPTIONS = ROOT / "tests" / "data" / "noise_audit.jsonl"


def load(path: Path = CAPTIONS) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _words(text: str) -> set[str]:
    return {w.strip(".,;:!?()'\"").lower() for w in text.split()} | {text.lower()}


def noise_named(graph, forbid: list[str]) -> list[str]:
    """The words of ``forbid`` that ``graph`` names as a thing, attribute or predicate."""
    if graph is None or not hasattr(graph, "entities"):
        return []
    named: set[str] = set()
    for entity in graph.entities:
        named |= _words(entity.head) | _words(entity.text)
        for attribute in entity.attributes:
            named |= _words(attribute)
        if entity.count is not None:
            named.add(str(entity.count))
    for relation in graph.relations:
        named |= _words(relation.predicate)
    return [word for word in forbid if word.lower() in named]


def audit(rows: list[dict], parser) -> list[dict]:
    graphs = parser.parse_batch([row["caption"] for row in rows])
    found = []
    for row, graph in zip(rows, graphs):
        ok = hasattr(graph, "entities")
        heads = set()
        for entity in graph.entities if ok else []:
            heads |= _words(entity.head) | _words(entity.text)
        found.append(
            {
                **row,
                "graph": graph,
                "wrong": noise_named(graph, row["forbid"]),
                "missing": [h for h in row["expect"] if h not in heads],
            }
        )
    return found


def main() -> int:
    from sgprep.parse.base import ParserSettings, make_parser
    from sgprep.parse.factual_format import to_factual

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--captions", type=Path, default=CAPTIONS)
    ap.add_argument("--all", action="store_true", help="print every caption's graph")
    ap.add_argument("--rules-off", default="", help="rule families to switch off: noise,spell")
    args = ap.parse_args()
    parser = make_parser("spacy", ParserSettings(rules_off=args.rules_off))
    parser.setup()
    results = audit(load(args.captions), parser)
    per = Counter(r["category"] for r in results)
    wrong = Counter(r["category"] for r in results if r["wrong"])
    empty = Counter(r["category"] for r in results if not getattr(r["graph"], "entities", None))
    print(f"{'category':<12}{'captions':>9}{'WRONG':>7}{'empty':>7}")
    for category in per:
        print(f"{category:<12}{per[category]:>9}{wrong[category]:>7}{empty[category]:>7}")
    print(f"{'all':<12}{sum(per.values()):>9}{sum(wrong.values()):>7}{sum(empty.values()):>7}")
    for round_ in sorted({r.get("round", 1) for r in results}):
        rows = [r for r in results if r.get("round", 1) == round_]
        bad = sum(bool(r["wrong"]) for r in rows)
        blank = sum(not getattr(r["graph"], "entities", None) for r in rows)
        print(f"{'round ' + str(round_):<12}{len(rows):>9}{bad:>7}{blank:>7}")
    for r in results:
        if r["wrong"] or args.all:
            graph = r["graph"]
            tuples = to_factual(graph) if hasattr(graph, "entities") else repr(graph)
            flag = f"WRONG {r['wrong']}" if r["wrong"] else "ok"
            print(f"\n[{r['category']}] {r['caption']!r}\n  {flag}  missing={r['missing']}"
                  f"\n  {tuples}")  # fmt: skip
    return 1 if sum(wrong.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
