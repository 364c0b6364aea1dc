"""The ``read`` stage's checks, applied to every sample as it comes off a reader:
a valid, unique key; a caption that is text of sane length; an image that decodes.

Keys: a source key is kept when valid (letters, digits, ``_`` and ``-``, at most 80), otherwise
the sample's position in the input becomes its key (nine digits). A key already used by an
earlier sample gets ``_dupNNNNNNNNN`` (its position) and the sample fails with ``duplicate_key``.
Which positions repeat a key is decided once, when the run is planned (``exec/plan.py``), so
every shard assigns the same keys whoever runs it and in whatever order.
"""

from __future__ import annotations

import re

from sgprep.config import DEFAULT_MAX_CAPTION_CHARS, DEFAULT_MAX_PIXELS
from sgprep.io.images import (
    TRAINER_FORMATS,
    ImageError,
    inspect_image,
    reencode_jpeg,
    reencode_upright,
)
from sgprep.schema import Sample

VALID_KEY = re.compile(r"^[A-Za-z0-9_-]{1,80}$")


def base_key(source_key: str, position: int) -> str:
    """The key a sample gets before duplicates are considered."""
    return source_key if VALID_KEY.match(source_key) else f"{position:09d}"


def assign_key(sample: Sample, position: int, duplicate: bool) -> None:
    source_key = sample.key
    key = base_key(source_key, position)
    if key != source_key and source_key:
        sample.meta.setdefault("source_key", source_key)
    if duplicate:
        sample.fail(
            "read",
            "duplicate_key",
            f"key {key!r} was already used by an earlier sample; this one is kept "
            f"in the index only",
        )
        sample.meta.setdefault("source_key", source_key)
        key = f"{key}_dup{position:09d}"
    sample.key = key


class Intake:
    """Content checks for captions and images."""

    def __init__(
        self,
        max_caption_chars: int = DEFAULT_MAX_CAPTION_CHARS,
        max_image_pixels: int = DEFAULT_MAX_PIXELS,
        check_images: bool = True,
        image_format: str = "keep",
    ):
        self.max_caption_chars = max_caption_chars
        self.max_image_pixels = max_image_pixels
        self.check_images = check_images
        self.image_format = image_format

    def check(self, sample: Sample) -> Sample:
        if not sample.ok:
            return sample
        if sample.caption is not None:
            caption = sample.caption
            if "\x00" in caption:
                return sample.fail("read", "caption_invalid", "caption contains NUL bytes")
            if not caption.strip():
                return sample.fail("read", "caption_empty", "caption is empty or whitespace only")
            if len(caption) > self.max_caption_chars:
                return sample.fail(
                    "read",
                    "caption_too_long",
                    f"caption has {len(caption):,} characters; the limit is "
                    f"{self.max_caption_chars:,} (--max-caption-chars)",
                )
        if sample.image is not None and self.check_images:
            try:
                sample.image_info = inspect_image(sample.image, self.max_image_pixels)
            except ImageError as exc:
                return sample.fail("read", exc.reason, exc.message)
            orientation = sample.image_info.orientation
            if self.image_format == "jpg" and (
                sample.image_ext not in TRAINER_FORMATS or orientation
            ):
                self._reencode(sample, to_jpeg=True)
            elif orientation:
                self._reencode(sample, to_jpeg=False)
            if orientation and sample.ok:
                sample.meta.setdefault("orientation_applied", orientation)
        return sample

    def _reencode(self, sample: Sample, to_jpeg: bool) -> None:
        """The image re-encoded: as an upright JPEG (:func:`reencode_jpeg`) with ``to_jpeg``,
        else only turned upright, in its own format (:func:`reencode_upright`).
        Images stored sideways (an EXIF orientation) are always stored upright, so that every
        trainer's decoder sees them as det.json's boxes do (neither open_clip nor webdataset's
        decoders apply EXIF orientation); the orientation applied is recorded in the metadata
        (``orientation_applied``, in the json member and the index). ``image_format: jpg``
        also turns gif, bmp, tiff, ... into JPEGs (open_clip skips them without a word)."""
        try:
            if to_jpeg:
                data, ext = reencode_jpeg(sample.image), "jpg"
            else:
                data, ext = reencode_upright(sample.image, sample.image_ext or "jpg")
            info = inspect_image(data, self.max_image_pixels)
        except (ImageError, OSError, ValueError) as exc:
            sample.fail("read", "image_reencode", f"cannot re-encode {sample.image_ext}: {exc}")
            return
        if ext != sample.image_ext or to_jpeg:
            sample.meta.setdefault("reencoded_from", sample.image_ext)
        sample.image, sample.image_ext, sample.image_info = data, ext, info
