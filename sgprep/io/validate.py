"""``sgprep validate OUTPUT``: find damage in a finished output, byte by byte where it can.

A shard output is checked against what the run itself recorded:
- ``_meta/plan.json`` lists the shards and how many input samples each covers: every planned
  shard must be finished (stats file present), none may be missing or extra, and each must hold
  its planned number of rows (a sample removed from tar, index and stats alike is found here);
- the stats file names its shard and records the tar's size and the index's SHA-256: a damaged,
  truncated, extended or swapped index is found before its rows are read;
- the stats' counts and failures are recomputed from the index; stage counters must be
  non-negative, and the parse stage's product counters (graphs per parser, entities, relations,
  attributes) must equal what the index's graphs hold;
- the index's ``members`` column holds each tar member's size and SHA-256: every tar member must
  be one the index lists with that checksum, every listed member must be in the tar, every tar
  header must be the one sgprep writes, padding and the end of the archive must be zeros and
  nothing may follow it;
- keys are unique over the whole output (a shard copied over another repeats its keys).
A JSON Lines output (``FILE.jsonl`` with ``FILE.run.json``) is checked line by line.
An output of an empty input (a plan with no shards) is valid.
"""

from __future__ import annotations

import json
import os
import re
import zlib
from collections import Counter
from pathlib import Path
from typing import Any, BinaryIO

from pydantic import ValidationError

from sgprep.io.intake import VALID_KEY
from sgprep.io.records import digest, member_digest
from sgprep.io.tar import BLOCK, ustar_header
from sgprep.schema import PRODUCTS, OutputDir, Record, ShardStats

MEMBER_MODELS = {p.member: p.model for p in PRODUCTS}
SHARD_FILE = re.compile(r"^(\d{5,})(\.tar|\.tar\.gz|\.parquet|_stats\.json)$")
DUP_KEY = re.compile(r"_dup(\d{9})$")
#: The parse stage's counters that the index's graphs determine.
GRAPH_COUNTERS = ("entities", "relations", "attributes")


def validate_output(root: Path) -> tuple[list[str], int]:
    """Return (problems, number of shards checked; records for a JSONL file)."""
    if root.is_file() or root.suffix.lower() == ".jsonl":
        return _validate_jsonl(root)
    from sgprep.exec.plan import Plan

    problems: list[str] = []
    layout = OutputDir(root)
    if not layout.is_output():
        problems.append(f"{root}: _meta/run.json is missing (not a finished sgprep output?)")
    try:
        plan = Plan.model_validate_json(layout.plan_file.read_bytes())
    except (OSError, ValueError) as exc:
        return problems + [
            f"{root}: _meta/plan.json is missing or unreadable, so the expected "
            f"shards are unknown: {exc}"
        ], 0
    planned = {f"{t.index:05d}": t for t in plan.tasks}
    if sum(t.count for t in plan.tasks) != plan.samples:
        problems.append("_meta/plan.json: its shards do not add up to its sample count")
    present = {m.group(1) for p in root.iterdir() if (m := SHARD_FILE.match(p.name))}
    for name in sorted(present - planned.keys()):
        problems.append(f"{name}: shard files that the plan does not list")
    keys: dict[str, str] = {}
    checked = 0
    for name, task in sorted(planned.items()):
        if not layout.stats_file(task.index).exists():
            what = "unfinished (no stats file)" if name in present else "missing"
            problems.append(f"{name}: planned shard is {what}")
            continue
        checked += 1
        problems.extend(_validate_shard(root, name, task, keys))
    return problems, checked


