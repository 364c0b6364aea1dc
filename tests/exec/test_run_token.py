"""A worker that outlives its run (its driver was killed) writes nothing into the output:
a shard's files are written only while the output's lock holds the worker's run token."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sgprep import api
from sgprep.io.writer_base import RunEnded
from sgprep.io.writers import make_writer
from sgprep.schema import Sample
from tests.exec.toy import toy_config

ROOT = Path(__file__).resolve().parents[2]


def _samples() -> list[Sample]:
    return [Sample(key=f"k{i}", source="t", caption=f"caption {i}") for i in range(3)]


def _worker(out: Path, token: str):
    writer = make_writer(out)
    writer.join(token)
    return writer


def test_a_worker_of_a_run_that_ended_writes_nothing(tmp_path):
    out = tmp_path / "o"
    first = make_writer(out)
    first.prepare({"settings": {"run": 1}}, "one", overwrite=False)
    worker = _worker(out, first.token)
    with worker.publishing():  # its run holds the output: the worker writes
        sink = worker.open_shard(0)
        sink.add(_samples())
        sink.close({})
    assert worker.is_done(0)
    with worker.publishing():
        sink = worker.open_shard(1)
    sink.add(_samples())
    first.release()  # the driver is gone
    with pytest.raises(RunEnded, match="no longer holds"):
        with worker.publishing():
            sink.close({})
    # another run takes the output (--overwrite: it deletes the first run's shards)
    second = make_writer(out)
    second.prepare({"settings": {"run": 2}}, "two", overwrite=True)
    assert second.token != first.token
    with pytest.raises(RunEnded, match="another run"):
        with worker.publishing():
            sink.close({})
    with pytest.raises(RunEnded):
        with worker.publishing():
            worker.open_shard(2)
    # nothing under a final name (its temp file is the next worker's of that shard to replace)
    assert [p.name for p in out.iterdir() if p.is_file() and not p.name.startswith(".")] == []
    mine = _worker(out, second.token)
    with mine.publishing():
        sink = mine.open_shard(0)
        sink.add(_samples())
        sink.close({})
    assert mine.is_done(0) and not mine.is_done(1)
    second.release()


def _config(tmp_path, out: str, state: Path, **overrides) -> dict:
    return toy_config(tmp_path, out, state=state, settings=overrides.pop("toy", {}), **overrides)


def _wait_for(path: Path, seconds: float = 300) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _files(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.is_file()}


@pytest.mark.slow
def test_a_killed_driver_leaves_no_worker_to_write_into_the_next_run(tmp_path):
    """The driver of run 1 is killed while a worker process holds shard 0: the worker ends
    with it (its parent-death signal), so nothing of run 1 reaches the output of run 2, which
    takes it over (--overwrite, other settings). A worker that outlived its run would still
    write nothing: its token no longer holds the lock (the tests above)."""
    one, two = tmp_path / "state1", tmp_path / "state2"
    config_one = _config(tmp_path, "out", one, workers=2, toy={"mark": "|run one"})
    (one / "hold_000000001").write_text("")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    driver = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import json, sys; from sgprep import api; api.run(json.loads(sys.argv[1]))",
            json.dumps(config_one),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _wait_for(one / "held_000000001")
    worker = int((one / "held_000000001").read_text())
    driver.kill()
    driver.wait()
    deadline = time.monotonic() + 5
    while _running(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(worker), "the worker outlived its killed driver"
    (one / "hold_000000001").unlink()

    two.mkdir(exist_ok=True)
    result = api.run(_config(tmp_path, "out", two, workers=1, overwrite=True))
    assert result.shards_written == 3
    api.run(_config(tmp_path, "clean", two, workers=1))
    assert _files(tmp_path / "out") == _files(tmp_path / "clean")
    assert b"run one" not in b"".join(_files(tmp_path / "out").values())


def _running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's zombie waits for a reaper that may never come)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rpartition(") ")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False
