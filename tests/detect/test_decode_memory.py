"""Decoding for the detector holds the decoded image and the RGB array it becomes, no other
full-size copy (issue 36, item 3), and gives the same pixels as the chain it replaced:
``np.asarray(_to_rgb(ImageOps.exif_transpose(img)))``."""

from __future__ import annotations

import io
import tracemalloc

import numpy as np
import pytest
from PIL import Image, ImageOps

from sgprep.detect import decode
from sgprep.detect.decode import Decoded, decode_image, upright_rgb


def _whole_image_rgb(img: Image.Image) -> np.ndarray:
    """The conversion as it was before issue 36, on the whole image at once."""
    if img.mode in ("I;16", "I;16B", "I;16L", "I;16N", "I"):
        arr = np.asarray(img, dtype=np.uint32 if img.mode == "I" else np.uint16).astype(np.uint32)
        img = Image.fromarray((np.clip(arr, 0, 65535) >> 8).astype(np.uint8))
    elif img.mode == "F":
        arr = np.nan_to_num(np.asarray(img, dtype=np.float32))
        lo, hi = float(arr.min()), float(arr.max())
        norm = (arr - lo) / (hi - lo) * 255.0 if hi > lo else np.zeros_like(arr)
        img = Image.fromarray(norm.astype(np.uint8))
    elif img.mode == "P" and "transparency" in img.info:
        img = img.convert("RGBA")
    return np.asarray(img.convert("RGB"))


def _images() -> dict[str, Image.Image]:
    rng = np.random.default_rng(0)
    arr = rng.integers(0, 255, (29, 43, 3), dtype=np.uint8)
    rgb = Image.fromarray(arr)
    palette = rgb.convert("P", palette=Image.Palette.ADAPTIVE, colors=16)
    alpha = palette.copy()
    alpha.info["transparency"] = 3
    floats = (arr[..., 0].astype(np.float32) - 40.5) * 3.25
    floats[2, 3] = np.nan
    return {
        "RGB": rgb,
        "RGBA": Image.fromarray(np.dstack([arr, arr[..., :1]])),
        "L": rgb.convert("L"),
        "LA": rgb.convert("LA"),
        "1": rgb.convert("1"),
        "P": palette,
        "P transparent": alpha,
        "CMYK": rgb.convert("CMYK"),
        "I;16": Image.fromarray(arr[..., 0].astype(np.uint16) * 257),
        "I": Image.fromarray(arr[..., 1].astype(np.int32) * 300),
        "F": Image.fromarray(floats),
    }


@pytest.mark.parametrize("orientation", [None, 1, 2, 3, 4, 5, 6, 7, 8, 9, "6"])
def test_the_same_pixels_as_the_whole_image_chain(monkeypatch, orientation):
    monkeypatch.setattr(decode, "BAND_BYTES", 4 * 43 * 3)  # bands of 3 rows: 10 bands
    for name, img in _images().items():
        method = decode.TRANSPOSES.get(orientation)
        expected = _whole_image_rgb(img if method is None else img.transpose(method))
        got = upright_rgb(img, orientation)
        assert got.dtype == np.uint8 and got.flags.c_contiguous, name
        assert got.shape == expected.shape and (got == expected).all(), (name, orientation)


def _encoded(img: Image.Image, fmt: str, orientation: int | None) -> bytes:
    exif = Image.Exif()
    if orientation is not None:
        exif[0x0112] = orientation
    buf = io.BytesIO()
    img.save(buf, format=fmt, exif=exif.tobytes())
    return buf.getvalue()


@pytest.mark.parametrize("orientation", [None, 2, 3, 5, 6, 8])
def test_decode_image_gives_what_exif_transpose_gave(orientation):
    rng = np.random.default_rng(1)
    arr = rng.integers(0, 255, (60, 90, 3), dtype=np.uint8)
    for fmt, img in (("PNG", Image.fromarray(arr)), ("JPEG", Image.fromarray(arr))):
        data = _encoded(img, fmt, orientation)
        with Image.open(io.BytesIO(data)) as ref:
            expected = _whole_image_rgb(ImageOps.exif_transpose(ref))
        got = decode_image(data)
        assert isinstance(got, Decoded)
        assert (got.rgb == expected).all(), (fmt, orientation)
        assert (got.width, got.height) == expected.shape[1::-1]


def _png(width: int, height: int, mode: str = "RGB") -> bytes:
    arr = np.random.default_rng(2).integers(0, 255, (height, width, 3), dtype=np.uint8)
    buf = io.BytesIO()
    Image.fromarray(arr).convert(mode).save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


@pytest.mark.parametrize("mode", ["RGB", "P", "RGBA"])
def test_decoding_makes_no_other_full_size_image(monkeypatch, mode):
    """Pillow makes no full-size image beside the decoded one (before: exif_transpose's copy,
    and a converted one for P and RGBA), and Python holds one RGB array's worth, not the
    two of np.asarray's bytes and their join."""
    width, height = 1200, 900
    data = _png(width, height, mode)
    monkeypatch.setattr(decode, "BAND_BYTES", 4 * width * 60)  # 15 bands, as a big image has
    made: list[tuple[int, int]] = []
    new = Image.Image._new

    def spy(self, im):
        made.append(im.size)
        return new(self, im)

    monkeypatch.setattr(Image.Image, "_new", spy)
    tracemalloc.start()
    try:
        got = decode_image(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert isinstance(got, Decoded) and got.rgb.shape == (height, width, 3)
    band = decode.BAND_BYTES // (4 * width) + 1
    assert made and all(h <= band for _, h in made), made  # bands of rows only
    decoded = width * height * 3
    assert peak < 1.25 * decoded, peak / decoded


def test_what_the_header_check_lets_through_fails_here_by_name(monkeypatch):
    """A truncated progressive JPEG above FULL_CHECK_PIXELS passes intake's header check (its
    decoder would hold every DCT coefficient); decoding it for the detector names the damage,
    which the stage writes as a failure row."""
    from sgprep.io import images

    monkeypatch.setattr(images, "FULL_CHECK_PIXELS", 100)
    arr = np.random.default_rng(3).integers(0, 255, (300, 400, 3), dtype=np.uint8)
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="JPEG", quality=90, progressive=True)
    truncated = buf.getvalue()[: len(buf.getvalue()) // 2]
    assert images.inspect_image(truncated).width == 400
    got = decode_image(truncated)
    assert isinstance(got, decode.DecodeError) and got.reason == "image_truncated", got
