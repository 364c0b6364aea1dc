"""Weights offline, the ONNX export cache, and ultralytics/onnxruntime kept out of $HOME."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from sgprep.detect.base import DetectSettings, cuda_available, pick_backend
from sgprep.detect.stage import DetectStage
from sgprep.detect.weights import cache_dir, sha256_file
from sgprep.parse.base import ModelUnavailable


@pytest.mark.parametrize("weights", ["yolov9c.pt", "/nowhere/yolov9c.pt", "models/mine.pt"])
def test_missing_weights_offline_say_how_to_supply_them(weights, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SGPREP_OFFLINE", "1")  # never a download from a test
    stage = DetectStage(DetectSettings(weights=weights, backend="onnx"))
    with pytest.raises(ModelUnavailable, match="--weights PATH"):
        stage.setup()


def test_weights_in_sgprep_cache_are_found_by_name(fall_weights, tmp_path, monkeypatch):
    from sgprep.detect.weights import resolve_weights

    monkeypatch.chdir(tmp_path)
    cache = tmp_path / "cache"
    (cache / "weights").mkdir(parents=True)
    shutil.copyfile(fall_weights, cache / "weights" / "yolov9c.pt")
    monkeypatch.setenv("SGPREP_CACHE", str(cache))
    assert resolve_weights("yolov9c.pt") == cache / "weights" / "yolov9c.pt"


def test_onnx_export_is_cached_by_weights_hash(onnx_stage, fall_weights):
    sha = sha256_file(fall_weights)
    exported = cache_dir() / "onnx" / f"fall_detector-{sha[:16]}-any.onnx"  # rect inputs on CPU
    assert exported.is_file()
    assert [p.name for p in fall_weights.parent.iterdir() if p.suffix != ".pt"] == []
    assert [p.name for p in exported.parent.iterdir() if p.name.startswith(".")] == []
    before = exported.stat().st_mtime_ns
    again = DetectStage(DetectSettings(weights=str(fall_weights), backend="onnx"))
    again.setup()  # must reuse the export, not redo it
    again.teardown()
    assert exported.stat().st_mtime_ns == before


def test_nothing_lands_in_home_and_cached_onnx_needs_no_torch(onnx_stage, fall_weights, tmp_path):
    """In a fresh process with an empty HOME: ultralytics' settings go to sgprep's cache,
    onnxruntime writes no telemetry id, and a cached export is run without importing torch."""
    home, cache = tmp_path / "home", tmp_path / "cache"
    home.mkdir()
    shutil.copytree(cache_dir() / "onnx", cache / "onnx")  # the export onnx_stage made
    script = textwrap.dedent(f"""
        import sys
        from sgprep.detect.base import DetectSettings
        from sgprep.detect.stage import DetectStage
        stage = DetectStage(DetectSettings(weights={str(fall_weights)!r}, backend="onnx"))
        stage.setup()
        assert "torch" not in sys.modules and "ultralytics" not in sys.modules, "heavy import"
        from sgprep.detect.weights import load_yolo
        load_yolo({str(fall_weights)!r})  # imports ultralytics: its settings file is written
    """)
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in ("YOLO_CONFIG_DIR", "ORT_DISABLE_TELEMETRY", "XDG_CACHE_HOME", "XDG_CONFIG_HOME")
    }
    env.update(HOME=str(home), SGPREP_CACHE=str(cache))
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert list(home.rglob("*")) == []
    assert (cache / "ultralytics" / "Ultralytics" / "settings.json").is_file()
    assert "Ultralytics" not in run.stdout + run.stderr  # quiet


def test_backend_choice_and_resources():
    if not cuda_available():
        assert pick_backend(DetectSettings()) == "onnx"
        assert DetectStage().resources().gpus == 0.0
    assert pick_backend(DetectSettings(device="cpu")) == "onnx"
    assert pick_backend(DetectSettings(backend="torch", device="cpu")) == "torch"
    assert DetectStage(DetectSettings(backend="torch", device="cpu")).resources().gpus == 0.0
    assert DetectStage(DetectSettings(backend="onnx")).resources().gpus == 0.0


@pytest.mark.slow  # end to end: `make test` runs it, `make test-fast` does not
def test_the_onnx_export_writes_nothing_beside_weights_named_by_a_climbing_path(
    fall_weights, tmp_path, monkeypatch
):
    """Weights named ``../../victim/w.pt`` (a path that may point anywhere, /etc included):
    the export lands in sgprep's cache only, and a link planted as that cache's onnx folder
    is refused, not followed (issue 20, item 4)."""
    from tests.tree_hash import tree_hash

    victim = tmp_path / "victim"
    victim.mkdir()
    shutil.copyfile(fall_weights, victim / "w.pt")
    before = tree_hash(victim)
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setenv("SGPREP_CACHE", str(cache))
    (cache / "onnx").symlink_to(victim)
    stage = DetectStage(DetectSettings(weights="../../victim/w.pt", backend="onnx"))
    with pytest.raises(OSError, match="symbolic link"):
        stage.setup()
    assert tree_hash(victim) == before
    (cache / "onnx").unlink()
    stage.setup()
    stage.teardown()
    assert tree_hash(victim) == before
    assert [p.suffix for p in (cache / "onnx").iterdir()] == [".onnx"]
