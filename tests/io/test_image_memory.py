"""The image check at intake holds no decoded image (issue 36, item 3): a PNG's pixels are
inflated in pieces and checked as they stream by, a baseline JPEG is decoded at 1/8 scale,
anything else large is read from its header; and it says of damaged PNGs what Pillow's full
decode says."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image, ImageFile

from sgprep.io import images
from sgprep.io.images import ImageError, inspect_image


def _chunk(kind: bytes, body: bytes) -> bytes:
    crc = zlib.crc32(kind + body) & 0xFFFFFFFF
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


def _build(parts: list[tuple[bytes, bytes]]) -> bytes:
    return b"\x89PNG\r\n\x1a\n" + b"".join(_chunk(kind, body) for kind, body in parts)


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    pos, out = 8, []
    while pos + 8 <= len(data):
        size = int.from_bytes(data[pos : pos + 4], "big")
        out.append((data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + size]))
        pos += 12 + size
    return out


def _png(img: Image.Image, **kw) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", **kw)
    return buf.getvalue()


def _interlaced(arr: np.ndarray) -> bytes:
    """An Adam7-interlaced 8-bit RGB PNG of ``arr`` (Pillow writes none)."""
    height, width = arr.shape[:2]
    raw = b""
    for x0, y0, dx, dy in images._ADAM7:
        for row in arr[y0::dy, x0::dx]:
            if row.size:
                raw += b"\x00" + row.tobytes()
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 1)
    return _build([(b"IHDR", ihdr), (b"IDAT", zlib.compress(raw)), (b"IEND", b"")])


def _big_png(width: int, height: int) -> bytes:
    """A valid RGB PNG of ``width x height`` black pixels, made a row band at a time: a few
    hundred kB on disk whatever its size."""
    zipper = zlib.compressobj(9)
    band = (b"\x00" + bytes(3 * width)) * 64
    idat = b"".join(zipper.compress(band) for _ in range(height // 64))
    idat += zipper.compress((b"\x00" + bytes(3 * width)) * (height % 64)) + zipper.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return _build([(b"IHDR", ihdr), (b"IDAT", idat), (b"IEND", b"")])


@pytest.fixture
def no_decoding(monkeypatch):
    """Every Pillow decode of a file fails the test."""

    def load(self):
        raise AssertionError(f"{self.format} {self.size} decoded")

    monkeypatch.setattr(ImageFile.ImageFile, "load", load)


def test_a_bomb_sized_png_passes_the_check_without_its_pixels_decoded(no_decoding):
    data = _big_png(9000, 9000)  # 81 Mpx, under the default limit; 243 MB decoded
    assert len(data) < 1_000_000
    info = inspect_image(data)
    assert (info.width, info.height, info.mode, info.format) == (9000, 9000, "RGB", "PNG")


def test_a_png_whose_pixels_end_short_still_fails(no_decoding):
    data = _big_png(3000, 3000)
    parts = _chunks(data)
    idat = parts[1][1]
    short = _build([parts[0], (b"IDAT", idat[: len(idat) // 2]), parts[2]])
    with pytest.raises(ImageError) as err:
        inspect_image(short)
    assert err.value.reason == "image_truncated"


def _damaged_pngs() -> dict[str, bytes]:
    rng = np.random.default_rng(1)
    arr = rng.integers(0, 255, (37, 53, 3), dtype=np.uint8)
    rgb = Image.fromarray(arr)
    palette = rgb.convert("P", palette=Image.Palette.ADAPTIVE, colors=16)
    cases = {
        "rgb": _png(rgb),
        "rgba": _png(rgb.convert("RGBA")),
        "grey": _png(rgb.convert("L")),
        "one_bit": _png(rgb.convert("1")),
        "palette": _png(palette),
        "palette_alpha": _png(palette, transparency=0),
        "grey_alpha": _png(rgb.convert("LA")),
        "sixteen": _png(Image.fromarray(arr[..., 0].astype(np.uint16) * 257)),
        "interlaced": _interlaced(arr),
        "interlaced_tiny": _interlaced(arr[:3, :2]),
    }
    exif = Image.Exif()
    exif[0x0112] = 6
    cases["exif_first"] = _png(rgb, exif=exif)
    parts = _chunks(cases["rgb"])
    head = [p for p in parts if p[0] not in (b"IDAT", b"IEND")]
    idat = b"".join(body for kind, body in parts if kind == b"IDAT")
    end = [(b"IEND", b"")]
    raw = zlib.decompress(idat)
    row = len(raw) // 37
    bad_filter = bytearray(raw)
    bad_filter[row * 5] = 7
    flipped = bytearray(idat)
    flipped[len(flipped) // 2] ^= 0xFF
    xmp = b"XML:com.adobe.xmp\x00\x00\x00\x00\x00<x><tiff:Orientation>8</tiff:Orientation></x>"
    cases |= {
        "exif_after_the_pixels": _build(head + [(b"IDAT", idat), (b"eXIf", exif.tobytes()[6:])] + end),
        "xmp_after_the_pixels": _build(head + [(b"IDAT", idat), (b"iTXt", xmp)] + end),
        "split": _build(head + [(b"IDAT", idat[:100]), (b"IDAT", b""), (b"IDAT", idat[100:])] + end),
        "text_between": _build(head + [(b"IDAT", idat[:100]), (b"tEXt", b"a\x00b"), (b"IDAT", idat[100:])] + end),
        "short_stream": _build(head + [(b"IDAT", zlib.compress(raw[: len(raw) // 2]))] + end),
        "long_stream": _build(head + [(b"IDAT", zlib.compress(raw + bytes(500)))] + end),
        "bad_filter": _build(head + [(b"IDAT", zlib.compress(bytes(bad_filter)))] + end),
        "garbled": _build(head + [(b"IDAT", bytes((k * 37 + 11) % 256 for k in range(len(idat))))] + end),
        "one_byte_flipped": _build(head + [(b"IDAT", bytes(flipped))] + end),
        "no_iend": cases["rgb"][:-12],
        "trailing_junk": cases["rgb"] + b"junk" * 30,
    }  # fmt: skip
    for name in ("rgb", "interlaced", "palette", "exif_after_the_pixels"):
        data = cases[name]
        for cut in (len(data) // 5, len(data) // 2, len(data) * 9 // 10, len(data) - 16):
            cases[f"{name}[:{cut}]"] = data[:cut]
    return cases


def _pillow_says(data: bytes) -> tuple[str | None, int | None]:
    """What decoding the whole image with Pillow says (the check before issue 36)."""
    try:
        with Image.open(io.BytesIO(data)) as img:
            img.load()
            return None, img.getexif().get(0x0112)
    except Exception as exc:  # noqa: BLE001 - any failure is a verdict
        return ("image_truncated" if "truncated" in str(exc).lower() else "image_corrupt"), None


def _check_says(data: bytes) -> tuple[str | None, int | None]:
    try:
        return None, inspect_image(data).orientation
    except ImageError as exc:
        return exc.reason, None


def test_the_streamed_png_check_agrees_with_pillows_whole_decode():
    verdicts = {name: (_check_says(d), _pillow_says(d)) for name, d in _damaged_pngs().items()}
    assert {name: ours for name, (ours, _) in verdicts.items()} == {
        name: pillow for name, (_, pillow) in verdicts.items()
    }
    # the panel holds each kind of verdict
    assert verdicts["rgb"][0] == (None, None) and verdicts["interlaced"][0] == (None, None)
    assert verdicts["exif_after_the_pixels"][0] == (None, 6)
    assert verdicts["xmp_after_the_pixels"][0] == (None, 8)
    assert verdicts["bad_filter"][0][0] == verdicts["garbled"][0][0] == "image_corrupt"
    assert verdicts["short_stream"][0][0] == verdicts["text_between"][0][0] == "image_truncated"


def _jpeg(arr: np.ndarray, **kw) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="JPEG", quality=90, **kw)
    return buf.getvalue()


def test_one_scan_jpegs_are_told_from_progressive_ones():
    arr = np.random.default_rng(2).integers(0, 255, (64, 80, 3), dtype=np.uint8)
    exif = Image.Exif()
    exif[0x0112] = 3
    thumbnail = _jpeg(arr[:16, :16])  # a scan of its own inside APP1
    exif[0x0201] = 0  # the tags naming a thumbnail; its bytes are in APP1 all the same
    with_thumbnail = _jpeg(arr, exif=exif.tobytes() + thumbnail)
    assert images._jpeg_one_scan(_jpeg(arr))
    assert images._jpeg_one_scan(with_thumbnail)
    assert not images._jpeg_one_scan(_jpeg(arr, progressive=True))
    assert not images._jpeg_one_scan(b"\xff\xd8\xff")


def test_a_baseline_jpeg_is_checked_at_an_eighth_of_its_size(monkeypatch):
    arr = np.random.default_rng(3).integers(0, 255, (400, 640, 3), dtype=np.uint8)
    whole = _jpeg(arr)
    loaded = []
    load = ImageFile.ImageFile.load

    def spy(self):
        loaded.append(self.size)
        return load(self)

    monkeypatch.setattr(ImageFile.ImageFile, "load", spy)
    monkeypatch.setattr(images, "FULL_CHECK_PIXELS", 100)  # the image counts as large
    assert inspect_image(whole).width == 640
    assert loaded == [(80, 50)]
    with pytest.raises(ImageError) as err:  # truncated data still fails at that scale
        inspect_image(whole[: len(whole) // 2])
    assert err.value.reason == "image_truncated"


def test_a_large_progressive_jpeg_or_gif_is_read_from_its_header_only(monkeypatch, no_decoding):
    """What the header check no longer catches: a truncated image of another kind than PNG or
    baseline JPEG above FULL_CHECK_PIXELS passes intake (detect then fails it as a row)."""
    monkeypatch.setattr(images, "FULL_CHECK_PIXELS", 100)
    arr = np.random.default_rng(4).integers(0, 255, (64, 80, 3), dtype=np.uint8)
    progressive = _jpeg(arr, progressive=True)
    gif = io.BytesIO()
    Image.fromarray(arr).convert("P").save(gif, format="GIF")
    for data in (progressive, gif.getvalue()):
        info = inspect_image(data[: len(data) // 2])
        assert (info.width, info.height) == (80, 64)


def test_small_images_of_other_formats_are_still_decoded_whole():
    arr = np.random.default_rng(5).integers(0, 255, (64, 80, 3), dtype=np.uint8)
    for fmt in ("GIF", "WEBP", "BMP", "TIFF"):
        buf = io.BytesIO()
        Image.fromarray(arr).save(buf, format=fmt)
        data = buf.getvalue()
        assert inspect_image(data).format == fmt
        with pytest.raises(ImageError):
            inspect_image(data[: len(data) * 2 // 3])
