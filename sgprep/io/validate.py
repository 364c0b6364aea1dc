"""``sgprep validate DIR``: check shards against the schemas, the index and the stats."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

from pydantic import ValidationError

from sgprep.io.intake import VALID_KEY
from sgprep.io.readers.tars import split_member
from sgprep.schema import Detections, Negatives, SceneGraph, ShardStats

MEMBER_MODELS = {"sg.json": SceneGraph, "det.json": Detections, "neg.json": Negatives}


def validate_output(root: Path) -> tuple[list[str], int]:
    """Return (problems, number of shards checked)."""
    problems: list[str] = []
    stats_files = sorted(root.glob("[0-9]*_stats.json"))
    if not stats_files:
        problems.append(f"{root}: no finished shard (no NNNNN_stats.json)")
    if not (root / "_meta" / "run.json").exists():
        problems.append(f"{root}: _meta/run.json is missing")
    for stats_file in stats_files:
        name = stats_file.name.removesuffix("_stats.json")
        problems.extend(_validate_shard(root, name, stats_file))
    for tar in sorted(root.glob("[0-9]*.tar")):
        if not (root / f"{tar.stem}_stats.json").exists():
            problems.append(f"{tar.name}: shard has no stats file (unfinished)")
    return problems, len(stats_files)


def _validate_shard(root: Path, name: str, stats_file: Path) -> list[str]:
    import pyarrow.parquet as pq

    problems: list[str] = []
    try:
        stats = ShardStats.model_validate_json(stats_file.read_bytes())
    except (ValidationError, OSError) as exc:
        return [f"{stats_file.name}: invalid stats: {exc}"]
    try:
        rows = pq.read_table(root / f"{name}.parquet").to_pylist()
    except Exception as exc:
        return [f"{name}.parquet: unreadable: {exc}"]
    index = {}
    for row in rows:
        if row["key"] in index:
            problems.append(f"{name}.parquet: key {row['key']!r} appears twice")
        index[row["key"]] = row
    ok_keys = {k for k, r in index.items() if r["status"] == "ok"}
    failed = [r for r in rows if r["status"] == "failed"]
    for row in failed:
        if not (row["stage"] and row["reason"] and row["error"]):
            problems.append(f"{name}.parquet: failed row {row['key']!r} lacks stage/reason/error")
    if (stats.samples, stats.ok, stats.failed) != (len(rows), len(ok_keys), len(failed)):
        problems.append(f"{stats_file.name}: counts {stats.samples}/{stats.ok}/{stats.failed} "
                        f"disagree with the index {len(rows)}/{len(ok_keys)}/{len(failed)}")
    tar_keys, tar_problems = _scan_tar(root / f"{name}.tar", index)
    problems.extend(tar_problems)
    for key in sorted(ok_keys - tar_keys):
        problems.append(f"{name}.tar: ok sample {key!r} of the index is missing from the tar")
    for key in sorted(tar_keys - ok_keys):
        problems.append(f"{name}.tar: sample {key!r} is not an ok row of the index")
    return problems


def _scan_tar(path: Path, index: dict) -> tuple[set[str], list[str]]:
    keys: set[str] = set()
    problems: list[str] = []
    previous = None
    try:
        with tarfile.open(path, "r|") as tar:
            for info in tar:
                key, ext = split_member(info.name)
                where = f"{path.name}: {info.name}"
                if key != previous and key in keys:
                    problems.append(f"{where}: members of sample {key!r} are not adjacent")
                previous = key
                keys.add(key)
                if not VALID_KEY.match(key):
                    problems.append(f"{where}: key {key!r} is not a valid key (no dots or slashes)")
                data = tar.extractfile(info).read()
                if ext in MEMBER_MODELS:
                    try:
                        graph = MEMBER_MODELS[ext].model_validate_json(data)
                    except ValidationError as exc:
                        problems.append(f"{where}: does not match the {ext} schema: {exc}")
                        continue
                    column = ext.removesuffix(".json")
                    row = index.get(key)
                    if row is not None and row.get(column) is not None:
                        if json.loads(row[column]) != graph.model_dump(mode="json"):
                            problems.append(f"{where}: differs from the index column {column!r}")
                elif ext == "json":
                    try:
                        json.loads(data)
                    except ValueError as exc:
                        problems.append(f"{where}: not JSON: {exc}")
    except (tarfile.TarError, OSError, EOFError) as exc:
        problems.append(f"{path.name}: unreadable tar: {exc}")
    return keys, problems
