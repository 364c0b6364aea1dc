"""Image bytes -> RGB pixels for the detector, with every bad kind of image named.

Decoding happens in a thread pool ahead of inference (Pillow's decoders release the GIL), so
the detector never waits on JPEG decoding. What is refused here becomes a failure row:

- empty, unidentifiable, corrupt or truncated data;
- decompression bombs, refused from the header's size before any pixel is decoded.

What is converted: EXIF orientation is applied (the detection's width and height are those of
the upright image), and CMYK, 16-bit, grayscale, alpha and palette images become 8-bit RGB
(alpha is dropped: the detector sees the colour channels).

A JPEG much larger than the detector's input is decoded at a reduced DCT scale (Pillow's
``draft``), never below the size the letterbox needs; boxes are scaled back to full pixels.

Memory: an image costs its decoded pixels (Pillow's, 4 bytes a pixel for RGB) and the upright
RGB array made of them a band of rows at a time (:func:`upright_rgb`), no other full-size copy:
about 2.3 times the RGB array at the peak, and the letterbox keeps only the model's input. A
progressive JPEG also holds its DCT coefficients while it is decoded (libjpeg's, about 2 bytes
a sample at full size, whatever the draft scale). Each decoding thread holds one such image.
"""

from __future__ import annotations

import io
import math
import sys
import warnings
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image, UnidentifiedImageError

from sgprep.io.images import DEFAULT_MAX_PIXELS, size_problem

_ORIENTATION = 0x0112  # the EXIF tag


@dataclass(frozen=True)
class Decoded:
    """An upright RGB image and how its pixels map to the original's."""

    rgb: np.ndarray  # H x W x 3, uint8, upright
    width: int  # the upright image's full size, in pixels
    height: int

    @property
    def scale(self) -> tuple[float, float]:
        """Full pixels per decoded pixel along x and y (1.0 unless decoded at a reduced scale)."""
        return self.width / self.rgb.shape[1], self.height / self.rgb.shape[0]


@dataclass(frozen=True)
class Frame:
    """What the detector needs of a decoded image: its model input and its geometry. The
    decoded pixels themselves are let go once the input is made."""

    input: Any
    width: int
    height: int
    scale: tuple[float, float]


@dataclass(frozen=True)
class DecodeError:
    reason: str
    message: str


def _to_rgb(img: Image.Image) -> Image.Image:
    """8-bit RGB from any mode Pillow opens (CMYK, I;16, I, L, LA, P, RGBA, 1 ...), pixel by
    pixel, so that a band of rows converts as it would in the whole image (``F``, scaled by the
    whole image's range, is :func:`_float_to_rgb`'s)."""
    if img.mode in ("RGB",):
        return img
    if img.mode in ("I;16", "I;16B", "I;16L", "I;16N", "I"):
        # 16/32-bit integer greyscale: keep the top 8 bits of the 16-bit range
        arr = np.asarray(img, dtype=np.uint32 if img.mode == "I" else np.uint16).astype(np.uint32)
        return Image.fromarray((np.clip(arr, 0, 65535) >> 8).astype(np.uint8)).convert("RGB")
    if img.mode == "P" and "transparency" in img.info:
        img = img.convert("RGBA")  # Pillow warns when a palette with transparency goes to RGB
    return img.convert("RGB")


def _float_to_rgb(img: Image.Image) -> np.ndarray:
    """A 32-bit float image (mode ``F``) as RGB, its range stretched to 0-255."""
    arr = np.nan_to_num(np.asarray(img, dtype=np.float32))
    lo, hi = float(arr.min()), float(arr.max())
    norm = (arr - lo) / (hi - lo) * 255.0 if hi > lo else np.zeros_like(arr)
    return np.asarray(Image.fromarray(norm.astype(np.uint8)).convert("RGB"))


#: Bytes of decoded pixels converted to RGB at a time (a band of rows).
BAND_BYTES = 1 << 22


def upright_rgb(img: Image.Image, orientation: object = None) -> np.ndarray:
    """A decoded image as an upright 8-bit RGB array, the EXIF ``orientation`` (2-8) applied as
    ``ImageOps.exif_transpose`` applies it: the same pixels as
    ``np.asarray(_to_rgb(ImageOps.exif_transpose(img)))``, without their copies.

    That chain holds the image three to five times over (the transposed copy, or a plain copy
    where there is no orientation, a converted one, and ``np.asarray``'s bytes and their join);
    here each band of rows is converted and written, turned, into the one array that is
    returned, so the decoded image and that array are all there is."""
    method = TRANSPOSES.get(orientation)  # type: ignore[call-overload]
    if img.mode == "F":  # scaled by the whole image's range: converted whole (it is rare)
        rgb = _float_to_rgb(img)
        return rgb if method is None else np.ascontiguousarray(_turn(rgb, method))
    width, height = img.size
    turned = method in (Image.Transpose.TRANSPOSE, Image.Transpose.TRANSVERSE,
                        Image.Transpose.ROTATE_90, Image.Transpose.ROTATE_270)  # fmt: skip
    out = np.empty((width, height, 3) if turned else (height, width, 3), np.uint8)
    rows = max(1, BAND_BYTES // (4 * width))
    for top in range(0, height, rows):
        bottom = min(height, top + rows)
        band = np.asarray(_to_rgb(img.crop((0, top, width, bottom))))
        _place(out, band, top, bottom, height, method)
    return out


#: EXIF orientation -> the transposition that makes the image upright (``exif_transpose``'s).
TRANSPOSES = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}