def check_finished(root: Path) -> tuple[list[str], int]:
    """The quick check that ``sgprep stats`` and ``filter`` make before reading an output:
    (problems, planned shards not finished yet). Every finished shard's stats must parse and
    its tar and index must be the files written (size; the index's checksum), so a damaged,
    truncated, emptied or missing file is named instead of read. Tar members are not read
    (``validate`` does that). A ``_meta`` that is a link raises LinkRefused."""
    from sgprep.exec.plan import Plan
    from sgprep.io.safefs import read_bytes, real_dir

    layout = OutputDir(root)
    real_dir(layout.meta)
    found = {m.group(1) for p in root.iterdir() if (m := SHARD_FILE.match(p.name))}
    try:
        plan = Plan.model_validate_json(read_bytes(layout.plan_file))
        planned = {f"{t.index:05d}" for t in plan.tasks}
    except (OSError, ValueError):  # made by hand, or lost: the finished shards are checked
        planned = found
    problems = [
        f"{m.group(0)}: a shard file that the plan does not list"
        for p in sorted(root.iterdir())
        if (m := SHARD_FILE.match(p.name)) and m.group(1) not in planned
    ]
    unfinished = 0
    for name in sorted(planned):
        stats_file = layout.stats_file(int(name))
        if not os.path.lexists(stats_file):
            unfinished += 1
            continue
        try:
            stats = ShardStats.model_validate_json(read_bytes(stats_file))
        except (ValidationError, OSError, ValueError) as exc:
            problems.append(f"{stats_file.name}: invalid stats: {_first_line(exc)}")
            continue
        problems.extend(_check_files(root, name, stats))
    return problems, unfinished


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _validate_shard(root: Path, name: str, task: Any, keys: dict[str, str]) -> list[str]:
    stats_file = OutputDir(root).stats_file(task.index)
    try:
        stats = ShardStats.model_validate_json(stats_file.read_bytes())
    except (ValidationError, OSError) as exc:
        return [f"{stats_file.name}: invalid stats: {exc}"]
    problems = _check_files(root, name, stats)
    if problems:  # the index is not the one written: nothing below can be trusted
        return problems
    import pyarrow.parquet as pq

    try:
        rows = pq.read_table(root / f"{name}.parquet").to_pylist()
    except Exception as exc:  # noqa: BLE001 - any reader error means a damaged index
        return [f"{name}.parquet: unreadable: {exc}"]
    if len(rows) != task.count:
        problems.append(
            f"{name}.parquet: {len(rows)} rows where the plan has {task.count} "
            f"input samples for this shard"
        )
    problems.extend(_check_keys(name, rows, task, keys))
    problems.extend(_check_stats(stats_file.name, stats, rows))
    index = {row["key"]: row for row in rows}
    problems.extend(_check_tar(root / OutputDir.tar_name(stats), index))
    return problems


def _check_files(root: Path, name: str, stats: ShardStats) -> list[str]:
    problems = []
    if stats.shard != name:
        problems.append(
            f"{name}_stats.json: names shard {stats.shard!r} (copied from another shard?)"
        )
    for file in sorted({OutputDir.tar_name(stats), f"{name}.parquet", *stats.files}):
        path, recorded = root / file, stats.files.get(file)
        if path.is_symlink():
            problems.append(f"{file}: a symbolic link, not the file sgprep wrote")
        elif not path.is_file():
            problems.append(f"{file}: missing")
        elif recorded is None:
            problems.append(
                f"{name}_stats.json: does not record {file} (an older sgprep "
                f"wrote it, or the stats were edited)"
            )
        elif path.stat().st_size != recorded.size:
            problems.append(
                f"{file}: {path.stat().st_size:,} bytes where {recorded.size:,} "
                f"were written (truncated, extended or replaced)"
            )
        elif recorded.sha256 is not None and digest(path.read_bytes()) != recorded.sha256:
            problems.append(f"{file}: checksum differs from the one written (damaged)")
    return problems


def _check_keys(name: str, rows: list[dict], task: Any, keys: dict[str, str]) -> list[str]:
    problems = []
    duplicates = set(task.duplicates)
    dup_rows = 0
    for row in rows:
        key = row["key"]
        if key in keys:
            problems.append(f"{name}.parquet: key {key!r} is also in shard {keys[key]}")
        keys[key] = name
        match = DUP_KEY.search(key)
        if match:
            dup_rows += 1
            if int(match.group(1)) not in duplicates:
                problems.append(
                    f"{name}.parquet: key {key!r} marks a duplicate at a position "
                    f"this shard's plan does not have"
                )
    if dup_rows != len(duplicates):
        problems.append(
            f"{name}.parquet: {dup_rows} duplicate-key rows where the plan has {len(duplicates)}"
        )
    return problems


