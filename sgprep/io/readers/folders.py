"""Plain image folders, recursive. A ``.txt`` file beside an image is its caption."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sgprep.io.images import IMAGE_EXTENSIONS
from sgprep.io.readers import decode_text
from sgprep.schema import Sample

SUFFIXES = tuple(f".{ext}" for ext in IMAGE_EXTENSIONS)


def units(paths: list[Path]) -> list[Path]:
    return list(paths)


def records(root: Path, start: Any = None, load: bool = True) -> Iterator[tuple[Any, Sample]]:
    """(cursor, sample) per image under ``root``, in sorted path order; the cursor is the
    image's number in that order. ``load=False`` reads neither images nor captions."""
    files = [root] if root.is_file() else sorted(
        p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES)
    for number in range(start or 0, len(files)):
        path = files[number]
        rel = path.relative_to(root).with_suffix("") if root.is_dir() else Path(path.stem)
        sample = Sample(key=rel.as_posix().replace("/", "_"), source=str(path),
                        image_ext=path.suffix.lstrip(".").lower(), meta={"path": rel.as_posix()})
        if load:
            _load(sample, path)
        yield number, sample


def _load(sample: Sample, path: Path) -> None:
    try:
        sample.image = path.read_bytes()
    except OSError as exc:
        sample.fail("read", "image_unreadable", f"cannot read {path}: {exc}")
        return
    caption_file = path.with_suffix(".txt")
    if caption_file.is_file():
        sample.caption, error = decode_text(caption_file.read_bytes(), str(caption_file))
        if error:
            sample.fail("read", "caption_encoding", error)
