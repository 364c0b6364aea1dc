"""Files under an output or a cache: never opened, written or deleted through a symbolic link.

Every write sgprep makes below an output (shards, ``_meta``, JSONL parts) or below its own
caches goes through these helpers; nothing else in the package checks for links.

- A directory sgprep works in is taken with :func:`real_dir` (created when asked): ``lstat``
  says it is a directory and not a link, else :class:`LinkRefused`. The folder the user named
  may itself be a link (their choice of path); what sgprep makes inside it may not.
- A file is written under an exclusive temp name (``O_CREAT | O_EXCL | O_NOFOLLOW``), then
  renamed over its final name; a rename replaces a link there, it never writes through it.
- Reads of sgprep's own records use ``O_NOFOLLOW`` (:func:`read_bytes`).
- Deleting takes names (from sgprep's own records), and ``unlink`` removes a link, never its
  target; a directory is only ever removed when empty (``rmdir``).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class LinkRefused(OSError):
    """A path sgprep would act on is a symbolic link (or not the directory it should be)."""

    def __init__(self, path: Path, what: str = "is a symbolic link"):
        super().__init__(
            errno.ELOOP,
            f"{path} {what}; sgprep never opens, writes or deletes "
            f"through a link there: remove it, or choose another "
            f"output",
            str(path),
        )

    def __str__(self) -> str:
        return self.strerror


def real_dir(path: Path, create: bool = False) -> Path:
    """``path`` as a real directory (made when ``create`` and missing), never a link."""
    if create:
        try:
            os.mkdir(path)
        except FileExistsError:
            pass
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        raise LinkRefused(path)
    if not stat.S_ISDIR(info.st_mode):
        raise LinkRefused(path, "is not a directory")
    return path


def own_dir(path: Path, create: bool = False) -> Path | None:
    """``path`` when it is a real folder (made when ``create`` and missing); None where it is
    missing or something else stands there (a link, a file): a record kept there is then not
    kept, rather than written through a link."""
    if create:
        try:
            os.mkdir(path)
        except FileExistsError:
            pass
        except OSError:
            return None
    try:
        return path if stat.S_ISDIR(os.lstat(path).st_mode) else None
    except FileNotFoundError:
        return None


def make_dirs(path: Path, link_ok: bool = False) -> list[Path]:
    """Create ``path`` and its missing parents; return the folders made here, top first.
    ``path`` must not be a link unless ``link_ok`` (the folder a user named for an output)."""
    missing: list[Path] = []
    probe = path
    while not os.path.lexists(probe) and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    made = []
    for folder in reversed(missing):
        try:
            os.mkdir(folder)
            made.append(folder)
        except FileExistsError:  # made by another process meanwhile: not ours to remove
            pass
    if link_ok and path.is_dir():
        return made
    real_dir(path)
    return made


def climbs_above_root(path: Path) -> bool:
    """True for a path whose ``..`` go above ``/`` (``/../tmp/x``): SQLite and others refuse
    it, and it does not say what the user meant."""
    parts = path.parts if path.is_absolute() else Path(os.getcwd(), path).parts
    depth = 0
    for part in parts[1:]:
        if part == "..":
            depth -= 1
            if depth < 0:
                return True
        elif part != ".":
            depth += 1
    return False


def exclusive_temp(path: Path, buffering: int = -1) -> tuple[Path, BinaryIO]:
    """A new temp file beside ``path``, created exclusively and never through a symlink.
    ``buffering``: as ``open``'s (a shard written sample by sample wants a large buffer)."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.unlink()  # a stale one of a killed run (a symlink is removed, never followed)
    except FileNotFoundError:
        pass
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o644)
    return tmp, os.fdopen(fd, "wb", buffering=buffering)


def sync_close(fh: BinaryIO) -> None:
    fh.flush()
    os.fsync(fh.fileno())
    fh.close()


def commit(tmp: Path, fh: BinaryIO, path: Path) -> None:
    """Close the temp file and give it its final name (replacing a link there, not following)."""
    sync_close(fh)
    os.replace(tmp, path)


def atomic_write(path: Path, data: bytes) -> None:
    tmp, fh = exclusive_temp(path)
    fh.write(data)
    commit(tmp, fh, path)


def open_read(path: Path) -> BinaryIO:
    """A regular file at ``path``, open for reading; a link there is refused (OSError ELOOP)."""
    fh = os.fdopen(os.open(path, os.O_RDONLY | NOFOLLOW | os.O_NONBLOCK), "rb")
    if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
        fh.close()
        raise LinkRefused(path, "is not a regular file")
    return fh


def read_bytes(path: Path) -> bytes:
    with open_read(path) as fh:
        return fh.read()


def copy_file(source: Path, target: Path) -> None:
    """Copy without following a link at either end."""
    atomic_write(target, read_bytes(source))


def remove_names(folder: Path, names: set[str] | list[str]) -> list[str]:
    """Unlink the entries ``names`` of ``folder`` that exist (a link is removed, not followed;
    a real directory is left alone); return the names removed."""
    removed = []
    for name in sorted(names):
        path = folder / name
        try:
            if stat.S_ISDIR(os.lstat(path).st_mode):
                continue
            path.unlink()
            removed.append(name)
        except FileNotFoundError:
            continue
    return removed


def remove_empty_dirs(folders: list[Path]) -> None:
    """``rmdir`` each folder, deepest first, where it is empty; a non-empty one stays."""
    for folder in sorted(folders, key=lambda p: len(p.parts), reverse=True):
        try:
            os.rmdir(folder)
        except OSError:
            pass
