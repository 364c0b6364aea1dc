"""Input readers, one module per format. Each module has two functions:

- ``units(paths) -> list[Path]``: the files (or folders) the input consists of, in order;
- ``records(unit, start=None, load=True) -> Iterator[(cursor, Sample)]``: the unit's samples in
  a stable order, each with a JSON-able cursor from which reading can start again directly
  (a tar header offset, a byte offset and line number, a row number). With ``load=False`` the
  samples carry their keys but no image bytes: planning reads that way.

A reader never raises for one bad record: it yields a sample that already carries a
failure (stage ``read``), so the record is counted and written to the index. A file or folder
that cannot be split into records gives one row (``input_unreadable`` when it cannot be
opened, ``source_unreadable`` when it is corrupt or cannot be listed).

Detection (``detect_format``): the input's files are classified by name into the layouts
table, wds, coco and images; files that belong to another layout are not counted (tar
sidecars, captions beside images, notes beside image folders). Exactly one layout is read;
several are refused with a list of what was found, asking for ``--input-format``.
"""

from __future__ import annotations

import glob
import json
import logging
import os
import re
import stat
from pathlib import Path
from typing import Any

import orjson

from sgprep.registry import load_entry
from sgprep.schema import OutputDir, Sample

log = logging.getLogger(__name__)

#: Tar members larger than this are failed (``member_too_large``) without being read; a
#: module default so that a flag can set it. 256 MiB is far above any real image or caption.
MAX_MEMBER_BYTES = 256 * 1024 * 1024
#: The same bound for image files named by tables, COCO and folders.
MAX_FILE_BYTES = MAX_MEMBER_BYTES

#: format -> the module that reads it; one line per reader.
READERS: dict[str, str] = {
    "table": "sgprep.io.readers.tables",
    "wds": "sgprep.io.readers.tars",
    "coco": "sgprep.io.readers.coco",
    "images": "sgprep.io.readers.folders",
}
ALIASES = {
    "img2dataset": "wds",
    "webdataset": "wds",
    "tar": "wds",
    "csv": "table",
    "tsv": "table",
    "jsonl": "table",
    "txt": "table",
    "parquet": "table",
    "folder": "images",
}

TABLE_SUFFIXES = (".txt", ".jsonl", ".csv", ".tsv", ".parquet")
TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz")


class InputError(ValueError):
    """The --input/--input-format flags name nothing sgprep can read."""


def resolve_inputs(spec: str) -> list[Path]:
    """A file, a directory, or a glob -> the paths it names (sorted, existing)."""
    if any(ch in spec for ch in "*?["):
        paths = sorted(Path(p) for p in glob.glob(spec, recursive=True))
        if not paths:
            raise InputError(f"--input {spec!r}: the glob matches nothing")
        return paths
    path = Path(spec)
    if not path.exists():
        raise InputError(f"--input {spec!r}: no such file or directory")
    if path.is_dir():
        try:
            next(path.iterdir(), None)
        except OSError as exc:
            raise InputError(f"--input {spec!r}: cannot read the directory: {exc}") from None
    return [path]


#: What a directory holds, by layout; detection reads names only, never file contents.
Layouts = dict[str, list[str]]


def _classify(paths: list[Path]) -> Layouts:
    """layout -> example names found, for files given directly and everything under folders.
    Files that belong to another layout are not counted apart: img2dataset's ``NNNNN.parquet``
    and ``NNNNN_stats.json`` beside ``NNNNN.tar``, a ``.txt`` caption beside its image, COCO's
    image folders; in a folder that holds images, a ``.txt`` is a caption or a note, not a
    table."""
    from sgprep.io.images import IMAGE_EXTENSIONS, UNSUPPORTED_IMAGE_EXTENSIONS

    image_exts = IMAGE_EXTENSIONS | UNSUPPORTED_IMAGE_EXTENSIONS
    found: Layouts = {}
    files: list[tuple[Path, bool]] = []  # (file, given directly)
    for path in paths:
        if path.is_dir():
            if list(path.glob("annotations/captions_*.json")):
                found.setdefault("coco", []).append(str(path))
                continue
            files.extend((f, False) for f in walk_files(path)[0])
        else:
            files.append((path, True))
    names = [(f, f.name.lower()) for f, _ in files]
    tar_stems = {(f.parent, n.split(".")[0]) for f, n in names if n.endswith(TAR_SUFFIXES)}
    image_stems = {
        (f.parent, f.stem) for f, n in names if "." in n and n.rpartition(".")[2] in image_exts
    }
    for (f, given), (_, n) in zip(files, names):
        ext = n.rpartition(".")[2] if "." in n else ""
        if n.endswith(TAR_SUFFIXES):
            layout = "wds"
        elif (f.parent, n.split(".")[0].removesuffix("_stats")) in tar_stems:
            continue  # img2dataset's sidecars
        elif ext in image_exts:
            layout = "images"
        elif ext == "txt" and (image_stems and not given or (f.parent, f.stem) in image_stems):
            continue
        elif n.endswith(TABLE_SUFFIXES):
            layout = "table"
        elif ext == "json" and (
            given or f.parent.name == "annotations" and n.startswith("captions_")
        ):
            layout = "coco"
        else:
            continue
        found.setdefault(layout, []).append(str(f))
    return found


