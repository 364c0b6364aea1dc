"""``sgprep stats`` and ``sgprep filter`` on a damaged output: one clear error and a non-zero
exit, never a traceback or a quiet exit 0 (issue 20, item 18)."""

from __future__ import annotations

import pytest
from stats_helpers import entity, graph, png_bytes, sample, write_dataset

from tests.conftest import run_cli


def _damage_stats(root):
    (root / "00001_stats.json").write_text('{"shard": "00001", "samples": "many"')


def _damage_index(root):
    data = bytearray((root / "00000.parquet").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (root / "00000.parquet").write_bytes(bytes(data))


def _truncate_tar(root):
    data = (root / "00001.tar").read_bytes()
    (root / "00001.tar").write_bytes(data[: len(data) // 2])


def _empty_tar(root):
    (root / "00000.tar").write_bytes(b"")


def _remove_tar(root):
    (root / "00001.tar").unlink()


@pytest.fixture
def dataset(tmp_path):
    png = png_bytes()
    shards = [
        [sample(f"{s}{i}", graph(entity("cat", "red"), entity("mat")), image=png) for i in range(3)]
        for s in "ab"
    ]
    return write_dataset(tmp_path / "out", shards)


@pytest.mark.parametrize(
    "damage", [_damage_stats, _damage_index, _truncate_tar, _empty_tar, _remove_tar]
)
@pytest.mark.parametrize("command", ["stats", "filter"])
def test_damaged_output_is_a_clear_error(dataset, tmp_path, damage, command):
    assert run_cli("stats", dataset, "--no-html").exit_code == 0  # sound before the damage
    damage(dataset)
    args = (
        ["filter", dataset, "-o", tmp_path / "view"] if command == "filter" else ["stats", dataset]
    )
    result = run_cli(*args, ok=False)
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "damaged" in result.output and "sgprep validate" in result.output
    assert not (tmp_path / "view").exists()


def test_unfinished_shards_are_said(dataset):
    (dataset / "_meta" / "plan.json").write_text(
        '{"input": "x", "format": "table", "shard_size": 3, "limit": null, "units": [],'
        ' "samples": 9, "tasks": [{"index": 0, "first": 0, "count": 3},'
        ' {"index": 1, "first": 3, "count": 3}, {"index": 2, "first": 6, "count": 3}]}'
    )
    result = run_cli("stats", dataset, "--no-html")
    assert "1 planned shard(s)" in " ".join(result.output.split())


def test_a_damaged_stats_parquet_is_computed_afresh_by_filter(dataset, tmp_path):
    run_cli("stats", dataset, "--no-html")
    (dataset / "_meta" / "stats.parquet").write_bytes(b"PAR1 not a parquet")
    run_cli("filter", dataset, "-o", tmp_path / "view", "--min-caption-objects", "2")
    assert (tmp_path / "view" / "index.parquet").is_file()
