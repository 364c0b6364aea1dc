"""What every detector backend provides, the shared letterbox, and the registry of backends.

A backend turns pre-processed images into raw detections; everything else (decoding, scaling
back to pixels, clipping, top-N, pairs) is shared, so the backends differ only in the network
and its NMS. ``prepare`` runs in the decoder's threads, ``infer`` in the stage's thread.

On a CPU the network runs one image at a time on one thread per stream, with one stream per
granted core (``Detector.streams``): a single-threaded run wastes no CPU on synchronising
threads (about 15 % cheaper per image than two threads on one run) and never oversubscribes
the cores the decoder and other workers share, and an image's boxes do not depend on the
images beside it or on the thread that ran it. See docs/detect.md, "Speed on a CPU".
"""

from __future__ import annotations

import glob
import os
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Literal

import numpy as np
from pydantic import Field, field_validator

from sgprep.config import Flag
from sgprep.exec.stage import StageSettings
from sgprep.registry import load_entry

PAD_VALUE = 114  # the grey ultralytics pads with; the models were trained on it
STRIDE = 32  # the detectors' largest stride: input sides must be multiples of it


class DetectSettings(StageSettings):
    """The detect stage's settings; one CLI flag each."""

    batch_size: int = Field(default=16, gt=0, description="Images per detector call.")
    weights: Annotated[str, Flag(path=True)] = Field(
        default="yolov9c.pt",
        description="Weights file (.pt); a bare name is looked up in "
        "~/.cache/sgprep/weights, else downloaded when online.",
    )
    backend: Literal["auto", "torch", "onnx"] = Field(
        default="auto", description="auto (onnx without CUDA, else torch) | torch | onnx."
    )
    device: str | None = Field(
        default=None, description="torch: cpu, cuda, cuda:1 (default: CUDA when present)."
    )
    conf: float = Field(
        default=0.25, ge=0.0, le=1.0, description="Minimum confidence of a kept box."
    )
    iou: float = Field(default=0.45, gt=0.0, le=1.0, description="NMS overlap threshold.")
    imgsz: int = Field(default=640, ge=32, description="Letterbox long side (a multiple of 32).")
    # None: on a CPU, not on CUDA (where whole square batches are faster than batches split
    # by shape)
    rect: bool | None = Field(
        default=None,
        description="Pad to multiples of 32 instead of squares (default: on CPU yes, on CUDA no).",
    )
    top_objects: int = Field(default=10, ge=0, description="N: objects kept per image, best first.")
    top_pairs: int = Field(default=10, ge=0, description="M: pair (union) boxes kept per image.")
    decode_workers: int = Field(
        default_factory=lambda: min(8, os.cpu_count() or 1),
        ge=1,
        description="Decoding threads (default: min(8, cores)).",
    )

    @field_validator("imgsz")
    @classmethod
    def _stride_multiple(cls, value: int) -> int:
        if value % STRIDE:
            raise ValueError(f"imgsz {value} is not a multiple of 32 (the detectors' stride)")
        return value


@dataclass(frozen=True)
class Letterboxed:
    """A model input (S x S x 3, uint8, RGB; backends move the channels first, the torch one
    on the GPU) and how it maps back to the decoded image."""

    hwc: np.ndarray
    ratio: float  # input pixels per decoded pixel
    pad: tuple[float, float]  # left and top padding, in input pixels


