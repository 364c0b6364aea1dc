"""One failure policy on every executor: a shard that fails is retried, then recorded in
_meta/failed_shards.json while the others finish; a rerun clears the record and does only
what is missing. Run with the toy stage, called through the executor directly."""

from __future__ import annotations

import json

import pytest

from sgprep import api
from sgprep.exec.ledger import ATTEMPTS, ShardLedger, ShardsFailed
from sgprep.exec.stage import StopRun
from tests.exec.toy import output_bytes, toy_config


def _policy(tmp_path, **executor):
    clean = api.run(toy_config(tmp_path, "clean", **executor))
    assert clean.shards_written == 3 and clean.shards_retried == 0
    # a shard that fails once is retried and ends as a clean run does
    (tmp_path / "state" / "fail_000000005").write_text("1")
    flaky = api.run(toy_config(tmp_path, "flaky", **executor))
    assert flaky.shards_retried == 1 and flaky.shards_written == 3
    assert output_bytes(tmp_path / "flaky") == output_bytes(tmp_path / "clean")
    assert not (tmp_path / "flaky" / "_meta" / "failed_shards.json").exists()
    # a shard that fails every try is recorded; the other shards are done
    (tmp_path / "state" / "fail_000000009").write_text("")
    with pytest.raises(ShardsFailed, match="1 shard"):
        api.run(toy_config(tmp_path, "broken", **executor))
    out = tmp_path / "broken"
    record = json.loads((out / "_meta" / "failed_shards.json").read_text())
    assert list(record) == ["00002"] and "toy failure on 000000009" in record["00002"]
    assert sorted(p.name for p in out.glob("*_stats.json")) == [
        "00000_stats.json",
        "00001_stats.json",
    ]
    tries = (tmp_path / "state" / "tries_000000009").read_text().splitlines()
    assert len(tries) == ATTEMPTS
    # mended, a rerun does only the missing shard and clears the record
    (tmp_path / "state" / "fail_000000009").unlink()
    again = api.run(toy_config(tmp_path, "broken", **executor))
    assert (again.shards_written, again.shards_skipped) == (1, 2)
    assert not (out / "_meta" / "failed_shards.json").exists()
    assert output_bytes(out) == output_bytes(tmp_path / "clean")
    timing = again.timing["toy"]
    assert timing["items"] == 4 and timing["wall_s"] >= 0 and timing["cpu_s"] >= 0


def test_one_failure_policy_in_process(tmp_path):
    _policy(tmp_path, workers=1)


def test_one_failure_policy_with_worker_processes(tmp_path):
    _policy(tmp_path, workers=2)


@pytest.mark.slow
def test_one_failure_policy_on_ray(tmp_path, monkeypatch):
    pytest.importorskip("ray")
    import os
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])  # so Ray's workers import tests.exec.toy
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    _policy(tmp_path, executor="ray", workers=2)


def test_fatal_errors_end_the_run_and_a_planted_record_link_is_left_alone(tmp_path):
    ledger = ShardLedger(tmp_path)
    with pytest.raises(StopRun):
        ledger.failure(0, StopRun("endpoint down"))
    assert ledger.failure(1, ValueError("x")) and ledger.retried == 1
    target = tmp_path / "elsewhere.json"
    target.write_text("keep")
    (tmp_path / "failed_shards.json").symlink_to(target)
    ShardLedger(tmp_path)
    assert target.read_text() == "keep" and (tmp_path / "failed_shards.json").is_symlink()


def test_timing_records_go_with_the_output_they_describe(tmp_path):
    """A finished JSONL output leaves no parts folder behind its timing records, and
    --overwrite removes the timing of the shards it removes."""
    config = toy_config(tmp_path, "graphs.jsonl", workers=1)
    api.run(config)
    assert (tmp_path / "graphs.jsonl").is_file()
    assert not (tmp_path / "graphs.jsonl.parts").exists()
    out = toy_config(tmp_path, "out", workers=1)
    api.run(out)
    timing = tmp_path / "out" / "_meta" / "timing"
    assert sorted(p.name for p in timing.iterdir()) == ["00000.json", "00001.json", "00002.json"]
    api.run({**out, "shard_size": 6, "overwrite": True})
    assert sorted(p.name for p in timing.iterdir()) == ["00000.json", "00001.json"]


def test_a_worker_that_dies_costs_a_try_not_the_run(tmp_path):
    """A worker process killed (SIGKILL, as the out-of-memory killer does) breaks the pool: a
    new pool takes over and the shard is retried; one that kills every try is recorded."""
    (tmp_path / "state").mkdir()
    api.run(toy_config(tmp_path, "clean", workers=2))
    (tmp_path / "state" / "kill_000000005").write_text("")
    once = api.run(toy_config(tmp_path, "once", workers=2))
    assert once.shards_written == 3 and once.shards_retried >= 1
    assert not (tmp_path / "state" / "kill_000000005").exists()
    assert output_bytes(tmp_path / "once") == output_bytes(tmp_path / "clean")
    (tmp_path / "state" / "kill_000000009").write_text("always")
    with pytest.raises(ShardsFailed, match="1 shard"):
        api.run(toy_config(tmp_path, "always", workers=2))
    out = tmp_path / "always"
    record = json.loads((out / "_meta" / "failed_shards.json").read_text())
    assert list(record) == ["00002"] and "WorkerDied" in record["00002"]
    assert sorted(p.name for p in out.glob("*_stats.json")) == [
        "00000_stats.json",
        "00001_stats.json",
    ]