def _turn(arr: np.ndarray, method) -> np.ndarray:
    """``arr`` (rows, columns, channels) transposed as Pillow's ``transpose(method)``: a view."""
    T = Image.Transpose
    if method == T.FLIP_LEFT_RIGHT:
        return arr[:, ::-1]
    if method == T.ROTATE_180:
        return arr[::-1, ::-1]
    if method == T.FLIP_TOP_BOTTOM:
        return arr[::-1]
    if method == T.TRANSPOSE:
        return arr.transpose(1, 0, 2)
    if method == T.ROTATE_270:  # a quarter turn clockwise
        return arr.transpose(1, 0, 2)[:, ::-1]
    if method == T.TRANSVERSE:
        return arr.transpose(1, 0, 2)[::-1, ::-1]
    if method == T.ROTATE_90:  # a quarter turn anticlockwise
        return arr.transpose(1, 0, 2)[::-1]
    return arr


def _place(out: np.ndarray, band: np.ndarray, top: int, bottom: int, height: int, method) -> None:
    """Write rows ``top:bottom`` of an image ``height`` rows high, turned by ``method``, where
    they go in the upright ``out``."""
    T = Image.Transpose
    turned = _turn(band, method)
    if method in (None, T.FLIP_LEFT_RIGHT):
        out[top:bottom] = turned
    elif method in (T.ROTATE_180, T.FLIP_TOP_BOTTOM):
        out[height - bottom : height - top] = turned
    elif method in (T.TRANSPOSE, T.ROTATE_90):
        out[:, top:bottom] = turned
    else:  # ROTATE_270, TRANSVERSE: stored rows become columns from the right
        out[:, height - bottom : height - top] = turned


def pillow_open(fp) -> Image.Image:
    """Pillow's own ``Image.open``. Importing ultralytics replaces ``PIL.Image.open`` with a
    wrapper that, on an unidentifiable file, tries to pip-install a HEIF plugin and raises
    ModuleNotFoundError offline; a corrupt image must stay a corrupt image."""
    opener = Image.open
    if getattr(opener, "__module__", "").startswith("ultralytics"):
        opener = getattr(sys.modules.get(opener.__module__), "_image_open", opener)
    return opener(fp)


def decode_image(
    data: bytes | None, imgsz: int = 640, max_pixels: int = DEFAULT_MAX_PIXELS
) -> Decoded | DecodeError:
    """Decode ``data`` for a detector whose letterbox's long side is ``imgsz``."""
    if not data:
        return DecodeError("image_empty", "image is empty (0 bytes)")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with pillow_open(io.BytesIO(data)) as img:
                refused = size_problem(
                    *img.size, max_pixels
                )  # from the header: nothing decoded yet
                if refused is not None:
                    return DecodeError(*refused)
                full_w, full_h = img.size
                if img.getexif().get(_ORIENTATION) in (5, 6, 7, 8):  # turned by 90 degrees
                    full_w, full_h = full_h, full_w
                if img.format == "JPEG" and img.mode in ("RGB", "L", "CMYK", "YCbCr"):
                    need = imgsz / max(full_w, full_h)  # letterbox scale on the full image
                    if need < 0.5:
                        img.draft(img.mode, (math.ceil(full_w * need), math.ceil(full_h * need)))
                img.load()  # truncated data fails here
                rgb = upright_rgb(img, img.getexif().get(_ORIENTATION, 1))
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        return DecodeError("image_too_large", f"decompression bomb: {exc}")
    except UnidentifiedImageError:
        return DecodeError("image_corrupt", "not an image Pillow can identify")
    except (OSError, SyntaxError, ValueError, EOFError, TypeError) as exc:
        reason = "image_truncated" if "truncat" in str(exc).lower() else "image_corrupt"
        return DecodeError(reason, f"cannot decode image: {exc}")
    if rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.dtype != np.uint8:
        return DecodeError(
            "image_corrupt", f"decoded to an unexpected array {rgb.shape} {rgb.dtype}"
        )
    return Decoded(rgb=rgb, width=full_w, height=full_h)


class Decoder:
    """A thread pool that decodes (and pre-processes) images ahead of the detector.

    ``submit(key, data)`` starts work once per key; ``result(key)`` waits for it and forgets it,
    so at most the submitted-but-not-taken images are held in memory.
    """

    def __init__(
        self,
        workers: int,
        imgsz: int,
        max_pixels: int = DEFAULT_MAX_PIXELS,
        prepare: Callable[[np.ndarray], Any] | None = None,
    ):
        self._pool = ThreadPoolExecutor(
            max_workers=max(1, workers), thread_name_prefix="sgprep-decode"
        )
        self._imgsz, self._max_pixels, self._prepare = imgsz, max_pixels, prepare
        self._futures: dict[int, Future] = {}

    def _work(self, data: bytes | None) -> Frame | DecodeError:
        decoded = decode_image(data, self._imgsz, self._max_pixels)
        if isinstance(decoded, DecodeError):
            return decoded
        prepared = decoded.rgb if self._prepare is None else self._prepare(decoded.rgb)
        return Frame(
            input=prepared, width=decoded.width, height=decoded.height, scale=decoded.scale
        )

    def submit(self, key: int, data: bytes | None) -> None:
        if key not in self._futures:
            self._futures[key] = self._pool.submit(self._work, data)

    def result(self, key: int) -> Frame | DecodeError:
        """The frame (or why there is none) of a submitted key; waits for it."""
        return self._futures.pop(key).result()

    def discard(self, key: int) -> None:
        future = self._futures.pop(key, None)
        if future is not None:
            future.cancel()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._futures.clear()
