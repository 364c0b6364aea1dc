"""COCO captions: ``annotations/captions_*.json`` plus the image folder.

One sample per caption (an image-text pair), in the order of the annotation file; the key is
``<image_id>_<annotation_id>``. Images are looked for in the folder named after the split
(``captions_val2017.json`` -> ``val2017/``), then ``images/``, then beside the annotations.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from sgprep.io.readers import failed_sample
from sgprep.schema import Sample


def units(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        files.extend(sorted(path.glob("annotations/captions_*.json")) if path.is_dir() else [path])
    return files


def _image_dirs(ann_file: Path) -> list[Path]:
    root = ann_file.parent.parent if ann_file.parent.name == "annotations" else ann_file.parent
    split = ann_file.stem.removeprefix("captions_")
    return [root / split, root / "images" / split, root / "images", root, ann_file.parent]


@lru_cache(maxsize=2)
def _load_annotations(path: str, mtime_ns: int) -> tuple[dict, list]:
    """Parsed once per process: every shard of this file reads from the same parse."""
    data = json.loads(Path(path).read_bytes())
    return {img["id"]: img for img in data["images"]}, data["annotations"]


def records(ann_file: Path, start: Any = None, load: bool = True) -> Iterator[tuple[Any, Sample]]:
    """(cursor, sample) per caption annotation; the cursor is the annotation's number."""
    try:
        images, annotations = _load_annotations(str(ann_file), ann_file.stat().st_mtime_ns)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        yield 0, failed_sample("", str(ann_file), "input_unreadable",
                               f"{ann_file} is not a readable COCO captions file: {exc}")
        return
    dirs = _image_dirs(ann_file)
    for number in range(start or 0, len(annotations)):
        ann = annotations[number]
        image_id, ann_id = ann.get("image_id"), ann.get("id")
        source = f"{ann_file}:{ann_id}"
        sample = Sample(key=f"{image_id}_{ann_id}", source=source, caption=ann.get("caption"),
                        meta={"image_id": image_id, "annotation_id": ann_id})
        image = images.get(image_id)
        if image is None:
            yield number, sample.fail("read", "image_missing", f"image id {image_id} is not in 'images'")
            continue
        sample.meta["file_name"] = image.get("file_name")
        if load:
            _load_image(sample, image, dirs)
        yield number, sample


def _load_image(sample: Sample, image: dict, dirs: list[Path]) -> None:
    for folder in dirs:
        candidate = folder / str(image.get("file_name"))
        if candidate.is_file():
            try:
                sample.image = candidate.read_bytes()
                sample.image_ext = candidate.suffix.lstrip(".").lower() or "jpg"
            except OSError as exc:
                sample.fail("read", "image_unreadable", f"cannot read {candidate}: {exc}")
            return
    sample.fail("read", "image_missing",
                f"{image.get('file_name')} not found in {', '.join(map(str, dirs[:3]))}")
