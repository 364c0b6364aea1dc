"""The ``read`` stage's checks, applied to every sample as it comes off a reader:
a valid, unique key; a caption that is text of sane length; an image that decodes."""

from __future__ import annotations

import re

from sgprep.io.images import DEFAULT_MAX_PIXELS, ImageError, inspect_image
from sgprep.schema import Sample

VALID_KEY = re.compile(r"^[A-Za-z0-9_-]{1,80}$")


class Intake:
    def __init__(self, max_caption_chars: int = 2000, max_image_pixels: int = DEFAULT_MAX_PIXELS,
                 check_images: bool = True):
        self.max_caption_chars = max_caption_chars
        self.max_image_pixels = max_image_pixels
        self.check_images = check_images
        self._seen: set[str] = set()

    def key(self, sample: Sample, position: int) -> None:
        """Keep the source key when valid, else derive one from the position; flag repeats."""
        source_key = sample.key
        if not VALID_KEY.match(source_key):
            if source_key:
                sample.meta.setdefault("source_key", source_key)
            sample.key = f"{position:09d}"
        if sample.key in self._seen:
            sample.fail("read", "duplicate_key",
                        f"key {sample.key!r} was already used by an earlier sample; this one is kept "
                        f"in the index only")
            sample.meta.setdefault("source_key", source_key)
            sample.key = f"{sample.key}_dup{position:09d}"
        self._seen.add(sample.key)

    def check(self, sample: Sample, *, thorough: bool = True) -> Sample:
        """Content checks. With ``thorough=False`` (a shard that is already done) only the
        key is assigned, so a resumed run is cheap and keys come out the same."""
        if not sample.ok or not thorough:
            return sample
        if sample.caption is not None:
            caption = sample.caption
            if "\x00" in caption:
                return sample.fail("read", "caption_invalid", "caption contains NUL bytes")
            if not caption.strip():
                return sample.fail("read", "caption_empty", "caption is empty or whitespace only")
            if len(caption) > self.max_caption_chars:
                return sample.fail(
                    "read", "caption_too_long",
                    f"caption has {len(caption):,} characters; the limit is "
                    f"{self.max_caption_chars:,} (--max-caption-chars)")
        if sample.image is not None and self.check_images:
            try:
                sample.image_info = inspect_image(sample.image, self.max_image_pixels)
            except ImageError as exc:
                return sample.fail("read", exc.reason, exc.message)
        return sample