def detect_format(paths: list[Path]) -> str:
    """The one layout the input evidently has; an input holding several is refused."""
    found = _classify(paths)
    if len(found) == 1:
        return next(iter(found))
    if not found:
        if len(paths) == 1 and paths[0].is_file():
            return "table"  # a lone file of unknown kind: read it as text, lines as captions
        outputs = [p for p in paths if OutputDir(p).is_output()]
        if outputs:
            # what `sgprep validate` calls a valid empty output: say so, not "no input"
            raise InputError(
                f"{outputs[0]} is an sgprep output with no samples in it (its run read none): "
                "nothing to read; run the stage that makes it on a non-empty input first"
            )
        raise InputError(
            f"found no input sgprep can read in {', '.join(map(str, paths[:3]))} "
            f"(no tar, table, COCO or image files); pass --input-format"
        )
    what = "; ".join(
        f"{len(v)} {k} ({', '.join(v[:2])}{', ...' if len(v) > 2 else ''})"
        for k, v in sorted(found.items())
    )
    raise InputError(
        f"the input holds several layouts: {what}. Name the one to read with "
        f"--input-format ({', '.join(sorted(found))}), or point --input at one "
        f"of them"
    )


def canonical_format(name: str) -> str:
    name = ALIASES.get(name, name)
    if name not in READERS:
        choices = ", ".join(sorted(set(READERS) | set(ALIASES)))
        raise InputError(f"--input-format {name!r} is not known; choose one of {choices}")
    return name


def reader(fmt: str):
    """The module that reads format ``fmt`` (see the module docstring)."""
    return load_entry(READERS, canonical_format(fmt), "input format")


def input_format(spec: str, fmt: str | None = None) -> tuple[list[Path], str]:
    """The input's paths and format (detected unless given); says both in the log."""
    paths = resolve_inputs(spec)
    how = "given" if fmt else "detected"
    fmt = canonical_format(fmt) if fmt else detect_format(paths)
    units = reader(fmt).units(paths)
    log.info(
        "input %s: format %s (%s), %d %s",
        spec,
        fmt,
        how,
        len(units),
        "folder(s)" if fmt == "images" else "file(s)",
    )
    return paths, fmt


def failed_sample(key: str, source: str, reason: str, message: str) -> Sample:
    return Sample(key=key, source=source).fail("read", reason, message)


def decode_text(raw: bytes, what: str) -> tuple[str | None, str | None]:
    """UTF-8 text, or (None, error message). A BOM is tolerated, other bad bytes are not."""
    try:  # as "utf-8-sig" decodes, without its codec's Python-level wrapper
        return (raw[3:] if raw[:3] == b"\xef\xbb\xbf" else raw).decode("utf-8"), None
    except UnicodeDecodeError:
        pass
    try:  # the error message as "utf-8-sig" words it
        return raw.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        return None, f"{what} is not valid UTF-8: {exc}"


#: A run of 19 digits: an integer orjson may read unlike json (beyond 64 bits it gives a float).
_LONG_NUMBER = re.compile(r"\d{19}")


def json_loads(text: str) -> Any:
    """``json.loads(text)``, through orjson (3-4x faster) where the two agree: orjson refuses
    what json reads as NaN, infinities and lone surrogates (json then reads it, or words the
    error), and reads integers beyond 64 bits as floats (a line with 19 digits in a row goes
    to json)."""
    if _LONG_NUMBER.search(text) is None:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


def files_under(paths: list[Path], suffixes: tuple[str, ...]) -> list[Path]:
    """Files with one of ``suffixes``: found recursively in directories, or given directly (a
    lone file whatever its name, several from a glob only with a matching name). A folder that
    cannot be listed is kept as a unit of its own, so its reader reports it: samples never
    vanish with an unreadable folder."""
    found: list[Path] = []
    skipped: list[Path] = []
    for path in paths:
        if path.is_dir():
            files, bad = walk_files(path)
            found.extend(sorted([p for p in files if p.name.lower().endswith(suffixes)] + bad))
        elif len(paths) == 1 or path.name.lower().endswith(suffixes):
            found.append(path)
        else:
            skipped.append(path)
    if skipped:  # said, not silent: e.g. img2dataset's .parquet beside the .tar of a glob
        log.info(
            "input: %d of the files given are not %s and are not read as such (%s%s)",
            len(skipped),
            "/".join(suffixes),
            ", ".join(p.name for p in skipped[:3]),
            ", ..." if len(skipped) > 3 else "",
        )
    return found


