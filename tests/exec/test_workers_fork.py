"""Worker processes forked after the stages are set up (their models loaded once), and the
progress count of retried shards."""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

import pytest

from sgprep import api
from tests.exec.toy import FORK_TOY, SETUP_TOY, TOY, output_bytes, toy_config

LINUX = pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="forks; reads /proc")


@pytest.fixture(autouse=True)
def _no_other_thread():
    """Workers fork only where no other thread runs (a lock it holds would stay held): a
    fixture of an earlier test that keeps threads (a detector's pools) must end them first."""
    for thread in threading.enumerate():
        if thread.name == "tqdm_monitor":  # progress bars' monitor an earlier library started
            thread.exit()
    others = [t.name for t in threading.enumerate() if t is not threading.main_thread()]
    assert not others, f"threads left running by earlier tests: {others}"


def _config(tmp_path: Path, out: str, stage: str = TOY, **overrides):
    """The toy run, one sample a batch, its progress printed at the end only."""
    overrides = {"progress": True, "progress_interval": 3600.0, **overrides}
    return toy_config(tmp_path, out, stage=stage, settings={"batch_size": 1}, **overrides)


def _final_progress(caplog) -> str:
    lines = [r.getMessage() for r in caplog.records if r.name == "sgprep.exec.local"]
    return [line for line in lines if "samples (" in line][-1]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_retried_shard_is_counted_once(tmp_path, caplog, workers):
    """Shard 1 counts its first sample, fails on its second, and is retried: the progress
    ends at 12 of 12 samples, not 13."""
    caplog.set_level(logging.INFO, logger="sgprep.exec.local")
    (tmp_path / "state" / "fail_000000005").parent.mkdir(exist_ok=True)
    (tmp_path / "state" / "fail_000000005").write_text("1")
    summary = api.run(_config(tmp_path, "flaky", workers=workers))
    assert summary.shards_retried == 1 and summary.shards_written == 3
    assert _final_progress(caplog).split()[1] == "12/12"


@LINUX
def test_forked_workers_share_the_stages_set_up_once(tmp_path):
    """A fork-safe stage is set up once, in the run's process; the workers run its batches
    without setting it up again, hold no descriptor on the output's lock, and write the bytes
    one process writes."""
    one = api.run(_config(tmp_path, "one", stage=FORK_TOY, workers=1))
    state = tmp_path / "state"
    for path in state.iterdir():
        path.unlink()
    two = api.run(_config(tmp_path, "two", stage=FORK_TOY, workers=2))
    assert (one.shards_written, two.shards_written, two.workers) == (3, 3, 2)
    assert [p.name for p in state.glob("setup_*")] == [f"setup_{os.getpid()}"]
    batches = list(state.glob("batch_*"))
    assert batches and f"batch_{os.getpid()}" not in {p.name for p in batches}
    assert all(p.read_text() == "" for p in batches)  # no worker holds the lock
    assert output_bytes(tmp_path / "two") == output_bytes(tmp_path / "one")


@LINUX
def test_a_stage_not_fork_safe_is_set_up_in_each_spawned_worker(tmp_path):
    """Each spawned worker that runs a shard sets the stage up itself; the run's process
    does not. (Which of the two workers takes which shard is the pool's choice: on a busy
    machine the first one up may take all three before the second has started.)"""
    summary = api.run(_config(tmp_path, "two", stage=SETUP_TOY, workers=2))
    state = tmp_path / "state"
    setups = {p.name.removeprefix("setup_") for p in state.glob("setup_*")}
    ran = {p.name.removeprefix("batch_") for p in state.glob("batch_*")}
    assert summary.workers == 2 and summary.shards_written == 3
    assert ran and ran <= setups and str(os.getpid()) not in setups | ran


