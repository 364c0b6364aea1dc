"""Plain image folders, recursive. A ``.txt`` file beside an image is its caption."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from sgprep.io.images import IMAGE_EXTENSIONS
from sgprep.io.readers import decode_text
from sgprep.schema import Sample

SUFFIXES = tuple(f".{ext}" for ext in IMAGE_EXTENSIONS)


def read_image_folders(paths: list[Path]) -> Iterator[Sample]:
    for root in paths:
        files = [root] if root.is_file() else sorted(
            p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES)
        for path in files:
            rel = path.relative_to(root).with_suffix("") if root.is_dir() else Path(path.stem)
            sample = Sample(key=rel.as_posix().replace("/", "_"), source=str(path),
                            image_ext=path.suffix.lstrip(".").lower(), meta={"path": rel.as_posix()})
            try:
                sample.image = path.read_bytes()
            except OSError as exc:
                yield sample.fail("read", "image_unreadable", f"cannot read {path}: {exc}")
                continue
            caption_file = path.with_suffix(".txt")
            if caption_file.is_file():
                sample.caption, error = decode_text(caption_file.read_bytes(), str(caption_file))
                if error:
                    sample.fail("read", "caption_encoding", error)
            yield sample
