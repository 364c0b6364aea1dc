"""benchmarks/factual_splits.py: the named caption sets, the hand-written ``cc12m-held`` set
that only the benchmark reads, and its readable twin ``cc12m-rules`` (docs/benchmarks.md). The
checks look at the files' shape, never print the held set's captions or graphs."""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCH))

import factual_splits as fs  # noqa: E402

TRIPLE = re.compile(r"\( ([^,()]+) , ([^,()]+) , ([^,()]+) \)")


def _factual_csv(path: Path, n: int) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["caption", "scene_graph"])
        for i in range(n):
            w.writerow([f"a dog number {i} on a sofa", "( dog , on , sofa )"])


def test_cc12m_held_is_a_named_set_that_no_rule_writer_reads(tmp_path):
    for name, n in (("factual_test.csv", 4), ("factual_dev.csv", 6), ("factual_long_dev.csv", 2)):
        _factual_csv(tmp_path / name, n)
    sets = fs.caption_sets(tmp_path)
    assert len(sets["cc12m-held"]) == 100
    assert sets["cc12m-held"] == fs.read_rows(fs.OURS_HELD)
    assert "cc12m-held" not in fs.READABLE
    assert "cc12m" in fs.READABLE


def test_cc12m_rules_is_a_named_set_that_rule_writers_may_read(tmp_path):
    for name, n in (("factual_test.csv", 4), ("factual_dev.csv", 6), ("factual_long_dev.csv", 2)):
        _factual_csv(tmp_path / name, n)
    sets = fs.caption_sets(tmp_path)
    assert len(sets["cc12m-rules"]) == 100
    assert sets["cc12m-rules"] == fs.read_rows(fs.OURS_RULES)
    assert "cc12m-rules" in fs.READABLE


def _assert_long_graphs_in_factual_format(rows: list[dict[str, str]]) -> None:
    for row in rows:
        assert 20 <= len(row["caption"].split()) <= 40
        graph = row["scene_graph"]
        triples = TRIPLE.findall(graph)
        assert triples and " , ".join(f"( {s} , {p} , {o} )" for s, p, o in triples) == graph
        assert all(part == part.strip() and part for t in triples for part in t)


def test_cc12m_held_rows_are_long_graphs_in_factual_format_and_apart_from_cc12m():
    held = fs.read_rows(fs.OURS_HELD)
    read = {r["caption"] for r in fs.read_rows(fs.OURS)}
    captions = [r["caption"] for r in held]
    assert len(set(captions)) == len(captions)
    assert not read & set(captions)
    _assert_long_graphs_in_factual_format(held)
    assert sum("<PERSON>" in c for c in captions) == 10


def test_cc12m_rules_rows_are_long_graphs_in_factual_format_and_apart_from_both_other_sets():
    rules = fs.read_rows(fs.OURS_RULES)
    others = {r["caption"] for path in (fs.OURS, fs.OURS_HELD) for r in fs.read_rows(path)}
    captions = [r["caption"] for r in rules]
    assert len(set(captions)) == len(captions)
    # compared as sets only: nothing of the held set is printed, whatever the outcome
    shared = len(others & set(captions))
    assert shared == 0, "cc12m-rules shares captions with cc12m or cc12m-held"
    _assert_long_graphs_in_factual_format(rules)
    assert sum("<PERSON>" in c for c in captions) == 10