def _check_stats(file: str, stats: ShardStats, rows: list[dict]) -> list[str]:
    problems = []
    ok = [r for r in rows if r["status"] == "ok"]
    failed = [r for r in rows if r["status"] != "ok"]
    for row in failed:
        if row["status"] != "failed" or not (row["stage"] and row["reason"] and row["error"]):
            problems.append(f"{file}: failed row {row['key']!r} lacks status/stage/reason/error")
    if (stats.samples, stats.ok, stats.failed) != (len(rows), len(ok), len(failed)):
        problems.append(
            f"{file}: samples/ok/failed {stats.samples}/{stats.ok}/{stats.failed} "
            f"disagree with the index {len(rows)}/{len(ok)}/{len(failed)}"
        )
    failures = Counter(f"{r['stage']}/{r['reason']}" for r in failed)
    if stats.failures != dict(failures):
        problems.append(
            f"{file}: failures {stats.failures} disagree with the index "
            f"{dict(sorted(failures.items()))}"
        )
    members = Counter(ext for r in ok if r.get("members") for ext in json.loads(r["members"]))
    if stats.members and stats.members != dict(members):
        problems.append(
            f"{file}: members {stats.members} disagree with the index "
            f"{dict(sorted(members.items()))}"
        )
    for stage, counters in stats.stages.items():
        negative = {k: v for k, v in counters.items() if v < 0}
        if negative:
            problems.append(f"{file}: stage {stage} has negative counters {negative}")
    if "parse" in stats.stages:
        expected = _graph_counters(ok)
        counted = {
            k: v
            for k, v in stats.stages["parse"].items()
            if k.startswith("graphs/") or k in GRAPH_COUNTERS
        }
        if counted != expected:
            problems.append(
                f"{file}: parse counters {counted} disagree with the graphs in the index {expected}"
            )
    return problems


def _graph_counters(ok_rows: list[dict]) -> dict[str, int]:
    """What the parse stage counts of its graphs (ParseStage.sample_stats), from the index."""
    out: Counter[str] = Counter()
    for row in ok_rows:
        if row["sg"] is None:
            continue
        graph = json.loads(row["sg"])
        out[f"graphs/{graph.get('parser')}"] += 1
        out["entities"] += len(graph.get("entities", []))
        out["relations"] += len(graph.get("relations", []))
        out["attributes"] += sum(len(e.get("attributes", [])) for e in graph.get("entities", []))
    return {k: v for k, v in out.items() if v}


def _check_tar(path: Path, index: dict[str, dict]) -> list[str]:
    """Read the tar block by block, as sgprep wrote it, checking every byte."""
    problems: list[str] = []
    expected = {
        k: json.loads(r["members"]) if r.get("members") else None
        for k, r in index.items()
        if r["status"] == "ok"
    }
    for key, members in expected.items():
        if members is None:
            problems.append(f"{path.name}: ok sample {key!r} has no member checksums in the index")
    seen: dict[str, set[str]] = {}
    try:
        _read_tar(path, index, expected, seen, problems)
    except (OSError, EOFError, zlib.error) as exc:  # a .tar.gz whose deflate data is damaged
        problems.append(f"{path.name}: damaged compressed data: {exc}")
    for key, members in expected.items():
        missing = sorted(set(members or ()) - seen.get(key, set()))
        if key not in seen:
            problems.append(f"{path.name}: ok sample {key!r} of the index is missing from the tar")
        elif missing:
            problems.append(f"{path.name}: sample {key!r} lacks member(s) {missing}")
    return problems


def _read_tar(
    path: Path,
    index: dict[str, dict],
    expected: dict[str, Any],
    seen: dict[str, set[str]],
    problems: list[str],
) -> None:
    previous = None
    with _open_tar(path) as fh:
        for name, data, problem in _members(fh):
            if problem:
                problems.append(f"{path.name}: {problem}")
                break
            key, _, ext = name.partition(".")
            where = f"{path.name}: {name}"
            if key != previous and key in seen:
                problems.append(f"{where}: members of sample {key!r} are not adjacent")
            previous = key
            seen.setdefault(key, set()).add(ext)
            if not VALID_KEY.match(key):
                problems.append(f"{where}: key {key!r} is not a valid key (no dots or slashes)")
            if key not in expected:
                problems.append(f"{where}: sample {key!r} is not an ok row of the index")
                continue
            listed = (expected[key] or {}).get(ext)
            if listed is None:
                problems.append(f"{where}: member not listed in the index (added?)")
                continue
            algorithms = [k for k in listed if k != "size"] if isinstance(listed, dict) else []
            if len(algorithms) != 1:
                problems.append(f"{where}: malformed checksum entry in the index: {listed!r}")
                continue
            algorithm = algorithms[0]
            actual = member_digest(algorithm, data)
            if actual is None:
                problems.append(
                    f"{where}: cannot compute its {algorithm} checksum here (pip install xxhash)"
                )
            elif listed.get("size") != len(data) or listed[algorithm] != actual:
                problems.append(
                    f"{where}: {len(data):,} bytes with a checksum that differs "
                    f"from the index (damaged)"
                )
            else:
                problems.extend(_check_content(where, ext, data, index[key]))


