"""Input readers, one module per format. Each module has two functions:

- ``units(paths) -> list[Path]``: the files (or folders) the input consists of, in order;
- ``records(unit, start=None, load=True) -> Iterator[(cursor, Sample)]``: the unit's samples in
  a stable order, each with a JSON-able cursor from which reading can start again directly
  (a tar header offset, a byte offset and line number, a row number). With ``load=False`` the
  samples carry their keys but no image bytes: planning reads that way.

A reader never raises for one bad record: it yields a sample that already carries a
failure (stage ``read``), so the record is counted and written to the index.
"""

from __future__ import annotations

import glob
import importlib
from collections.abc import Iterator
from pathlib import Path

from sgprep.schema import Sample

#: format -> the module that reads it; one line per reader.
READERS: dict[str, str] = {
    "table": "sgprep.io.readers.tables",
    "wds": "sgprep.io.readers.tars",
    "coco": "sgprep.io.readers.coco",
    "images": "sgprep.io.readers.folders",
}
ALIASES = {"img2dataset": "wds", "webdataset": "wds", "tar": "wds", "csv": "table",
           "tsv": "table", "jsonl": "table", "txt": "table", "parquet": "table", "folder": "images"}

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


def detect_format(paths: list[Path]) -> str:
    first = paths[0]
    if first.is_dir():
        if list(first.glob("annotations/captions_*.json")):
            return "coco"
        if any(p.name.lower().endswith(TAR_SUFFIXES) for p in first.iterdir()):
            return "wds"
        from sgprep.io.images import IMAGE_EXTENSIONS

        suffixes = {p.suffix.lower().lstrip(".") for p in first.iterdir() if p.is_file()}
        if suffixes & IMAGE_EXTENSIONS:  # images with .txt captions beside them
            return "images"
        if {f".{s}" for s in suffixes} & set(TABLE_SUFFIXES):
            return "table"
        return "images"
    suffix = first.suffix.lower()
    if first.name.lower().endswith(TAR_SUFFIXES):
        return "wds"
    if suffix in TABLE_SUFFIXES:
        return "table"
    if suffix == ".json":
        return "coco"
    return "images"


def canonical_format(name: str) -> str:
    name = ALIASES.get(name, name)
    if name not in READERS:
        choices = ", ".join(sorted(set(READERS) | set(ALIASES)))
        raise InputError(f"--input-format {name!r} is not known; choose one of {choices}")
    return name


def reader(fmt: str):
    """The module that reads format ``fmt`` (see the module docstring)."""
    return importlib.import_module(READERS[canonical_format(fmt)])


def input_format(spec: str, fmt: str | None = None) -> tuple[list[Path], str]:
    paths = resolve_inputs(spec)
    return paths, canonical_format(fmt) if fmt else detect_format(paths)


def read_samples(spec: str, fmt: str | None = None) -> Iterator[Sample]:
    """Every sample of the input, in order (tests and tools; runs go through a plan)."""
    paths, fmt = input_format(spec, fmt)
    module = reader(fmt)
    for unit in module.units(paths):
        for _, sample in module.records(unit):
            yield sample


def failed_sample(key: str, source: str, reason: str, message: str) -> Sample:
    return Sample(key=key, source=source).fail("read", reason, message)


def decode_text(raw: bytes, what: str) -> tuple[str | None, str | None]:
    """UTF-8 text, or (None, error message). A BOM is tolerated, other bad bytes are not."""
    try:
        return raw.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        return None, f"{what} is not valid UTF-8: {exc}"


def files_under(paths: list[Path], suffixes: tuple[str, ...]) -> list[Path]:
    """Files with one of ``suffixes``: given directly, or found recursively in directories."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*")
                                if p.is_file() and p.name.lower().endswith(suffixes)))
        else:
            found.append(path)
    return found
