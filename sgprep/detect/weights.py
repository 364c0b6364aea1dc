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

from sgprep.errors import ModelUnavailable


def cache_dir() -> Path:
    """sgprep's own cache folder: $SGPREP_CACHE, else $XDG_CACHE_HOME/sgprep, else ~/.cache/sgprep."""
    if os.environ.get("SGPREP_CACHE"):
        return Path(os.environ["SGPREP_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "sgprep"


def _writable_dir(path: Path) -> Path:
    from sgprep.io.safefs import make_dirs

    try:
        make_dirs(path)  # a link planted there is refused: a private temp folder instead
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

    _undo_pillow_patch()
    path = check_checkpoint(resolve_weights(weights))
    try:
        return YOLO(str(path))
    except Exception as exc:  # noqa: BLE001 - a damaged file fails in many ways inside torch
        raise ModelUnavailable(
            f"detector weights {path} cannot be loaded as a YOLO model "
            f"({type(exc).__name__}: {str(exc).strip()[:200]}); give "
            f"ultralytics .pt weights with --weights PATH"
        ) from None


#: How a PyTorch checkpoint starts: a zip archive (torch.save since 1.6), or the legacy
#: pickle format (protocol 2).
_CHECKPOINT_MAGIC = (b"PK\x03\x04", b"\x80\x02")


def check_checkpoint(path: Path) -> Path:
    """``path``, when it looks like a PyTorch checkpoint (read: its first bytes); a text file,
    an image or an empty file named ``.pt`` is a clear ModelUnavailable at start-up instead of
    a traceback from deep inside torch in every worker."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4)
    except OSError as exc:
        raise ModelUnavailable(f"detector weights {path} cannot be read: {exc.strerror}") from None
    if not head.startswith(_CHECKPOINT_MAGIC):
        raise ModelUnavailable(
            f"detector weights {path} are not a model: a PyTorch checkpoint "
            f"(.pt) is a zip archive, this file is not one. Give ultralytics "
            f"YOLO weights with --weights PATH"
        )
    return path


def _undo_pillow_patch() -> None:
    """Importing ultralytics replaces PIL.Image.open, process-wide, with a wrapper that turns an
    unidentifiable image into a pip install of a HEIF plugin (ModuleNotFoundError offline).
    sgprep's readers and decoder must see Pillow's own errors: put Pillow's function back."""
    from PIL import Image

    patches = sys.modules.get("ultralytics.utils.patches")
    original = getattr(patches, "_image_open", None)
    if original is not None and getattr(Image.open, "__module__", "").startswith("ultralytics"):
        Image.open = original


#: YOLO_OFFLINE as the user set it, before sgprep's default ("1": no connectivity probes)
_USER_YOLO_OFFLINE = os.environ.get("YOLO_OFFLINE", "")


def downloads_allowed() -> bool:
    """Weights may be fetched unless SGPREP_OFFLINE=1, or the user set YOLO_OFFLINE=1."""
    off = ("1", "true", "yes")
    return not (
        os.environ.get("SGPREP_OFFLINE", "").lower() in off or _USER_YOLO_OFFLINE.lower() in off
    )


def resolve_weights(weights: str) -> Path:
    """The weights file to load: a local file; else, for a bare name, the copy in sgprep's cache
    folder; else ultralytics downloads the official weights of that name into that folder
    (when online and allowed). Anything else is a clear ModelUnavailable."""
    path = Path(weights).expanduser()
    if path.is_file():
        return path.resolve()
    cached = cache_dir() / "weights" / path.name
    if cached.is_file():
        return cached
    how = (
        f"Supply a local file with --weights PATH (for example {path.name} copied from a "
        f"machine with internet), or put it at {cached}."
    )
    if path.parent != Path("."):
        raise ModelUnavailable(f"detector weights file {path} not found. {how}")
    if not downloads_allowed():
        raise ModelUnavailable(
            f"detector weights {weights!r} not found (looked at {path} and "
            f"{cached}) and downloads are off (SGPREP_OFFLINE or "
            f"YOLO_OFFLINE is set). {how}"
        )
    return _fetch_by_name(path.name, cached, how)


def _fetch_by_name(name: str, cached: Path, how: str) -> Path:
    """ultralytics downloads official weights by name; they are kept in sgprep's cache."""
    quiet_environment()
    from ultralytics.utils.downloads import attempt_download_asset

    from sgprep.io.safefs import make_dirs

    make_dirs(cached.parent)  # never downloaded through a link planted in the cache
    try:
        got = Path(attempt_download_asset(str(cached)))
    except Exception as exc:  # network errors come in many types
        raise ModelUnavailable(
            f"detector weights {name!r} are not here and could not be downloaded "
            f"({type(exc).__name__}: {str(exc).strip()[:200]}). {how}"
        ) from exc
    if not got.is_file():
        raise ModelUnavailable(f"detector weights {name!r} could not be downloaded. {how}")
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
