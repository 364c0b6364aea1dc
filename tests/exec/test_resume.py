"""Kill a run mid-shard with SIGKILL, rerun it, and get the bytes of an uninterrupted run."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # kills and reruns a 3,000-caption run: about two minutes

SUBJECTS = ["a red apple", "a man", "two dogs", "a wooden table", "a woman in blue", "a cat"]
PREDICATES = ["to the left of", "on top of", "next to", "under", "behind", "holding"]
OBJECTS = ["a blue car", "the sofa", "a green bowl", "a fire hydrant", "a white plate"]


def _captions(n: int) -> list[str]:
    out = []
    for i in range(n):
        s, p, o = (SUBJECTS[i % 6], PREDICATES[(i // 6) % 6], OBJECTS[(i // 36) % 5])
        out.append(f"{s} {p} {o} number {i}")
    return out


def _cmd(table: Path, out: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "sgprep.cli",
        "parse",
        "--input",
        str(table),
        "--output",
        str(out),
        "--shard-size",
        "200",
        "--no-progress",
    ]


def _digest(out: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(out.iterdir())
        if p.is_file()
    }


def test_killed_run_resumes_to_identical_bytes(tmp_path):
    table = tmp_path / "captions.txt"
    table.write_text("\n".join(_captions(3000)) + "\n")
    env = {**os.environ, "PYTHONHASHSEED": "0"}

    reference = tmp_path / "reference"
    subprocess.run(_cmd(table, reference), check=True, env=env, capture_output=True)

    out = tmp_path / "resumed"
    proc = subprocess.Popen(
        _cmd(table, out), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 120
    while len(list(out.glob("*_stats.json"))) < 3 and time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done_before = len(list(out.glob("*_stats.json")))
    assert 3 <= done_before < 15, f"the kill should land mid-run, {done_before} shards were done"

    rerun = subprocess.run(_cmd(table, out), env=env, capture_output=True, text=True)
    assert rerun.returncode == 0, rerun.stderr
    assert _digest(out) == _digest(reference)
    assert not list(out.glob(".*.tmp")), "temp files of the killed run are cleaned up"

    # A third run has nothing to do and changes nothing.
    again = subprocess.run(_cmd(table, out), env=env, capture_output=True, text=True)
    assert again.returncode == 0 and _digest(out) == _digest(reference)
    assert "15" in again.stderr  # every shard reported as already done
