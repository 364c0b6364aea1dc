"""Are the rule parser's graphs the same bytes as before? Save them once, check after each change.

    python tools/rules_identity.py save /tmp/wt33-baseline    # on the code before the change
    python tools/rules_identity.py check /tmp/wt33-baseline   # on the code after it

Parses the FACTUAL test, dev and long dev captions (shared/data, as
``benchmarks/factual_splits.py`` finds it) with ``--parser spacy`` in each configuration of
:data:`RUNS`: every family on in both predicate forms, and a few sets of families switched off
through the parse setting ``rules_off``, and each graph's FACTUAL string form (``--runs each``: every family switched off alone,
one run each, some eight minutes; ``one_<family>``: that family alone). Each configuration's graphs (one JSON line each) go to
``<DIR>/<run>.jsonl``, their FACTUAL strings (plain and with ids) to ``<DIR>/<run>.factual``
where the folder has them; ``check`` compares them byte for byte with the saved ones, prints the
first caption that differs in each run that does, and exits 1 if any does.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout
sys.path.insert(0, str(ROOT / "tools"))
from rule_graphs import SETS, captions  # noqa: E402

#: run name -> (predicate form, families switched off)
RUNS: dict[str, tuple[str, tuple[str, ...]]] = {
    "lemma": ("lemma", ()),
    "surface": ("surface", ()),
    "off_text": ("lemma", ("noise", "web_noise", "shorthand", "spell")),
    "off_names": ("lemma", ("spans", "names", "conventions", "attach", "with", "plurals")),
    "off_repairs": (
        "lemma",
        ("fragments", "verbs", "clauses", "subjects", "coordination", "as_clauses", "lists"),
    ),
    "off_words": (
        "lemma",
        ("spellings", "or_lists", "colours", "pronouns", "places", "reciprocal", "counts", "parts"),
    ),
    "off_roots": ("lemma", ("as_roots", "clause_verbs", "ing_objects", "owned_parts", "frames")),
    "off_all": ("lemma", ("*",)),
}


def graphs(form: str, off: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """One JSON line per caption of :data:`SETS`, parsed with ``off`` switched off, and one
    line of its FACTUAL strings."""
    from sgprep.parse.base import ParserSettings, make_parser
    from sgprep.parse.factual_format import to_factual
    from sgprep.parse.families import FAMILIES

    names = sorted(FAMILIES) if off == ("*",) else list(off)
    parser = make_parser("spacy", ParserSettings(predicate_form=form, rules_off=names))
    parser.setup()
    lines, factual = [], []
    for name in SETS:
        for graph in parser.parse_batch(captions(name)):
            text = graph.model_dump_json() if hasattr(graph, "model_dump_json") else repr(graph)
            lines.append(f"{name}\t{text}\n")
            if hasattr(graph, "entities"):
                factual.append(f"{to_factual(graph)}\t{to_factual(graph, ids=True)}\n")
            else:
                factual.append("\n")
    return lines, factual


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("action", choices=("save", "check"))
    ap.add_argument("folder", type=Path)
    ap.add_argument(
        "--runs",
        default=",".join(RUNS),
        help="comma-separated names of RUNS, or 'each': every family switched off alone",
    )
    args = ap.parse_args()
    if args.runs == "each":
        from sgprep.parse.families import FAMILIES

        for family in sorted(FAMILIES):
            RUNS[f"one_{family}"] = ("lemma", (family,))
        args.runs = ",".join(f"one_{family}" for family in sorted(FAMILIES))
    args.folder.mkdir(parents=True, exist_ok=True)
    differ = 0
    for run in args.runs.split(","):
        form, off = RUNS.get(run) or ("lemma", (run.removeprefix("one_"),))  # one_<family>
        lines, factual = graphs(form, off)
        for suffix, text in ((".jsonl", "".join(lines)), (".factual", "".join(factual))):
            path = args.folder / f"{run}{suffix}"
            if args.action == "save":
                path.write_text(text, encoding="utf-8")
                print(f"{run}{suffix}: {text.count(chr(10))} lines saved")
                continue
            if not path.exists():
                continue
            saved = path.read_text(encoding="utf-8")
            if saved == text:
                print(f"{run}{suffix}: {text.count(chr(10))} lines, identical")
                continue
            differ += 1
            for k, (a, b) in enumerate(zip(saved.splitlines(), text.splitlines())):
                if a != b:
                    print(f"{run}{suffix}: DIFFERS at line {k + 1}\n  before: {a}\n  after:  {b}")
                    break
            else:
                print(f"{run}{suffix}: DIFFERS in length ({len(saved)} vs {len(text)} characters)")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
