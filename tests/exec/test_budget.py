"""No input stops a run: the time budget per sample (exec/budget.py), a parser of the user's
own by entry point, and runs that did nothing are no success.

The parser that hangs is a real plug-in (``--parser module:Class``) written into a folder on
the import path, so that every worker imports it as a lab's own parser would be: on
"sleep forever" it sleeps (Python, interruptible), on "spin in C" it loops in C code that
holds the interpreter's lock and never looks at signals (only the hard guard ends it).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from sgprep import api
from sgprep.errors import RunIncomplete
from tests.conftest import index_rows, run_cli

PLUGIN = textwrap.dedent(
    '''
    """A lab's own parser: one entity per caption, its first word."""
    import collections
    import itertools
    import time

    from sgprep.parse.base import Parser
    from sgprep.schema import Entity, SceneGraph


    class StuckParser(Parser):
        def parse_batch(self, captions):
            out = []
            for caption in captions:
                if "sleep forever" in caption:
                    time.sleep(10**6)
                if "spin in c" in caption:
                    collections.deque(itertools.count(), maxlen=0)  # C, never returns
                word = caption.split()[0]
                out.append(SceneGraph(entities=[Entity(text=word, head=word)], parser=self.name))
            return out


    class NotAParser:
        pass
    '''
)


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """The module ``lab_parsers`` on the import path of this process and of its workers."""
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "lab_parsers.py").write_text(PLUGIN)
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")])
    )
    sys.modules.pop("lab_parsers", None)
    return "lab_parsers:StuckParser"


def _captions(tmp_path: Path, stuck: str, n: int = 12) -> Path:
    table = tmp_path / "captions.txt"
    lines = [f"caption{i} of a dog" for i in range(n)]
    lines[5] = f"stuck {stuck} here"
    table.write_text("\n".join(lines) + "\n")
    return table


def _reasons(out: Path) -> dict[str, tuple[str, str | None]]:
    return {r["key"]: (r["status"], r["reason"]) for r in index_rows(out)}


@pytest.mark.parametrize("workers", [1, 2])
def test_a_parser_that_sleeps_forever_gives_a_timeout_row_and_the_run_goes_on(
    tmp_path, plugin, workers
):
    table = _captions(tmp_path, "sleep forever")
    out = tmp_path / "out"
    started = time.monotonic()
    result = run_cli(
        "parse", "-i", table, "-o", out, "--parser", plugin, "--sample-timeout", "1",
        "--workers", workers, "--shard-size", "4", "--batch-size", "4",
        "--max-timeout-share", "1", "--no-progress",
    )  # fmt: skip
    assert time.monotonic() - started < 60
    rows = {r["key"]: r for r in index_rows(out)}
    failed = {k: r for k, r in rows.items() if r["status"] == "failed"}
    assert list(failed) == ["000000005"]
    row = failed["000000005"]
    assert (row["stage"], row["reason"]) == ("parse", "timeout")
    assert "stuck sleep forever here" in row["error"] and "000000005" in row["error"]
    assert len(rows) == 12  # the others of its batch were parsed one at a time
    assert "timeout" in result.output  # the summary counts it
    assert not (out / "_meta" / "budget").exists()  # nothing of the budget's is left


def test_a_parser_stuck_in_c_code_is_ended_and_its_sample_fails_as_timeout(
    tmp_path, plugin, caplog
):
    """Code that holds the interpreter's lock and never returns: no signal handler runs.
    faulthandler's C thread ends the worker; the next tries split the batch, then fail the
    sample without running it; the shard is retried without counting a failed try."""
    table = _captions(tmp_path, "spin in c")
    out = tmp_path / "out"
    result = run_cli(
        "parse", "-i", table, "-o", out, "--parser", plugin, "--sample-timeout", "1",
        "--workers", "1", "--shard-size", "6", "--batch-size", "3",
        "--max-timeout-share", "1", "--no-progress",
    )  # fmt: skip
    reasons = _reasons(out)
    assert reasons.pop("000000005") == ("failed", "timeout")
    assert set(reasons.values()) == {("ok", None)} and len(reasons) == 11
    row = next(r for r in index_rows(out) if r["key"] == "000000005")
    assert "could not be interrupted" in row["error"]
    assert not (out / "_meta" / "failed_shards.json").exists()
    said = [r.getMessage() for r in caplog.records if "could not be interrupted" in r.getMessage()]
    assert len(said) == 2  # the batch of 3, then the sample alone; with where it was stuck
    assert "a batch of 3 samples" in said[0] and "sample 000000005" in said[1]
    assert "lab_parsers.py" in said[1] and "parse_batch" in said[1]
    assert "timeout" in result.output


def test_too_many_timeouts_end_the_run_with_an_error(tmp_path, plugin):
    table = _captions(tmp_path, "sleep forever")
    out = tmp_path / "out"
    result = run_cli(
        "parse", "-i", table, "-o", out, "--parser", plugin, "--sample-timeout", "1",
        "--workers", "1", "--no-progress", ok=False,
    )  # fmt: skip
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert "1 of 12 samples (8.3%) ran over the time budget" in text
    assert "--max-timeout-share 0.01" in text
    assert len(index_rows(out)) == 12  # the output is there, the failures in the index


def test_the_budget_is_a_run_setting_of_a_pipeline_yaml_and_of_set(tmp_path, plugin):
    table = _captions(tmp_path, "sleep forever", n=6)
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text(
        f"input: {table}\noutput: {tmp_path / 'out'}\nsample_timeout: 1000\n"
        f"max_timeout_share: 1\nstages:\n  parse: {{parser: '{plugin}'}}\n"
    )
    run_cli("run", pipeline, "--set", "sample_timeout=1", "--no-progress")
    run = json.loads((tmp_path / "out" / "_meta" / "run.json").read_text())
    assert run["config"]["sample_timeout"] == 1
    assert _reasons(tmp_path / "out")["000000005"] == ("failed", "timeout")


def test_a_parser_of_ones_own_by_entry_point(tmp_path, plugin):
    table = tmp_path / "captions.txt"
    table.write_text("caption0 of a dog\ncaption1 of a cat\nstuck nothing here\n")
    run_cli("parse", "-i", table, "-o", tmp_path / "out", "--parser", plugin, "--no-progress")
    rows = index_rows(tmp_path / "out")
    assert [json.loads(r["sg"])["entities"][0]["head"] for r in rows] == [
        "caption0",
        "caption1",
        "stuck",
    ]
    assert json.loads(rows[0]["sg"])["parser"] == plugin
    wrong = run_cli(
        "parse", "-i", table, "-o", tmp_path / "o2", "--parser", "lab_parsers:NotAParser", ok=False
    )
    assert wrong.exit_code != 0 and "not a subclass of sgprep.parse.base.Parser" in wrong.output
    gone = run_cli("parse", "-i", table, "-o", tmp_path / "o3", "--parser", "no_such:X", ok=False)
    assert gone.exit_code != 0 and "cannot be imported" in gone.output


def test_a_run_where_every_sample_failed_exits_1(tmp_path, photos):
    """An image folder without captions through parse: every sample fails as no_caption."""
    folder = tmp_path / "images"
    folder.mkdir()
    for i, name in enumerate(["coffee", "chelsea", "astronaut"]):
        (folder / f"{i}.png").write_bytes(photos[name])
    result = run_cli("parse", "-i", folder, "-o", tmp_path / "out", "--no-progress", ok=False)
    assert result.exit_code == 1
    assert "3 of 3 samples failed (parse/no_caption 3): every sample failed" in " ".join(
        result.output.split()
    )
    assert {r["reason"] for r in index_rows(tmp_path / "out")} == {"no_caption"}
    with pytest.raises(RunIncomplete, match="every sample failed"):
        api.run(
            {
                "input": str(folder),
                "output": str(tmp_path / "api"),
                "stages": [{"name": "parse"}],
                "progress": False,
            }
        )
    run_cli(
        "parse", "-i", folder, "-o", tmp_path / "allowed", "--max-failed-share", "1",
        "--no-progress",
    )  # fmt: skip
    half = run_cli(
        "parse", "-i", folder, "-o", tmp_path / "share", "--max-failed-share", "0.5",
        "--no-progress", ok=False,
    )  # fmt: skip
    assert half.exit_code == 1 and "more than 0.5 failed" in " ".join(half.output.split())


def _children(pid: int) -> set[int]:
    """Every process whose parent chain leads to ``pid`` or that it left orphaned with the
    same session (what a run started: workers, the resource tracker)."""
    out = subprocess.run(["ps", "-eo", "pid=,ppid=,sid="], capture_output=True, text=True)
    rows = [tuple(map(int, line.split())) for line in out.stdout.splitlines() if line.strip()]
    session = {p: s for p, _, s in rows}.get(pid)
    return {p for p, _, s in rows if s == session and p != pid}


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
def test_no_process_of_a_run_outlives_a_kill_9_of_its_main_process(tmp_path, plugin, workers):
    table = _captions(tmp_path, "sleep forever", n=40)
    out = tmp_path / "out"
    command = [
        sys.executable, "-m", "sgprep.cli", "parse", "-i", str(table), "-o", str(out),
        "--parser", plugin, "--workers", str(workers), "--shard-size", "4",
        "--sample-timeout", "600", "--no-progress",
    ]  # fmt: skip
    main = subprocess.Popen(command, start_new_session=True, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(_children(main.pid)) < workers:
            time.sleep(0.2)
        started = _children(main.pid)
        assert len(started) >= workers  # the workers (and the resource tracker) run
        time.sleep(1)
        os.kill(main.pid, signal.SIGKILL)
        main.wait()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and _alive(started):
            time.sleep(0.1)
        assert not _alive(started)
    finally:
        if main.poll() is None:
            main.kill()
        for pid in _children(main.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


@pytest.mark.slow
def test_sigterm_stops_a_run_cleanly_and_a_rerun_resumes_to_the_same_bytes(tmp_path):
    from tests.exec.toy import output_bytes

    table = tmp_path / "c.txt"
    table.write_text("".join(f"a {i} red dog near a blue car\n" for i in range(3000)))
    reference = tmp_path / "reference"
    run_cli("parse", "-i", table, "-o", reference, "--shard-size", "100", "--no-progress")
    out = tmp_path / "out"
    command = [
        sys.executable, "-m", "sgprep.cli", "parse", "-i", str(table), "-o", str(out),
        "--workers", "2", "--shard-size", "100", "--no-progress",
    ]  # fmt: skip
    main = subprocess.Popen(command, start_new_session=True, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not list(out.glob("*_stats.json")):
        time.sleep(0.1)
    started = _children(main.pid)
    main.send_signal(signal.SIGTERM)
    _, err = main.communicate(timeout=60)
    assert main.returncode == 130 and "interrupted" in err
    time.sleep(1)
    assert not _alive(started)
    assert not (out / "_meta" / "lock").exists() or _unlocked(out)
    run_cli("parse", "-i", table, "-o", out, "--shard-size", "100", "--no-progress")
    assert output_bytes(out) == output_bytes(reference)


def _unlocked(out: Path) -> bool:
    import fcntl

    with open(out / "_meta" / "lock", "rb") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        fcntl.flock(fh, fcntl.LOCK_UN)
        return True


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as fh:
                if fh.read().split(") ")[-1].split()[0] != "Z":
                    alive.add(pid)
        except FileNotFoundError:
            pass
    return alive


@pytest.mark.slow
def test_on_ray_a_sleeping_and_a_spinning_sample_time_out_and_the_rest_is_parsed(tmp_path, plugin):
    pytest.importorskip("ray")
    table = tmp_path / "captions.txt"
    lines = [f"caption{i} of a dog" for i in range(12)]
    lines[2], lines[9] = "stuck sleep forever here", "stuck spin in c here"
    table.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    run_cli(
        "parse", "-i", table, "-o", out, "--parser", plugin, "--sample-timeout", "1",
        "--executor", "ray", "--workers", "2", "--shard-size", "6", "--batch-size", "3",
        "--max-timeout-share", "1", "--no-progress",
    )  # fmt: skip
    reasons = _reasons(out)
    assert reasons.pop("000000002") == ("failed", "timeout")
    assert reasons.pop("000000009") == ("failed", "timeout")
    assert set(reasons.values()) == {("ok", None)} and len(reasons) == 10


def test_overwrite_removes_what_a_killed_run_learned_and_it_teaches_the_next_nothing(tmp_path):
    """A flight record left by a killed run (a worker ended on sample 1) must not fail that
    key in the run that overwrites the output; while resuming the same run, it does."""
    table = tmp_path / "c.txt"
    table.write_text("a red dog\na blue car\na green kite\n")
    out = tmp_path / "out"
    run_cli("parse", "-i", table, "-o", out, "--no-progress")
    (out / "00000_stats.json").unlink()  # as if killed before the shard was done
    budget = out / "_meta" / "budget"
    budget.mkdir()
    record = {"stage": "parse", "keys": ["000000001"], "seconds": 61.0}
    flight = json.dumps(record) + "\nTimeout (0:01:31)!\nThread 0x1 (most recent call first):\n"
    (budget / "00000.flight").write_text(flight)
    run_cli("parse", "-i", table, "-o", out, "--no-progress", "--max-timeout-share", "1")
    assert _reasons(out)["000000001"] == ("failed", "timeout")  # resumed: it was learned
    assert not budget.exists()  # and the records went with the finished shard
    (out / "00000_stats.json").unlink()
    budget.mkdir()
    (budget / "00000.flight").write_text(flight)
    table.write_text("a red dog\na blue bus\na green kite\n")
    run_cli("parse", "-i", table, "-o", out, "--no-progress", "--overwrite", "--seed", "1")
    assert _reasons(out)["000000001"] == ("ok", None)
