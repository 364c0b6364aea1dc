"""The Ray executor: the same shards as a local run, a killed actor costs a retry, not a sample."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import index_rows, run_cli
from tests.exec.test_core import CAPTIONS, digest

pytest.importorskip("ray")
pytestmark = pytest.mark.slow


def _actor_pids() -> list[int]:
    pids = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if b"_ShardActor" in (proc / "cmdline").read_bytes():
                    pids.append(int(proc.name))
            except OSError:
                continue
    return pids


@pytest.fixture
def table(tmp_path) -> Path:
    path = tmp_path / "captions.txt"
    path.write_text("\n".join(CAPTIONS * 10) + "\n")  # 200 captions
    return path


def test_ray_writes_the_bytes_of_a_local_run_and_survives_a_killed_actor(tmp_path, table):
    args = ("--shard-size", "10", "--no-progress")
    run_cli("parse", "-i", table, "-o", tmp_path / "local", "--workers", "1", *args)

    killed: list[int] = []

    def kill_an_actor_mid_run() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            done = list((tmp_path / "ray").glob("*_stats.json"))
            pids = _actor_pids()
            if len(done) >= 2 and pids:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])
                return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_an_actor_mid_run, daemon=True)
    killer.start()
    result = run_cli(
        "parse", "-i", table, "-o", tmp_path / "ray", "--executor", "ray", "--workers", "2", *args
    )
    killer.join()
    assert killed, "the actor was never seen running"
    assert "output: samples" in result.output
    assert digest(tmp_path / "ray") == digest(tmp_path / "local")
    assert len(index_rows(tmp_path / "ray")) == 200


def test_a_killed_ray_driver_resumes_to_the_bytes_of_a_local_run(tmp_path, table):
    import subprocess
    import sys

    args = ["--shard-size", "10", "--no-progress"]
    run_cli("parse", "-i", table, "-o", tmp_path / "local", "--workers", "1", *args)
    out = tmp_path / "ray"
    cmd = [
        sys.executable,
        "-m",
        "sgprep.cli",
        "parse",
        "-i",
        str(table),
        "-o",
        str(out),
        "--executor",
        "ray",
        "--workers",
        "2",
        *args,
    ]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.monotonic() + 180
    while len(list(out.glob("*_stats.json"))) < 3 and time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the driver and the Ray instance it started
    proc.wait()
    done = len(list(out.glob("*_stats.json")))
    assert 3 <= done < 20, f"the kill should land mid-run, {done} shards were done"
    run_cli("parse", "-i", table, "-o", out, "--executor", "ray", "--workers", "2", *args)
    assert digest(out) == digest(tmp_path / "local")
