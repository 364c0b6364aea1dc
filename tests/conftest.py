"""Shared fixtures: real photographs from scikit-image, and a way to run the CLI."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from PIL import Image
from typer.testing import CliRunner

from sgprep.cli import app


def jpeg_bytes(image: Image.Image, quality: int = 90) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="JPEG", quality=quality)
    return buf.getvalue()


@pytest.fixture(scope="session")
def photos() -> dict[str, bytes]:
    """A few real photographs shipped inside scikit-image, as JPEG bytes."""
    from skimage import data

    return {name: jpeg_bytes(Image.fromarray(getattr(data, name)()))
            for name in ("astronaut", "coffee", "chelsea", "rocket")}


def run_cli(*args: str, ok: bool = True):
    result = CliRunner().invoke(app, [str(a) for a in args])
    if ok and result.exit_code != 0:
        raise AssertionError(f"sgprep {' '.join(map(str, args))} exited {result.exit_code}:\n"
                             f"{result.output}\n{result.exception!r}")
    return result


def index_rows(out: Path) -> list[dict]:
    rows = []
    for path in sorted(out.glob("[0-9]*.parquet")):
        rows.extend(pq.read_table(path).to_pylist())
    return rows


def by_reason(rows: list[dict]) -> dict[str, str]:
    """caption or key -> reason (None for ok rows)."""
    return {r["key"]: r["reason"] for r in rows}


def shard_stats(out: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(out.glob("[0-9]*_stats.json"))]
