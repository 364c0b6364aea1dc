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

    return {
        name: jpeg_bytes(Image.fromarray(getattr(data, name)()))
        for name in ("astronaut", "coffee", "chelsea", "rocket")
    }


def run_cli(*args: str, ok: bool = True):
    result = CliRunner().invoke(app, [str(a) for a in args])
    if ok and result.exit_code != 0:
        raise AssertionError(
            f"sgprep {' '.join(map(str, args))} exited {result.exit_code}:\n"
            f"{result.output}\n{result.exception!r}"
        )
    return result


def parse_captions(root: Path, captions: list[str], shard_size: int) -> Path:
    """``sgprep parse`` (the rule parser) of a one-column CSV of ``captions``; the output."""
    table = root / "captions.csv"
    table.write_text("caption\n" + "\n".join(captions) + "\n")
    out = root / "out"
    run_cli("parse", "--input", table, "--output", out, "--shard-size", shard_size, "--no-progress")
    return out


def read_samples(out: Path) -> list:
    """Every sample of ``out``'s tars, as the tar reader gives them, its index cache emptied
    first (a test that rewrote a shard must not be read from the cache)."""
    from sgprep.io.readers import tars

    tars._cached_index.cache_clear()
    return [s for tar in sorted(out.glob("*.tar")) for _, s in tars.records(tar)]


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


#: Tests that take more than ~15 s each on a loaded 2-core machine (pytest --durations), marked
#: slow here in one place so that `make test-fast` (-m "not slow") skips them; `make test` runs
#: them. A module that is slow as a whole says so itself (pytestmark).
SLOW_TESTS = {
    "tests/detect/test_detect.py::test_yolov9_from_its_yaml_runs_through_the_same_stage",
    "tests/detect/test_detect.py::test_output_bytes_do_not_depend_on_batching",
    "tests/detect/test_detect.py::test_torch_and_onnx_agree",
    "tests/detect/test_weights.py::test_nothing_lands_in_home_and_cached_onnx_needs_no_torch",
    "tests/detect/test_cli_chain.py::test_detect_command_writes_boxes",
    "tests/io/test_hostile.py::test_gzip_bomb_member_is_not_read",
    "tests/exec/test_core.py::test_any_number_of_workers_writes_the_same_bytes",
    "tests/test_examples.py::test_example_pipeline_runs_the_chain_and_goes_on_without_weights",
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid.split("[")[0] in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