def letterbox(rgb: np.ndarray, size: int, rect: bool = False) -> Letterboxed:
    """Resize keeping the aspect ratio so the long side is ``size``; pad to ``size x size``,
    or with ``rect`` only up to the next multiples of 32.

    Either way the input depends on the image alone, never on the images sharing its batch."""
    import cv2

    h, w = rgb.shape[:2]
    ratio = min(size / h, size / w)
    new_w, new_h = max(1, round(w * ratio)), max(1, round(h * ratio))
    resized = (
        rgb
        if (new_w, new_h) == (w, h)
        else cv2.resize(rgb, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
    )
    width, height = (
        (-(-new_w // STRIDE) * STRIDE, -(-new_h // STRIDE) * STRIDE) if rect else (size, size)
    )
    left, top = (width - new_w) // 2, (height - new_h) // 2
    canvas = np.full((height, width, 3), PAD_VALUE, dtype=np.uint8)
    canvas[top : top + new_h, left : left + new_w] = resized
    return Letterboxed(hwc=canvas, ratio=ratio, pad=(float(left), float(top)))


def unletterbox(xyxy: np.ndarray, boxed: Letterboxed) -> np.ndarray:
    """Input-pixel boxes -> decoded-image pixel boxes."""
    out = xyxy.astype(np.float64, copy=True)
    out[:, [0, 2]] -= boxed.pad[0]
    out[:, [1, 3]] -= boxed.pad[1]
    return out / boxed.ratio


class Detector(ABC):
    """Letterboxed images -> per image an array (n, 6): x1, y1, x2, y2 (input pixels), score,
    class id; best score first, at most ``top_objects`` rows, after NMS."""

    name: str = "base"

    def __init__(self, settings: DetectSettings):
        self.settings = settings
        self._rect = False
        self.labels: dict[int, str] = {}
        self.model_name = ""
        self.weights_sha256 = ""
        #: CPU threads the model may compute with (the executor's grant); None: all cores
        self.threads: int | None = None
        self._streams: ThreadPoolExecutor | None = None

    @property
    def streams(self) -> int:
        """CPU inference streams: one per granted core (every usable core when none granted),
        each single-threaded."""
        return max(1, self.threads or usable_cores())

    def _start_streams(self) -> None:
        """Called by setup() of a CPU backend: the threads the streams run on."""
        if self.streams > 1:
            self._streams = ThreadPoolExecutor(self.streams, thread_name_prefix="sgprep-infer")

    def _per_image(
        self, run: Callable[[Letterboxed], np.ndarray], inputs: list[Letterboxed]
    ) -> list[np.ndarray]:
        """``run`` on each input alone, spread over the streams; results in input order."""
        if self._streams is None or len(inputs) < 2:
            return [run(x) for x in inputs]
        return list(self._streams.map(run, inputs))

    def _stop_streams(self) -> None:
        if self._streams is not None:
            self._streams.shutdown(wait=True)
            self._streams = None

    def gpus(self) -> float:
        return 0.0

    @abstractmethod
    def setup(self) -> None:
        """Load the model; fill ``labels``, ``model_name`` and ``weights_sha256``."""

    def _choose_rect(self, on_gpu: bool) -> None:
        """Called by setup(): pad to multiples of 32 or to a square (DetectSettings.rect)."""
        self._rect = self.settings.rect if self.settings.rect is not None else not on_gpu

    def prepare(self, rgb: np.ndarray) -> Letterboxed:
        return letterbox(rgb, self.settings.imgsz, self._rect)

    @abstractmethod
    def infer(self, inputs: list[Letterboxed]) -> list[np.ndarray]: ...

    def teardown(self) -> None:
        """Release the model."""


#: backend name -> "module:Class". One line per backend; imported only when used.
DETECTORS: dict[str, str] = {
    "torch": "sgprep.detect.torch_backend:TorchDetector",
    "onnx": "sgprep.detect.onnx_backend:OnnxDetector",
}


def shape_groups(inputs: list[Letterboxed]) -> list[list[int]]:
    """Indices of the inputs grouped by input shape (first-seen order): one run per group."""
    groups: dict[tuple[int, ...], list[int]] = {}
    for k, x in enumerate(inputs):
        groups.setdefault(x.hwc.shape, []).append(k)
    return list(groups.values())


def usable_cores() -> int:
    """The cores this process may run on (its affinity mask), not the machine's count."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@lru_cache(maxsize=1)
def cuda_available() -> bool:
    """Whether torch sees a GPU; False when torch is not installed. On Linux, a machine with
    no NVIDIA device node (and no WSL GPU) answers without importing torch (seconds and
    hundreds of MB, in the driver too)."""
    if os.environ.get("CUDA_VISIBLE_DEVICES", None) in {"", "-1"}:
        return False
    if sys.platform == "linux" and not glob.glob("/dev/nvidia*") and not os.path.exists("/dev/dxg"):
        return False
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


def pick_backend(settings: DetectSettings) -> str:
    if settings.backend != "auto":
        return settings.backend
    wants_gpu = settings.device is None or settings.device.startswith("cuda")
    return "torch" if wants_gpu and settings.device != "cpu" and cuda_available() else "onnx"


def make_detector(settings: DetectSettings) -> Detector:
    name = pick_backend(settings)
    detector = load_entry(DETECTORS, name, "detector backend")(settings)
    detector.name = name
    return detector
