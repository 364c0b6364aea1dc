"""The console script ends without Python's teardown, and otherwise as Python would: the exit
handlers run, what was printed is flushed, the status is the command's; with a thread that
Python would wait for, or a status that is not a number, Python exits its own way."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PRELUDE = """
import atexit, sys, threading, time
class Noisy:
    def __del__(self):
        print("torn down", flush=True)
keep = Noisy()  # freed only by the interpreter's teardown
atexit.register(lambda: print("exit handler", flush=True))
"""


def _run(body: str, *args: str) -> subprocess.CompletedProcess:
    code = PRELUDE + body + "\nfrom sgprep.cli import entry\nsys.argv = ['sgprep', *sys.argv[1:]]\n"
    code += "entry()\n"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_a_command_ends_with_its_output_and_exit_handlers_but_no_teardown():
    done = _run("", "--version")
    assert done.returncode == 0
    assert done.stdout.splitlines()[1:] == ["exit handler"]  # after the version
    assert "torn down" not in done.stdout


def test_a_failed_command_keeps_its_status_and_message(tmp_path):
    done = _run("", "negatives", "-i", str(tmp_path / "missing"), "-o", str(tmp_path / "o"))
    assert done.returncode == 2
    assert "error:" in done.stderr
    assert done.stdout.splitlines() == ["exit handler"]


def test_a_thread_python_would_wait_for_gets_python_s_own_exit():
    # alive until the main thread ends
    body = "main = threading.main_thread()\nthreading.Thread(target=main.join).start()\n"
    done = _run(body, "--version")
    assert done.returncode == 0
    assert done.stdout.splitlines()[1:] == ["exit handler", "torn down"]


def test_what_lives_at_start_up_is_frozen_and_the_collector_still_runs():
    body = (
        "import gc, atexit\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 1000, "
        "'enabled', gc.isenabled(), 'collects', gc.collect() >= 0, flush=True))\n"
    )
    done = _run(body, "--version")
    assert done.returncode == 0
    assert "frozen True enabled True collects True" in done.stdout
    # importing the CLI (as the tests and the library do) freezes nothing
    plain = subprocess.run(
        [sys.executable, "-c", "import gc, sgprep.cli; print(gc.get_freeze_count())"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert plain.stdout.strip() == "0"
