"""Helpers shared by the detect tests."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from sgprep.detect.base import DetectSettings
from sgprep.detect.stage import DetectStage
from sgprep.schema import Sample


def make_stage(weights: Path, backend: str, **kw) -> DetectStage:
    stage = DetectStage(DetectSettings(weights=str(weights), backend=backend, **kw))
    stage.setup()
    return stage


def sample(key: str, image: bytes | None) -> Sample:
    return Sample(key=key, source=f"test/{key}", image=image)


def jpeg(img: Image.Image, **kw) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="JPEG", quality=92, **kw)
    return buf.getvalue()


def iou(a, b) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0
