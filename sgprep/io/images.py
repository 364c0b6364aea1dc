"""Image checks at read time: decode once, cheaply, so bad images fail early and clearly."""

from __future__ import annotations

import io
import sys
import warnings
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


def inspect_image(data: bytes, max_pixels: int = DEFAULT_MAX_PIXELS) -> ImageInfo:
    """Check that ``data`` is a whole, decodable image of sane size; say what it is.

    The bytes are never changed: CMYK, 16-bit, palette and 1x1 images are valid and pass.
    The pixel count is checked from the header, before any decoding, so a decompression
    bomb costs nothing.
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
                if img.format == "JPEG":
                    img.draft(img.mode, (max(1, width // 8), max(1, height // 8)))
                img.load()  # decodes all of it: truncated data fails here
                orientation = img.getexif().get(EXIF_ORIENTATION)
                if isinstance(orientation, int) and 2 <= orientation <= 8:
                    info.orientation = orientation
    except ImageError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ImageError("image_too_large", f"decompression bomb: {exc}") from None
    except UnidentifiedImageError:
        raise ImageError("image_corrupt", "not an image Pillow can identify") from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        reason = "image_truncated" if "truncated" in str(exc).lower() else "image_corrupt"
        raise ImageError(reason, f"cannot decode image: {exc}") from None
    return info


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
