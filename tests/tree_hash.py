"""A digest of a folder tree (names, kinds, link targets, file bytes), to show that a run
changed nothing outside its output."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path


def tree_hash(root: Path) -> str:
    digest = hashlib.sha256()
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs.sort()
        for name in sorted(dirs + files):
            path = Path(folder, name)
            info = os.lstat(path)
            digest.update(f"{path.relative_to(root)}\0{stat.S_IFMT(info.st_mode)}\0".encode())
            if stat.S_ISLNK(info.st_mode):
                digest.update(os.readlink(path).encode())
            elif stat.S_ISREG(info.st_mode):
                digest.update(path.read_bytes())
    return digest.hexdigest()
