"""Image checks at read time: cheaply, in memory bounded per image (never the decoded image's),
so bad images fail early and clearly."""

from __future__ import annotations

import io
import sys
import warnings
import zlib
from importlib.util import find_spec

from sgprep.config import DEFAULT_MAX_PIXELS
from sgprep.schema import ImageInfo

#: The EXIF tag that says how to turn the stored pixels upright (1: already upright).
EXIF_ORIENTATION = 0x0112

#: Extensions read as images: the common ones, plus AVIF/HEIC where this Pillow opens them
#: (Pillow 11.3+ reads AVIF; HEIC needs the pillow-heif plugin).
_OPTIONAL = {".avif": "avif", ".heic": "heic", ".heif": "heif"}


def _optional_extensions() -> set[str]:
    """AVIF/HEIC where this Pillow opens them, without importing Pillow when nothing has (a
    captions-only run never does): Pillow registers ``.avif`` exactly when its ``_avif``
    module imports, and HEIC only when a plugin registered it, which needs Pillow imported."""
    if "PIL.Image" in sys.modules:
        registered = sys.modules["PIL.Image"].registered_extensions()
        return {ext for suffix, ext in _OPTIONAL.items() if suffix in registered}
    try:
        return {"avif"} if find_spec("PIL._avif") is not None else set()
    except (ImportError, ValueError):
        return set()


IMAGE_EXTENSIONS = frozenset(
    {"jpg", "jpeg", "png", "webp", "bmp", "gif", "tif", "tiff", "ppm", "pgm", "jp2"}
    | _optional_extensions()
)
#: Image formats this Pillow cannot read: such a file or member fails ``image_unsupported``
#: rather than passing as a sample without its image, or vanishing from a folder.
UNSUPPORTED_IMAGE_EXTENSIONS = (
    frozenset({"avif", "heic", "heif", "jxl", "svg", "dng", "cr2", "nef", "arw"}) - IMAGE_EXTENSIONS
)
#: Pillow's format name -> the extension a member of that format is written under.
FORMAT_EXTENSIONS = {
    "JPEG": "jpg",
    "PNG": "png",
    "WEBP": "webp",
    "BMP": "bmp",
    "GIF": "gif",
    "TIFF": "tif",
    "PPM": "ppm",
    "JPEG2000": "jp2",
    "AVIF": "avif",
    "HEIF": "heic",
}


def image_extension(name: str, data: bytes) -> str | None:
    """A safe extension for an image file called ``name``: its own when it is a known image
    extension (lowercased), else the one of the format Pillow recognises in the first bytes
    (``img.pñg``, ``x.txt``, a 100-character suffix), else None. The extension becomes a tar
    member name, so it must be short ASCII and never ``txt``/``json``, which sgprep writes."""
    suffix = name.rpartition(".")[2].lower() if "." in name else ""
    if suffix in IMAGE_EXTENSIONS:
        return suffix
    from PIL import Image

    Image.init()
    prefix = data[:64]
    for fmt, (_, accept) in Image.OPEN.items():  # header test only: no size check, no decode
        if fmt in FORMAT_EXTENSIONS and FORMAT_EXTENSIONS[fmt] in IMAGE_EXTENSIONS:
            try:
                if accept is not None and accept(prefix):
                    return FORMAT_EXTENSIONS[fmt]
            except Exception:  # a plugin's test that trips over odd bytes
                continue
    return None


class ImageError(Exception):
    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason
        self.message = message


def size_problem(width: int, height: int, max_pixels: int) -> tuple[str, str] | None:
    """(reason, message) when a header's size is unusable: no pixels, or more than
    ``max_pixels`` (a decompression bomb is refused before anything is decoded)."""
    if width <= 0 or height <= 0:
        return "image_corrupt", f"image has no pixels ({width}x{height})"
    if width * height > max_pixels:
        return (
            "image_too_large",
            f"{width}x{height} = {width * height:,} pixels exceeds the limit of "
            f"{max_pixels:,} (possible decompression bomb; see --max-image-pixels)",
        )
    return None


