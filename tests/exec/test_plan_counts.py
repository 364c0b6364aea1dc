"""Each shard task of a plan counts the samples from its first up to the next task's first."""

from __future__ import annotations

from sgprep.exec.plan import make_plan
from sgprep.io.writers import ShardWriter


def test_task_counts_and_segments(tmp_path):
    table = tmp_path / "captions.csv"
    captions = ["a red car", "a dog", "two cats", "a cup", "a dog", "a kite", "a tree"]
    table.write_text("key,caption\n" + "".join(f"k{i % 6},{c}\n" for i, c in enumerate(captions)))
    out = tmp_path / "out"
    (out / "_meta").mkdir(parents=True)
    plan = make_plan(str(table), None, 3, None, ShardWriter(out))
    assert plan.samples == len(captions)
    assert [(t.index, t.first, t.count) for t in plan.tasks] == [(0, 0, 3), (1, 3, 3), (2, 6, 1)]
    assert [sum(s[2] for s in t.segments) for t in plan.tasks] == [3, 3, 1]
    assert plan.tasks[2].duplicates == [6]  # k0 again
    (tmp_path / "o2" / "_meta").mkdir(parents=True)
    limited = make_plan(str(table), None, 3, 4, ShardWriter(tmp_path / "o2"))
    assert [(t.first, t.count) for t in limited.tasks] == [(0, 3), (3, 1)]


def test_the_same_input_spelled_another_way_resumes(tmp_path, monkeypatch):
    """Issue 34: a run started on /abs/data/c.txt resumes from /abs as data/c.txt (or
    ./data/../data/c.txt); a changed file is still refused."""
    from tests.conftest import run_cli

    data = tmp_path / "data"
    data.mkdir()
    table = data / "c.txt"
    table.write_text("a red cube\na dog under a table\n")
    out = tmp_path / "out"
    run_cli("parse", str(table), "-o", out, "--shard-size", "1", "--no-progress")
    monkeypatch.chdir(tmp_path)
    for spelling in ("data/c.txt", "./data/../data/c.txt"):
        run_cli("parse", spelling, "-o", "out", "--shard-size", "1", "--no-progress")
    table.write_text("a red cube\na dog under a table\na cat\n")
    changed = run_cli("parse", "data/c.txt", "-o", "out", "--shard-size", "1", ok=False)
    assert changed.exit_code != 0 and "the input changed" in changed.output