#: The folder links already said in this process (the plan and the reader both walk).
_LINKS_SAID: set[tuple[str, ...]] = set()


def walk_files(root: Path, others: list[Path] | None = None) -> tuple[list[Path], list[Path]]:
    """(regular files under ``root``, folders that could not be listed), both sorted.
    ``Path.rglob`` skips unreadable folders silently; this says which ones. ``others``, when
    given, receives every other entry (links that lead nowhere or in a loop, FIFOs, sockets,
    devices, and sub-folders), for a reader that must not drop them in silence."""
    files: list[Path] = []
    bad: list[Path] = []

    def failed(exc: OSError) -> None:
        bad.append(Path(exc.filename) if exc.filename else root)

    linked: list[Path] = []
    for folder, dirs, names in os.walk(root, onerror=failed):
        dirs.sort()
        base = Path(folder)
        linked.extend(base / d for d in dirs if (base / d).is_symlink())
        for path in (base / n for n in names):
            (files if path.is_file() else others if others is not None else []).append(path)
        if others is not None:
            others.extend(base / n for n in dirs)
    said = (str(root), *map(str, linked))
    if linked and said not in _LINKS_SAID:  # os.walk does not descend into them: say so, once
        _LINKS_SAID.add(said)
        log.warning(
            "input: %d link(s) to a folder under %s are not followed, and the files in them "
            "are not read (%s%s); give such a folder as an input of its own",
            len(linked),
            root,
            ", ".join(str(p) for p in linked[:3]),
            ", ..." if len(linked) > 3 else "",
        )
    return sorted(files), sorted(bad)


def unreadable_folder(path: Path) -> Sample:
    return failed_sample(
        "",
        str(path),
        "source_unreadable",
        f"cannot list folder {path}: permission denied or unreadable; "
        f"the samples in it are not read",
    )


def input_roots(*folders: Path | str | None) -> tuple[str, ...]:
    """The real paths of the folders an input's files must lie under (None: left out)."""
    return tuple(os.path.realpath(f) for f in folders if f is not None)


def outside(sample: Sample, path: Path, within: tuple[str, ...] | None, label: str) -> bool:
    """Whether ``path`` resolves (links, ``..``, an absolute name) outside every folder of
    ``within``; then ``sample`` fails ``read/outside_input`` (None: no check, the user allowed
    it with ``--allow-outside-paths``). An untrusted input must not carry a private file of
    this machine into a dataset (issue 36)."""
    if within is None:
        return False
    real = os.path.realpath(path)
    if any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in within):
        return False
    sample.fail(
        "read",
        "outside_input",
        f"{label} resolves to {real}, outside the input ({', '.join(within)}); "
        "--allow-outside-paths reads it",
    )
    return True


def load_image_file(
    sample: Sample, path: Path, label: str | None = None, within: tuple[str, ...] | None = None
) -> bool:
    """Read the image at ``path`` into ``sample`` (regular files only, size-bounded), with the
    extension of its name or, failing that, of the format its bytes show. False, with the
    sample failed, when the file cannot be used or lies outside ``within``
    (:func:`outside`). ``label`` names the file in messages."""
    from sgprep.io.images import image_extension

    label = label or str(path)
    if outside(sample, path, within, f"image {label}"):
        return False
    try:
        sample.image = read_regular_file(path)
    except FileRefused as exc:
        sample.fail("read", exc.reason, f"image {label}: {exc.message}")
        return False
    except OSError as exc:
        sample.fail("read", "image_unreadable", f"cannot read image {label}: {exc}")
        return False
    sample.image_ext = image_extension(path.name, sample.image)
    if sample.image_ext is None:
        sample.fail(
            "read",
            "image_corrupt",
            f"image {label} has no image file extension and is not an image Pillow can identify",
        )
        return False
    return True


class FileRefused(Exception):
    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason, self.message = reason, message


def read_regular_file(path: Path, limit: int | None = None) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes. A FIFO, a device (``/dev/zero``)
    or a folder is refused without blocking (``O_NONBLOCK``), a larger file without reading it.
    Raises FileRefused (``image_unreadable``/``image_too_large``) or OSError."""
    limit = MAX_FILE_BYTES if limit is None else limit
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused("image_unreadable", f"{path} is not a regular file")
        if info.st_size > limit:
            raise FileRefused(
                "image_too_large", f"{path} has {info.st_size:,} bytes; the limit is {limit:,}"
            )
        with os.fdopen(os.dup(fd), "rb") as fh:
            data = fh.read(limit + 1)
        if len(data) > limit:
            raise FileRefused("image_too_large", f"{path} grew beyond {limit:,} bytes")
        return data
    finally:
        os.close(fd)
