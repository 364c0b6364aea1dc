"""Decoding for the detector: every kind of bad image is a named failure, every odd-but-valid
kind is converted to upright 8-bit RGB."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from sgprep.detect.decode import Decoded, DecodeError, Decoder, decode_image


def _encode(img: Image.Image, fmt: str, **kw) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format=fmt, **kw)
    return buf.getvalue()


def _gradient(w: int = 96, h: int = 64) -> np.ndarray:
    x = np.linspace(0, 255, w, dtype=np.float32)[None, :].repeat(h, 0)
    y = np.linspace(0, 255, h, dtype=np.float32)[:, None].repeat(w, 1)
    return np.stack([x, y, 255 - x], axis=2).astype(np.uint8)


def png_claiming_size(width: int, height: int) -> bytes:
    """A tiny PNG whose header says ``width x height``: a decompression bomb's signature."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body))
            + kind
            + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)  # 1-bit greyscale
    idat = zlib.compress(b"\x00" * 64)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def png_with_garbled_data() -> bytes:
    """A PNG whose header is right but whose compressed pixels are garbage (CRC kept valid)."""
    buf = io.BytesIO()
    Image.fromarray(np.full((50, 50, 3), 100, np.uint8)).save(buf, format="PNG")
    data = bytearray(buf.getvalue())
    at = data.index(b"IDAT")
    size = struct.unpack(">I", data[at - 4 : at])[0]
    body = bytes((k * 37 + 11) % 256 for k in range(size))
    data[at + 4 : at + 4 + size] = body
    data[at + 4 + size : at + 8 + size] = struct.pack(">I", zlib.crc32(b"IDAT" + body) & 0xFFFFFFFF)
    return bytes(data)


def _ok(data: bytes, **kw) -> Decoded:
    got = decode_image(data, **kw)
    assert isinstance(got, Decoded), got
    assert got.rgb.dtype == np.uint8 and got.rgb.ndim == 3 and got.rgb.shape[2] == 3
    return got


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"", "image_empty"),
        (None, "image_empty"),
        (b"this is not an image at all" * 10, "image_corrupt"),
        (png_with_garbled_data(), "image_corrupt"),
        (png_claiming_size(40_000, 40_000), "image_too_large"),  # 1.6 gigapixels, refused unread
    ],
)
def test_bad_bytes_become_named_failures(data, reason):
    got = decode_image(data)
    assert isinstance(got, DecodeError)
    assert got.reason == reason, got.message


def test_truncated_jpeg_is_a_failure():
    whole = _encode(Image.fromarray(_gradient(400, 300)), "JPEG", quality=90)
    got = decode_image(whole[: len(whole) // 2])
    assert isinstance(got, DecodeError) and got.reason == "image_truncated", got


def test_pixel_limit_is_a_setting():
    data = _encode(Image.fromarray(_gradient(100, 100)), "PNG")
    assert isinstance(decode_image(data, max_pixels=10_000), Decoded)
    refused = decode_image(data, max_pixels=9_999)
    assert isinstance(refused, DecodeError) and refused.reason == "image_too_large"


def test_cmyk_jpeg_becomes_rgb():
    rgb = _gradient()
    got = _ok(_encode(Image.fromarray(rgb).convert("CMYK"), "JPEG", quality=95))
    assert got.rgb.shape == rgb.shape
    assert np.abs(got.rgb.astype(int) - rgb).mean() < 8  # JPEG loss only


def test_16_bit_greyscale_keeps_its_top_8_bits():
    values = np.array([[0, 256, 32768, 65535]], dtype=np.uint16).repeat(4, 0)
    got = _ok(_encode(Image.fromarray(values), "PNG"))
    assert got.rgb[0, :, 0].tolist() == [0, 1, 128, 255]
    assert (got.rgb[..., 0] == got.rgb[..., 1]).all() and (got.rgb[..., 1] == got.rgb[..., 2]).all()


def test_greyscale_alpha_and_palette_become_rgb():
    rgb = _gradient()
    grey = _ok(_encode(Image.fromarray(rgb).convert("L"), "PNG"))
    assert (grey.rgb[..., 0] == grey.rgb[..., 2]).all()
    rgba = np.dstack([rgb, np.full(rgb.shape[:2], 7, np.uint8)])
    alpha = _ok(_encode(Image.fromarray(rgba, "RGBA"), "PNG"))
    assert (alpha.rgb == rgb).all()  # colour kept, alpha dropped
    pal = Image.fromarray(rgb).convert("P", palette=Image.Palette.ADAPTIVE, colors=16)
    for kw in ({}, {"transparency": 0}):
        got = _ok(_encode(pal, "PNG", **kw))
        assert (got.rgb == np.asarray(pal.convert("RGB"))).all()


def test_exif_orientation_is_applied():
    rgb = _gradient(300, 200)  # stored 300 wide, 200 high
    exif = Image.Exif()
    exif[0x0112] = 6  # "rotate 90 CW to view"
    got = _ok(_encode(Image.fromarray(rgb), "JPEG", quality=95, exif=exif))
    assert (got.width, got.height) == (200, 300)
    assert got.rgb.shape[:2] == (300, 200)
    # the stored top-left corner (dark red channel) ends up top-right after a 90 degree turn
    assert got.rgb[2, -3, 0] < 30 and got.rgb[2, 2, 0] < 30 and got.rgb[-3, -3, 0] > 200


def test_large_jpeg_is_decoded_reduced_but_reports_its_full_size():
    rgb = _gradient(2600, 1400)
    got = _ok(_encode(Image.fromarray(rgb), "JPEG", quality=90), imgsz=640)
    assert (got.width, got.height) == (2600, 1400)
    assert 640 <= got.rgb.shape[1] < 2600  # never below what the letterbox needs
    sx, sy = got.scale
    assert got.rgb.shape[1] * sx == 2600 and got.rgb.shape[0] * sy == 1400


def test_decoder_pool_returns_each_image_once():
    data = _encode(Image.fromarray(_gradient()), "PNG")
    decoder = Decoder(workers=2, imgsz=640, prepare=lambda a: a.shape)
    try:
        decoder.submit(1, data)
        decoder.submit(1, data)  # a second submit of the same key is a no-op
        decoder.submit(2, b"")
        frame = decoder.result(1)
        assert frame.input == (64, 96, 3) and (frame.width, frame.height) == (96, 64)
        assert decoder.result(2).reason == "image_empty"
        with pytest.raises(KeyError):
            decoder.result(1)
    finally:
        decoder.close()


def test_corrupt_stays_corrupt_after_ultralytics_patches_pillow():
    """ultralytics replaces PIL.Image.open on import (a HEIF-plugin installer on failure)."""
    pytest.importorskip("ultralytics")
    from sgprep.detect.weights import quiet_environment

    quiet_environment()
    import ultralytics.utils.patches  # noqa: F401  (applies the patch, unless already undone)
    from PIL import Image

    saved = Image.open
    Image.open = ultralytics.utils.patches.image_open  # as ultralytics leaves it
    try:
        got = decode_image(b"this is not an image at all" * 10)
    finally:
        Image.open = saved
    assert isinstance(got, DecodeError) and got.reason == "image_corrupt", got


def test_loading_a_model_puts_pillows_own_open_back(fall_weights):
    from PIL import Image

    from sgprep.detect.weights import load_yolo

    load_yolo(str(fall_weights))
    assert not Image.open.__module__.startswith("ultralytics")