#: Images of other formats than PNG and single-scan JPEG are decoded whole at the check up to
#: this many pixels (64 MB at most, in Pillow's widest modes); larger ones are checked from
#: their header only (see :func:`inspect_image`).
FULL_CHECK_PIXELS = 4096 * 4096


def inspect_image(data: bytes, max_pixels: int = DEFAULT_MAX_PIXELS) -> ImageInfo:
    """Check that ``data`` is a whole, decodable image of sane size; say what it is.

    The bytes are never changed: CMYK, 16-bit, palette and 1x1 images are valid and pass.
    The pixel count is checked from the header, before any decoding, so a decompression
    bomb costs nothing.

    Memory is bounded per image, never the decoded image's: a PNG's compressed pixels are
    inflated a megabyte at a time and checked row by row (:func:`_check_png`: every row there,
    each with a known filter), never held; a JPEG of one scan (a baseline JPEG, the common kind)
    is decoded at 1/8 of each side (1/64 of its pixels; truncated data still fails). Other
    images (GIF, WebP, TIFF, BMP, a progressive JPEG, whose decoder holds every DCT
    coefficient until its last scan) are decoded whole up to :data:`FULL_CHECK_PIXELS`; a
    larger one is checked from its header only, and a truncated or corrupt one fails later,
    where its pixels are decoded (``detect``: a failure row), or is written as it came
    (``parse``).
    """
    if not data:
        raise ImageError("image_empty", "image file is empty (0 bytes)")
    from PIL import Image, UnidentifiedImageError

    # Pillow's own bomb check follows ours, so --max-image-pixels can also raise the limit
    Image.MAX_IMAGE_PIXELS = max_pixels
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as img:
                width, height = img.size
                refused = size_problem(width, height, max_pixels)
                if refused is not None:
                    raise ImageError(*refused)
                info = ImageInfo(width=width, height=height, mode=img.mode, format=img.format)
                if img.format == "PNG":
                    _check_png(img, data)  # reads the chunks after the pixels too
                    exif = Image.Image.getexif(img)  # PNG's own would decode the pixels
                else:
                    _check_pixels(img, data)
                    exif = img.getexif()
                orientation = exif.get(EXIF_ORIENTATION)
                if isinstance(orientation, int) and 2 <= orientation <= 8:
                    info.orientation = orientation
    except ImageError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ImageError("image_too_large", f"decompression bomb: {exc}") from None
    except UnidentifiedImageError:
        raise ImageError("image_corrupt", "not an image Pillow can identify") from None
    except (OSError, SyntaxError, ValueError, EOFError, zlib.error) as exc:
        reason = "image_truncated" if "truncated" in str(exc).lower() else "image_corrupt"
        raise ImageError(reason, f"cannot decode image: {exc}") from None
    return info


