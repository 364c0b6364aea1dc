"""Plain image folders, recursive. A ``.txt`` file beside an image is its caption.

A subfolder that cannot be listed becomes a ``source_unreadable`` row in its place in the
sorted order, so its images never vanish without a trace. So does anything named like an image
that is not a regular file (a link to nowhere or in a loop, a FIFO, a folder ``x.png``): an
``image_unreadable`` row.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sgprep.io.images import IMAGE_EXTENSIONS, UNSUPPORTED_IMAGE_EXTENSIONS
from sgprep.io.intake import DEFAULT_MAX_CAPTION_CHARS
from sgprep.io.readers import (
    FileRefused,
    decode_text,
    input_roots,
    load_image_file,
    outside,
    read_regular_file,
    unreadable_folder,
    walk_files,
)
from sgprep.schema import Sample

SUFFIXES = tuple(f".{ext}" for ext in IMAGE_EXTENSIONS | UNSUPPORTED_IMAGE_EXTENSIONS)
#: A caption file larger than this is refused unread (intake's length check comes later).
MAX_CAPTION_BYTES = 64 * DEFAULT_MAX_CAPTION_CHARS


def units(paths: list[Path]) -> list[Path]:
    """Folders, and image files given directly (a glob's captions are read beside them)."""
    if len(paths) == 1:
        return list(paths)
    return [p for p in paths if p.is_dir() or p.suffix.lower() in SUFFIXES]


def _entries(root: Path) -> list[tuple[Path, bool]]:
    """(path, is an unreadable folder) in sorted path order."""
    if not root.is_dir():
        return [(root, False)]
    others: list[Path] = []  # named like images but not files: each becomes a failure row
    files, bad = walk_files(root, others)
    images = [(p, False) for p in files + others if p.suffix.lower() in SUFFIXES]
    return sorted(images + [(p, True) for p in bad])


def records(
    root: Path, start: Any = None, load: bool = True, allow_outside: bool = False
) -> Iterator[tuple[Any, Sample]]:
    """(cursor, sample) per image under ``root``, in sorted path order; the cursor is the
    image's number in that order. ``load=False`` reads neither images nor captions. An image
    or caption that a link takes outside ``root`` fails ``read/outside_input`` unless
    ``allow_outside``."""
    entries = _entries(root)
    within = None if allow_outside else input_roots(root if root.is_dir() else root.parent)
    for number in range(start or 0, len(entries)):
        path, unreadable = entries[number]
        if unreadable:
            yield number, unreadable_folder(path)
            continue
        rel = path.relative_to(root).with_suffix("") if root.is_dir() else Path(path.stem)
        sample = Sample(
            key=rel.as_posix().replace("/", "_"),
            source=str(path),
            image_ext=path.suffix.lstrip(".").lower(),
            meta={"path": rel.as_posix()},
        )
        if load:
            _load(sample, path, within)
        yield number, sample


def _load(sample: Sample, path: Path, within: tuple[str, ...] | None) -> None:
    if path.suffix.lower().lstrip(".") in UNSUPPORTED_IMAGE_EXTENSIONS:
        sample.fail("read", "image_unsupported", f"this Pillow cannot read {path.suffix} images")
        return
    if not load_image_file(sample, path, within=within):
        return
    caption_file = path.with_suffix(".txt")
    if not caption_file.exists() or outside(sample, caption_file, within, "caption file"):
        return
    try:
        raw = read_regular_file(caption_file, MAX_CAPTION_BYTES)
    except FileRefused as exc:
        sample.fail("read", "caption_unreadable", f"caption file: {exc.message}")
        return
    except OSError as exc:
        sample.fail("read", "caption_unreadable", f"cannot read caption {caption_file}: {exc}")
        return
    sample.caption, error = decode_text(raw, str(caption_file))
    if error:
        sample.fail("read", "caption_encoding", error)
