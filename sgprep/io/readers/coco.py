"""COCO captions: ``annotations/captions_*.json`` plus the image folder.

One sample per caption (an image-text pair); the key is ``<image_id>_<annotation_id>``. The
captions of one image come one after another (images in the order of their first caption in the
annotation file, each image's captions in file order; COCO's own files interleave them), so they
land in one shard, where detect runs once per image and ``shared_images`` stores it once. Images are looked for in ``--image-root DIR`` where given, then in the folder named after the
split (``captions_val2017.json`` -> ``val2017/``), then ``images/``, then beside the annotations.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from sgprep.io.readers import failed_sample, input_roots, load_image_file
from sgprep.schema import Sample


def units(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        files.extend(sorted(path.glob("annotations/captions_*.json")) if path.is_dir() else [path])
    return files


def _coco_root(ann_file: Path) -> Path:
    """The COCO folder: above ``annotations/``, else the annotation file's own."""
    return ann_file.parent.parent if ann_file.parent.name == "annotations" else ann_file.parent


def _image_dirs(ann_file: Path) -> list[Path]:
    root = _coco_root(ann_file)
    split = ann_file.stem.removeprefix("captions_")
    return [root / split, root / "images" / split, root / "images", root, ann_file.parent]


class NotCoco(ValueError):
    """The file cannot be split into caption records."""


@lru_cache(maxsize=2)
def _load_annotations(path: str, mtime_ns: int) -> tuple[dict, list, list[int]]:
    """Parsed once per process: every shard of this file reads from the same parse.
    Image entries without a usable ``id`` cannot be referenced and are left out (an
    annotation naming them fails ``image_missing``); bad annotations fail one by one below."""
    data = json.loads(Path(path).read_bytes())
    if not isinstance(data, dict):
        raise NotCoco(f"the file holds {_what(data)}, not an object")
    images, annotations = data.get("images"), data.get("annotations")
    if not isinstance(annotations, list):
        raise NotCoco(f"'annotations' is {_what(annotations)}, not a list")
    if not isinstance(images, list):
        raise NotCoco(f"'images' is {_what(images)}, not a list")
    by_id = {}
    for img in images:
        if isinstance(img, dict) and isinstance(img.get("id"), (int, str)):
            by_id.setdefault(img["id"], img)
    return by_id, annotations, _grouped(annotations)


def _grouped(annotations: list) -> list[int]:
    """The annotations' numbers, each image's captions together: images in the order of their
    first caption, captions in file order. An annotation without a usable ``image_id`` stays a
    group of its own. Decided from the file alone: the same order (and cursors) every run."""
    groups: dict[Any, list[int]] = {}
    for number, ann in enumerate(annotations):
        image_id = ann.get("image_id") if isinstance(ann, dict) else None
        if isinstance(image_id, (int, str)):  # as _sample and the images' lookup take it
            groups.setdefault(("id", image_id), []).append(number)
        else:
            groups[("#", number)] = [number]
    return [number for group in groups.values() for number in group]


_JSON_KINDS = {
    dict: "an object",
    list: "an array",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "a boolean",
}


def _what(value: Any) -> str:
    """What a JSON value is, in JSON's words."""
    return "missing or null" if value is None else _JSON_KINDS.get(type(value), "odd")


def records(
    ann_file: Path,
    start: Any = None,
    load: bool = True,
    images_dir: str | None = None,
    allow_outside: bool = False,
) -> Iterator[tuple[Any, Sample]]:
    """(cursor, sample) per caption annotation; the cursor is its position in the grouped order
    (:func:`_grouped`)."""
    try:
        images, annotations, order = _load_annotations(str(ann_file), ann_file.stat().st_mtime_ns)
    except OSError as exc:
        yield (
            0,
            failed_sample("", str(ann_file), "input_unreadable", f"cannot read {ann_file}: {exc}"),
        )
        return
    except (ValueError, RecursionError) as exc:
        yield (
            0,
            failed_sample(
                "",
                str(ann_file),
                "source_unreadable",
                f"{ann_file} is not a readable COCO captions file: {exc}",
            ),
        )
        return
    dirs = ([Path(images_dir)] if images_dir else []) + _image_dirs(ann_file)
    # a file_name with "..", an absolute one, or a link may not leave the COCO folder (or
    # --image-root): read/outside_input, unless --allow-outside-paths
    within = None if allow_outside else input_roots(_coco_root(ann_file), images_dir)
    for position in range(start or 0, len(order)):
        number = order[position]
        yield position, _sample(annotations[number], number, ann_file, images, dirs, load, within)


def _sample(
    ann: Any,
    number: int,
    ann_file: Path,
    images: dict,
    dirs: list[Path],
    load: bool,
    within: tuple[str, ...] | None = None,
) -> Sample:
    if not isinstance(ann, dict):
        return failed_sample(
            "",
            f"{ann_file}:#{number}",
            "bad_row",
            f"annotation {number} is {_what(ann)}, not an object",
        )
    image_id, ann_id, caption = ann.get("image_id"), ann.get("id"), ann.get("caption")
    source = f"{ann_file}:{ann_id if ann_id is not None else f'#{number}'}"
    sample = Sample(
        key=f"{image_id}_{ann_id}",
        source=source,
        meta={"image_id": image_id, "annotation_id": ann_id},
    )
    if not isinstance(image_id, (int, str)):
        return sample.fail(
            "read",
            "bad_row",
            f"annotation {number}: image_id is {_what(image_id)}, not a number or a string",
        )
    if caption is not None and not isinstance(caption, str):
        return sample.fail(
            "read",
            "caption_invalid",
            f"annotation {number}: the caption is {_what(caption)}, not text",
        )
    sample.caption = caption
    image = images.get(image_id)
    if image is None:
        return sample.fail("read", "image_missing", f"image id {image_id} is not in 'images'")
    sample.meta["file_name"] = image.get("file_name")
    if load:
        _load_image(sample, image, dirs, within)
    return sample


def _load_image(
    sample: Sample, image: dict, dirs: list[Path], within: tuple[str, ...] | None
) -> None:

    name = image.get("file_name")
    if not isinstance(name, str) or not name:
        sample.fail("read", "image_missing", f"image {image.get('id')} has no file_name")
        return
    for folder in dirs:
        candidate = folder / name
        if candidate.is_file():
            load_image_file(sample, candidate, within=within)
            return
    sample.fail("read", "image_missing", f"{name} not found in {', '.join(map(str, dirs[:3]))}")
