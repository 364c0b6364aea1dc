"""tools/eval_diff.py: two ``sgprep eval`` reports compared caption by caption."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "eval_diff.py"


@pytest.fixture(scope="module")
def eval_diff():
    spec = importlib.util.spec_from_file_location("eval_diff", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GOLD = [
    {"caption": "a dog on a bed", "sg": "( dog , on , bed )"},
    {"caption": "a red car", "sg": "( car , is , red )"},
    {"caption": "a cat", "sg": "( cat )"},
]


def report(path: Path, gold: Path, items: list[dict]) -> Path:
    # spacy_model "" makes the tool's normaliser lowercase only (no spaCy needed here)
    path.write_text(json.dumps({"gold_file": str(gold), "spacy_model": "", "items": items}))
    return path


def item(caption: str, f1: float, missed=(), extra=()) -> dict:
    return {"caption": caption, "f1": f1, "missed": list(missed), "extra": list(extra)}


def test_counts_and_lists_better_and_worse(eval_diff, tmp_path, capsys):
    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(json.dumps(g) + "\n" for g in GOLD))
    before = report(
        tmp_path / "before.json",
        gold,
        [
            item("a dog on a bed", 0.5, missed=[["dog", "on", "bed"]]),
            item("a red car", 1.0),
            item("a cat", 1.0),
        ],
    )
    after = report(
        tmp_path / "after.json",
        gold,
        [
            item("a dog on a bed", 1.0),
            item("a red car", 0.67, extra=[["car", "is", "big"]]),
            item("a cat", 1.0),
        ],
    )
    assert eval_diff.main([str(before), str(after), "--show", "worse"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 captions: 1 better, 1 worse, 1 same")
    assert "'a red car'" in out and "'a dog on a bed'" not in out
    assert "after: car; car | is | big (x); car | red" in out  # rebuilt: gold - missed + extra
    assert "before: car; car | red" in out


def test_reports_of_other_captions_are_refused(eval_diff, tmp_path):
    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(json.dumps(g) + "\n" for g in GOLD))
    one = report(tmp_path / "one.json", gold, [item("a cat", 1.0)])
    other = report(tmp_path / "other.json", gold, [item("a dog on a bed", 1.0)])
    assert eval_diff.main([str(one), str(other)]) == 2