def _open_tar(path: Path) -> BinaryIO:
    """The tar's bytes; a ``.tar.gz`` decompressed (a damaged one fails as the tar would)."""
    if path.name.endswith(".gz"):
        import gzip

        return gzip.open(path, "rb")
    return open(path, "rb")


def _members(fh: BinaryIO):
    """(name, data, None) per member, then (None, None, problem) on the first damage. The
    archive must be exactly what :class:`~sgprep.io.tar.TarWriter` writes."""
    from sgprep.io.writers import FIXED_MTIME

    while True:
        header = fh.read(BLOCK)
        if len(header) < BLOCK:
            yield None, None, "ends without the end-of-archive marker (truncated)"
            return
        if header == bytes(BLOCK):
            break
        name = header[:100].split(b"\0", 1)[0].decode("ascii", "replace")
        try:
            size = int(header[124:136].split(b"\0", 1)[0] or b"0", 8)
        except ValueError:
            size = -1
        if size < 0 or header != ustar_header(name, size, FIXED_MTIME):
            yield None, None, f"damaged member header at byte {fh.tell() - BLOCK:,}"
            return
        data = fh.read(size)
        padding = fh.read(-size % BLOCK)
        if len(data) < size or len(padding) < -size % BLOCK:
            yield None, None, f"{name}: cut short (truncated)"
            return
        if padding.strip(b"\0"):
            yield None, None, f"{name}: damaged padding after the member"
            return
        yield name, data, None
    rest = fh.read()
    if rest.strip(b"\0") or (len(rest) + BLOCK) % BLOCK:
        yield None, None, "bytes after the end-of-archive marker (garbage appended?)"
    elif len(rest) < BLOCK:
        yield None, None, "end-of-archive marker cut short (truncated)"


def _check_content(where: str, ext: str, data: bytes, row: dict) -> list[str]:
    """Members whose checksum matched: still check them against the schemas and the index
    (a writer bug, not damage, would show here)."""
    if ext in MEMBER_MODELS:
        try:
            graph = MEMBER_MODELS[ext].model_validate_json(data)
        except ValidationError as exc:
            return [f"{where}: does not match the {ext} schema: {exc}"]
        column = ext.removesuffix(".json")
        if row.get(column) is not None and json.loads(row[column]) != graph.model_dump(mode="json"):
            return [f"{where}: differs from the index column {column!r}"]
    elif ext == "json":
        try:
            json.loads(data)
        except ValueError as exc:
            return [f"{where}: not JSON: {exc}"]
    return []


def _validate_jsonl(path: Path) -> tuple[list[str], int]:
    problems: list[str] = []
    run_file = path.with_name(path.stem + ".run.json")
    if not run_file.is_file():
        problems.append(f"{run_file.name} is missing (not a finished sgprep output?)")
    parts = path.with_name(path.name + ".parts")
    if parts.exists():
        problems.append(f"{parts.name} exists: the run that writes {path.name} is unfinished")
    keys: set[str] = set()
    count = 0
    try:
        with open(path, "rb") as fh:
            for number, line in enumerate(fh, 1):
                count += 1
                try:
                    record = Record.model_validate_json(line)
                except ValidationError as exc:
                    problems.append(
                        f"{path.name}:{number}: not a valid record: {exc.errors()[0]['msg']}"
                    )
                    continue
                if record.key in keys:
                    problems.append(f"{path.name}:{number}: key {record.key!r} appears twice")
                keys.add(record.key)
                if record.status == "failed" and not (
                    record.stage and record.reason and record.error
                ):
                    problems.append(f"{path.name}:{number}: failed record lacks stage/reason/error")
    except OSError as exc:
        problems.append(f"{path.name}: unreadable: {exc}")
    return problems, count
