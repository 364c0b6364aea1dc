"""Weights files, and the environment of ultralytics and onnxruntime: quiet, offline-safe,
nothing written into $HOME.

``quiet_environment()`` must run before the first ``import ultralytics`` or ``onnxruntime``:
ultralytics reads its switches at import time and writes a settings file into
``YOLO_CONFIG_DIR`` (by default under ``~/.config``) as soon as it is imported; onnxruntime
keeps a telemetry device id under ``~/.cache/Microsoft`` unless ``ORT_DISABLE_TELEMETRY`` is set.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

from sgprep.parse.base import ModelUnavailable


def cache_dir() -> Path:
    """sgprep's own cache folder: $SGPREP_CACHE, else $XDG_CACHE_HOME/sgprep, else ~/.cache/sgprep."""
    if os.environ.get("SGPREP_CACHE"):
        return Path(os.environ["SGPREP_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "sgprep"


def _writable_dir(path: Path) -> Path:
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=path, prefix=".probe-")
        probe.close()
        return path
    except OSError:
        return Path(tempfile.mkdtemp(prefix="sgprep-"))


def quiet_environment() -> None:
    """Switch off ultralytics' chatter, downloads-at-import and pip auto-installs, keep its
    settings file in sgprep's cache, and switch off onnxruntime's telemetry. A setting the
    user made explicitly wins."""
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    if "ultralytics" not in sys.modules:
        os.environ.setdefault("YOLO_VERBOSE", "False")
        os.environ.setdefault("YOLO_OFFLINE", "1")
        os.environ.setdefault("YOLO_AUTOINSTALL", "False")
        if "YOLO_CONFIG_DIR" not in os.environ:
            os.environ["YOLO_CONFIG_DIR"] = str(_writable_dir(cache_dir() / "ultralytics"))


def load_yolo(weights: str):
    """An ultralytics YOLO model from a local file (or a name it can fetch when online)."""
    quiet_environment()
    from ultralytics import YOLO

    return YOLO(str(resolve_weights(weights)))


def resolve_weights(weights: str) -> Path:
    """The weights file to load. A name that is no file here is tried in sgprep's cache folder;
    failing that, ultralytics may fetch it only when not offline."""
    path = Path(weights).expanduser()
    if path.is_file():
        return path.resolve()
    cached = cache_dir() / "weights" / path.name
    if cached.is_file():
        return cached
    if os.environ.get("YOLO_OFFLINE", "").lower() in ("1", "true") or path.parent != Path("."):
        raise ModelUnavailable(
            f"detector weights {weights!r} not found (looked at {path} and {cached}) and "
            "downloads are off. Supply a local file with --weights PATH (for example a "
            f"yolov9c.pt copied from a machine with internet), or put it at {cached}. "
            "Set YOLO_OFFLINE=0 to let ultralytics download official weights by name.")
    return _fetch_by_name(path.name, cached)


def _fetch_by_name(name: str, cached: Path) -> Path:
    """Online only: ultralytics downloads official weights; keep them in sgprep's cache."""
    quiet_environment()
    from ultralytics.utils.downloads import attempt_download_asset

    cached.parent.mkdir(parents=True, exist_ok=True)
    try:
        got = Path(attempt_download_asset(str(cached)))
    except Exception as exc:  # network errors come in many types
        raise ModelUnavailable(
            f"could not download detector weights {name!r}: {exc}. Supply a local file with "
            "--weights PATH") from exc
    if not got.is_file():
        raise ModelUnavailable(f"detector weights {name!r} unavailable; use --weights PATH")
    return got


@lru_cache(maxsize=16)
def _sha256_cached(path: str, size: int, mtime_ns: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def sha256_file(path: Path) -> str:
    stat = path.stat()
    return _sha256_cached(str(path), stat.st_size, stat.st_mtime_ns)


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
