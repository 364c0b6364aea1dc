"""A run with worker processes leaves no process behind when it exits."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _session_members(sid: int) -> list[str]:
    """Processes of session ``sid`` (zombies included), from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()  # after "pid (comm)": state, ppid, pgrp, session
        if int(fields[3]) == sid:
            found.append(f"{entry.name} {stat[: stat.rfind(')') + 1]} {fields[0]}")
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_workers_leave_no_child_behind(tmp_path):
    table = tmp_path / "captions.csv"
    table.write_text("caption\n" + "".join(f"a red car on road {i}\n" for i in range(8)))
    run = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sgprep.cli",
            "parse",
            "-i",
            str(table),
            "-o",
            str(tmp_path / "out"),
            "--shard-size",
            "2",
            "--workers",
            "2",
            "--no-progress",
        ],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
    )
    _, err = run.communicate(timeout=300)
    assert run.returncode == 0, err[-3000:]
    assert _session_members(run.pid) == []  # every child was reaped before sgprep exited
    assert "leaked" not in err