def _check_pixels(img, data: bytes) -> None:
    """Decode a non-PNG image as far as its check needs (:func:`inspect_image`)."""
    width, height = img.size
    small = width * height <= FULL_CHECK_PIXELS
    if img.format in ("JPEG", "MPO") and (small or _jpeg_one_scan(data)):
        if img.draft(img.mode, (max(1, width // 8), max(1, height // 8))) is not None or small:
            img.load()  # decodes all of it, at 1/8 scale: truncated data fails here
    elif small:
        img.load()


def _jpeg_one_scan(data: bytes) -> bool:
    """Whether a JPEG's (first) image is one scan, not progressive: libjpeg then decodes it a
    band of rows at a time. A progressive or multi-scan one is held whole as DCT coefficients
    (2 bytes a sample) until its last scan, whatever the scale it is decoded at."""
    pos, end = 2, len(data)
    while pos + 4 <= end and data[pos] == 0xFF:
        marker = data[pos + 1]
        if marker == 0xFF:  # a fill byte
            pos += 1
            continue
        if marker in (0x01, 0xD8) or 0xD0 <= marker <= 0xD7:  # no length
            pos += 2
            continue
        if marker in (0xC2, 0xC6, 0xCA, 0xCE):  # a progressive frame
            return False
        length = int.from_bytes(data[pos + 2 : pos + 4], "big")
        if marker == 0xDA:  # the first scan: a second one before the image's end?
            start = pos + 2 + length
            stop = data.find(b"\xff\xd9", start)
            return data.find(b"\xff\xda", start, stop if stop >= 0 else end) < 0
        pos += 2 + length
    return False


#: PNG colour type -> samples per pixel.
_PNG_SAMPLES = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
#: Adam7's passes: (first column, first row, column step, row step).
_ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2))
_ADAM7 += ((0, 1, 1, 2),)
#: Compressed bytes handed to zlib at a time, and the most it may give back for them.
_PNG_IN, _PNG_OUT = 1 << 16, 1 << 20


def _png_rows(width: int, height: int, bits: int, interlaced: bool) -> list[tuple[int, int]]:
    """A PNG's filtered rows as (rows, bytes a row with its filter byte), pass by pass."""
    if not interlaced:
        return [(height, 1 + (width * bits + 7) // 8)]
    rows = []
    for x0, y0, dx, dy in _ADAM7:
        w, h = (width - x0 + dx - 1) // dx, (height - y0 + dy - 1) // dy
        if w > 0 and h > 0:
            rows.append((h, 1 + (w * bits + 7) // 8))
    return rows


def _check_png(img, data: bytes) -> None:
    """Inflate a PNG's pixel data (its IDAT chunks) a megabyte at a time and check it as
    Pillow's decoder would, without holding the pixels: as many bytes as the header's rows
    need (fewer: truncated), each row with a filter Pillow knows (0-4), the zlib stream
    sound. Then the chunks after the pixels are read into ``img.info`` as Pillow's ``load``
    would (an ``eXIf`` or XMP there gives the orientation), through Pillow's own handlers.
    Raises what Pillow's ``load`` raises on such data (OSError, SyntaxError)."""
    import numpy as np

    if data[12:16] != b"IHDR" or len(data) < 33:
        raise SyntaxError("broken PNG file (no IHDR chunk first)")
    x0, y0, x1, y1 = img.tile[0][1] if img.tile else (0, 0, *img.size)
    bits = _PNG_SAMPLES.get(data[25], 1) * data[24]
    segments, expected = [], 0  # (first byte, rows, row bytes) of each pass in the stream
    for count, size in _png_rows(x1 - x0, y1 - y0, bits, bool(data[28])):
        segments.append((expected, count, size))
        expected += count * size
    seen, inflater, view = 0, zlib.decompressobj(), memoryview(data)
    pos, in_pixels = 8, False
    while seen < expected:
        if pos + 8 > len(data):
            raise OSError("image file is truncated")
        length, cid = int.from_bytes(data[pos : pos + 4], "big"), data[pos + 4 : pos + 8]
        body, pos = pos + 8, pos + 12 + length
        if cid != b"IDAT":
            if in_pixels or cid == b"IEND":  # the pixel data ended short
                raise OSError(f"image file is truncated ({expected - seen} bytes short)")
            continue
        in_pixels, stop = True, min(body + length, len(data))
        try:
            for at in range(body, stop, _PNG_IN):
                tail = view[at : min(at + _PNG_IN, stop)]
                while tail and seen < expected and not inflater.eof:
                    out = inflater.decompress(tail, min(_PNG_OUT, expected - seen))
                    _check_filters(np.frombuffer(out, np.uint8), seen, segments)
                    seen += len(out)
                    tail = inflater.unconsumed_tail
        except zlib.error:
            raise OSError("broken data stream when reading image file") from None
        if seen < expected and (inflater.eof or stop < body + length):
            raise OSError(f"image file is truncated ({expected - seen} bytes short)")
    _read_chunks_after(img, data, pos)


def _check_filters(out, first: int, segments: list[tuple[int, int, int]]) -> None:
    """The filter byte of every row that starts in ``out`` (the stream's bytes from ``first``)
    is one Pillow knows."""
    last = first + len(out)
    for start, count, size in segments:
        end = start + count * size
        if end <= first or start >= last:
            continue
        k0 = max(0, -(-(first - start) // size))
        k1 = min(count, -(-(last - start) // size))
        if (
            k1 > k0
            and (out[start + k0 * size - first : start + k1 * size - first : size] > 4).any()
        ):
            raise OSError("unrecognized data stream contents when reading image file")


def _read_chunks_after(img, data: bytes, pos: int) -> None:
    """The chunks after a PNG's pixel data read into ``img.info``, as Pillow's ``load_end``
    reads them (up to ``IEND``, or the next frame of an animation; a damaged chunk header
    ends them, a truncated chunk body is an error), through Pillow's own chunk handlers."""
    png = getattr(img, "png", None)
    if png is None:
        return
    from PIL import ImageFile
    from PIL.PngImagePlugin import is_cid

    while pos + 8 <= len(data):
        length, cid = int.from_bytes(data[pos : pos + 4], "big"), data[pos + 4 : pos + 8]
        body = pos + 8
        if not is_cid(cid) or cid == b"IEND":
            break
        if cid == b"fcTL" and getattr(img, "is_animated", False):
            break
        img.fp.seek(body)
        try:
            png.call(cid, body, length)
        except UnicodeDecodeError:
            break
        except EOFError:  # IDAT, fdAT: skipped
            ImageFile._safe_read(img.fp, length - 4 if cid == b"fdAT" else length)
        except AttributeError:  # a chunk Pillow has no handler for
            ImageFile._safe_read(img.fp, length)
        pos = body + length + 4


#: What every WebDataset image decoder reads (open_clip's ``jpg;png;jpeg;webp``): kept as they
#: are by ``image_format: jpg``; every other format is re-encoded.
TRAINER_FORMATS = frozenset({"jpg", "jpeg", "png", "webp"})
#: JPEG quality of re-encoded images (fixed: the same input gives the same bytes).
REENCODE_QUALITY = 95


def reencode_jpeg(data: bytes) -> bytes:
    """``data`` (an image that passed :func:`inspect_image`) as a baseline RGB JPEG, turned
    upright (EXIF orientation applied; no EXIF kept): for gif, bmp, tiff and the other formats
    trainers' decoders skip. Alpha is dropped, the first frame of an animation kept."""
    from PIL import Image, ImageOps

    with Image.open(io.BytesIO(data)) as img:
        upright = ImageOps.exif_transpose(img)
        rgb = upright.convert("RGB")
    out = io.BytesIO()
    rgb.save(out, format="JPEG", quality=REENCODE_QUALITY)
    return out.getvalue()


def reencode_upright(data: bytes, ext: str) -> tuple[bytes, str]:
    """``data`` (an image with an EXIF orientation, that passed :func:`inspect_image`) turned
    upright with no EXIF kept, so that every decoder (webdataset's, open_clip's, which apply no
    orientation) shows what det.json's boxes see: a JPEG as a JPEG (quality
    :data:`REENCODE_QUALITY`, its mode kept where JPEG holds it), any other format as a PNG
    (lossless, alpha kept). Returns (bytes, extension). Deterministic: the same bytes in give
    the same bytes out."""
    from PIL import Image, ImageOps

    with Image.open(io.BytesIO(data)) as img:
        jpeg = img.format in ("JPEG", "MPO")  # MPO: a phone's JPEG with a preview appended
        upright = ImageOps.exif_transpose(img)
        if jpeg and upright.mode not in ("L", "RGB"):
            upright = upright.convert("RGB")
    out = io.BytesIO()
    if jpeg:
        upright.save(out, format="JPEG", quality=REENCODE_QUALITY)
        return out.getvalue(), ext if ext in ("jpg", "jpeg") else "jpg"
    upright.save(out, format="PNG")
    return out.getvalue(), "png"