def test_what_setup_made_is_frozen_while_shards_run(tmp_path, monkeypatch):
    """The stages' objects (a model) are moved out of the collector's reach while shards run,
    and given back when the run is over."""
    import gc

    from tests.exec.toy import SetupToyStage

    seen = []
    process_batch = SetupToyStage.process_batch

    def spy(self, batch):
        seen.append(gc.get_freeze_count())
        return process_batch(self, batch)

    monkeypatch.setattr(SetupToyStage, "process_batch", spy)
    before = gc.get_freeze_count()
    # in this process (no time budget): what the spy sees is seen here
    api.run(_config(tmp_path, "out", stage=SETUP_TOY, workers=1, progress=False, sample_timeout=0))
    assert seen and min(seen) > before
    assert gc.get_freeze_count() == before


@LINUX
def test_a_forked_worker_that_dies_is_replaced_and_counted_once(tmp_path, caplog):
    """SIGKILL in a forked worker breaks its pool: a new one is forked from the same set-up
    stages, the shard is done again, the bytes are a clean run's and the progress ends at
    12 of 12."""
    caplog.set_level(logging.INFO, logger="sgprep.exec.local")
    api.run(_config(tmp_path, "clean", stage=FORK_TOY, workers=1))
    (tmp_path / "state" / "kill_000000005").write_text("")
    caplog.clear()
    once = api.run(_config(tmp_path, "once", stage=FORK_TOY, workers=2))
    assert once.shards_written == 3 and once.shards_retried >= 1
    assert not (tmp_path / "state" / "kill_000000005").exists()
    assert output_bytes(tmp_path / "once") == output_bytes(tmp_path / "clean")
    assert _final_progress(caplog).split()[1] == "12/12"


@LINUX
def test_the_progress_bar_starts_no_thread_before_the_fork(tmp_path):
    """On a terminal, with workers, rich's bar is redrawn by the pool's loop (no refresh
    thread), so the workers are still forked; it ends at 12 of 12."""
    import io

    from rich.console import Console

    from sgprep.exec.local import LocalExecutor
    from sgprep.pipeline import make_config

    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=120)
    config = make_config(_config(tmp_path, "two", stage=FORK_TOY, workers=2))
    summary = LocalExecutor(config, console).run()
    assert summary.shards_written == 3
    assert [p.name for p in (tmp_path / "state").glob("setup_*")] == [f"setup_{os.getpid()}"]
    assert "12/12" in screen.getvalue()


def test_the_negatives_stage_forks_unless_it_holds_a_judge_client():
    from sgprep.negatives.stage import NegativesSettings, NegativesStage

    assert NegativesStage(NegativesSettings()).fork_safe
    judged = NegativesSettings(llm_judge={"enabled": True, "endpoint": "http://127.0.0.1:9/v1"})
    assert not NegativesStage(judged).fork_safe


@LINUX
def test_a_parse_and_negatives_chain_forks_and_writes_the_bytes_of_one_worker(
    tmp_path, monkeypatch
):
    from sgprep.exec.local import LocalExecutor

    runners = []
    forking = LocalExecutor._forking_runner

    def record(self, plan, cpus):
        runners.append(forking(self, plan, cpus))
        return runners[-1]

    monkeypatch.setattr(LocalExecutor, "_forking_runner", record)
    table = tmp_path / "c.txt"
    table.write_text(
        "".join(
            f"a {c} dog chasing a {d} ball on the grass\n"
            for c in ("brown", "black", "white")
            for d in ("red", "blue", "green", "small")
        )
    )

    def chain(out, workers, **run):
        return api.run(
            {
                "input": str(table),
                "output": str(tmp_path / out),
                "shard_size": 4,
                "stages": [
                    {"name": "parse", "settings": {"parser": "spacy"}},
                    {"name": "negatives", "settings": {"strategies": ["swap", "replace"]}},
                ],
            },
            workers=workers,
            progress=False,
            **run,
        )

    one, two = chain("one", 1, sample_timeout=0), chain("two", 2)  # one: in this process
    assert (one.shards_written, two.shards_written, two.workers) == (3, 3, 2)
    assert output_bytes(tmp_path / "two") == output_bytes(tmp_path / "one")
    assert len(runners) == 1 and runners[0] is not None  # the two workers were forked
